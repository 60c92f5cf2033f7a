// Where things move in a stretch of video: ffmpeg decodes it at a few frames per second into a tiny grey
// picture, and frame differences give per-shot motion energy by column and by row (cuts split the shots).
import { readFile, rm } from 'node:fs/promises';
import { num } from '../ffmpeg/filter-escape.ts';
import { runFfmpeg, type FfmpegRunOptions } from '../ffmpeg/runner.ts';

/** Analysis frames per second and the long side of the analysis picture, px. */
export const ANALYSIS_FPS = 5;
export const ANALYSIS_LONG_SIDE = 96;
/** Per-pixel differences below this (0–255) are compression noise, not motion. */
export const NOISE_LEVEL = 12;
/** A frame whose mean difference from the previous one exceeds this (0–255) starts a new shot. */
export const CUT_LEVEL = 30;
/** Shots shorter than this (s) are merged into the one before, so the crop does not flicker. */
export const MIN_SHOT_SEC = 1;

export interface AnalysisGrid {
  width: number;
  height: number;
}

/** Analysis picture size for a source: the long side ANALYSIS_LONG_SIDE, the other in proportion (even). */
export function analysisGrid(sourceWidth: number, sourceHeight: number): AnalysisGrid {
  const long = ANALYSIS_LONG_SIDE;
  const other = (side: number, of: number) => Math.max(8, 2 * Math.round((long * side) / of / 2));
  return sourceWidth >= sourceHeight
    ? { width: long, height: other(sourceHeight, sourceWidth) }
    : { width: other(sourceWidth, sourceHeight), height: long };
}

export function buildMotionArgs(
  sourcePath: string,
  startSec: number,
  durationSec: number,
  grid: AnalysisGrid,
  outPath: string,
): string[] {
  return [
    '-y',
    // Frames no other frame refers to are not needed at 5 fps; skipping them halves decoding on B-frame sources.
    '-skip_frame',
    'noref',
    '-ss',
    num(startSec, 3),
    '-t',
    num(durationSec, 3),
    '-i',
    sourcePath,
    '-map',
    '0:v:0',
    '-vf',
    `fps=${ANALYSIS_FPS},scale=${grid.width}:${grid.height}:flags=area,format=gray`,
    '-f',
    'rawvideo',
    outPath,
  ];
}

export interface MotionShot {
  startSec: number;
  endSec: number;
  /** Motion energy summed over the shot, per analysis column and per analysis row. */
  columns: number[];
  rows: number[];
  /** Motion energy per frame pair, as a share of the largest possible (every pixel changing fully). */
  activity: number;
}

export interface MotionAnalysis {
  grid: AnalysisGrid;
  durationSec: number;
  shots: MotionShot[];
}

interface Pair {
  /** Time of the later frame, s. */
  t: number;
  cut: boolean;
  columns: Float64Array;
  rows: Float64Array;
  total: number;
}

function framePairs(frames: Buffer, grid: AnalysisGrid, fps: number): Pair[] {
  const size = grid.width * grid.height;
  const count = Math.floor(frames.length / size);
  const pairs: Pair[] = [];
  for (let f = 1; f < count; f++) {
    const columns = new Float64Array(grid.width);
    const rows = new Float64Array(grid.height);
    let sumAbs = 0;
    let total = 0;
    for (let y = 0; y < grid.height; y++) {
      for (let x = 0; x < grid.width; x++) {
        const i = y * grid.width + x;
        const d = Math.abs(frames[f * size + i]! - frames[(f - 1) * size + i]!);
        sumAbs += d;
        if (d < NOISE_LEVEL) continue;
        columns[x]! += d;
        rows[y]! += d;
        total += d;
      }
    }
    pairs.push({ t: f / fps, cut: sumAbs / size > CUT_LEVEL, columns, rows, total });
  }
  return pairs;
}

/**
 * Shots and their motion from raw grey frames (`grid` sized, `fps` per second, the first at 0 s). A cut is
 * placed halfway between the two frames it separates; the frame pair across a cut is not motion.
 */
export function analyzeMotion(
  frames: Buffer,
  grid: AnalysisGrid,
  fps: number,
  durationSec: number,
): MotionAnalysis {
  const pairs = framePairs(frames, grid, fps);
  const cutTimes = pairs.filter((p) => p.cut).map((p) => p.t - 0.5 / fps);
  const bounds = [0, ...cutTimes, durationSec];
  // A cut less than MIN_SHOT_SEC after the last kept one (or before the end) is dropped: no flicker shots.
  const edges: number[] = [0];
  for (let i = 1; i < bounds.length - 1; i++) {
    if (bounds[i]! - edges[edges.length - 1]! >= MIN_SHOT_SEC && durationSec - bounds[i]! >= MIN_SHOT_SEC) {
      edges.push(bounds[i]!);
    }
  }
  edges.push(durationSec);
  const maxPerPair = grid.width * grid.height * 255;
  const shots: MotionShot[] = [];
  for (let s = 0; s < edges.length - 1; s++) {
    const startSec = edges[s]!;
    const endSec = edges[s + 1]!;
    const inside = pairs.filter((p) => !p.cut && p.t - 1 / fps >= startSec - 1e-6 && p.t <= endSec + 1e-6);
    const columns = new Array<number>(grid.width).fill(0);
    const rows = new Array<number>(grid.height).fill(0);
    let total = 0;
    for (const p of inside) {
      p.columns.forEach((v, x) => (columns[x]! += v));
      p.rows.forEach((v, y) => (rows[y]! += v));
      total += p.total;
    }
    shots.push({
      startSec,
      endSec,
      columns,
      rows,
      activity: inside.length > 0 ? total / inside.length / maxPerPair : 0,
    });
  }
  return { grid, durationSec, shots };
}

/** Decodes [startSec, startSec + durationSec] of the source's video into analysis frames and analyses them. */
export async function measureMotion(
  sourcePath: string,
  startSec: number,
  durationSec: number,
  source: { width: number; height: number },
  rawPath: string,
  run: FfmpegRunOptions = {},
): Promise<MotionAnalysis> {
  const grid = analysisGrid(source.width, source.height);
  try {
    await runFfmpeg(buildMotionArgs(sourcePath, startSec, durationSec, grid, rawPath), run);
    return analyzeMotion(await readFile(rawPath), grid, ANALYSIS_FPS, durationSec);
  } finally {
    await rm(rawPath, { force: true });
  }
}
