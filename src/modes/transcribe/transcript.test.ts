import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { captionStyleById } from '../../media/captions/style-catalogue.ts';
import { buildTranscript, punctuateWords, transcriptFile, type Transcript } from './transcript.ts';

const words = [
  { word: 'well', start: 0.1, end: 0.4, confidence: 0.9 },
  { word: 'shit', start: 0.5, end: 0.8, confidence: 0.5 },
  { word: 'it', start: 1.0, end: 1.1, confidence: 0.7 },
  { word: 'works', start: 1.1, end: 1.6 },
];

describe('punctuateWords', () => {
  test('words take case and punctuation from the text, in order', () => {
    const out = punctuateWords('Well, shit. It works!', words);
    assert.deepEqual(
      out.map((w) => w.word),
      ['Well,', 'shit.', 'It', 'works!'],
    );
    assert.deepEqual(
      out.map((w) => w.start),
      words.map((w) => w.start),
    );
  });

  test('a word the text lacks keeps its own spelling and does not derail the rest', () => {
    const out = punctuateWords('Well, it works.', words);
    assert.deepEqual(
      out.map((w) => w.word),
      ['Well,', 'shit', 'it', 'works.'],
    );
  });
});

describe('buildTranscript', () => {
  test('spec 2 §2.6 fields, with speakers from diarization', () => {
    const transcript = buildTranscript({
      text: 'Well, shit. It works!',
      language: 'en',
      durationSec: 2.00049,
      words: words.map((w, i) => ({ ...w, speaker: i < 2 ? 'S1' : 'S2' })),
      speakers: [
        { id: 'S1', activeMinutes: 0.01 },
        { id: 'S2', activeMinutes: 0.01 },
      ],
      filterProfanity: false,
    });
    assert.deepEqual(transcript, {
      text: 'Well, shit. It works!',
      language: 'en',
      confidence: 0.7,
      duration_sec: 2,
      word_count: 4,
      words: [
        { text: 'Well,', start: 0.1, end: 0.4, confidence: 0.9, speaker: 'S1' },
        { text: 'shit.', start: 0.5, end: 0.8, confidence: 0.5, speaker: 'S1' },
        { text: 'It', start: 1, end: 1.1, confidence: 0.7, speaker: 'S2' },
        { text: 'works!', start: 1.1, end: 1.6, confidence: null, speaker: 'S2' },
      ],
      speakers: [
        { id: 'S1', estimated_minutes_active: 0.01 },
        { id: 'S2', estimated_minutes_active: 0.01 },
      ],
    });
  });

  test('without diarization no word has a speaker; profanity is masked in text and words', () => {
    const transcript = buildTranscript({
      text: 'Well, shit. It works!',
      language: 'en',
      durationSec: 2,
      words,
      filterProfanity: true,
    });
    assert.equal(transcript.text, 'Well, s***. It works!');
    assert.equal(transcript.words[1]!.text, 's***.');
    assert.ok(transcript.words.every((w) => w.speaker === null));
    assert.deepEqual(transcript.speakers, []);
  });

  test('no words: zero count and no confidence', () => {
    const transcript = buildTranscript({
      text: '',
      language: 'en',
      durationSec: 3,
      words: [],
      filterProfanity: false,
    });
    assert.equal(transcript.word_count, 0);
    assert.equal(transcript.confidence, null);
    assert.equal(transcript.text, '');
  });
});

describe('transcriptFile', () => {
  const transcript: Transcript = buildTranscript({
    text: 'Well, shit. It works!',
    language: 'en',
    durationSec: 2,
    words,
    filterProfanity: true,
  });
  const options = { style: captionStyleById('clean-white')!, frame: { width: 1080, height: 1920 } };

  test('each format with its name, type and content', () => {
    const json = transcriptFile(transcript, 'json', options);
    assert.equal(json.name, 'transcript.json');
    assert.equal(json.role, 'transcript');
    assert.deepEqual(JSON.parse(json.content), transcript);

    const srt = transcriptFile(transcript, 'srt', options);
    assert.equal(srt.contentType, 'application/x-subrip');
    assert.equal(srt.content, '1\n00:00:00,100 --> 00:00:01,600\nWell, s***. It works!\n');

    const vtt = transcriptFile(transcript, 'vtt', options);
    assert.match(vtt.content, /^WEBVTT\n\n00:00:00\.100 --> /);
    assert.match(vtt.content, /It works!/);

    const ass = transcriptFile(transcript, 'ass', options);
    assert.equal(ass.role, 'subtitle');
    assert.match(ass.content, /PlayResX: 1080\nPlayResY: 1920/);
    assert.match(ass.content, /^Dialogue: 0,0:00:00\.10,/m);
    assert.doesNotMatch(ass.content, /shit/);

    const txt = transcriptFile(transcript, 'txt', options);
    assert.equal(txt.content, 'Well, s***. It works!\n');
  });
});
