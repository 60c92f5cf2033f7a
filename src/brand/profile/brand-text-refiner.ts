// The contract of an optional text refiner (an LLM, src/providers/openai-brand-refiner.ts): given what the
// local analyzer read and concluded, it returns a better industry, audience, tone and topics. The profile
// keeps only what passes the same rules as the local result (refinement.ts).
import type { Industry } from './industries.ts';
import type { Tone } from './tones.ts';

export interface BrandTextInput {
  name: string;
  url: string;
  tagline: string;
  /** BCP 47 tag of the site's language. */
  language: string;
  /** Headings, blog titles and body text of the crawled pages, bounded in length. */
  excerpt: string;
  /** Every industry the answer may name. */
  industries: readonly Pick<Industry, 'id' | 'label'>[];
  /** Every tone the answer may name. */
  tones: readonly Tone[];
  /** The local analyzer's result, as a starting point. */
  draft: BrandTextRefinement;
}

export interface BrandTextRefinement {
  industry: string;
  audience: string[];
  tone: string[];
  topic_pool: string[];
}

export interface BrandTextRefiner {
  /** Throws on a provider failure (with a retry hint, as ProviderError does); never returns a partial answer. */
  refine(input: BrandTextInput, signal?: AbortSignal): Promise<BrandTextRefinement>;
}
