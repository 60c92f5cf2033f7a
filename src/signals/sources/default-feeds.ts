// The feeds a connected install reads when TRENDS_FEEDS is unset: real public feeds, no key needed.
// - Google's trending-searches RSS per country: what people search for now, with approximate traffic and the
//   articles Google pairs with each search (the radar's search-momentum signal).
// - Google News top stories per edition and topic sections per English edition (many publishers each).
// - Major publishers' own feeds, tagged with their home country; international desks carry no geo and count
//   for every country.
// docs/signals.md lists them; TRENDS_FEEDS (feed-list.ts) replaces the whole list.
import type { FeedSpec } from './feed-list.ts';
import type { TrendCategory } from './source-item.ts';

const GOOGLE_TRENDS_COUNTRIES = [
  'US', 'GB', 'CA', 'AU', 'IN', 'IE', 'NZ', 'ZA', 'NG', 'KE', 'SG', 'PH', 'MY',
  'DE', 'FR', 'ES', 'IT', 'NL', 'SE', 'PL', 'BR', 'MX', 'AR', 'JP', 'KR', 'TR',
] as const; // prettier-ignore

/** Google News editions: country, interface language (hl) and edition id (ceid). */
const GOOGLE_NEWS_EDITIONS = [
  { geo: 'US', hl: 'en-US', ceid: 'US:en', topics: true },
  { geo: 'GB', hl: 'en-GB', ceid: 'GB:en', topics: true },
  { geo: 'CA', hl: 'en-CA', ceid: 'CA:en', topics: true },
  { geo: 'AU', hl: 'en-AU', ceid: 'AU:en', topics: true },
  { geo: 'IN', hl: 'en-IN', ceid: 'IN:en', topics: true },
  { geo: 'DE', hl: 'de', ceid: 'DE:de', topics: false },
  { geo: 'FR', hl: 'fr', ceid: 'FR:fr', topics: false },
  { geo: 'ES', hl: 'es', ceid: 'ES:es', topics: false },
  { geo: 'BR', hl: 'pt-BR', ceid: 'BR:pt-419', topics: false },
  { geo: 'MX', hl: 'es-419', ceid: 'MX:es-419', topics: false },
  { geo: 'JP', hl: 'ja', ceid: 'JP:ja', topics: false },
] as const;

/** Google News topic sections and the category each feeds. */
const GOOGLE_NEWS_TOPICS: readonly [string, TrendCategory][] = [
  ['TECHNOLOGY', 'tech'],
  ['BUSINESS', 'business'],
  ['ENTERTAINMENT', 'entertainment'],
  ['SPORTS', 'sports'],
  ['SCIENCE', 'science'],
  ['HEALTH', 'health'],
];

function googleTrends(): FeedSpec[] {
  return GOOGLE_TRENDS_COUNTRIES.map((geo) => ({
    url: `https://trends.google.com/trending/rss?geo=${geo}`,
    geo,
    name: `Google Trends ${geo}`,
  }));
}

function googleNews(): FeedSpec[] {
  return GOOGLE_NEWS_EDITIONS.flatMap(({ geo, hl, ceid, topics }) => {
    const edition = `hl=${hl}&gl=${geo}&ceid=${ceid}`;
    const top: FeedSpec = { url: `https://news.google.com/rss?${edition}`, geo, name: `Google News ${geo}` };
    if (!topics) return [top];
    return [
      top,
      ...GOOGLE_NEWS_TOPICS.map(([topic, category]) => ({
        url: `https://news.google.com/rss/headlines/section/topic/${topic}?${edition}`,
        category,
        geo,
        name: `Google News ${geo} ${topic.toLowerCase()}`,
      })),
    ];
  });
}

function feed(name: string, url: string, geo?: string, category?: TrendCategory): FeedSpec {
  const spec: FeedSpec = { url, name };
  if (geo) spec.geo = geo;
  if (category) spec.category = category;
  return spec;
}

