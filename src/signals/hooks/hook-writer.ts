// What an LLM-backed hook writer is given and must answer (src/providers/openai-hook-writer.ts implements it).
import type { HookCandidate } from './hook-formats.ts';
import type { HookPlatform, LengthProfile } from './hook-platforms.ts';

export interface HookWriterInput {
  topic: string;
  /** The phrase the local reading of the topic found; the writer is asked to name it. */
  keyPhrase: string;
  platform: HookPlatform;
  length: LengthProfile;
  /** How many candidates to write: more than the caller asked for, so the scoring has a choice. */
  count: number;
}

export interface HookWriter {
  /** Names the engine in the answer's meta, e.g. "llm:gpt-4o-mini". */
  readonly name: string;
  /** Candidates in any order; failures are thrown (ProviderError), never answered with made-up hooks. */
  propose(input: HookWriterInput, signal?: AbortSignal): Promise<HookCandidate[]>;
}
