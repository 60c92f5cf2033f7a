import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FootageSelectionError,
  selectFootage,
  type FootageSelectionInput,
  type LibraryClip,
  type Scene,
} from './select.ts';

function clip(id: string, title: string, tags: string[], niches: string[], durationSec = 8): LibraryClip {
  return { id, title, tags, niches, durationSec, source: 'uploaded' };
}

const LIBRARY: LibraryClip[] = [
  clip(
    'gold-dust',
    'Gold dust rising on black',
    ['particles', 'gold', 'dust'],
    ['abstract/particles', 'colors/gold', 'luxury'],
  ),
  clip('city', 'Night city traffic', ['city', 'night', 'cars', 'traffic'], ['urban/nightlife']),
  clip('carpet', 'Carpet cleaning close-up', ['carpet', 'cleaning'], ['satisfying']),
  clip('coins', 'Bitcoin coins spinning', ['bitcoin', 'coins', 'crypto'], ['finance/crypto']),
  clip('chart', 'Stock chart going up', ['chart', 'stocks', 'green'], ['finance/trading']),
  clip('bank', 'Bank lobby', ['bank', 'lobby', 'marble'], ['finance/banking']),
  clip('office', 'Team meeting in an office', ['office', 'meeting', 'team'], ['business/office']),
  clip('unlabelled', 'upload 0042', [], ['finance']),
  clip('sports-car', 'Red sports car on a coastal road', ['sports car', 'road', 'red'], ['default/cars']),
  clip('waves', 'Ocean waves at sunset', ['ocean', 'waves', 'sunset'], ['nature/water']),
];

const ATM = clip('atm', 'Cash machine', ['atm', 'cash'], ['finance/banking']);

function scenes(...texts: string[]): Scene[] {
  return texts.map((text, index) => ({ index, text, start: index * 3, end: index * 3 + 3 }));
}

function run(overrides: Partial<FootageSelectionInput>): ReturnType<typeof selectFootage> {
  return selectFootage({
    scenes: scenes('Hello there.'),
    niche: 'business',
    clips: LIBRARY,
    seed: 7,
    ...overrides,
  });
}

const ids = (r: ReturnType<typeof selectFootage>): string[] => r.shots.map((s) => s.clipId);

describe('ranking', () => {
  const cases: { name: string; input: Partial<FootageSelectionInput>; first: string }[] = [
    {
      name: 'sentence words beat the niche',
      input: { niche: 'business/office', scenes: scenes('Bitcoin just hit a new high.') },
      first: 'coins',
    },
    {
      name: 'inflected sentence words still match (waves → wave, sunsets → sunset)',
      input: { niche: 'finance', scenes: scenes('Watching sunsets by the wave.') },
      first: 'waves',
    },
    {
      name: 'with no word overlap the niche decides',
      input: { niche: 'finance/trading', scenes: scenes('Let me explain something.') },
      first: 'chart',
    },
    {
      name: 'a closer niche beats a farther one',
      input: { niche: 'finance/banking', scenes: scenes('Let me explain something.') },
      first: 'bank',
    },
    {
      name: 'footage keywords break ties within a niche',
      input: {
        niche: 'finance/banking',
        clips: [...LIBRARY, ATM],
        footageKeywords: ['cash'],
        scenes: scenes('Listen.'),
      },
      first: 'atm',
    },
    {
      name: 'footage keywords break ties within a niche (other keyword)',
      input: {
        niche: 'finance/banking',
        clips: [ATM, ...LIBRARY],
        footageKeywords: ['marble'],
        scenes: scenes('Listen.'),
      },
      first: 'bank',
    },
    {
      name: 'stop words do not count as overlap',
      input: { niche: 'finance/trading', scenes: scenes('It is on a road') },
      first: 'sports-car',
    },
    {
      name: 'stop words alone leave the choice to the niche',
      input: { niche: 'finance/trading', scenes: scenes('It is on a') },
      first: 'chart',
    },
  ];
  for (const c of cases) {
    test(c.name, () => assert.equal(run(c.input).shots[0]!.clipId, c.first));
  }

  test('matched stems are reported', () => {
    assert.deepEqual(run({ scenes: scenes('Gold and more gold dust') }).shots[0]!.matched, ['gold', 'dust']);
  });
});

