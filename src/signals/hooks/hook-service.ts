// POST /hooks/generate's work: read the topic, get candidates (from the LLM when one is configured, else from
// the local generator), keep only honest ones, and rank them with the one scoring model.
// The LLM failing is not the caller's problem: the local generator answers instead, and meta.warnings says so.
// LLM hooks that state a figure the topic does not hold (a percentage, a price, a year, a count above 10)
// are left out, as are hooks longer than the platform shows; a shortfall is filled by the local generator.
import { findFigures, type Figure } from '../../media/script/figures.ts';
import { ProviderError } from '../../providers/openai-llm.ts';
import type { HookCandidate, ScoredHook } from './hook-formats.ts';
import { LENGTH_PROFILES } from './hook-platforms.ts';
import type { HookRequest } from './hook-request.ts';
import type { HookWriter } from './hook-writer.ts';
import { localHookCandidates } from './local-hook-generator.ts';
import { rankHooks } from './rank-hooks.ts';
import { frameTopic } from './topic-frame.ts';

/** The LLM is asked for this many more candidates than the request's count, so the scoring has a choice. */
export const EXTRA_LLM_CANDIDATES = 4;
/** Counts up to this are the structure of a hook ("3 steps"), not a statistic. */
const STRUCTURAL_COUNT_MAX = 10;

export const LOCAL_GENERATOR = 'local';

export interface HookResult {
  keyPhrase: string;
  hooks: ScoredHook[];
  /** "local", the LLM writer's name, or both joined by "+" when the local generator filled a shortfall. */
  generator: string;
  warnings: string[];
}

/** Whether a hook states a figure that the topic does not: only structural counts are the writer's own. */
export function statesNewFigure(text: string, topicFigures: readonly Figure[]): boolean {
  return findFigures(text).some((figure) => {
    if (figure.kind === 'count' && figure.values.every((v) => v <= STRUCTURAL_COUNT_MAX)) return false;
    return !topicFigures.some(
      (known) => known.kind === figure.kind && known.values.some((v) => figure.values.includes(v)),
    );
  });
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export class HookService {
  constructor(private readonly writer: HookWriter | undefined) {}

  async generate(request: HookRequest, signal?: AbortSignal): Promise<HookResult> {
    const { topic, count, platform } = request;
    const frame = frameTopic(topic);
    const keyPhrase = frame.keyPhrase;
    const rank = (candidates: readonly HookCandidate[], chosen?: readonly ScoredHook[]) =>
      rankHooks(candidates, { count, platform, keyPhrase, topic, chosen });
    const local = (): HookResult => ({
      keyPhrase,
      hooks: rank(localHookCandidates(frame)),
      generator: LOCAL_GENERATOR,
      warnings: [],
    });
    if (!this.writer) return local();

    const length = LENGTH_PROFILES[platform];
    let proposed: HookCandidate[];
    try {
      proposed = await this.writer.propose(
        { topic, keyPhrase, platform, length, count: count + EXTRA_LLM_CANDIDATES },
        signal,
      );
    } catch (error) {
      if (signal?.aborted) throw error;
      const why = error instanceof ProviderError ? error.code : 'error';
      const fallback = local();
      fallback.warnings.push(
        `The LLM could not write hooks (${why}); the local generator wrote these instead.`,
      );
      return fallback;
    }

    const warnings: string[] = [];
    const topicFigures = findFigures(topic);
    const withFigures = proposed.filter((h) => statesNewFigure(h.text, topicFigures));
    const tooLong = proposed.filter((h) => h.text.length > length.maxChars && !withFigures.includes(h));
    if (withFigures.length > 0)
      warnings.push(
        `${plural(withFigures.length, 'LLM hook was', 'LLM hooks were')} left out for stating figures the topic does not contain.`,
      );
    if (tooLong.length > 0)
      warnings.push(
        `${plural(tooLong.length, 'LLM hook was', 'LLM hooks were')} left out for running past the ${length.maxChars} characters ${platform} shows.`,
      );
    const usable = proposed.filter((h) => !withFigures.includes(h) && !tooLong.includes(h));
    const fromLlm = rank(usable);
    if (fromLlm.length >= count) return { keyPhrase, hooks: fromLlm, generator: this.writer.name, warnings };

    const hooks = rank(localHookCandidates(frame), fromLlm);
    warnings.push(
      `The LLM wrote ${plural(fromLlm.length, 'usable hook', 'usable hooks')} of ${count}; the local generator wrote the other ${hooks.length - fromLlm.length}.`,
    );
    return { keyPhrase, hooks, generator: `${this.writer.name}+${LOCAL_GENERATOR}`, warnings };
  }
}
