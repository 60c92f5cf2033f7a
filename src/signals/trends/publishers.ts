// Who published a link, as data: primary news organisations (original reporting; boost the quality signal),
// aggregators and content farms (republish others' reporting; penalise it and count half in news density),
// and platforms (communities and user-upload sites: where a story is discussed, not a publisher of it).
// Domains match themselves and their subdomains ("edition.cnn.com" is CNN, "uk.news.yahoo.com" is Yahoo).
import { getDomain } from 'tldts';
import type { TrendCategory } from '../sources/source-item.ts';

export interface PrimaryPublisher {
  name: string;
  /** The desk a specialist publisher covers, used to place stories no source categorised. */
  beat?: TrendCategory;
}

export const PRIMARY_PUBLISHERS: Readonly<Record<string, PrimaryPublisher>> = {
  // Wire services and international newsrooms.
  'reuters.com': { name: 'Reuters' },
  'apnews.com': { name: 'AP News' },
  'afp.com': { name: 'AFP' },
  'bloomberg.com': { name: 'Bloomberg', beat: 'business' },
  'bbc.com': { name: 'BBC' },
  'bbc.co.uk': { name: 'BBC' },
  'aljazeera.com': { name: 'Al Jazeera' },
  'dw.com': { name: 'DW' },
  'france24.com': { name: 'France 24' },
  // United States.
  'nytimes.com': { name: 'The New York Times' },
  'washingtonpost.com': { name: 'The Washington Post' },
  'wsj.com': { name: 'The Wall Street Journal', beat: 'business' },
  'latimes.com': { name: 'Los Angeles Times' },
  'usatoday.com': { name: 'USA Today' },
  'npr.org': { name: 'NPR' },
  'pbs.org': { name: 'PBS' },
  'cnn.com': { name: 'CNN' },
  'nbcnews.com': { name: 'NBC News' },
  'cbsnews.com': { name: 'CBS News' },
  'abcnews.go.com': { name: 'ABC News' },
  'politico.com': { name: 'Politico', beat: 'politics' },
  'axios.com': { name: 'Axios' },
  'theatlantic.com': { name: 'The Atlantic' },
  'cnbc.com': { name: 'CNBC', beat: 'business' },
  // United Kingdom and Ireland.
  'theguardian.com': { name: 'The Guardian' },
  'ft.com': { name: 'Financial Times', beat: 'business' },
  'economist.com': { name: 'The Economist', beat: 'business' },
  'telegraph.co.uk': { name: 'The Telegraph' },
  'independent.co.uk': { name: 'The Independent' },
  'news.sky.com': { name: 'Sky News' },
  'irishtimes.com': { name: 'The Irish Times' },
  // Europe.
  'lemonde.fr': { name: 'Le Monde' },
  'lefigaro.fr': { name: 'Le Figaro' },
  'spiegel.de': { name: 'Der Spiegel' },
  'zeit.de': { name: 'Die Zeit' },
  'faz.net': { name: 'Frankfurter Allgemeine' },
  'sueddeutsche.de': { name: 'Süddeutsche Zeitung' },
  'elpais.com': { name: 'El País' },
  'corriere.it': { name: 'Corriere della Sera' },
  'repubblica.it': { name: 'la Repubblica' },
  'nos.nl': { name: 'NOS' },
  // Americas, Asia and Oceania.
  'cbc.ca': { name: 'CBC' },
  'theglobeandmail.com': { name: 'The Globe and Mail' },
  'folha.uol.com.br': { name: 'Folha de S.Paulo' },
  'g1.globo.com': { name: 'g1' },
  'nhk.or.jp': { name: 'NHK' },
  'asahi.com': { name: 'Asahi Shimbun' },
  'japantimes.co.jp': { name: 'The Japan Times' },
  'scmp.com': { name: 'South China Morning Post' },
  'straitstimes.com': { name: 'The Straits Times' },
  'thehindu.com': { name: 'The Hindu' },
  'indianexpress.com': { name: 'The Indian Express' },
  'hindustantimes.com': { name: 'Hindustan Times' },
  'abc.net.au': { name: 'ABC News (Australia)' },
  'smh.com.au': { name: 'The Sydney Morning Herald' },
  // Specialist desks.
  'techcrunch.com': { name: 'TechCrunch', beat: 'tech' },
  'theverge.com': { name: 'The Verge', beat: 'tech' },
  'arstechnica.com': { name: 'Ars Technica', beat: 'tech' },
  'wired.com': { name: 'Wired', beat: 'tech' },
  'engadget.com': { name: 'Engadget', beat: 'tech' },
  'espn.com': { name: 'ESPN', beat: 'sports' },
  'theathletic.com': { name: 'The Athletic', beat: 'sports' },
  'skysports.com': { name: 'Sky Sports', beat: 'sports' },
  'variety.com': { name: 'Variety', beat: 'entertainment' },
  'hollywoodreporter.com': { name: 'The Hollywood Reporter', beat: 'entertainment' },
  'deadline.com': { name: 'Deadline', beat: 'entertainment' },
  'billboard.com': { name: 'Billboard', beat: 'entertainment' },
  'rollingstone.com': { name: 'Rolling Stone', beat: 'entertainment' },
  'nature.com': { name: 'Nature', beat: 'science' },
  'science.org': { name: 'Science', beat: 'science' },
  'newscientist.com': { name: 'New Scientist', beat: 'science' },
  'scientificamerican.com': { name: 'Scientific American', beat: 'science' },
  'statnews.com': { name: 'STAT', beat: 'health' },
};

