import { parseArgs } from 'node:util';
import type { ItemLink, SourceItem } from '../../src/signals/sources/source-item.ts';
import { buildTrends, storiesOf } from '../../src/signals/trends/build-trends.ts';
import { ownCpuSeconds } from '../support/cpu-time.ts';

// bench/signals/cluster: the trends engine on 5,000 items, the size of a busy radar with every source on.
//
//   node --import tsx bench/signals/cluster.ts [--items 5000] [--seed 7] [--runs 3]
//
// The items are generated from templates (deterministic for a seed): stories of nine kinds (product
// launches, acquisitions, regulators' fines, earnings, finals, hurricanes, chief-executive changes, album
// announcements, space missions) about a shared cast of companies, people and places, so different stories
// share names and wording ("Apple" launches a phone and "Apple" is fined; two companies are fined by one
// regulator). Each story is told by paraphrased headlines from real publishers' domains (primary, regional,
// aggregators), with search trends linking its articles, posts, videos and encyclopedia pages, spread over
// the last day. Shown: wall and CPU time of buildTrends (the first run, with compromise's warm-up, then the
// median of the others), peak RSS and heap growth over the first run, and how well the stories were
// recovered against the generator's truth: purity (share of items whose story is the majority of their
// cluster) and completeness (share of items in the cluster holding most of their story).

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '5000' },
    seed: { type: 'string', default: '7' },
    runs: { type: 'string', default: '3' },
  },
});

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(Number(values.seed));
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const between = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));

interface Kind {
  /** Slot values of one story. */
  slots: () => Record<string, string>;
  /** What makes two stories of the kind one: a company reports its earnings once, a storm has one name. */
  identity: (slots: Record<string, string>) => string;
  headlines: readonly string[];
  query: string;
  page: string;
}

const COMPANIES = [
  'Apple',
  'Google',
  'Microsoft',
  'Amazon',
  'Meta',
  'Samsung',
  'Nvidia',
  'Tesla',
  'Netflix',
  'Disney',
  'Intel',
  'Boeing',
  'Nike',
  'OpenAI',
  'Sony',
  'Uber',
  'Walmart',
  'Pfizer',
  'Ford',
  'Spotify',
  'Airbnb',
  'Salesforce',
  'Adobe',
  'Starbucks',
  'Oracle',
  'PepsiCo',
  'Visa',
  'Moderna',
  'Lyft',
  'Zoom',
];
const PRODUCTS: readonly [string, string][] = [
  ['Apple', 'iPhone 18'],
  ['Apple', 'Vision Air'],
  ['Google', 'Pixel 11'],
  ['Microsoft', 'Surface Pro 12'],
  ['Amazon', 'Kindle Scribe 3'],
  ['Amazon', 'Echo Hub 2'],
  ['Meta', 'Quest 4'],
  ['Samsung', 'Galaxy S26'],
  ['Nvidia', 'RTX 6090'],
  ['Tesla', 'Model Q'],
  ['Sony', 'PlayStation 6'],
  ['OpenAI', 'GPT-6'],
];
const REGULATORS = [
  'European Commission',
  'Federal Trade Commission',
  'UK competition watchdog',
  'Japan Fair Trade Commission',
];
const ISSUES = ['competition', 'privacy', 'advertising', 'app store'];
const TEAMS = [
  'Real Madrid',
  'Manchester City',
  'Bayern Munich',
  'Inter Milan',
  'Boston Celtics',
  'Dallas Mavericks',
  'Kansas City Chiefs',
  'Philadelphia Eagles',
  'New York Yankees',
  'Los Angeles Dodgers',
];
const COMPETITIONS = ['Champions League', 'NBA Finals', 'Super Bowl', 'World Series', 'FA Cup'];
const STORMS = [
  'Milton',
  'Helene',
  'Beryl',
  'Francine',
  'Oscar',
  'Rafael',
  'Debby',
  'Ernesto',
  'Kirk',
  'Leslie',
  'Nadine',
  'Patty',
];
const PLACES = [
  'Tampa Bay',
  'New Orleans',
  'Houston',
  'Miami',
  'Charleston',
  'Savannah',
  'Corpus Christi',
  'Pensacola',
];
const EXECUTIVES = [
  'Sarah Chen',
  'David Okafor',
  'Maria Lopez',
  'James Whitaker',
  'Priya Raman',
  'Lars Nilsson',
  'Amara Mensah',
  'Kenji Watanabe',
  'Elena Petrova',
  'Rafael Ortiz',
  'Hannah Becker',
  'Omar Haddad',
];
const ARTISTS = [
  'Taylor Swift',
  'Beyoncé',
  'Bad Bunny',
  'Billie Eilish',
  'Kendrick Lamar',
  'Olivia Rodrigo',
  'Dua Lipa',
  'Drake',
  'Sabrina Carpenter',
  'Harry Styles',
  'Adele',
  'The Weeknd',
];
const ALBUMS = ['Midnight Harbor', 'Glass Rivers', 'Neon Psalms', 'Paper Comets', 'Golden Static'];
const MISSIONS: readonly [string, string, string][] = [
  ['NASA', 'Europa Clipper', 'Jupiter'],
  ['NASA', 'Artemis III', 'the Moon'],
  ['NASA', 'Dragonfly', 'Titan'],
  ['NASA', 'Psyche', 'an asteroid'],
  ['ESA', 'Hera', 'an asteroid'],
  ['ESA', 'JUICE', 'Jupiter'],
  ['SpaceX', 'Starship Flight 12', 'orbit'],
  ['JAXA', 'MMX', 'Mars'],
];

