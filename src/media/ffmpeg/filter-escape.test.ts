import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeFilterValue, ffmpegColor, num } from './filter-escape.ts';
import { runFfmpeg } from './runner.ts';

describe('escapeFilterValue', () => {
  const cases: [string, string][] = [
    ['/plain/path.ass', '/plain/path.ass'],
    ['C:/subs.ass', 'C\\\\:/subs.ass'],
    ["it's", "it\\\\\\'s"],
    ['a,b;c[d]', 'a\\,b\\;c\\[d\\]'],
    ['back\\slash', 'back\\\\\\\\slash'],
    ['two words', 'two\\\\\\ words'],
    ['100%', '100%'],
  ];
  for (const [input, expected] of cases) {
    test(JSON.stringify(input), () => assert.equal(escapeFilterValue(input), expected));
  }

  test('ffmpeg reads back a file whose path has every special character', async () => {
    const dir = await mkdtemp(join(tmpdir(), "rs esc [a],b;c'd:e-"));
    try {
      const wav = join(dir, "tone's [1], a;b:c.wav");
      await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'sine=d=0.5', wav]);
      const out = join(dir, 'copy.wav');
      await runFfmpeg([
        '-y',
        '-filter_complex',
        `amovie=filename=${escapeFilterValue(wav)}[a]`,
        '-map',
        '[a]',
        out,
      ]);
      const { stderrTail } = await runFfmpeg(['-i', out, '-f', 'null', '-']);
      assert.match(stderrTail, /Duration: 00:00:00\.50/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('ffmpegColor', () => {
  test('converts #RRGGBB', () => assert.equal(ffmpegColor('#ffd60a'), '0xFFD60A'));
  for (const bad of ['FFD60A', '#FFF', '#GGGGGG', 'red']) {
    test(`rejects ${bad}`, () => assert.throws(() => ffmpegColor(bad), RangeError));
  }
});

describe('num', () => {
  const cases: [number, number | undefined, string][] = [
    [2, undefined, '2'],
    [1.5, undefined, '1.5'],
    [29.966666666, undefined, '29.966667'],
    [0.1 + 0.2, undefined, '0.3'],
    [-0.0000001, undefined, '0'],
    [1.23456, 2, '1.23'],
    [-14, undefined, '-14'],
  ];
  for (const [value, digits, expected] of cases) {
    test(`${value} → ${expected}`, () => assert.equal(num(value, digits), expected));
  }
  test('rejects non-finite', () => assert.throws(() => num(Infinity), RangeError));
});
