// Types shared by the media engine's parts (voice, speech, captions, compose).

/** One spoken word placed on the audio timeline, in seconds from the start of the audio. */
export interface WordTiming {
  word: string;
  start: number;
  end: number;
  /** 0–1 where a recognizer gives one; absent for synthesized or aligned words. */
  confidence?: number;
  /** Speaker label from diarization, e.g. "S1". */
  speaker?: string;
}

/** A finished narration track with the timing of every word in it. */
export interface Narration {
  audioPath: string;
  durationSec: number;
  words: WordTiming[];
  /** Voice actually used, as listed in the voice catalogue. */
  voiceId: string;
  /** Tempo applied after synthesis (1 = none) so the narration fits its target length. */
  tempo: number;
}
