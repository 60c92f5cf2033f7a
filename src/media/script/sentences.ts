// Splits narration into sentences, the unit scenes are cut on, with the Unicode sentence rules (Intl.Segmenter,
// ICU) in the text's language: decimals, "e.g. a", "etc. Then", closing quotes and CJK full stops come out
// right. ICU breaks after every "Dr. " and initial, and at a "?" inside a web address; those breaks are joined
// back. ICU does not end a sentence at an ellipsis, which narration does before a capital ("Wait… Then"), so an
// ellipsis is read as a full stop. A line break always ends a sentence.

/** Abbreviations that never end a sentence: they introduce what follows. */
const NEVER_FINAL = new Set([
  'mr.',
  'mrs.',
  'ms.',
  'dr.',
  'prof.',
  'st.',
  'sr.',
  'jr.',
  'vs.',
  'e.g.',
  'i.e.',
  'cf.',
  'approx.',
  'fig.',
  'mt.',
  'no.',
  'vol.',
  'ft.',
  'gen.',
  'sen.',
  'rep.',
  'gov.',
  'capt.',
  'lt.',
  'sgt.',
]);

/** One segmenter per language: sentence rules differ by language, not by region or script. */
const segmenters = new Map<string, Intl.Segmenter>();

function segmenterFor(language: string | undefined): Intl.Segmenter {
  const primary = language?.split(/[-_]/)[0]?.toLowerCase() ?? '';
  const key = /^[a-z]{2,3}$/.test(primary) ? primary : '';
  let segmenter = segmenters.get(key);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(key || undefined, { granularity: 'sentence' });
    segmenters.set(key, segmenter);
  }
  return segmenter;
}

/** Whether ICU's break after `piece` falls inside a sentence: inside a token, or after a title or an initial. */
function continues(piece: string): boolean {
  if (!/\s$/.test(piece)) return /[.!?]["'\u201d\u2019)\]]*$/.test(piece);
  const lastWord = (/\S+$/.exec(piece.trimEnd())?.[0] ?? '').replace(/^["'(\u201c\u2018[]+/, '');
  return NEVER_FINAL.has(lastWord.toLowerCase()) || /^\p{Lu}\.$/u.test(lastWord);
}

function splitLine(line: string, segmenter: Intl.Segmenter): string[] {
  const sentences: string[] = [];
  let pending = '';
  // One UTF-16 unit for another, so the segments' offsets are the line's.
  for (const { index, segment } of segmenter.segment(line.replace(/\u2026/g, '.'))) {
    pending += line.slice(index, index + segment.length);
    if (continues(pending)) continue;
    sentences.push(pending.trim());
    pending = '';
  }
  if (pending.trim()) sentences.push(pending.trim());
  return sentences.filter(Boolean);
}

/** Sentences of a script in order, with their punctuation; blank lines are dropped. */
export function splitSentences(script: string, language?: string): string[] {
  const segmenter = segmenterFor(language);
  return script.split(/\r?\n/).flatMap((line) => splitLine(line.trim(), segmenter));
}
