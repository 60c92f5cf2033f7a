import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { timedWords } from '../../../test/support/long-video-fixture.ts';
import type { WordTiming } from '../types.ts';
import { findMoments } from './find-moments.ts';

const FILLER = [
  'So we go over the usual things again today.',
  'Then the next part follows the same order as before.',
  'It goes on like that for a while with the rest of it.',
  'After that we move to the other part of the list.',
  'The rest stays the way it was set up earlier on.',
  'That is how this section goes until the end of it.',
];
const MONEY = [
  'Why do most people never get rich?',
  'Here is the truth nobody tells you.',
  'Ninety percent of new businesses fail within five years.',
  'The biggest mistake is not the idea, it is cash.',
  'Save ten dollars a day and you will have three thousand six hundred dollars a year.',
  'Twenty percent of that grows to forty thousand in ten years.',
];
const PHONE = [
  'Stop scrolling for a second, this will shock you.',
  'The average person checks their phone ninety six times a day.',
  'Scientists found that one week without social media made people happier.',
  'What would you do with two extra hours every single day?',
  'Most people never even notice the habit.',
  'Try it for seven days and count the hours you get back.',
];
const NUMBERS = [
  'Here is what the numbers say about saving.',
  'Ninety percent of new businesses close within five years.',
  'Ten dollars a day adds up to three thousand six hundred dollars a year.',
  'Twenty percent of that grows to forty thousand in ten years.',
  'Seven out of ten families keep less than one thousand dollars.',
  'Two hundred people in our town started saving last spring.',
];
const FEELINGS = [
  'Here is what happened to us that night.',
  'I was terrified, and my mother was crying in the street.',
  'It was the most painful and heartbreaking night of my life.',
  'But the love of strangers was incredible and beautiful.',
  'Our neighbors were heroes, and I felt grateful and proud.',
  'I cry with joy whenever I think of that amazing kindness.',
];

/** Passages one after another, 1.5 s of silence between them; returns words and each passage's span. */
function talk(passages: string[][]): {
  words: WordTiming[];
  spans: { start: number; end: number }[];
  duration: number;
} {
  const sentences = passages.flat();
  const gaps = passages.flatMap((p) => p.map((_, i) => (i === p.length - 1 ? 1.5 : 0.4)));
  const words = timedWords(sentences, { sentenceGapSec: gaps });
  const spans: { start: number; end: number }[] = [];
  let index = 0;
  for (const p of passages) {
    const count = p.join(' ').split(/\s+/).length;
    spans.push({ start: words[index]!.start, end: words[index + count - 1]!.end });
    index += count;
  }
  return { words, spans, duration: words[words.length - 1]!.end + 1 };
}

function inside(m: { startSec: number; endSec: number }, span: { start: number; end: number }): boolean {
  return m.startSec >= span.start - 1e-6 && m.endSec <= span.end + 1e-6;
}

describe('findMoments', () => {
  const { words, spans, duration } = talk([FILLER, MONEY, FILLER, PHONE, FILLER]);

  test('picks the strong passages, best first, without overlap', () => {
    const moments = findMoments({ words, durationSec: duration, loudness: [], clipCount: 5 });
    assert.equal(moments.length, 2, moments.map((m) => `${m.viralScore} ${m.title}`).join('; '));
    assert.ok(moments[0]!.viralScore >= moments[1]!.viralScore);
    assert.ok(moments.some((m) => inside(m, spans[1]!)));
    assert.ok(moments.some((m) => inside(m, spans[3]!)));
    for (const m of moments) {
      assert.ok(m.durationSec >= 15 && m.durationSec <= 60, String(m.durationSec));
      assert.equal(m.transcript, m.words.map((w) => w.word).join(' '));
      assert.equal(m.words[0]!.start, m.startSec);
      assert.ok(
        m.title.length > 0 &&
          m.transcript.toLowerCase().includes(m.title.replace(/[?…]$/, '').toLowerCase().split(' ')[0]!),
      );
    }
  });

  test('clipCount caps the number of moments', () => {
    assert.equal(findMoments({ words, durationSec: duration, loudness: [], clipCount: 1 }).length, 1);
  });

  test('a focus keeps only the moments that mention it', () => {
    const moments = findMoments({
      words,
      durationSec: duration,
      loudness: [],
      clipCount: 5,
      focus: 'phones and social media',
    });
    assert.equal(moments.length, 1);
    assert.ok(inside(moments[0]!, spans[3]!));
    assert.ok(moments[0]!.relevance > 0);
    assert.ok((moments[0]!.scoreBreakdown.focus ?? 0) > 0);
  });

  test('a focus nothing mentions is ignored rather than returning nothing', () => {
    const plain = findMoments({ words, durationSec: duration, loudness: [], clipCount: 5 });
    const focused = findMoments({
      words,
      durationSec: duration,
      loudness: [],
      clipCount: 5,
      focus: 'volcanoes',
    });
    assert.deepEqual(
      focused.map((m) => [m.startSec, m.endSec]),
      plain.map((m) => [m.startSec, m.endSec]),
    );
    assert.equal(focused[0]!.scoreBreakdown.focus, undefined);
  });

  test('content purpose steers which of two strong moments comes first', () => {
    const mixed = talk([NUMBERS, FILLER, FEELINGS]);
    const first = (contentPurpose: string) =>
      findMoments({
        words: mixed.words,
        durationSec: mixed.duration,
        loudness: [],
        clipCount: 2,
        contentPurpose,
      })[0]!;
    assert.ok(inside(first('case_study'), mixed.spans[0]!));
    assert.ok(inside(first('entertainment'), mixed.spans[2]!));
  });

  test('filler alone still gives its best moment, and only that one', () => {
    const dull = talk([FILLER, FILLER, FILLER]);
    const moments = findMoments({
      words: dull.words,
      durationSec: dull.duration,
      loudness: [],
      clipCount: 3,
    });
    assert.equal(moments.length, 1);
    assert.ok(moments[0]!.viralScore < 45);
  });

  test('a moment avoids opening on a dangling connective', () => {
    const dangling = talk([['And so here is the thing.', ...MONEY.slice(1)], FILLER]);
    const [best] = findMoments({
      words: dangling.words,
      durationSec: dangling.duration,
      loudness: [],
      clipCount: 1,
    });
    assert.notEqual(best!.words[0]!.word.toLowerCase(), 'and');
  });

  test('little speech gives a shorter moment; almost none gives nothing', () => {
    const short = talk([MONEY.slice(0, 3)]);
    const moments = findMoments({
      words: short.words,
      durationSec: short.duration,
      loudness: [],
      clipCount: 2,
    });
    assert.equal(moments.length, 1);
    assert.ok(moments[0]!.durationSec >= 6 && moments[0]!.durationSec < 15);
    const tiny = talk([['Hello there.']]);
    assert.deepEqual(
      findMoments({ words: tiny.words, durationSec: tiny.duration, loudness: [], clipCount: 2 }),
      [],
    );
    assert.deepEqual(findMoments({ words: [], durationSec: 30, loudness: [], clipCount: 2 }), []);
  });
});