/** Aggregators, syndication portals and content farms: they carry others' reporting. */
export const AGGREGATORS: ReadonlyMap<string, string> = new Map([
  ['news.google.com', 'Google News'],
  ['msn.com', 'MSN'],
  ['yahoo.com', 'Yahoo'],
  ['newsbreak.com', 'NewsBreak'],
  ['flipboard.com', 'Flipboard'],
  ['smartnews.com', 'SmartNews'],
  ['ground.news', 'Ground News'],
  ['headtopics.com', 'Head Topics'],
  ['newsnow.co.uk', 'NewsNow'],
  ['inkl.com', 'inkl'],
  ['pressreader.com', 'PressReader'],
  ['biztoc.com', 'BizToc'],
  ['techmeme.com', 'Techmeme'],
  ['memeorandum.com', 'memeorandum'],
  ['drudgereport.com', 'Drudge Report'],
  ['bignewsnetwork.com', 'Big News Network'],
  ['devdiscourse.com', 'Devdiscourse'],
  ['menafn.com', 'MENAFN'],
  ['dailyhunt.in', 'Dailyhunt'],
]);

/** Communities and upload sites: a story's discussion or media, never one of its publishers. */
export const PLATFORMS: ReadonlyMap<string, TrendCategory | undefined> = new Map<
  string,
  TrendCategory | undefined
>([
  ['news.ycombinator.com', 'tech'],
  ['github.com', 'tech'],
  ['reddit.com', undefined],
  ['redd.it', undefined],
  ['youtube.com', undefined],
  ['youtu.be', undefined],
  ['wikipedia.org', undefined],
  ['trends.google.com', undefined],
  ['x.com', undefined],
  ['twitter.com', undefined],
  ['facebook.com', undefined],
  ['instagram.com', undefined],
  ['tiktok.com', undefined],
  ['threads.net', undefined],
  ['bsky.app', undefined],
]);

export type PublisherClass = 'primary' | 'aggregator' | 'other' | 'platform';

export interface Publisher {
  /** One key per organisation: "bbc.com" and "bbc.co.uk" are both "BBC"; an unlisted site is its domain. */
  key: string;
  name: string;
  class: PublisherClass;
  beat?: TrendCategory;
}

/** The listed domain a host falls under: itself or its nearest parent in `list`. */
function listed<T>(host: string, has: (domain: string) => T | undefined): [string, T] | undefined {
  for (let d = host; d.includes('.'); d = d.slice(d.indexOf('.') + 1)) {
    const entry = has(d);
    if (entry !== undefined) return [d, entry];
  }
  return undefined;
}

export function publisherOf(domain: string): Publisher {
  const host = domain.toLowerCase().replace(/^www\./, '');
  const primary = listed(host, (d) => PRIMARY_PUBLISHERS[d]);
  if (primary) {
    const [, p] = primary;
    return { key: p.name, name: p.name, class: 'primary', ...(p.beat ? { beat: p.beat } : {}) };
  }
  const aggregator = listed(host, (d) => AGGREGATORS.get(d));
  if (aggregator) return { key: aggregator[1], name: aggregator[1], class: 'aggregator' };
  const platform = listed(host, (d) => (PLATFORMS.has(d) ? { beat: PLATFORMS.get(d) } : undefined));
  if (platform) {
    const [d, { beat }] = platform;
    return { key: d, name: d, class: 'platform', ...(beat ? { beat } : {}) };
  }
  const site = getDomain(host) ?? host;
  return { key: site, name: site, class: 'other' };
}
