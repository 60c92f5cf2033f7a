import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WordTiming } from '../types.ts';
import { buildAss, escapeAssText, formatAssTime } from './build-ass.ts';
import { classicPreset, highlightPreset } from './caption-presets.ts';
import type { CaptionStyle } from './caption-style.ts';

const WORDS: WordTiming[] = [
  { word: 'Hello', start: 0.5, end: 0.9 },
  { word: 'world.', start: 1.0, end: 1.4 },
  { word: 'Next', start: 2.5, end: 2.8 },
  { word: 'one', start: 2.9, end: 3.3 },
];
const FULL_HD = { width: 1080, height: 1920 };

function lines(ass: string, prefix: string): string[] {
  return ass.split('\n').filter((l) => l.startsWith(prefix));
}

describe('formatAssTime', () => {
  const cases: [number, string][] = [
    [0, '0:00:00.00'],
    [50, '0:00:00.50'],
    [6123, '0:01:01.23'],
    [360000 + 5 * 6000 + 700 + 9, '1:05:07.09'],
  ];
  for (const [cs, expected] of cases) {
    test(`${cs} cs`, () => assert.equal(formatAssTime(cs), expected));
  }
});

describe('escapeAssText', () => {
  const cases: [string, string][] = [
    ['plain', 'plain'],
    ['{bold}', '\\{bold\\}'],
    ['a\\Nb', 'a\\\u2060Nb'],
  ];
  for (const [input, expected] of cases) {
    test(JSON.stringify(input), () => assert.equal(escapeAssText(input), expected));
  }
});