const KINDS: readonly Kind[] = [
  {
    slots: () => {
      const [s, d] = pick(PRODUCTS);
      return { s, d, n: String(between(3, 19) * 100) };
    },
    identity: (x) => x.d!,
    headlines: [
      '{s} unveils {d} at its annual event',
      '{s} announces {d} with a new design',
      "Hands-on: {s}'s {d} is its most ambitious yet",
      '{d} is official: everything {s} announced today',
      '{s} launches {d}, priced from ${n}',
      "First look at the {d}, {s}'s newest device",
      '{s} {d} review roundup: what critics think',
    ],
    query: '{d}',
    page: '{d}',
  },
  {
    slots: () => ({
      s: pick(COMPANIES),
      r: pick(REGULATORS),
      i: pick(ISSUES),
      n: String(between(2, 90) * 10),
    }),
    identity: (x) => `${x.s} ${x.r}`,
    headlines: [
      '{r} fines {s} ${n} million over {i} breaches',
      '{s} hit with ${n} million penalty by {r}',
      '{s} to appeal ${n} million fine from {r}',
      '{r} says {s} broke {i} rules, imposes ${n} million fine',
      '{s} fined by {r} in {i} case',
    ],
    query: '{s} fine',
    page: '{s}',
  },
  {
    slots: () => ({
      s: pick(COMPANIES),
      q: pick(['first-quarter', 'second-quarter', 'third-quarter', 'fourth-quarter']),
      v: pick(['beats', 'misses']),
    }),
    identity: (x) => x.s!,
    headlines: [
      '{s} shares move after {q} results',
      '{s} {q} earnings: revenue {v} expectations',
      '{s} stock swings as {q} profit {v} forecasts',
      '{s} reports {q} results and updates guidance',
      'Wall Street reacts to {s} {q} earnings',
    ],
    query: '{s} earnings',
    page: '{s}',
  },
  {
    slots: () => {
      const a = pick(TEAMS);
      let b = pick(TEAMS);
      while (b === a) b = pick(TEAMS);
      return { a, b, c: pick(COMPETITIONS), x: `${between(1, 4)}-${between(0, 2)}` };
    },
    identity: (x) => x.c!,
    headlines: [
      '{a} beat {b} {x} in {c} final',
      '{a} win {c} after {x} victory over {b}',
      '{b} fall to {a} in the {c} final',
      '{c} final: {a} {x} {b}, match report',
      '{a} are {c} champions after beating {b}',
    ],
    query: '{a} vs {b}',
    page: '{c}',
  },
  {
    slots: () => ({ s: pick(STORMS), p: pick(PLACES), n: String(between(1, 5)) }),
    identity: (x) => x.s!,
    headlines: [
      'Hurricane {s} makes landfall near {p} as Category {n} storm',
      'Hurricane {s} slams {p} with storm surge and power outages',
      'Hurricane {s}: {p} residents told to evacuate',
      'Live updates: Hurricane {s} approaches {p}',
      'Hurricane {s} weakens after landfall near {p}',
    ],
    query: 'hurricane {s}',
    page: 'Hurricane {s}',
  },
  {
    slots: () => ({ c: pick(COMPANIES), p: pick(EXECUTIVES) }),
    identity: (x) => x.p!,
    headlines: [
      '{c} names {p} chief executive',
      '{p} to replace outgoing {c} chief executive',
      '{c} appoints {p} as new CEO',
      "Who is {p}, {c}'s new chief executive?",
    ],
    query: '{p}',
    page: '{p}',
  },
  {
    slots: () => ({ p: pick(ARTISTS), t: pick(ALBUMS) }),
    identity: (x) => x.p!,
    headlines: [
      "{p} announces new album '{t}'",
      "{p} reveals release date for '{t}'",
      "{p}'s new album '{t}' arrives in October",
      "Fans react as {p} teases new album '{t}'",
    ],
    query: '{p} {t}',
    page: '{p}',
  },
  {
    slots: () => {
      const [a, m, d] = pick(MISSIONS);
      return { a, m, d };
    },
    identity: (x) => x.m!,
    headlines: [
      '{a} launches {m} mission to {d}',
      '{m} lifts off on its journey to {d}',
      "{a}'s {m} spacecraft begins trip to {d}",
      '{m} launch: what the mission to {d} will study',
    ],
    query: '{m}',
    page: '{m}',
  },
];

