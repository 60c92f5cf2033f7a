// The brand profile of a crawled site (spec 2 §2.3), assembled from the extractors. Without a refiner it
// is a pure function of the crawl and the logo's colours; with one, an LLM may improve industry,
// audience, tone and topics within the same rules.
import type { SiteCrawl } from '../crawl/site-crawl.ts';
import { loadVoiceCatalogue, type VoiceCatalogue } from '../../media/voice/voice-catalogue.ts';
import { detectAudience, detectTone } from './audience-and-tone.ts';
import { extractColors } from './brand-colors.ts';
import { brandFonts, extractFonts, type FontReport } from './brand-fonts.ts';
import type { BrandProfile } from './brand-profile.ts';
import type { BrandTextRefiner } from './brand-text-refiner.ts';
import { rankIndustries, type IndustryScore } from './classify-industry.ts';
import { extractName, extractTagline } from './identity.ts';
import { FALLBACK_INDUSTRY_ID, INDUSTRIES, industryById, relatedIndustries } from './industries.ts';
import { mergeRefinement } from './refinement.ts';
import { siteText, weightedDocument, type SiteText } from './site-text.ts';
import { topicPool } from './topic-pool.ts';
import { TONES } from './tones.ts';
import { styleAdvice } from './video-styles.ts';
import { recommendVoice } from './voice-recommendation.ts';

export interface ProfileOptions {
  /** The normalized logo's colours, dominant first (#RRGGBB); they weigh in the palette. */
  logoColors: string[];
  /** The cached logo's URL (the profile's logo_url). */
  logoUrl: string | null;
  refiner?: BrandTextRefiner;
  signal?: AbortSignal;
  /** The voice catalogue to recommend from; the service's local voice catalogue by default. */
  voices?: VoiceCatalogue;
}

/** How the profile was reached, for the analysis record and the kit's crawl report. */
export interface ProfileReport {
  language: string;
  /** The best industry matches of the local analyzer (at most five). */
  industryScores: IndustryScore[];
  fonts: FontReport;
  /** Topics taken from the site (or the refiner); the rest of the pool is industry topic seeds. */
  topicsFromSite: number;
  refined: boolean;
}

/** A runner-up industry whose score is at least this share of the winner's may lend its topic seeds. */
const RUNNER_UP_SHARE = 0.5;
/** The refiner reads at most this much of the site's text. */
const MAX_EXCERPT_CHARS = 12_000;

function excerptOf(text: SiteText): string {
  const lines = [
    text.title,
    text.description,
    ...text.headings.map((h) => `${'#'.repeat(h.level)} ${h.text}`),
    ...text.blogTitles.map((t) => `Blog post: ${t}`),
    ...text.paragraphs,
  ].filter(Boolean);
  let out = '';
  for (const line of lines) {
    if (out.length + line.length + 1 > MAX_EXCERPT_CHARS) break;
    out += `${line}\n`;
  }
  return out.trim();
}

/** Industries whose topic seeds may fill the pool, nearest first. */
function fillOrder(industryId: string, scores: readonly IndustryScore[]): string[] {
  const top = scores.find((s) => s.id === industryId)?.score ?? 0;
  const runnersUp = scores
    .filter((s) => s.id !== industryId && s.score >= top * RUNNER_UP_SHARE)
    .map((s) => s.id);
  return [...new Set([industryId, ...runnersUp, ...relatedIndustries(industryId).map((i) => i.id)])];
}

/** The profile and how it was reached. */
export async function analyzeProfile(
  crawl: SiteCrawl,
  options: ProfileOptions,
): Promise<{ profile: BrandProfile; report: ProfileReport }> {
  const { signal } = options;
  signal?.throwIfAborted();
  const name = extractName(crawl);
  const tagline = extractTagline(crawl, name);
  const colors = extractColors(crawl, options.logoColors);
  const fontReport = extractFonts(crawl);
  signal?.throwIfAborted();

  const text = siteText(crawl);
  const document = weightedDocument(text);
  const scores = rankIndustries(document);
  let industryId = scores[0]?.id ?? FALLBACK_INDUSTRY_ID;
  const industry = industryById(industryId)!;
  let audience: string[] = detectAudience(document, industry);
  let tone = detectTone(document, industry);
  let pool = topicPool(text, name, fillOrder(industryId, scores));
  signal?.throwIfAborted();

  if (options.refiner) {
    const refined = await options.refiner.refine(
      {
        name,
        url: crawl.homeUrl,
        tagline,
        language: text.language,
        excerpt: excerptOf(text),
        industries: INDUSTRIES.map(({ id, label }) => ({ id, label })),
        tones: TONES,
        draft: { industry: industryId, audience, tone, topic_pool: pool.topics },
      },
      signal,
    );
    const merged = mergeRefinement(refined, { industry: industryId, audience, tone });
    industryId = merged.industry;
    audience = merged.audience;
    tone = merged.tone;
    pool = topicPool(text, name, fillOrder(industryId, scores), merged.topics);
  }

  const voice = recommendVoice(options.voices ?? loadVoiceCatalogue(), text.language, tone);
  const styles = styleAdvice(tone);
  const profile: BrandProfile = {
    name,
    url: crawl.homeUrl,
    tagline,
    industry: industryId,
    audience,
    tone,
    voice,
    topic_pool: pool.topics,
    colors,
    fonts: brandFonts(fontReport),
    video_styles: styles.video_styles,
    anti_styles: styles.anti_styles,
    logo_url: options.logoUrl,
  };
  return {
    profile,
    report: {
      language: text.language,
      industryScores: scores.slice(0, 5),
      fonts: fontReport,
      topicsFromSite: pool.fromSite,
      refined: options.refiner !== undefined,
    },
  };
}

/** The brand profile of a crawled site (spec 2 §2.3); deterministic without a refiner. */
export async function extractProfile(crawl: SiteCrawl, options: ProfileOptions): Promise<BrandProfile> {
  return (await analyzeProfile(crawl, options)).profile;
}
