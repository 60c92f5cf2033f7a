import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WordTiming } from '../types.ts';
import type { Cue } from './cues.ts';
import { toText } from './plain-text.ts';
import { toSrt } from './srt.ts';
import { toVtt } from './vtt.ts';

const cues: Cue[] = [
  { start: 0.5, end: 2.25, lines: ['Fish & chips <hot>', 'on the pier.'] },
  { start: 62.345, end: 3725.0015, lines: ['Goodbye.'] },
];

const words: WordTiming[] = [
  { word: 'Hello', start: 0.1, end: 0.4 },
  { word: 'there.', start: 0.4, end: 0.9 },
  { word: 'Bye.', start: 3, end: 3.2 },
];

describe('toSrt', () => {
  const cases: { name: string; input: Cue[] | WordTiming[]; expected: string }[] = [
    { name: 'no cues', input: [], expected: '' },
    {
      name: 'cues as given, numbered from 1, comma milliseconds, text verbatim',
      input: cues,
      expected:
        '1\n00:00:00,500 --> 00:00:02,250\nFish & chips <hot>\non the pier.\n\n' +
        '2\n00:01:02,345 --> 01:02:05,002\nGoodbye.\n',
    },
    {
      name: 'timed words are grouped into cues first',
      input: words,
      expected: '1\n00:00:00,100 --> 00:00:00,900\nHello there.\n\n2\n00:00:03,000 --> 00:00:03,700\nBye.\n',
    },
  ];
  for (const c of cases) test(c.name, () => assert.equal(toSrt(c.input), c.expected));
});

describe('toVtt', () => {
  const cases: { name: string; input: Cue[] | WordTiming[]; expected: string }[] = [
    { name: 'no cues is a valid empty file', input: [], expected: 'WEBVTT\n' },
    {
      name: 'header, dot milliseconds, markup characters escaped',
      input: cues,
      expected:
        'WEBVTT\n\n00:00:00.500 --> 00:00:02.250\nFish &amp; chips &lt;hot&gt;\non the pier.\n\n' +
        '00:01:02.345 --> 01:02:05.002\nGoodbye.\n',
    },
    {
      name: 'timed words are grouped into cues first',
      input: words,
      expected:
        'WEBVTT\n\n00:00:00.100 --> 00:00:00.900\nHello there.\n\n00:00:03.000 --> 00:00:03.700\nBye.\n',
    },
  ];
  for (const c of cases) test(c.name, () => assert.equal(toVtt(c.input), c.expected));
});

describe('toText', () => {
  const at = (text: string, start: number, each = 0.3): WordTiming[] =>
    text.split(' ').map((word, i) => ({ word, start: start + i * each, end: start + (i + 1) * each }));
  const cases: {
    name: string;
    words: WordTiming[];
    opts?: Parameters<typeof toText>[1];
    expected: string;
  }[] = [
    { name: 'nothing spoken', words: [], expected: '' },
    {
      name: 'one paragraph',
      words: at('We are here. It is fine.', 0),
      expected: 'We are here. It is fine.\n',
    },
    {
      name: 'a long pause starts a paragraph, even mid-sentence',
      words: [...at('First we talk and', 0), ...at('then we listen.', 5)],
      expected: 'First we talk and\n\nthen we listen.\n',
    },
    {
      name: 'a paragraph closes after the sentence limit',
      words: at('One. Two. Three. Four. Five.', 0),
      opts: { sentencesPerParagraph: 2 },
      expected: 'One. Two.\n\nThree. Four.\n\nFive.\n',
    },
    {
      name: 'empty words are skipped',
      words: [{ word: ' ', start: 0, end: 0.1 }, ...at('Just this.', 0.1)],
      expected: 'Just this.\n',
    },
  ];
  for (const c of cases) test(c.name, () => assert.equal(toText(c.words, c.opts), c.expected));
});