const ACQUISITION_KIND: Kind = {
  slots: () => {
    const a = pick(COMPANIES);
    let b = pick(COMPANIES);
    while (b === a) b = pick(COMPANIES);
    return { a, b, n: String(between(2, 120)) };
  },
  // One deal per pair of companies, whichever buys.
  identity: (x) => [x.a, x.b].sort().join(' '),
  headlines: [
    '{a} agrees to buy {b} for ${n} billion',
    '{a} to acquire {b} in ${n} billion deal',
    '{b} shares jump on {a} takeover news',
    'Why {a} is paying ${n} billion for {b}',
    '{a}-{b} deal faces regulatory scrutiny',
  ],
  query: '{a} {b}',
  page: '{b}',
};

const PRIMARY = [
  'reuters.com',
  'apnews.com',
  'bbc.com',
  'nytimes.com',
  'washingtonpost.com',
  'cnn.com',
  'theguardian.com',
  'bloomberg.com',
  'cnbc.com',
  'theverge.com',
  'espn.com',
  'variety.com',
  'npr.org',
];
const REGIONAL = [
  'tampabay.com',
  'sfchronicle.com',
  'chicagotribune.com',
  'dallasnews.com',
  'miamiherald.com',
  'seattletimes.com',
  'denverpost.com',
  'nola.com',
  'bostonglobe.com',
  '9to5mac.com',
  'cnet.com',
  'si.com',
  'people.com',
  'space.com',
  'marketwatch.com',
];
const AGGREGATORS = ['msn.com', 'yahoo.com', 'newsbreak.com', 'headtopics.com', 'biztoc.com'];

const fill = (template: string, slots: Record<string, string>): string =>
  template.replace(/\{(\w)\}/g, (_, k: string) => slots[k] ?? '');
const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const NOW = new Date('2025-09-10T12:00:00.000Z');
const HOUR = 3_600_000;

function generate(total: number): { items: SourceItem[]; truth: Map<SourceItem, number> } {
  const items: SourceItem[] = [];
  const truth = new Map<SourceItem, number>();
  const seen = new Set<string>();
  for (let story = 0, misses = 0; items.length < total; story += 1) {
    const kind = random() < 0.25 ? ACQUISITION_KIND : pick(KINDS);
    const slots = kind.slots();
    const identity = `${kind.headlines[0]}|${kind.identity(slots)}`;
    if (seen.has(identity)) {
      if ((misses += 1) > 10_000) throw new Error('the templates cannot make that many different stories');
      continue;
    }
    seen.add(identity);
    // Story sizes are heavy-tailed: most stories have a few items, a few have dozens.
    const size = Math.min(total - items.length, 80, 1 + Math.floor(2 / Math.pow(random() + 0.02, 1.1)));
    const start = NOW.getTime() - between(1, 22) * HOUR - between(0, 59) * 60_000;
    const at = () => new Date(Math.min(NOW.getTime(), start + random() * 6 * HOUR)).toISOString();
    const articles: ItemLink[] = [];
    const add = (item: SourceItem): void => {
      items.push(item);
      truth.set(item, story);
    };
    for (let n = 0; n < size; n += 1) {
      const title = fill(pick(kind.headlines), slots);
      const roll = random();
      if (roll < 0.72 || articles.length === 0) {
        const domain = random() < 0.35 ? pick(PRIMARY) : random() < 0.8 ? pick(REGIONAL) : pick(AGGREGATORS);
        const url = `https://www.${domain}/news/${slug(title)}-${story}-${n}`;
        articles.push({ title, url, domain });
        add({
          source: random() < 0.5 ? 'feed' : 'gdelt',
          kind: 'news',
          title,
          url,
          domain,
          links: [],
          publishedAt: at(),
          geo: 'US',
        });
      } else if (roll < 0.8) {
        const query = fill(kind.query, slots).toLowerCase();
        const traffic = pick([20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000]);
        add({
          source: 'feed',
          kind: 'search',
          title: query,
          domain: 'trends.google.com',
          links: articles.slice(0, 3),
          publishedAt: at(),
          geo: 'US',
          rank: between(1, 30),
          traffic: { text: `${traffic.toLocaleString('en-US')}+`, value: traffic },
        });
      } else if (roll < 0.9) {
        const reddit = random() < 0.5;
        const linked = pick(articles);
        add({
          source: reddit ? 'reddit' : 'hackernews',
          kind: 'social',
          title,
          url: reddit
            ? `https://www.reddit.com/r/news/comments/${story}x${n}/`
            : `https://news.ycombinator.com/item?id=${story * 1000 + n}`,
          domain: reddit ? 'reddit.com' : 'news.ycombinator.com',
          links: [linked],
          publishedAt: at(),
          engagement: {
            points: between(5, reddit ? 30_000 : 900),
            comments: between(0, reddit ? 4_000 : 600),
          },
        });
      } else if (roll < 0.96) {
        const views = between(10_000, 3_000_000);
        add({
          source: 'youtube',
          kind: 'video',
          title,
          url: `https://www.youtube.com/watch?v=v${story}x${n}`,
          domain: 'youtube.com',
          links: [],
          publishedAt: at(),
          geo: 'US',
          traffic: { text: `${views.toLocaleString('en-US')} views`, value: views },
          engagement: { points: Math.floor(views * 0.03), comments: Math.floor(views * 0.002) },
        });
      } else {
        const page = fill(kind.page, slots);
        const views = between(20_000, 900_000);
        add({
          source: 'wikipedia',
          kind: 'encyclopedia',
          title: page,
          url: `https://en.wikipedia.org/wiki/${encodeURIComponent(page.replaceAll(' ', '_'))}`,
          domain: 'en.wikipedia.org',
          links: [],
          geo: 'US',
          rank: between(1, 50),
          traffic: { text: `${views.toLocaleString('en-US')} views`, value: views },
        });
      }
    }
  }
  return { items, truth };
}

