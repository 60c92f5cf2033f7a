import type { ValidationServices } from '../../platform/modes/mode.ts';
import { unmatchedSentences, type UnmatchedSentence } from '../../media/footage/match-score.ts';
import { seedFootageRecipes } from '../../media/footage/procedural.ts';
import { eligibleClips } from '../../media/footage/select.ts';
import { providerQueries } from '../../media/library/provider-footage.ts';
import type { StockLibrary } from '../../media/library/stock-library.ts';
import { splitSentences } from '../../media/script/sentences.ts';

// A narrated sentence no library clip shares a word with gets niche footage and a low score (docs/footage.md).
// A dry run with a sent script names such sentences before anything is charged, and a render names them in
// artifacts.footage.warnings; both say what would fix it: clips uploaded with the sentence's words as tags, or
// the footage provider (PEXELS_API_KEY), which renders ask for the sentences' words.

const UPLOAD_ROUTE = 'POST /api/stock-clips/direct-upload';
const QUOTE_CHARS = 80;

function quoted(sentence: string): string {
  const text = sentence.trim();
  return `"${text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS - 1).trimEnd()}…` : text}"`;
}

function uploadFix(gap: UnmatchedSentence): string {
  const tags = gap.words.slice(0, 3);
  return `upload clips tagged ${tags.map((t) => `"${t}"`).join(', ')} via ${UPLOAD_ROUTE}?tags=${tags.join(',')} (an operator account; docs/stock-clips.md)`;
}

/** How a render reaches the footage provider, as far as the warnings need to know. */
export type ProviderReach =
  | { configured: false }
  /** `queries`: what the render asks the provider (providerQueries of its sentences and footage keywords). */
  | { configured: true; queries: string[] };

/** The warning a dry run gives for a sentence no clip of the library can match. */
export function dryRunGapWarning(gap: UnmatchedSentence, provider: ProviderReach): string {
  const head = `Sentence ${gap.index + 1} (${quoted(gap.sentence)}) shares no word with any clip in the footage library`;
  if (!provider.configured)
    return `${head}, so it will get niche footage with a low match score. To fix: ${uploadFix(gap)}, or set PEXELS_API_KEY so renders search Pexels for its words.`;
  const query = providerQueries([gap.sentence], [])[0];
  if (query !== undefined && provider.queries.includes(query))
    return `${head} yet; the render asks Pexels for "${query}" and uses what it finds. If Pexels has nothing, ${uploadFix(gap)}.`;
  return `${head}, and a render asks Pexels only ${provider.queries.length} searches, none for it, so it will get niche footage with a low match score. To fix: ${uploadFix(gap)}, or put its words in footage_keywords (searched first).`;
}

/** The warning a render gives for a sentence no clip it could choose from matched (the provider already asked). */
export function renderGapWarning(gap: UnmatchedSentence, providerConfigured: boolean): string {
  const head = `Sentence ${gap.index + 1} (${quoted(gap.sentence)}) shared no word with any clip${providerConfigured ? ', Pexels clips included,' : ''} and got niche footage with a low match score`;
  return providerConfigured
    ? `${head}. To fix: ${uploadFix(gap)}.`
    : `${head}. To fix: ${uploadFix(gap)}, or set PEXELS_API_KEY so renders search Pexels for its words.`;
}

/** The fields of a validated stock-family request the dry-run check reads. */
export interface FootageMatchFields {
  /** The narration when it is known before the render (a sent script, an article's text); else undefined. */
  script: string | undefined;
  language: string;
  assetUrls: readonly string[];
  footageKeywords: readonly string[];
  excludeKeywords: readonly string[];
}

/**
 * The dry-run warnings for a request: one per sentence of its script that no eligible clip shares a word with.
 * The library is the clips ready now plus the built-in generated catalogue (made on first need); nothing is
 * rendered or fetched. Without a script (a topic: the script is written at render time) or with asset_urls
 * (the caller's own footage, not matched) there is nothing to check.
 */
export async function dryRunFootageWarnings(
  fields: FootageMatchFields,
  library: Pick<StockLibrary, 'readyClips'>,
  pexelsConfigured: boolean,
): Promise<string[]> {
  if (!fields.script || fields.assetUrls.length > 0) return [];
  const sentences = splitSentences(fields.script, fields.language);
  const ready = await library.readyClips();
  const readyIds = new Set(ready.map((c) => c.id));
  const clips = [...ready, ...seedFootageRecipes().filter((r) => !readyIds.has(r.id))];
  const { eligible } = eligibleClips(clips, fields.excludeKeywords);
  const provider: ProviderReach = pexelsConfigured
    ? { configured: true, queries: providerQueries(sentences, fields.footageKeywords) }
    : { configured: false };
  return unmatchedSentences(sentences, eligible).map((gap) => dryRunGapWarning(gap, provider));
}

// A mode's estimate is synchronous and sees only the request, while the library is read when the request is
// validated; the warnings found then are kept here, keyed by the validated request the dry run estimates.
const pending = new WeakMap<object, string[]>();

/** In a dry run, checks the request's script against the library and keeps the warnings for its estimate. */
export async function withFootageMatchCheck<R extends object>(
  validated: R,
  fields: FootageMatchFields,
  services: Pick<ValidationServices, 'dryRun' | 'config'>,
  library: Pick<StockLibrary, 'readyClips'>,
): Promise<R> {
  if (services.dryRun)
    pending.set(
      validated,
      await dryRunFootageWarnings(fields, library, services.config.pexels !== undefined),
    );
  return validated;
}

/** The footage-match warnings found while the request was validated for a dry run (none otherwise). */
export function footageMatchWarnings(request: object): string[] {
  return pending.get(request) ?? [];
}
