// Wikipedia's most-viewed articles per country, from Wikimedia's keyless REST metrics:
// GET {base}/metrics/pageviews/top-per-country/{country}/all-access/{yyyy}/{mm}/{dd} lists the day's top
// articles across every Wikipedia read in that country, with views rounded up (`views_ceil`). A day is
// published some hours after it ends, so yesterday (UTC) is asked first and the day before when Wikimedia
// answers 404 for it. Main pages, special and project pages are not topics and are dropped. Encyclopedia
// pages carry no category, so this source answers only queries without one.
import { z } from 'zod';
import { SourceError } from './source-error.ts';
import {
  isOk,
  parseJsonBody,
  sourceRequest,
  statusError,
  trimBase,
  type SourceGuard,
} from './source-http.ts';
import type { SourceItem, SourceQuery, TrendSource } from './source-item.ts';

export const WIKIMEDIA_BASE_URL = 'https://wikimedia.org/api/rest_v1';
export const WIKIPEDIA_ARTICLES = 50;
const DAY_MS = 86_400_000;

/** Main pages of the larger Wikipedias (those in a namespace, like "Wikipedia:Portada", are dropped anyway). */
const MAIN_PAGES = new Set([
  'Main_Page', 'Hauptseite', 'Pagina_principale', 'Hoofdpagina', 'Заглавная_страница', 'メインページ',
  'Ana_Sayfa', 'Halaman_Utama', 'Trang_Chính', 'Головна_сторінка', 'Hlavní_strana', 'Forside', 'Etusivu',
  'Főoldal', 'Pagina_principală', 'Κύρια_Σελίδα', 'الصفحة_الرئيسية', 'صفحهٔ_اصلی', 'עמוד_ראשי', 'मुखपृष्ठ',
  'หน้าหลัก', 'Laman_Utama', 'Unang_Pahina', 'Glavna_stranica', 'Главна_страна', 'Начална_страница',
]); // prettier-ignore

const topPerCountrySchema = z.object({
  items: z
    .array(
      z.object({
        country: z.string().optional(),
        articles: z.array(
          z.object({
            article: z.string(),
            project: z.string(),
            views_ceil: z.number().optional(),
            views: z.number().optional(),
            rank: z.number().optional(),
          }),
        ),
      }),
    )
    .min(1),
});

export interface WikipediaOptions {
  baseUrl?: string;
  timeoutMs?: number;
  clock?: () => Date;
}

/** "Special:Search", "Wikipedia:Portada", "위키백과:대문" are pages of the site, not articles. */
function isArticle(title: string): boolean {
  if (title === '-' || MAIN_PAGES.has(title)) return false;
  // A namespace is a single word before the colon; "Star_Wars:_Episode_IV" (colon then "_") is an article.
  return !/^[^_:]+:[^_]/.test(title);
}

function dayPath(day: Date): string {
  const yyyy = String(day.getUTCFullYear());
  const mm = String(day.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(day.getUTCDate()).padStart(2, '0');
  return `${yyyy}/${mm}/${dd}`;
}

export class WikipediaSource implements TrendSource {
  readonly name = 'wikipedia' as const;
  private readonly baseUrl: string;
  private readonly clock: () => Date;

  constructor(
    private readonly guard: SourceGuard,
    private readonly options: WikipediaOptions = {},
  ) {
    this.baseUrl = trimBase(options.baseUrl ?? WIKIMEDIA_BASE_URL);
    this.clock = options.clock ?? (() => new Date());
  }

  covers(query: SourceQuery): boolean {
    return query.category === undefined && /^[A-Z]{2}$/.test(query.geo);
  }

  async fetch(query: SourceQuery, signal: AbortSignal): Promise<SourceItem[]> {
    const now = this.clock().getTime();
    for (const daysBack of [1, 2]) {
      const day = dayPath(new Date(now - daysBack * DAY_MS));
      const url = `${this.baseUrl}/metrics/pageviews/top-per-country/${query.geo}/all-access/${day}`;
      const response = await sourceRequest(this.guard, this.name, url, {
        signal,
        timeoutMs: this.options.timeoutMs,
        headers: { accept: 'application/json' },
      });
      if (response.status === 404) continue;
      if (!isOk(response)) throw statusError(this.name, response);
      const top = parseJsonBody(this.name, response, topPerCountrySchema);
      return this.items(top.items[0]?.articles ?? [], query.geo, day.replaceAll('/', '-'));
    }
    throw new SourceError(
      this.name,
      'no_data',
      `no most-viewed list for ${query.geo} yet (yesterday or the day before)`,
    );
  }

  private items(
    articles: z.infer<typeof topPerCountrySchema>['items'][number]['articles'],
    geo: string,
    day: string,
  ) {
    const items: SourceItem[] = [];
    for (const [index, entry] of articles.entries()) {
      if (items.length >= WIKIPEDIA_ARTICLES) break;
      if (!entry.project.endsWith('.wikipedia') || !isArticle(entry.article)) continue;
      const views = entry.views_ceil ?? entry.views ?? 0;
      const path = encodeURI(entry.article).replaceAll('?', '%3F').replaceAll('#', '%23');
      const url = `https://${entry.project}.org/wiki/${path}`;
      items.push({
        source: this.name,
        kind: 'encyclopedia',
        title: entry.article.replaceAll('_', ' '),
        url,
        domain: `${entry.project}.org`,
        links: [],
        geo,
        rank: entry.rank ?? index + 1,
        traffic: { text: `${views.toLocaleString('en-US')} views on ${day}`, value: views },
      });
    }
    return items;
  }
}
