// How intelligible each local English voice is: every passage of voice-passages.ts is narrated through the
// service's own synthesis (sentence by sentence, 48 kHz) and transcribed by the local pocketsphinx recognizer;
// the word error rate against the script says how much of it a listener-like machine heard wrong.
// Run: node --import tsx bench/speech/local-voices.ts [--voices flite:rms,festival:slt-hts]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PocketsphinxRecognizer } from '../../src/media/speech/pocketsphinx-recognizer.ts';
import {
  normalizeWords,
  wordErrorRate,
  wordErrors,
  type WordErrors,
} from '../../src/media/speech/word-error-rate.ts';
import { synthesize } from '../../src/media/voice/synthesize.ts';
import { listVoices } from '../../src/media/voice/voice-catalogue.ts';
import { timed } from '../support/cpu-time.ts';
import { VOICE_PASSAGES } from './voice-passages.ts';

const { values } = parseArgs({ options: { voices: { type: 'string' } } });
const english = listVoices().filter((v) => v.language === 'en');
// By default: every natural voice, and espeak-ng's two en-us defaults for comparison.
const voices = values.voices
  ? values.voices.split(',').map((id) => english.find((v) => v.id === id) ?? fail(`unknown voice ${id}`))
  : english.filter(
      (v) => v.engine !== 'espeak' || v.id === 'espeak:en-us:male-1' || v.id === 'espeak:en-us:female-1',
    );

function fail(message: string): never {
  throw new Error(message);
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const recognizer = new PocketsphinxRecognizer();
const work = await mkdtemp(join(tmpdir(), 'bench-voices-'));
const rows: string[][] = [];
try {
  for (const voice of voices) {
    const perPassage: string[] = [];
    let total: WordErrors = {
      substitutions: 0,
      deletions: 0,
      insertions: 0,
      referenceLength: 0,
      matches: [],
    };
    let audioSec = 0;
    let synthCpuSec = 0;
    for (const [i, text] of VOICE_PASSAGES.entries()) {
      const { result: speech, timing } = await timed(() =>
        synthesize({ text, voice, outPath: join(work, `${i}.wav`) }),
      );
      audioSec += speech.durationSec;
      synthCpuSec += timing.childCpu + timing.nodeCpu;
      const heard = await recognizer.transcribe(speech.audioPath, { languageHint: 'en' });
      const errors = wordErrors(normalizeWords(text), normalizeWords(heard.text));
      perPassage.push(pct(wordErrorRate(errors)));
      total = {
        ...total,
        substitutions: total.substitutions + errors.substitutions,
        deletions: total.deletions + errors.deletions,
        insertions: total.insertions + errors.insertions,
        referenceLength: total.referenceLength + errors.referenceLength,
      };
      console.error(`${voice.id} #${i + 1}: ${pct(wordErrorRate(errors))} | ${heard.text}`);
    }
    rows.push([
      voice.id,
      voice.gender,
      perPassage.join(' / '),
      pct(wordErrorRate(total)),
      `${Math.round((total.referenceLength / audioSec) * 60)} wpm`,
      (synthCpuSec / audioSec).toFixed(2),
    ]);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

console.log(
  '| Voice | Gender | WER per passage (1–5) | WER, all | Rate | Synthesis + alignment, CPU s per s of audio |',
);
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