const { items, truth } = generate(Number(values.items));
const stories = new Set(truth.values()).size;
const options = { now: NOW, windowHours: 24, geo: 'US' };

// Memory is read around the first run alone: later runs add garbage the collector has not yet claimed.
const heapBefore = process.memoryUsage().heapUsed;
const rssBefore = process.resourceUsage().maxRSS;
let heapAfter = 0;
let rssPeak = 0;
const times: { wall: number; cpu: number }[] = [];
let trendCount = 0;
for (let run = 0; run < Number(values.runs); run += 1) {
  const wallAt = performance.now();
  const cpuAt = ownCpuSeconds();
  trendCount = buildTrends(items, options).length;
  times.push({ wall: performance.now() - wallAt, cpu: (ownCpuSeconds() - cpuAt) * 1000 });
  if (run === 0) {
    heapAfter = process.memoryUsage().heapUsed;
    rssPeak = process.resourceUsage().maxRSS;
  }
}

// Recovered stories against the generator's truth.
const clusters = storiesOf(items, options).map((s) => s.items.map(({ item }) => truth.get(item)!));
let pure = 0;
for (const members of clusters) {
  const counts = new Map<number, number>();
  for (const t of members) counts.set(t, (counts.get(t) ?? 0) + 1);
  pure += Math.max(...counts.values());
}
const largestShare = new Map<number, number>();
for (const members of clusters) {
  const counts = new Map<number, number>();
  for (const t of members) counts.set(t, (counts.get(t) ?? 0) + 1);
  for (const [t, c] of counts) largestShare.set(t, Math.max(largestShare.get(t) ?? 0, c));
}
const complete = [...largestShare.values()].reduce((a, b) => a + b, 0);
const clustered = clusters.reduce((n, c) => n + c.length, 0);

const rest = times.slice(1).sort((a, b) => a.wall - b.wall);
const median = rest[Math.floor(rest.length / 2)] ?? times[0]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
console.log(
  `items: ${items.length} (${stories} generated stories), trends: ${trendCount}, stories found: ${clusters.length}`,
);
console.log(`buildTrends first run: ${ms(times[0]!.wall)} wall, ${ms(times[0]!.cpu)} CPU`);
console.log(`buildTrends median of the other ${rest.length}: ${ms(median.wall)} wall, ${ms(median.cpu)} CPU`);
console.log(
  `first run: peak RSS ${mb(rssPeak * 1024)} (${mb((rssPeak - rssBefore) * 1024)} above the process with its items), heap growth ${mb(heapAfter - heapBefore)}`,
);
console.log(
  `purity: ${((100 * pure) / clustered).toFixed(1)}%, completeness: ${((100 * complete) / clustered).toFixed(1)}%`,
);
