// What the content check needs from a moderation provider: one text or one image in, the categories it
// flagged out. src/providers/openai-moderation.ts speaks OpenAI's /v1/moderations; failures are ProviderError
// (src/providers/openai-llm.ts) with a retry hint.

export type ModerationInput =
  | { kind: 'text'; text: string }
  /** An https URL or a base64 `data:image/…` URL. */
  | { kind: 'image'; url: string };

export interface ModerationResult {
  /** The provider's own verdict: some category crossed its threshold. */
  flagged: boolean;
  /** The categories the provider flagged, in its own names ("sexual", "violence/graphic"). */
  categories: string[];
  /** Every category's score, 0 to 1. */
  scores: Record<string, number>;
  /** The model that judged, as the provider reports it. */
  model: string;
}

export interface ModerationClient {
  /** Names the provider in logs and messages. */
  readonly name: string;
  moderate(input: ModerationInput, options?: { signal?: AbortSignal }): Promise<ModerationResult>;
}
