import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LibraryClipFile } from '../../media/library/stock-library.ts';
import type { Config } from '../../platform/config.ts';
import {
  dryRunFootageWarnings,
  dryRunGapWarning,
  footageMatchWarnings,
  renderGapWarning,
  withFootageMatchCheck,
  type FootageMatchFields,
} from './footage-match-warnings.ts';

const gap = {
  index: 2,
  sentence: 'Quantum computers crack every password.',
  words: ['quantum', 'computers', 'crack', 'password'],
};
const UPLOAD =
  'upload clips tagged "quantum", "computers", "crack" via POST /api/stock-clips/direct-upload?tags=quantum,computers,crack';

describe('the fix a warning names', () => {
  test('without a provider: upload, or set PEXELS_API_KEY', () => {
    const warning = dryRunGapWarning(gap, { configured: false });
    assert.match(warning, /^Sentence 3 \("Quantum computers crack every password\."\) shares no word/);
    assert.ok(warning.includes(UPLOAD), warning);
    assert.match(warning, /set PEXELS_API_KEY/);
  });

  test('with Pexels asked for the sentence: what it is asked, and the upload if it has nothing', () => {
    const warning = dryRunGapWarning(gap, { configured: true, queries: ['gold', 'quantum computers crack'] });
    assert.match(warning, /asks Pexels for "quantum computers crack"/);
    assert.ok(warning.includes(UPLOAD), warning);
    assert.doesNotMatch(warning, /PEXELS_API_KEY/);
  });

  test('with Pexels not asked for it (searches used up): upload, or footage_keywords', () => {
    const warning = dryRunGapWarning(gap, { configured: true, queries: ['a', 'b', 'c', 'd'] });
    assert.match(warning, /only 4 searches, none for it/);
    assert.ok(warning.includes(UPLOAD), warning);
    assert.match(warning, /footage_keywords/);
  });

  test('after a render', () => {
    assert.match(renderGapWarning(gap, false), /got niche footage.*set PEXELS_API_KEY/);
    const withProvider = renderGapWarning(gap, true);
    assert.match(withProvider, /Pexels clips included/);
    assert.doesNotMatch(withProvider, /PEXELS_API_KEY/);
  });

  test('a long sentence is quoted shortened', () => {
    const long = { ...gap, sentence: `Quantum ${'very '.repeat(40)}long.` };
    const quoted = /\("([^"]*)"\)/.exec(dryRunGapWarning(long, { configured: false }))![1]!;
    assert.equal(quoted.length, 80);
    assert.ok(quoted.endsWith('…'));
  });
});

const uploaded = (id: string, title: string, tags: string[]): LibraryClipFile => ({
  id,
  title,
  tags,
  niches: [],
  durationSec: 4,
  source: 'uploaded',
  path: `/nowhere/${id}.mp4`,
});

function fields(overrides: Partial<FootageMatchFields> = {}): FootageMatchFields {
  return {
    script: 'Gold dust rises in the dark. Quantum computers crack every password. So here it is.',
    language: 'en',
    assetUrls: [],
    footageKeywords: [],
    excludeKeywords: [],
    ...overrides,
  };
}

describe('dryRunFootageWarnings', () => {
  const empty = { readyClips: async () => [] };

  test('checks the script against the built-in catalogue even before any clip is made', async () => {
    const warnings = await dryRunFootageWarnings(fields(), empty, false);
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0]!, /^Sentence 2 \("Quantum computers/);
  });

  test('a ready clip tagged with the sentence’s words clears it', async () => {
    const library = { readyClips: async () => [uploaded('clip_q', 'Server room', ['quantum'])] };
    assert.deepEqual(await dryRunFootageWarnings(fields(), library, false), []);
  });

  test('an excluded clip does not count', async () => {
    const library = { readyClips: async () => [uploaded('clip_q', 'Server room', ['quantum'])] };
    const warnings = await dryRunFootageWarnings(fields({ excludeKeywords: ['server'] }), library, false);
    assert.equal(warnings.length, 1);
  });

  test('nothing to check without a script or with the caller’s own footage', async () => {
    assert.deepEqual(await dryRunFootageWarnings(fields({ script: undefined }), empty, false), []);
    assert.deepEqual(
      await dryRunFootageWarnings(fields({ assetUrls: ['https://x.test/a.mp4'] }), empty, false),
      [],
    );
  });

  test('with Pexels configured the warning says what the render asks it', async () => {
    const [warning] = await dryRunFootageWarnings(fields(), empty, true);
    assert.match(warning!, /asks Pexels for "quantum computers crack"/);
  });
});

describe('withFootageMatchCheck', () => {
  const config = { pexels: undefined } as Config;
  const library = {
    readyClips: () => {
      throw new Error('a live call must not read the library for warnings');
    },
  };

  test('only a dry run reads the library; its estimate finds the warnings on the validated request', async () => {
    const live = await withFootageMatchCheck({ a: 1 }, fields(), { dryRun: false, config }, library);
    assert.deepEqual(footageMatchWarnings(live), []);
    const validated = { a: 2 };
    const dry = await withFootageMatchCheck(
      validated,
      fields(),
      { dryRun: true, config },
      { readyClips: async () => [] },
    );
    assert.equal(dry, validated);
    assert.equal(footageMatchWarnings(dry).length, 1);
    assert.deepEqual(footageMatchWarnings({ a: 2 }), [], 'another object, even an equal one, has none');
  });
});
