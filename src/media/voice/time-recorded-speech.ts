// Word timings for speech that was not synthesized here sentence by sentence (e.g. a speech API's audio):
// the whole recording is one segment, and its pauses anchor the sentence boundaries.
import { readFile } from 'node:fs/promises';
import { recordedSpeechTimers } from './recorded-speech-timers.ts';
import { splitScript } from './script-words.ts';
import { parseWav } from './wav-file.ts';
import { timeWords, type TimingOutcome, type WordTimer } from './word-timer.ts';

export interface RecordedSpeech {
  /** WAV file. */
  audioPath: string;
  /** The exact text that was spoken. */
  text: string;
  language: string;
  /** espeak-ng voice for the language, used for phonemes; omit when espeak has none. */
  espeakVoice?: string;
  signal?: AbortSignal;
  timers?: readonly WordTimer[];
}

export async function timeRecordedSpeech(
  input: RecordedSpeech,
): Promise<TimingOutcome & { durationSec: number }> {
  const durationSec = parseWav(await readFile(input.audioPath)).durationSec;
  const words = splitScript(input.text, input.language).flatMap((s) => s.words);
  if (words.length === 0) throw new Error('Narration text has no words to speak.');
  const timed = await timeWords(
    {
      audioPath: input.audioPath,
      language: input.language,
      segments: [{ start: 0, end: durationSec, words }],
      espeakVoice: input.espeakVoice,
      signal: input.signal,
    },
    input.timers ?? recordedSpeechTimers(),
  );
  return { ...timed, durationSec };
}