const PUBLISHERS: readonly FeedSpec[] = [
  // International desks: no geo, read for every country.
  feed('BBC News World', 'https://feeds.bbci.co.uk/news/world/rss.xml'),
  feed('The Guardian World', 'https://www.theguardian.com/world/rss'),
  feed('The New York Times World', 'https://rss.nytimes.com/services/xml/rss/nyt/World.xml'),
  feed('Al Jazeera', 'https://www.aljazeera.com/xml/rss/all.xml'),
  feed('France 24', 'https://www.france24.com/en/rss'),
  feed('Nature', 'https://www.nature.com/nature.rss', undefined, 'science'),
  feed('New Scientist', 'https://www.newscientist.com/feed/home/', undefined, 'science'),
  feed('World Health Organization', 'https://www.who.int/rss-feeds/news-english.xml', undefined, 'health'),
  // United States.
  feed('The New York Times', 'https://rss.nytimes.com/services/xml/rss/nyt/HomePage.xml', 'US'),
  feed(
    'The New York Times Technology',
    'https://rss.nytimes.com/services/xml/rss/nyt/Technology.xml',
    'US',
    'tech',
  ),
  feed(
    'The New York Times Business',
    'https://rss.nytimes.com/services/xml/rss/nyt/Business.xml',
    'US',
    'business',
  ),
  feed(
    'The New York Times Arts',
    'https://rss.nytimes.com/services/xml/rss/nyt/Arts.xml',
    'US',
    'entertainment',
  ),
  feed(
    'The New York Times Sports',
    'https://rss.nytimes.com/services/xml/rss/nyt/Sports.xml',
    'US',
    'sports',
  ),
  feed(
    'The New York Times Health',
    'https://rss.nytimes.com/services/xml/rss/nyt/Health.xml',
    'US',
    'health',
  ),
  feed(
    'The New York Times Politics',
    'https://rss.nytimes.com/services/xml/rss/nyt/Politics.xml',
    'US',
    'politics',
  ),
  feed(
    'The New York Times Science',
    'https://rss.nytimes.com/services/xml/rss/nyt/Science.xml',
    'US',
    'science',
  ),
  feed('NPR News', 'https://feeds.npr.org/1001/rss.xml', 'US'),
  feed('NPR Politics', 'https://feeds.npr.org/1014/rss.xml', 'US', 'politics'),
  feed('NPR Technology', 'https://feeds.npr.org/1019/rss.xml', 'US', 'tech'),
  feed('NPR Business', 'https://feeds.npr.org/1006/rss.xml', 'US', 'business'),
  feed('NPR Science', 'https://feeds.npr.org/1007/rss.xml', 'US', 'science'),
  feed('Politico', 'https://rss.politico.com/politics-news.xml', 'US', 'politics'),
  feed('The Hill', 'https://thehill.com/news/feed/', 'US', 'politics'),
  feed('CNBC', 'https://www.cnbc.com/id/100003114/device/rss/rss.html', 'US', 'business'),
  feed('TechCrunch', 'https://techcrunch.com/feed/', 'US', 'tech'),
  feed('The Verge', 'https://www.theverge.com/rss/index.xml', 'US', 'tech'),
  feed('Ars Technica', 'https://feeds.arstechnica.com/arstechnica/index', 'US', 'tech'),
  feed('Wired', 'https://www.wired.com/feed/rss', 'US', 'tech'),
  feed('Engadget', 'https://www.engadget.com/rss.xml', 'US', 'tech'),
  feed('Variety', 'https://variety.com/feed/', 'US', 'entertainment'),
  feed('The Hollywood Reporter', 'https://www.hollywoodreporter.com/feed/', 'US', 'entertainment'),
  feed('Rolling Stone', 'https://www.rollingstone.com/feed/', 'US', 'entertainment'),
  feed('ESPN', 'https://www.espn.com/espn/rss/news', 'US', 'sports'),
  feed('STAT', 'https://www.statnews.com/feed/', 'US', 'health'),
  feed('ScienceDaily Health', 'https://www.sciencedaily.com/rss/health_medicine.xml', 'US', 'health'),
  feed('ScienceDaily', 'https://www.sciencedaily.com/rss/top/science.xml', 'US', 'science'),
  // United Kingdom.
  feed('BBC News', 'https://feeds.bbci.co.uk/news/rss.xml', 'GB'),
  feed('BBC News Technology', 'https://feeds.bbci.co.uk/news/technology/rss.xml', 'GB', 'tech'),
  feed('BBC News Business', 'https://feeds.bbci.co.uk/news/business/rss.xml', 'GB', 'business'),
  feed(
    'BBC News Entertainment',
    'https://feeds.bbci.co.uk/news/entertainment_and_arts/rss.xml',
    'GB',
    'entertainment',
  ),
  feed('BBC Sport', 'https://feeds.bbci.co.uk/sport/rss.xml', 'GB', 'sports'),
  feed('BBC News Health', 'https://feeds.bbci.co.uk/news/health/rss.xml', 'GB', 'health'),
  feed('BBC News Politics', 'https://feeds.bbci.co.uk/news/politics/rss.xml', 'GB', 'politics'),
  feed('BBC News Science', 'https://feeds.bbci.co.uk/news/science_and_environment/rss.xml', 'GB', 'science'),
  feed('The Guardian UK', 'https://www.theguardian.com/uk/rss', 'GB'),
  feed('The Guardian Technology', 'https://www.theguardian.com/technology/rss', 'GB', 'tech'),
  feed('The Guardian Business', 'https://www.theguardian.com/business/rss', 'GB', 'business'),
  feed('The Guardian Culture', 'https://www.theguardian.com/culture/rss', 'GB', 'entertainment'),
  feed('The Guardian Sport', 'https://www.theguardian.com/sport/rss', 'GB', 'sports'),
  feed('The Guardian Politics', 'https://www.theguardian.com/politics/rss', 'GB', 'politics'),
  feed('The Guardian Science', 'https://www.theguardian.com/science/rss', 'GB', 'science'),
  feed('Sky Sports', 'https://www.skysports.com/rss/12040', 'GB', 'sports'),
  // Canada and India.
  feed('CBC News', 'https://www.cbc.ca/webfeed/rss/rss-topstories', 'CA'),
  feed('The Times of India', 'https://timesofindia.indiatimes.com/rssfeedstopstories.cms', 'IN'),
  feed('The Hindu', 'https://www.thehindu.com/news/national/feeder/default.rss', 'IN'),
];

export const DEFAULT_FEEDS: readonly FeedSpec[] = [...googleTrends(), ...googleNews(), ...PUBLISHERS];
