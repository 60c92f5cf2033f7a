// What a saved brand kit's private profile (spec 2 §2.4) tells the script writers: who the video is for, what
// is sold, how it sounds, which facts it may state, what it never mentions, and how it ends. The modes build it
// from the selected kit, refuse a brief that names a banned topic before charging, and pass it to the writer.
import type { KitProfile, KitTone } from '../../brand/kits/kit-input.ts';
import { BannedTopics, bannedTopicError } from './banned-topics.ts';
import type { ContentStyle } from './writer.ts';

export interface ProofPoint {
  claim: string;
  sourceUrl?: string;
}

export interface ScriptBrandContext {
  offer?: string;
  industry?: string;
  /** The ideal customer: who watches, and what troubles them. */
  icp?: { roles: string[]; pains: string[]; companySize?: string; regions: string[] };
  tone?: KitTone;
  /** The only facts with figures a generated script may state; with none, it states no figures at all. */
  proofPoints: ProofPoint[];
  bannedTopics: string[];
  /** Said verbatim as the last line of a generated script unless the request sends its own cta. */
  cta?: { text: string; url?: string };
  /** Language codes; the first is the default script language. */
  languages: string[];
  topicPool: string[];
}

function texts(list: readonly string[] | null | undefined): string[] {
  return (list ?? []).map((s) => s.trim()).filter(Boolean);
}

/**
 * The writer's context for a selected kit's profile (as kit-input.ts validates it). A kit is always a context,
 * even with an empty profile: a video made under a brand states only the brand's proof points, so a kit
 * without any states no figures.
 */
export function scriptBrandContext(profile: KitProfile | null | undefined): ScriptBrandContext {
  const p = profile ?? {};
  const roles = texts(p.icp?.roles);
  const pains = texts(p.icp?.pains);
  const ctaText = p.cta?.text.trim();
  return {
    offer: p.offer?.trim() || undefined,
    industry: p.industry?.trim() || undefined,
    icp:
      roles.length > 0 || pains.length > 0
        ? {
            roles,
            pains,
            companySize: p.icp?.company_size?.trim() || undefined,
            regions: texts(p.icp?.regions),
          }
        : undefined,
    tone: p.tone,
    proofPoints: (p.proof_points ?? [])
      .filter((pp) => pp.claim.trim() !== '')
      .map((pp) => ({ claim: pp.claim.trim(), sourceUrl: pp.source_url })),
    bannedTopics: texts(p.banned_topics),
    cta: ctaText ? { text: ctaText, url: p.cta?.url } : undefined,
    languages: texts(p.languages),
    topicPool: texts(p.topic_pool),
  };
}

/** How each kit tone is delivered by the local writer's styles. */
const TONE_STYLE: Readonly<Record<KitTone, ContentStyle>> = {
  authoritative: 'professional',
  friendly: 'calm',
  provocative: 'energetic',
  technical: 'educational',
  playful: 'entertaining',
};

/** What each tone means, said to the LLM writer. */
export const TONE_GUIDANCE: Readonly<Record<KitTone, string>> = {
  authoritative: 'confident and expert; plain declarative sentences; no hype',
  friendly: 'warm and conversational; speak to the viewer as "you"; unhurried',
  provocative: 'challenge a common assumption head-on; short, punchy sentences',
  technical: 'precise and concrete; name mechanisms and terms the audience uses',
  playful: 'light and witty; a little humour; never at the viewer’s expense',
};

export function styleForTone(tone: KitTone | undefined): ContentStyle | undefined {
  return tone ? TONE_STYLE[tone] : undefined;
}

/** The script language: the request's, else the kit's first language, else none (the mode's default). */
export function scriptLanguage(
  requested: string | undefined,
  context: ScriptBrandContext | undefined,
): string | undefined {
  return requested || context?.languages[0];
}

/** The generated script's last line: the request's cta wins over the kit's. */
export function scriptCta(
  requested: string | undefined,
  context: ScriptBrandContext | undefined,
): string | undefined {
  return requested?.trim() || context?.cta?.text || undefined;
}

/**
 * Refuses, before anything is charged, a brief that names one of the kit's banned topics: 422
 * BRAND_TOPIC_BANNED naming the field and the topic. `fields` maps request field names to their text.
 */
export function refuseBannedBrief(
  context: ScriptBrandContext | undefined,
  fields: Readonly<Record<string, string | undefined>>,
): void {
  if (!context || context.bannedTopics.length === 0) return;
  const banned = new BannedTopics(context.bannedTopics);
  for (const [field, text] of Object.entries(fields)) {
    const hit = text ? banned.find(text) : undefined;
    if (hit) throw bannedTopicError(field, hit);
  }
}
