// flite (CMU Flite) arguments for synthesis, and its list of built-in voices.
import { checkSpeed } from './speed.ts';

/**
 * Speaks `text` with the built-in voice `voice` into a WAV file at the voice's own rate (16 kHz for rms, slt,
 * awb and kal16). The text is an argument: flite cannot open /dev/stdin when it is a socket, as Node's pipes
 * are. flite's `duration_stretch` scales every segment's duration, so speed 1.3 is a stretch of 1/1.3.
 */
export function fliteSynthesisArgs(voice: string, speed: number, text: string, outPath: string): string[] {
  const stretch = Number((1 / checkSpeed(speed)).toFixed(4));
  return ['-voice', voice, '--setf', `duration_stretch=${stretch}`, '-o', outPath, '-t', text];
}

export const FLITE_LIST_VOICES_ARGS = ['-lv'];

/** `flite -lv` prints "Voices available: kal awb_time kal16 awb rms slt". */
export function parseFliteVoiceList(text: string): string[] {
  const match = /Voices available:(.*)/.exec(text);
  return match ? match[1]!.trim().split(/\s+/).filter(Boolean) : [];
}