describe('each shot describes its match', () => {
  test('a word match: the sentence, its matching words and a score of at least 0.4', () => {
    const shot = run({ niche: 'business/office', scenes: scenes('Bitcoin coins keep spinning today.') })
      .shots[0]!;
    assert.equal(shot.clipId, 'coins');
    assert.equal(shot.sentence, 'Bitcoin coins keep spinning today.');
    assert.deepEqual(shot.matchedTerms, ['bitcoin', 'coins', 'spinning']);
    // Five content words (bitcoin, coins, keep, spinning, today), three matched: a full match.
    assert.equal(shot.score, 1);
    const one = run({ niche: 'business/office', scenes: scenes('Bitcoin keeps climbing today.') }).shots[0]!;
    assert.deepEqual([one.clipId, one.matchedTerms, one.score], ['coins', ['bitcoin'], 0.6]);
  });

  test('without a shared word the score is the niche fallback, below 0.4', () => {
    const cases: {
      niche: FootageSelectionInput['niche'];
      keywords?: string[];
      clip: string;
      score: number;
    }[] = [
      { niche: 'finance/trading', clip: 'chart', score: 0.3 },
      { niche: 'finance/trading', keywords: ['green'], clip: 'chart', score: 0.35 },
      { niche: 'finance/crypto', clip: 'unlabelled', score: 0.2 },
    ];
    for (const c of cases) {
      const clips = LIBRARY.filter((x) => c.niche !== 'finance/crypto' || x.id !== 'coins');
      const shot = run({
        niche: c.niche,
        clips,
        footageKeywords: c.keywords ?? [],
        scenes: scenes('Let me explain something.'),
      }).shots[0]!;
      assert.deepEqual([shot.clipId, shot.matched, shot.matchedTerms, shot.score], [c.clip, [], [], c.score]);
    }
    const abstract = run({
      niche: 'finance/trading',
      clips: [clip('grain', 'Film grain', ['grain'], ['abstract'])],
      scenes: scenes('Let me explain something.'),
    }).shots[0]!;
    assert.equal(abstract.score, 0.1);
    const unrelated = run({ niche: 'events/halloween', clips: [LIBRARY[6]!], scenes: scenes('Boo.') })
      .shots[0]!;
    assert.equal(unrelated.score, 0);
  });

  test('both halves of a long scene carry its sentence', () => {
    const result = run({
      scenes: [{ index: 0, text: 'A long sentence about gold.', start: 2, end: 12 }],
      maxShotSec: 6,
    });
    assert.deepEqual(
      result.shots.map((s) => s.sentence),
      ['A long sentence about gold.', 'A long sentence about gold.'],
    );
    assert.deepEqual(result.shots[0]!.matchedTerms, ['gold']);
  });
});

describe('no repeats', () => {
  test('every eligible clip is used once before any repeats, and never twice in a row', () => {
    const many = scenes(...Array.from({ length: 25 }, () => 'Bitcoin again.'));
    const result = run({ niche: 'finance/crypto', scenes: many });
    const picked = ids(result);
    assert.equal(picked[0], 'coins');
    assert.equal(new Set(picked.slice(0, LIBRARY.length)).size, LIBRARY.length);
    for (let i = 1; i < picked.length; i++) assert.notEqual(picked[i], picked[i - 1]);
    assert.equal(new Set(picked.slice(LIBRARY.length, 2 * LIBRARY.length)).size, LIBRARY.length);
  });

  test('a single eligible clip is reused', () => {
    const result = run({ clips: [LIBRARY[0]!], scenes: scenes('One.', 'Two.', 'Three.') });
    assert.deepEqual(ids(result), ['gold-dust', 'gold-dust', 'gold-dust']);
  });
});

describe('exclusions', () => {
  const cases: { exclude: string[]; gone: string[]; kept: string[] }[] = [
    { exclude: ['car'], gone: ['city', 'sports-car', 'unlabelled'], kept: ['carpet', 'coins'] },
    { exclude: ['cars'], gone: ['city', 'sports-car'], kept: ['carpet'] },
    { exclude: ['sports car'], gone: ['sports-car'], kept: ['city', 'carpet'] },
    { exclude: ['coin'], gone: ['coins'], kept: ['carpet', 'city'] },
    { exclude: ['Ocean Waves'], gone: ['waves'], kept: ['coins'] },
    { exclude: ['wave ocean'], gone: [], kept: ['waves'] },
    { exclude: ['gold'], gone: ['gold-dust'], kept: ['bank'] },
  ];
  for (const c of cases) {
    test(`exclude ${JSON.stringify(c.exclude)}`, () => {
      const all = scenes(...Array.from({ length: LIBRARY.length }, () => 'Something.'));
      const picked = new Set(ids(run({ excludeKeywords: c.exclude, scenes: all })));
      for (const id of c.gone) assert.ok(!picked.has(id), `${id} should be excluded`);
      for (const id of c.kept) assert.ok(picked.has(id), `${id} should remain`);
      if (c.gone.length === 0) assert.equal(picked.size, LIBRARY.length - 1);
    });
  }

  test('unlabelled clips are refused only when exclusions are given', () => {
    const all = scenes(...Array.from({ length: LIBRARY.length }, () => 'Something.'));
    assert.ok(ids(run({ scenes: all })).includes('unlabelled'));
    const result = run({ scenes: all, excludeKeywords: ['zebra'] });
    assert.ok(!ids(result).includes('unlabelled'));
    assert.ok(result.warnings.includes('refused 1 unlabelled clip(s) because exclude_keywords were given'));
  });

  test('blank exclusion phrases are ignored', () => {
    const all = scenes(...Array.from({ length: LIBRARY.length }, () => 'Something.'));
    assert.ok(ids(run({ scenes: all, excludeKeywords: ['', '  '] })).includes('unlabelled'));
  });
});

