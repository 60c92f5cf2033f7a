// The shot list of an AI video: one shot per visual beat of the prompt, cut where the narration ends a sentence
// when it is narrated. A shot never lasts longer than the engine made it (a hosted model's native length).
import { splitSentences } from '../../media/script/sentences.ts';
import type { WordTiming } from '../../media/types.ts';

/** The visual beats of a prompt: its sentences, and clauses joined by "then" or ";" inside them. */
export function visualBeats(prompt: string, language = 'en'): string[] {
  const beats = splitSentences(prompt, language)
    .flatMap((sentence) => sentence.split(/;|,?\s+then\s+|,?\s+and then\s+/i))
    .map((beat) => beat.trim().replace(/[.;,]+$/, ''))
    .filter((beat) => beat.length > 0);
  return beats.length > 0 ? beats : [prompt.trim()];
}

/** The beat each of `shots` shots shows: beats spread in order over the shots (a beat may span several). */
export function beatsForShots(beats: string[], shots: number): string[] {
  return Array.from({ length: shots }, (_, i) => beats[Math.floor((i * beats.length) / shots)]!);
}

/** Where each narrated sentence ends on the timeline (seconds), from the narration's own word timings. */
export function sentenceEnds(sentences: string[], words: WordTiming[]): number[] {
  const ends: number[] = [];
  let consumed = 0;
  for (const sentence of sentences) {
    consumed += sentence.split(/\s+/).filter(Boolean).length;
    const word = words[Math.min(words.length, consumed) - 1];
    if (word) ends.push(word.end);
  }
  return ends;
}

export interface ShotCut {
  start: number;
  duration: number;
}

/**
 * Cuts `videoSec` into `shots` pieces of at most `maxShotSec` each. Without narration the cuts are even; with
 * it each cut moves to the nearest sentence end within reach, so a new picture comes with a new sentence.
 */
export function cutShots(
  videoSec: number,
  shots: number,
  maxShotSec: number,
  boundaries: number[] = [],
): ShotCut[] {
  const cuts: number[] = [0];
  for (let i = 1; i < shots; i++) {
    const previous = cuts[i - 1]!;
    const remaining = shots - i;
    // The earliest cut that leaves the remaining shots enough length, the latest this shot can reach.
    const earliest = Math.max(previous + 0.5, videoSec - remaining * maxShotSec);
    const latest = Math.min(previous + maxShotSec, videoSec - remaining * 0.5);
    const ideal = Math.min(latest, Math.max(earliest, (videoSec * i) / shots));
    const reach = maxShotSec / 2;
    const near = boundaries
      .filter((b) => b >= earliest && b <= latest && Math.abs(b - ideal) <= reach)
      .sort((a, b) => Math.abs(a - ideal) - Math.abs(b - ideal))[0];
    cuts.push(near ?? ideal);
  }
  cuts.push(videoSec);
  return cuts.slice(0, -1).map((start, i) => ({ start, duration: cuts[i + 1]! - start }));
}
