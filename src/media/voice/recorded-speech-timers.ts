// Word timings for speech that arrives without any (a speech service's audio): forced alignment of the known
// script first, then the words a speech recognizer hears in the audio matched onto the script. An estimate is
// used only for languages neither of them handles.
import type { SpeechRecognizer } from '../speech/recognizer.ts';
import { sentenceEstimateTimer } from './estimate-timer.ts';
import { isoLanguageOf } from './language-codes.ts';
import { pocketsphinxTimer } from './pocketsphinx-timer.ts';
import { scriptAlignerTimer } from './script-aligner-timer.ts';
import type { WordTimer } from './word-timer.ts';

/** A recognizer's timed words, mapped back onto the script's words (words it missed are interpolated). */
export function recognizerTimer(recognizer: SpeechRecognizer): WordTimer {
  return scriptAlignerTimer(
    async (audioPath, _text, opts) => {
      const heard = await recognizer.transcribe(audioPath, {
        languageHint: opts?.language,
        signal: opts?.signal,
      });
      return heard.words;
    },
    (language) => recognizer.languages().includes(isoLanguageOf(language)),
    'recognized',
  );
}

export function recordedSpeechTimers(recognizer?: SpeechRecognizer): WordTimer[] {
  const timers = [pocketsphinxTimer(), ...(recognizer ? [recognizerTimer(recognizer)] : [])];
  const estimate = sentenceEstimateTimer();
  return [
    ...timers,
    { ...estimate, supports: (language) => !timers.some((timer) => timer.supports(language)) },
  ];
}
