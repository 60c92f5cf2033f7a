// Who spoke when, from the audio alone: timed words are grouped into speech segments, each segment's MFCC
// frames are modelled by one full-covariance Gaussian, and segments are merged bottom-up while the Bayesian
// information criterion (BIC) says one voice explains two clusters better than two voices do.
// Clearly different voices (two readers, a man and a woman) are told apart; similar voices may be merged, and a
// turn shorter than a segment (about 3 s) takes the label of the voice that dominates that segment.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WordTiming } from '../types.ts';
import { toRecognizerPcm } from './audio-prep.ts';
import { MFCC_DIMS, mfccFrames } from './mfcc.ts';

export interface SpeakerSummary {
  id: string;
  /** Total duration of this speaker's words, in minutes. */
  activeMinutes: number;
}

export interface Diarization {
  words: WordTiming[];
  speakers: SpeakerSummary[];
}

export interface DiarizeOptions {
  /** BIC penalty weight: higher merges more eagerly (fewer speakers). */
  penalty?: number;
  signal?: AbortSignal;
}

export interface SpeechSegment {
  start: number;
  end: number;
  /** Indexes into the word list. */
  words: number[];
}

/** Consecutive words joined into segments, split at pauses of `maxGapSec` and at `maxSegmentSec` of length. */
export function speechSegments(
  words: readonly WordTiming[],
  maxGapSec = 0.3,
  maxSegmentSec = 3,
): SpeechSegment[] {
  const segments: SpeechSegment[] = [];
  words.forEach((word, i) => {
    const current = segments[segments.length - 1];
    if (current && word.start - current.end <= maxGapSec && word.end - current.start <= maxSegmentSec) {
      current.end = Math.max(current.end, word.end);
      current.words.push(i);
    } else segments.push({ start: word.start, end: word.end, words: [i] });
  });
  return segments;
}

/** Sufficient statistics of a set of feature vectors: count, sum and sum of outer products. */
export interface GaussianStats {
  n: number;
  sum: Float64Array;
  outer: Float64Array;
}

export function statsOf(frames: readonly Float64Array[], dims = MFCC_DIMS): GaussianStats {
  const sum = new Float64Array(dims);
  const outer = new Float64Array(dims * dims);
  for (const x of frames) {
    for (let i = 0; i < dims; i++) {
      sum[i]! += x[i]!;
      for (let j = 0; j < dims; j++) outer[i * dims + j]! += x[i]! * x[j]!;
    }
  }
  return { n: frames.length, sum, outer };
}

export function mergeStats(a: GaussianStats, b: GaussianStats): GaussianStats {
  return {
    n: a.n + b.n,
    sum: a.sum.map((x, i) => x + b.sum[i]!),
    outer: a.outer.map((x, i) => x + b.outer[i]!),
  };
}

/** log-determinant of the maximum-likelihood covariance, by Cholesky, with a small ridge for stability. */
export function logDetCovariance(s: GaussianStats): number {
  return logDetOfPooled(s, undefined);
}

const scratch = new Float64Array(MFCC_DIMS * MFCC_DIMS);

/** log|Σ| of the frames of `a` and `b` together (b optional), without building their merged statistics. */
function logDetOfPooled(a: GaussianStats, b: GaussianStats | undefined): number {
  const d = a.sum.length;
  const cov = d * d <= scratch.length ? scratch : new Float64Array(d * d);
  const n = a.n + (b?.n ?? 0);
  for (let i = 0; i < d; i++) {
    const meanI = (a.sum[i]! + (b?.sum[i] ?? 0)) / n;
    for (let j = 0; j <= i; j++) {
      const meanJ = (a.sum[j]! + (b?.sum[j] ?? 0)) / n;
      cov[i * d + j] =
        (a.outer[i * d + j]! + (b?.outer[i * d + j] ?? 0)) / n - meanI * meanJ + (i === j ? 1e-3 : 0);
    }
  }
  // Cholesky on the lower triangle; log|Σ| is twice the sum of the logs of the factor's diagonal.
  let logDet = 0;
  for (let j = 0; j < d; j++) {
    let diag = cov[j * d + j]!;
    for (let k = 0; k < j; k++) diag -= cov[j * d + k]! ** 2;
    const root = Math.sqrt(Math.max(diag, 1e-12));
    cov[j * d + j] = root;
    logDet += 2 * Math.log(root);
    for (let i = j + 1; i < d; i++) {
      let value = cov[i * d + j]!;
      for (let k = 0; k < j; k++) value -= cov[i * d + k]! * cov[j * d + k]!;
      cov[i * d + j] = value / root;
    }
  }
  return logDet;
}

/** A cluster's frames with n·log|Σ| kept, the part of ΔBIC that does not depend on the other cluster. */
interface Cluster {
  stats: GaussianStats;
  spread: number;
  members: number[];
}

function cluster(stats: GaussianStats, members: number[]): Cluster {
  return { stats, spread: stats.n * logDetCovariance(stats), members };
}

function pairScore(a: Cluster, b: Cluster, penalty: number): number {
  const both = mergeStats(a.stats, b.stats);
  const d = both.sum.length;
  const parameters = d + (d * (d + 1)) / 2;
  return (
    0.5 * (both.n * logDetCovariance(both) - a.spread - b.spread) -
    penalty * 0.5 * parameters * Math.log(both.n)
  );
}

/**
 * ΔBIC of modelling a and b by one Gaussian instead of two; negative means "same speaker".
 * ΔBIC = ½[n log|Σ| − n_a log|Σ_a| − n_b log|Σ_b|] − penalty · ½(d + d(d+1)/2) log n.
 */
