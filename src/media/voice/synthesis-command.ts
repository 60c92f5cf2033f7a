// The command that speaks one piece of text with a catalogue voice into a WAV file, for each engine.
import { toAsciiSpeech } from './ascii-text.ts';
import { espeakSynthesisArgs, speedToWordsPerMinute } from './espeak-args.ts';
import { festivalSynthesisArgs } from './festival-args.ts';
import { fliteSynthesisArgs } from './flite-args.ts';
import type { VoiceInfo } from './voice-catalogue.ts';

export interface SynthesisCommand {
  command: string;
  args: string[];
  /** Written to the tool's stdin. */
  input?: string;
}

export function synthesisCommand(
  voice: Pick<VoiceInfo, 'engine' | 'engineVoice'>,
  text: string,
  speed: number,
  outPath: string,
): SynthesisCommand {
  switch (voice.engine) {
    case 'espeak':
      return {
        command: 'espeak-ng',
        args: espeakSynthesisArgs(voice.engineVoice, speedToWordsPerMinute(speed), outPath),
        input: text,
      };
    case 'flite':
      return {
        command: 'flite',
        args: fliteSynthesisArgs(voice.engineVoice, speed, toAsciiSpeech(text), outPath),
      };
    case 'festival':
      return {
        command: 'text2wave',
        args: festivalSynthesisArgs(voice.engineVoice, speed, outPath),
        input: toAsciiSpeech(text),
      };
  }
}
