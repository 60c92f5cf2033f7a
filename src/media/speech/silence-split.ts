// Splitting long audio into chunks at pauses, so chunks can be decoded in parallel without cutting a word.

export interface Interval {
  start: number;
  end: number;
}

/** ffmpeg arguments that run silencedetect over raw recognizer PCM and discard the audio. */
export function silenceDetectArgs(pcmPath: string, noiseDb: number, minSilenceSec: number): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-f',
    's16le',
    '-ar',
    '16000',
    '-ac',
    '1',
    '-i',
    pcmPath,
    '-af',
    `silencedetect=noise=${noiseDb}dB:d=${minSilenceSec}`,
    '-f',
    'null',
    '-',
  ];
}

/** Silence intervals from silencedetect's log; a silence still open at the end runs to `durationSec`. */
export function parseSilences(log: string, durationSec: number): Interval[] {
  const silences: Interval[] = [];
  let open: number | undefined;
  for (const match of log.matchAll(/silence_(start|end): (-?\d+(?:\.\d+)?)/g)) {
    const at = Number(match[2]);
    if (match[1] === 'start') open = Math.max(0, at);
    else if (open !== undefined) {
      silences.push({ start: open, end: at });
      open = undefined;
    }
  }
  if (open !== undefined) silences.push({ start: open, end: durationSec });
  return silences;
}

/**
 * Cuts [0, durationSec] into chunks no longer than `maxChunkSec` (unless no pause allows it), each ending in the
 * middle of a pause. Among the pauses inside a chunk's allowed range, the cut goes at the longest one that leaves
 * the chunk at least `minChunkSec` long, so cuts fall in clear gaps between phrases.
 */
export function planChunks(
  durationSec: number,
  silences: readonly Interval[],
  minChunkSec: number,
  maxChunkSec: number,
): Interval[] {
  const chunks: Interval[] = [];
  let start = 0;
  while (durationSec - start > maxChunkSec) {
    const candidates = silences.filter((s) => {
      const mid = (s.start + s.end) / 2;
      return mid > start + minChunkSec && mid <= start + maxChunkSec;
    });
    const best = candidates.reduce<Interval | undefined>(
      (a, b) => (a === undefined || b.end - b.start > a.end - a.start ? b : a),
      undefined,
    );
    // Without a pause in range, cut at the next pause after it (a long chunk beats a cut word), else stop.
    const next = best ?? silences.find((s) => (s.start + s.end) / 2 > start + maxChunkSec);
    if (!next) break;
    const cut = (next.start + next.end) / 2;
    chunks.push({ start, end: cut });
    start = cut;
  }
  chunks.push({ start, end: durationSec });
  return chunks;
}