export function deltaBic(a: GaussianStats, b: GaussianStats, penalty: number): number {
  return pairScore(cluster(a, []), cluster(b, []), penalty);
}

/**
 * Agglomerative clustering: keeps merging the pair with the lowest ΔBIC while it is negative. Pair scores and
 * each row's best partner are kept between rounds, and only what the merge changed is recomputed, so an hour of
 * speech (about 1,200 segments) stays within seconds.
 */
export function bicClusters(segments: readonly GaussianStats[], penalty: number): number[] {
  const n = segments.length;
  const clusters = segments.map((stats, i) => cluster(stats, [i]));
  const alive = new Array<boolean>(n).fill(true);
  const score = clusters.map((a, i) => clusters.map((b, j) => (j > i ? pairScore(a, b, penalty) : Infinity)));
  const bestOf = new Array<{ value: number; partner: number }>(n);
  const refresh = (i: number): void => {
    bestOf[i] = { value: Infinity, partner: -1 };
    for (let j = i + 1; j < n; j++) {
      if (alive[j] && score[i]![j]! < bestOf[i].value) bestOf[i] = { value: score[i]![j]!, partner: j };
    }
  };
  for (let i = 0; i < n; i++) refresh(i);
  for (;;) {
    let i = -1;
    for (let k = 0; k < n; k++) if (alive[k] && (i < 0 || bestOf[k]!.value < bestOf[i]!.value)) i = k;
    if (i < 0 || !(bestOf[i]!.value < 0)) break;
    const j = bestOf[i]!.partner;
    clusters[i] = cluster(mergeStats(clusters[i]!.stats, clusters[j]!.stats), [
      ...clusters[i]!.members,
      ...clusters[j]!.members,
    ]);
    alive[j] = false;
    for (let k = 0; k < n; k++) {
      if (!alive[k] || k === i) continue;
      if (k < i) score[k]![i] = pairScore(clusters[k]!, clusters[i]!, penalty);
      else score[i]![k] = pairScore(clusters[i]!, clusters[k]!, penalty);
    }
    refresh(i);
    for (let k = 0; k < i; k++) {
      if (!alive[k]) continue;
      const best = bestOf[k]!;
      if (best.partner === i || best.partner === j) refresh(k);
      else if (score[k]![i]! < best.value) bestOf[k] = { value: score[k]![i]!, partner: i };
    }
    for (let k = i + 1; k < j; k++) if (alive[k] && bestOf[k]!.partner === j) refresh(k);
  }
  const labels = new Array<number>(n).fill(0);
  let next = 0;
  for (let k = 0; k < n; k++) {
    if (!alive[k]) continue;
    for (const member of clusters[k]!.members) labels[member] = next;
    next++;
  }
  return labels;
}

/**
 * Calibrated with bench/speech/evaluate.ts (--sections diarize): at 2 one reader was split into two speakers, at
 * 4 the librivox reader and the cards speaker were merged; 2.5 and 3 got every test recording right.
 */
export const BIC_PENALTY = 3;

/** Segments with fewer audible frames than this cannot support a 12-dimensional full covariance. */
const MIN_FRAMES = 40;

/**
 * Labels every word with a speaker ("S1", "S2", … in order of first appearance) and sums each speaker's
 * speaking time. Words must be in time order.
 */
export async function diarize(
  audioPath: string,
  words: readonly WordTiming[],
  opts: DiarizeOptions = {},
): Promise<Diarization> {
  if (words.length === 0) return { words: [], speakers: [] };
  const dir = await mkdtemp(join(tmpdir(), 'reelsmith-diarize-'));
  let samples: Int16Array;
  try {
    const pcmPath = join(dir, 'audio.raw');
    await toRecognizerPcm(audioPath, pcmPath, { signal: opts.signal });
    const bytes = await readFile(pcmPath);
    samples = new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 2));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const segments = speechSegments(words);
  const frames = segments.map((s) => mfccFrames(samples, s.start, s.end));
  const usable = segments.map((_, i) => i).filter((i) => frames[i]!.length >= MIN_FRAMES);
  const labels = bicClusters(
    usable.map((i) => statsOf(frames[i]!)),
    opts.penalty ?? BIC_PENALTY,
  );
  // Segments too short to judge take the speaker of the segment before them (or after, at the start).
  const segmentCluster = new Array<number | undefined>(segments.length);
  usable.forEach((i, k) => (segmentCluster[i] = labels[k]));
  for (let i = 1; i < segments.length; i++) segmentCluster[i] ??= segmentCluster[i - 1];
  for (let i = segments.length - 2; i >= 0; i--) segmentCluster[i] ??= segmentCluster[i + 1];
  const names = new Map<number, string>();
  const labelled: WordTiming[] = words.map((w) => ({ ...w }));
  const active = new Map<string, number>();
  segments.forEach((segment, i) => {
    const cluster = segmentCluster[i] ?? 0;
    if (!names.has(cluster)) names.set(cluster, `S${names.size + 1}`);
    const speaker = names.get(cluster)!;
    for (const index of segment.words) {
      const word = labelled[index]!;
      word.speaker = speaker;
      active.set(speaker, (active.get(speaker) ?? 0) + (word.end - word.start));
    }
  });
  return {
    words: labelled,
    speakers: [...names.values()].map((id) => ({
      id,
      activeMinutes: Math.round(((active.get(id) ?? 0) / 60) * 1000) / 1000,
    })),
  };
}
