// festival arguments for synthesis with its HTS voices (text2wave), and its list of installed voices.
import { checkSpeed } from './speed.ts';

/**
 * text2wave reads the text from stdin and speaks it with `voice_<voice>` into a RIFF WAV (32 kHz for
 * cmu_us_slt_arctic_hts). HTS voices take their durations from the hts_engine, which ignores festival's
 * Duration_Stretch; its own speech-rate option `-r` (1 normal, above 1 faster) sets the speed instead.
 */
export function festivalSynthesisArgs(voice: string, speed: number, outPath: string): string[] {
  if (!/^[a-z0-9_]+$/.test(voice)) throw new Error(`not a festival voice name: ${voice}`);
  const rate = Number(checkSpeed(speed).toFixed(4));
  return [
    ...['-eval', `(voice_${voice})`],
    ...['-eval', `(set! hts_engine_params (append hts_engine_params '(("-r" ${rate}))))`],
    ...['-o', outPath],
  ];
}

/** `festival -b` with this prints the installed voices as one list: "(cmu_us_slt_arctic_hts kal_diphone)". */
export const FESTIVAL_LIST_VOICES_ARGS = ['-b', '(print (voice.list))'];

export function parseFestivalVoiceList(text: string): string[] {
  const match = /\(([^()]*)\)/.exec(text);
  return match ? match[1]!.trim().split(/\s+/).filter(Boolean) : [];
}
