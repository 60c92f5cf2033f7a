// The hook writer that needs nothing but this machine: every template of hook-templates.ts that the topic's
// frame can fill, each a candidate for the one scoring model to rank.
import { fillTemplate } from '../../media/script/template.ts';
import type { HookCandidate } from './hook-formats.ts';
import { ACTION_TEMPLATES, SUBJECT_TEMPLATES, WHOLE_TOPIC_TEMPLATES } from './hook-templates.ts';
import type { TopicFrame } from './topic-frame.ts';

export function localHookCandidates(frame: TopicFrame): HookCandidate[] {
  const templates = [
    ...(frame.kind === 'action' ? ACTION_TEMPLATES : SUBJECT_TEMPLATES),
    ...WHOLE_TOPIC_TEMPLATES,
  ];
  const slots = {
    [frame.kind]: frame.keyPhrase,
    question: frame.question,
    claim: frame.claim,
  };
  return templates.flatMap((template) => {
    const text = fillTemplate(template.text, slots);
    return text === undefined ? [] : [{ text, format: template.format }];
  });
}