describe('buildAss', () => {
  test('script header and style line for highlight on 1080×1920', () => {
    const ass = buildAss(WORDS, highlightPreset(), FULL_HD);
    assert.deepEqual(ass.split('\n').slice(0, 11), [
      '[Script Info]',
      'ScriptType: v4.00+',
      'PlayResX: 1080',
      'PlayResY: 1920',
      'WrapStyle: 0',
      'ScaledBorderAndShadow: yes',
      'YCbCr Matrix: None',
      '',
      '[V4+ Styles]',
      'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
      // Bottom-centre (2), 90 px side margins, 400 px bottom UI + 20 px gap.
      'Style: Caption,DejaVu Sans,90,&H00FFFFFF,&H000AD6FF,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,6,3,2,90,90,420,1',
    ]);
    assert.ok(ass.endsWith('\n'));
  });

  test('highlight: one event per word, spoken word coloured, chunk ends at a long pause', () => {
    assert.deepEqual(lines(buildAss(WORDS, highlightPreset(), FULL_HD), 'Dialogue:'), [
      'Dialogue: 0,0:00:00.50,0:00:01.00,Caption,,0,0,0,,{\\1c&H0AD6FF&}Hello{\\1c&HFFFFFF&} world.',
      'Dialogue: 0,0:00:01.00,0:00:01.40,Caption,,0,0,0,,Hello {\\1c&H0AD6FF&}world.{\\1c&HFFFFFF&}',
      'Dialogue: 0,0:00:02.50,0:00:02.90,Caption,,0,0,0,,{\\1c&H0AD6FF&}Next{\\1c&HFFFFFF&} one',
      'Dialogue: 0,0:00:02.90,0:00:03.30,Caption,,0,0,0,,Next {\\1c&H0AD6FF&}one{\\1c&HFFFFFF&}',
    ]);
  });

  test('classic: upper-case phrases, held until the next phrase across a short pause', () => {
    const words: WordTiming[] = [
      { word: 'one', start: 0, end: 0.3 },
      { word: 'two,', start: 0.4, end: 0.7 },
      { word: 'three', start: 1.0, end: 1.3 },
      { word: 'four', start: 2.5, end: 2.9 },
    ];
    const ass = buildAss(
      words,
      classicPreset({ text_color: '#00FF00', position: 'top', font_size: 'small' }),
      FULL_HD,
    );
    assert.deepEqual(lines(ass, 'Style:'), [
      'Style: Caption,DejaVu Sans,56,&H0000FF00,&H0000FF00,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,5,2,8,90,90,310,1',
    ]);
    assert.deepEqual(lines(ass, 'Dialogue:'), [
      'Dialogue: 0,0:00:00.00,0:00:01.00,Caption,,0,0,0,,ONE TWO,',
      'Dialogue: 0,0:00:01.00,0:00:01.30,Caption,,0,0,0,,THREE',
      'Dialogue: 0,0:00:02.50,0:00:02.90,Caption,,0,0,0,,FOUR',
    ]);
  });

  test('karaoke: \\kf fill per word, highlight as the primary colour', () => {
    const style: CaptionStyle = { ...highlightPreset({ position: 'center' }), animation: 'karaoke' };
    const ass = buildAss(WORDS.slice(0, 2), style, FULL_HD);
    assert.deepEqual(lines(ass, 'Style:'), [
      'Style: Caption,DejaVu Sans,90,&H000AD6FF,&H00FFFFFF,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,6,3,5,90,90,0,1',
    ]);
    assert.deepEqual(lines(ass, 'Dialogue:'), [
      'Dialogue: 0,0:00:00.50,0:00:01.40,Caption,,0,0,0,,{\\kf50}Hello {\\kf40}world.',
    ]);
  });

  test('pop: words appear one by one with a scale-in, later words invisible', () => {
    const style: CaptionStyle = { ...highlightPreset(), animation: 'pop' };
    assert.deepEqual(lines(buildAss(WORDS.slice(0, 2), style, FULL_HD), 'Dialogue:'), [
      'Dialogue: 0,0:00:00.50,0:00:01.00,Caption,,0,0,0,,{\\fscx60\\fscy60\\t(0,120,\\fscx100\\fscy100)}Hello{\\fscx100\\fscy100} {\\alpha&HFF&}world.',
      'Dialogue: 0,0:00:01.00,0:00:01.40,Caption,,0,0,0,,Hello {\\fscx60\\fscy60\\t(0,120,\\fscx100\\fscy100)}world.{\\fscx100\\fscy100}',
    ]);
  });

  test('none: whole chunk, special characters escaped', () => {
    const style: CaptionStyle = { ...highlightPreset(), animation: 'none' };
    const words: WordTiming[] = [
      { word: '{x}', start: 0, end: 0.2 },
      { word: 'a\\N', start: 0.25, end: 0.5 },
    ];
    assert.deepEqual(lines(buildAss(words, style, FULL_HD), 'Dialogue:'), [
      'Dialogue: 0,0:00:00.00,0:00:00.50,Caption,,0,0,0,,\\{x\\} a\\\u2060N',
    ]);
  });

  test('sizes and margins scale to a small frame', () => {
    const ass = buildAss(WORDS, highlightPreset(), { width: 270, height: 480 });
    assert.deepEqual(lines(ass, 'Style:'), [
      'Style: Caption,DejaVu Sans,23,&H00FFFFFF,&H000AD6FF,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,1.5,0.75,2,23,23,105,1',
    ]);
    assert.match(ass, /PlayResX: 270\nPlayResY: 480\n/);
  });

  test('words sharing a start time do not create empty events', () => {
    const words: WordTiming[] = [
      { word: 'a', start: 1, end: 1.1 },
      { word: 'b', start: 1, end: 1.2 },
    ];
    assert.deepEqual(lines(buildAss(words, highlightPreset(), FULL_HD), 'Dialogue:'), [
      'Dialogue: 0,0:00:01.00,0:00:01.20,Caption,,0,0,0,,a {\\1c&H0AD6FF&}b{\\1c&HFFFFFF&}',
    ]);
  });

  test('fade: whole chunk with a fade-in', () => {
    const style: CaptionStyle = { ...highlightPreset(), animation: 'fade' };
    assert.deepEqual(lines(buildAss(WORDS.slice(0, 2), style, FULL_HD), 'Dialogue:'), [
      'Dialogue: 0,0:00:00.50,0:00:01.40,Caption,,0,0,0,,{\\fad(150,0)}Hello world.',
    ]);
  });

  test('emphasis: the spoken word coloured and enlarged', () => {
    const style: CaptionStyle = { ...highlightPreset(), animation: 'emphasis' };
    assert.deepEqual(lines(buildAss(WORDS.slice(0, 2), style, FULL_HD), 'Dialogue:'), [
      'Dialogue: 0,0:00:00.50,0:00:01.00,Caption,,0,0,0,,{\\1c&H0AD6FF&\\fscx120\\fscy120}Hello{\\1c&HFFFFFF&\\fscx100\\fscy100} world.',
      'Dialogue: 0,0:00:01.00,0:00:01.40,Caption,,0,0,0,,Hello {\\1c&H0AD6FF&\\fscx120\\fscy120}world.{\\1c&HFFFFFF&\\fscx100\\fscy100}',
    ]);
  });

  test('word-box: a box style under the text, its box shown only behind the spoken word', () => {
    const style: CaptionStyle = { ...highlightPreset(), animation: 'word-box' };
    const ass = buildAss(WORDS.slice(0, 2), style, FULL_HD);
    assert.deepEqual(lines(ass, 'Style:'), [
      'Style: Caption,DejaVu Sans,90,&H00FFFFFF,&H000AD6FF,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,6,3,2,90,90,420,1',
      // Same font and placement; box (outline colour) in the highlight colour, fully transparent by default.
      'Style: CaptionBox,DejaVu Sans,90,&H00FFFFFF,&H000AD6FF,&HFF0AD6FF,&HFF000000,-1,0,0,0,100,100,0,0,3,14,0,2,90,90,420,1',
    ]);
    assert.deepEqual(lines(ass, 'Dialogue:'), [
      'Dialogue: 0,0:00:00.50,0:00:01.00,CaptionBox,,0,0,0,,{\\1a&HFF&}{\\3a&H00&}Hello{\\3a&HFF&} world.',
      'Dialogue: 0,0:00:01.00,0:00:01.40,CaptionBox,,0,0,0,,{\\1a&HFF&}Hello {\\3a&H00&}world.{\\3a&HFF&}',
      'Dialogue: 1,0:00:00.50,0:00:01.40,Caption,,0,0,0,,Hello world.',
    ]);
  });

  test('optional looks: outline opacity, glyph width, tilt and blur (scaled to the frame)', () => {
    const style: CaptionStyle = {
      ...highlightPreset(),
      animation: 'karaoke',
      outlineOpacity: 0.5,
      scaleX: 90,
      rotation: 3,
      blur: 8,
    };
    const ass = buildAss(WORDS.slice(0, 2), style, { width: 540, height: 960 });
    assert.deepEqual(lines(ass, 'Style:'), [
      'Style: Caption,DejaVu Sans,45,&H000AD6FF,&H00FFFFFF,&H80000000,&H80000000,-1,0,0,0,90,100,0,3,1,3,1.5,2,45,45,210,1',
    ]);
    assert.deepEqual(lines(ass, 'Dialogue:'), [
      'Dialogue: 0,0:00:00.50,0:00:01.40,Caption,,0,0,0,,{\\blur4}{\\kf50}Hello {\\kf40}world.',
    ]);
  });

  test('no words gives a valid script without events', () => {
    const ass = buildAss([], highlightPreset(), FULL_HD);
    assert.deepEqual(lines(ass, 'Dialogue:'), []);
    assert.match(
      ass,
      /\[Events\]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n$/,
    );
  });
});
