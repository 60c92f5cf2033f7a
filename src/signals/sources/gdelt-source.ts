// GDELT's keyless DOC 2.0 API: GET {base}/api/v2/doc/doc?query=…&mode=ArtList&format=json&timespan=…
// lists news articles GDELT saw in the window, each with its publisher's domain, so the radar can count how
// many distinct publishers in the query's country carry a story (news density). The country is GDELT's
// `sourcecountry:` operator, which takes FIPS 10-4 codes (the UK is "UK", Germany "GM"); a category adds an
// OR-list of its keywords. GDELT reports problems (rate limit, bad query) as a 200 answer in plain text.
import { z } from 'zod';
import { linkDomain } from './link-domain.ts';
import { SourceError } from './source-error.ts';
import {
  isOk,
  parseJsonBody,
  sourceRequest,
  statusError,
  trimBase,
  type SourceGuard,
} from './source-http.ts';
import type { SourceItem, SourceQuery, TrendCategory, TrendSource } from './source-item.ts';

export const GDELT_BASE_URL = 'https://api.gdeltproject.org';
export const GDELT_MAX_RECORDS = 75;

/** ISO 3166-1 alpha-2 → FIPS 10-4, for the countries the radar asks GDELT about. */
export const GDELT_COUNTRIES: Readonly<Record<string, string>> = {
  US: 'US', GB: 'UK', CA: 'CA', AU: 'AS', IN: 'IN', IE: 'EI', NZ: 'NZ', ZA: 'SF', NG: 'NI', KE: 'KE',
  SG: 'SN', PH: 'RP', MY: 'MY', DE: 'GM', FR: 'FR', ES: 'SP', IT: 'IT', NL: 'NL', SE: 'SW', PL: 'PL',
  BR: 'BR', MX: 'MX', AR: 'AR', JP: 'JA', KR: 'KS', TR: 'TU', AT: 'AU', CH: 'SZ', BE: 'BE', PT: 'PO',
  DK: 'DA', NO: 'NO', FI: 'FI', GR: 'GR', CZ: 'EZ', HU: 'HU', RO: 'RO', UA: 'UP', IL: 'IS', AE: 'AE',
  SA: 'SA', EG: 'EG', PK: 'PK', BD: 'BG', ID: 'ID', TH: 'TH', VN: 'VM', HK: 'HK', TW: 'TW', CO: 'CO',
  CL: 'CI', PE: 'PE',
}; // prettier-ignore

/** Keywords per category, OR-ed into the query (GDELT refuses words shorter than three letters). */
export const GDELT_CATEGORY_KEYWORDS: Record<TrendCategory, readonly string[]> = {
  tech: ['technology', 'software', 'smartphone', 'cybersecurity', '"artificial intelligence"'],
  business: ['economy', 'stocks', 'earnings', '"interest rates"', 'company'],
  entertainment: ['film', 'music', 'celebrity', 'television', 'streaming'],
  sports: ['football', 'basketball', 'soccer', 'tennis', 'championship'],
  health: ['health', 'hospital', 'disease', 'vaccine', 'medical'],
  politics: ['election', 'government', 'parliament', 'congress', 'president'],
  science: ['science', 'research', 'scientists', 'space', 'climate'],
};

const artListSchema = z.object({
  articles: z
    .array(
      z.object({
        url: z.string(),
        title: z.string(),
        seendate: z.string().optional(),
        domain: z.string().optional(),
        language: z.string().optional(),
        sourcecountry: z.string().optional(),
      }),
    )
    .optional(),
});

export interface GdeltOptions {
  baseUrl?: string;
  timeoutMs?: number;
}

/** "20260310T101500Z" → "2026-03-10T10:15:00.000Z". */
export function gdeltDate(seen: string): string | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(seen);
  if (!match) return undefined;
  const [y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0] = match.slice(1).map(Number);
  const time = Date.UTC(y, mo - 1, d, h, mi, s);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

export function gdeltQuery(fips: string, category: TrendCategory | undefined): string {
  const country = `sourcecountry:${fips}`;
  return category ? `(${GDELT_CATEGORY_KEYWORDS[category].join(' OR ')}) ${country}` : country;
}

export class GdeltSource implements TrendSource {
  readonly name = 'gdelt' as const;
  private readonly baseUrl: string;

  constructor(
    private readonly guard: SourceGuard,
    private readonly options: GdeltOptions = {},
  ) {
    this.baseUrl = trimBase(options.baseUrl ?? GDELT_BASE_URL);
  }

  covers(query: SourceQuery): boolean {
    return GDELT_COUNTRIES[query.geo] !== undefined;
  }

  async fetch(query: SourceQuery, signal: AbortSignal): Promise<SourceItem[]> {
    const fips = GDELT_COUNTRIES[query.geo];
    if (!fips) throw new SourceError(this.name, 'no_data', `no GDELT country code for ${query.geo}`);
    const params = [
      `query=${encodeURIComponent(gdeltQuery(fips, query.category))}`,
      'mode=ArtList',
      'format=json',
      `timespan=${Math.max(1, Math.round(query.windowHours))}h`,
      `maxrecords=${GDELT_MAX_RECORDS}`,
      'sort=HybridRel',
    ].join('&');
    const response = await sourceRequest(this.guard, this.name, `${this.baseUrl}/api/v2/doc/doc?${params}`, {
      signal,
      timeoutMs: this.options.timeoutMs,
      headers: { accept: 'application/json' },
    });
    if (!isOk(response)) throw statusError(this.name, response);
    const body = response.body.toString('utf8').trim();
    if (!body.startsWith('{')) {
      const said = body.replace(/\s+/g, ' ').slice(0, 120);
      const reason = /limit requests/i.test(said) ? 'rate_limited' : 'bad_response';
      throw new SourceError(this.name, reason, `answered text instead of JSON: "${said}"`);
    }
    const list = parseJsonBody(this.name, response, artListSchema);
    const seen = new Set<string>();
    const items: SourceItem[] = [];
    for (const article of list.articles ?? []) {
      const title = article.title.trim();
      if (!title || seen.has(article.url)) continue;
      seen.add(article.url);
      const item: SourceItem = {
        source: this.name,
        kind: 'news',
        title,
        url: article.url,
        links: [],
        geo: query.geo,
        rank: items.length + 1,
      };
      const domain =
        (article.domain && article.domain.toLowerCase().replace(/^www\./, '')) || linkDomain(article.url);
      if (domain) item.domain = domain;
      const publishedAt = article.seendate ? gdeltDate(article.seendate) : undefined;
      if (publishedAt) item.publishedAt = publishedAt;
      if (query.category) item.category = query.category;
      items.push(item);
    }
    return items;
  }
}