describe('niche fallback', () => {
  const withoutCoins = LIBRARY.filter((c) => c.id !== 'coins');
  const cases: {
    name: string;
    input: Partial<FootageSelectionInput>;
    used: string | null;
    warning?: string;
  }[] = [
    { name: 'niche with clips', input: { niche: 'finance/crypto' }, used: 'finance/crypto' },
    {
      name: 'missing niche falls back to its parent',
      input: { niche: 'finance/crypto', clips: withoutCoins },
      used: 'finance',
      warning: "niche 'finance/crypto' has no clips; used closest niche 'finance'",
    },
    {
      name: 'a refused unlabelled parent clip moves on to a sibling',
      input: { niche: 'finance/crypto', clips: withoutCoins, excludeKeywords: ['zebra'] },
      used: 'finance/trading',
      warning: "niche 'finance/crypto' has no clips; used closest niche 'finance/trading'",
    },
    {
      name: 'excluded niche clips are reported as not eligible',
      input: { niche: 'finance/crypto', excludeKeywords: ['bitcoin'] },
      used: 'finance/trading',
      warning: "niche 'finance/crypto' has no eligible clips; used closest niche 'finance/trading'",
    },
    {
      name: 'nothing related at all',
      input: { niche: 'events/halloween', clips: [LIBRARY[6]!] },
      used: null,
      warning: "niche 'events/halloween' and its closest niches have no clips; used unrelated clips",
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const result = run(c.input);
      assert.equal(result.nicheUsed, c.used);
      if (c.warning) assert.ok(result.warnings.includes(c.warning), result.warnings.join(' | '));
      else assert.deepEqual(result.warnings, []);
    });
  }

  test('no clips at all is an error', () => {
    assert.throws(() => run({ clips: [] }), FootageSelectionError);
    assert.throws(
      () => run({ clips: [LIBRARY[1]!], excludeKeywords: ['traffic'] }),
      /no footage clip is eligible/,
    );
  });
});

describe('timing', () => {
  test('a long scene is covered by two different clips, back to back', () => {
    const result = run({
      scenes: [{ index: 0, text: 'A long sentence about gold.', start: 2, end: 12 }],
      maxShotSec: 6,
    });
    assert.equal(result.shots.length, 2);
    const [a, b] = result.shots;
    assert.notEqual(a!.clipId, b!.clipId);
    assert.deepEqual([a!.start, a!.duration, b!.start, b!.duration], [2, 5, 7, 5]);
    assert.equal(a!.clipId, 'gold-dust');
  });

  test('in-points keep the shot inside the clip; a clip shorter than the shot loops', () => {
    const short = clip('short', 'Short gold clip', ['gold'], ['luxury'], 2);
    const result = run({ clips: [short, ...LIBRARY], scenes: scenes('Gold.', 'Gold dust.', 'Marble bank.') });
    const first = result.shots[0]!;
    assert.deepEqual([first.clipId, first.inPoint, first.loops], ['short', 0, true]);
    for (const shot of result.shots.slice(1)) {
      assert.ok(shot.inPoint >= 0 && shot.inPoint + shot.duration <= 8 + 1e-9);
      assert.equal(shot.loops, false);
    }
  });

  test('deterministic for a seed; the seed varies in-points', () => {
    const input = { scenes: scenes('One.', 'Two.', 'Three.', 'Four.') };
    assert.deepEqual(run({ ...input, seed: 'abc' }), run({ ...input, seed: 'abc' }));
    const inPoints = (seed: string): number[] => run({ ...input, seed }).shots.map((s) => s.inPoint);
    assert.notDeepEqual(inPoints('abc'), inPoints('xyz'));
  });

  test('scenes are processed in timeline order whatever the input order', () => {
    const ordered = scenes('Bitcoin.', 'Bitcoin.');
    const result = run({ scenes: [ordered[1]!, ordered[0]!] });
    assert.deepEqual(
      result.shots.map((s) => s.sceneIndex),
      [0, 1],
    );
    assert.equal(result.shots[0]!.clipId, 'coins');
  });
});
