// Loudness of any stretch of the source from one measurement pass: ebur128's momentary loudness every 100 ms
// is exactly the set of 400 ms blocks (75 % overlap) that BS.1770 integrates, so gating the blocks inside a
// range gives that range's integrated loudness without measuring it again.

export interface LoudnessBlock {
  /** End of the 400 ms block, seconds from the start of the audio. */
  t: number;
  /** Momentary loudness of the block, LUFS. */
  momentaryLufs: number;
  /** Highest true peak of the last 100 ms over all channels, dBFS (-Infinity for digital silence). */
  peakDb: number;
}

export const BLOCK_SEC = 0.4;
const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = 10;
/** What ebur128 reports for no signal; also what a range without audible blocks gets. */
export const SILENT_LUFS = -70;

function energy(lufs: number): number {
  return Math.pow(10, (lufs + 0.691) / 10);
}

function lufsOf(meanEnergy: number): number {
  return -0.691 + 10 * Math.log10(meanEnergy);
}

/** Index of the first block with `t >= at` in blocks sorted by time. */
function firstAtOrAfter(blocks: readonly LoudnessBlock[], at: number): number {
  let lo = 0;
  let hi = blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (blocks[mid]!.t < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Blocks (sorted by time, as ebur128 logs them) lying inside [start, end]; a block may stick out 50 ms, half
 * the step, on either side. Binary search: moments of a long source ask this tens of thousands of times.
 */
export function blocksIn(blocks: readonly LoudnessBlock[], start: number, end: number): LoudnessBlock[] {
  const from = firstAtOrAfter(blocks, start - 0.05 + BLOCK_SEC);
  const to = firstAtOrAfter(blocks, end + 0.05 + 1e-9);
  return blocks.slice(from, Math.max(from, to));
}

/** Gated (absolute −70, relative −10 LU) integrated loudness of the blocks; SILENT_LUFS when none pass. */
export function integratedLufs(blocks: readonly LoudnessBlock[]): number {
  const loud = blocks.filter((b) => b.momentaryLufs > ABSOLUTE_GATE_LUFS);
  if (loud.length === 0) return SILENT_LUFS;
  const relativeGate =
    lufsOf(loud.reduce((s, b) => s + energy(b.momentaryLufs), 0) / loud.length) - RELATIVE_GATE_LU;
  const gated = loud.filter((b) => b.momentaryLufs > relativeGate);
  return lufsOf(gated.reduce((s, b) => s + energy(b.momentaryLufs), 0) / gated.length);
}

/** Highest true peak among blocks (sorted by time) ending inside (start, end + one step]. */
export function peakDb(blocks: readonly LoudnessBlock[], start: number, end: number): number {
  let peak = -Infinity;
  for (let i = firstAtOrAfter(blocks, start + 1e-9); i < blocks.length && blocks[i]!.t <= end + 0.1; i++) {
    peak = Math.max(peak, blocks[i]!.peakDb);
  }
  return peak;
}

/** Standard deviation (LU) of the momentary loudness of the blocks that pass the relative gate. */
export function loudnessSpread(blocks: readonly LoudnessBlock[]): number {
  const level = integratedLufs(blocks);
  if (level <= SILENT_LUFS) return 0;
  const gated = blocks.filter((b) => b.momentaryLufs > level - RELATIVE_GATE_LU);
  if (gated.length < 2) return 0;
  const mean = gated.reduce((s, b) => s + b.momentaryLufs, 0) / gated.length;
  const variance = gated.reduce((s, b) => s + (b.momentaryLufs - mean) ** 2, 0) / gated.length;
  return Math.sqrt(variance);
}
