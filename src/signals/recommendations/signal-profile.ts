// What recommendations read from a brand, in one shape whichever way the brand was made: an analysed
// profile (POST /brand/analyze, spec 2 §2.3) or a saved kit's private profile (POST /b2b/brands, §2.4).
import type { BrandKit } from '../../brand/kits/brand-kit.ts';
import { rankIndustries } from '../../brand/profile/classify-industry.ts';
import type { BrandProfile } from '../../brand/profile/brand-profile.ts';
import { industryById, type Industry } from '../../brand/profile/industries.ts';

export interface SignalProfile {
  brandId: string;
  source: 'analysis' | 'kit';
  name: string;
  /** The canonical industry row (keywords, topic seeds, trend category); undefined when none can be told. */
  industry: Industry | undefined;
  /** Who the brand speaks to: an analysis's audience segments; a kit's ICP roles and pains. */
  audience: string[];
  /** A kit's offer: what it sells, in its own words. */
  offer: string | undefined;
  tone: string[];
  topicPool: string[];
  /** 'industry' when a kit has no topic_pool of its own and its industry's topic seeds stand in. */
  poolSource: 'profile' | 'industry';
  /** Topics the brand never wants to be associated with (a kit's banned_topics). */
  bannedTopics: string[];
}

export function profileOfAnalysis(brandId: string, profile: BrandProfile): SignalProfile {
  return {
    brandId,
    source: 'analysis',
    name: profile.name,
    industry: industryById(profile.industry),
    audience: profile.audience,
    offer: undefined,
    tone: profile.tone,
    topicPool: profile.topic_pool,
    poolSource: 'profile',
    bannedTopics: [],
  };
}

/**
 * A kit's industry is free text (1-80 characters): a canonical id as the site crawl writes it, or the
 * caller's own words, read with the brand module's industry classifier.
 */
function kitIndustry(text: string | undefined): Industry | undefined {
  if (text === undefined) return undefined;
  const id = industryById(text.trim()) ? text.trim() : rankIndustries(text)[0]?.id;
  return id === undefined ? undefined : industryById(id);
}

export function profileOfKit(kit: BrandKit): SignalProfile {
  const { profile } = kit;
  const industry = kitIndustry(profile.industry);
  const ownPool = profile.topic_pool ?? [];
  return {
    brandId: kit.brand_id,
    source: 'kit',
    name: kit.name,
    industry,
    audience: [...(profile.icp?.roles ?? []), ...(profile.icp?.pains ?? [])],
    offer: profile.offer,
    tone: profile.tone ? [profile.tone] : [],
    topicPool: ownPool.length > 0 ? ownPool : [...(industry?.topicSeeds ?? [])],
    poolSource: ownPool.length > 0 ? 'profile' : 'industry',
    bannedTopics: profile.banned_topics ?? [],
  };
}
