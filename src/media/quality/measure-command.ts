// The one ffmpeg pass that measures a delivered video: loudness and true peak (ebur128), black and frozen
// stretches (blackdetect, freezedetect on a 10 fps, 480-line copy: both look at whole-frame statistics, which
// a smaller, sparser copy keeps), the mixed audio and the narration decoded to a low-rate envelope source,
// and, when captions were burned in, the caption script drawn alone on a grey canvas with its bounding box.
import { escapeFilterValue, num } from '../ffmpeg/filter-escape.ts';

/** Frames per second and height of the copy black and freeze detection look at. */
export const DETECT_FPS = 10;
export const DETECT_HEIGHT = 480;
/** Runs shorter than this are not reported at all; the gate itself allows up to 0.5 s. */
export const REPORT_MIN_RUN_SEC = 0.3;
/** Luma (0–1) under which a pixel counts as black (ffmpeg's default). */
const BLACK_PIXEL_THRESHOLD = 0.1;
/**
 * Frames closer than this (mean difference 1e-4 of full scale) are one frozen picture. A held or stuck frame
 * decodes to identical frames (difference 0), while ffmpeg's default floor (-60 dB) also took the first
 * half-second of a slow ease-in over a still, beside a presenter pausing between sentences, for a freeze.
 */
const FREEZE_NOISE_DB = -80;
/** Sample rate the audio is decoded at for the narration-placement envelope. */
export const ENVELOPE_SAMPLE_RATE = 8000;
/** Caption frames drawn per second: every caption event of 0.2 s or more is seen at least once. */
export const CAPTION_FPS = 5;
/** Grey the captions are drawn over, and how far (luma) a pixel must differ from it to count as caption. */
const CAPTION_CANVAS = '0x808080';
const CAPTION_MIN_DIFF = 8;

export interface MeasureCaptions {
  assPath: string;
  fontsDir?: string;
}

export interface MeasureCommandInput {
  videoPath: string;
  /** Seconds of video (sets the caption canvas's length). */
  durationSec: number;
  width: number;
  height: number;
  hasAudio: boolean;
  /** The narration as it went into the mix: its envelope is found in the delivered audio. */
  narrationPath?: string;
  /** Speed-up the composition applied to the narration (1 = none), applied here too. */
  narrationTempo?: number;
  /** Raw f32le mono outputs at ENVELOPE_SAMPLE_RATE; required with hasAudio / narrationPath. */
  mixRawPath?: string;
  narrationRawPath?: string;
  captions?: MeasureCaptions;
  /** The picture was measured during the render: the pass reads only the sound (and draws the captions). */
  videoMeasured?: boolean;
}

export interface MeasureCommand {
  args: string[];
}

/** Black and freeze detection of a picture; what it prints is read by readPassLine. */
export function videoDetectFilter(): string {
  return (
    `fps=${DETECT_FPS},scale=-2:${DETECT_HEIGHT}:flags=area,` +
    `blackdetect=d=${num(REPORT_MIN_RUN_SEC)}:pix_th=${num(BLACK_PIXEL_THRESHOLD)},` +
    `freezedetect=n=${FREEZE_NOISE_DB}dB:d=${num(REPORT_MIN_RUN_SEC)}`
  );
}

/** The measuring ffmpeg arguments (after the runner's global options). */
export function buildMeasureCommand(input: MeasureCommandInput): MeasureCommand {
  const inputs: string[] = ['-i', input.videoPath];
  const graph: string[] = [];
  const outputs: string[] = [];
  const mono = `aresample=${ENVELOPE_SAMPLE_RATE},aformat=sample_fmts=flt:channel_layouts=mono`;

  // Without the picture when the render already looked at it (videoDetectFilter on its own frames).
  if (!input.videoMeasured) {
    graph.push(`[0:v]${videoDetectFilter()}[qv]`);
    outputs.push('-map', '[qv]', '-f', 'null', '-');
  }
  if (input.hasAudio) {
    if (!input.mixRawPath) throw new Error('mixRawPath is required when the video has audio');
    // Frame logging is moved to the verbose level: the summary at the end is what is read.
    graph.push('[0:a]asplit=2[qa1][qa2]', '[qa1]ebur128=peak=true:framelog=verbose[qloud]');
    graph.push(`[qa2]${mono}[qmix]`);
    outputs.push('-map', '[qloud]', '-f', 'null', '-');
    outputs.push('-map', '[qmix]', '-f', 'f32le', '-y', input.mixRawPath);
  }
  let next = 1;
  if (input.narrationPath && input.hasAudio) {
    if (!input.narrationRawPath) throw new Error('narrationRawPath is required with a narration');
    inputs.push('-i', input.narrationPath);
    const tempo =
      input.narrationTempo && input.narrationTempo !== 1 ? `atempo=${num(input.narrationTempo)},` : '';
    graph.push(`[${next}:a]${tempo}${mono}[qnar]`);
    outputs.push('-map', '[qnar]', '-f', 'f32le', '-y', input.narrationRawPath);
    next++;
  }
  if (input.captions) {
    const size = `${input.width}x${input.height}`;
    inputs.push(
      '-f',
      'lavfi',
      '-i',
      `color=c=${CAPTION_CANVAS}:s=${size}:r=${CAPTION_FPS}:d=${num(input.durationSec, 3)}`,
    );
    const fontsDir = input.captions.fontsDir ? `:fontsdir=${escapeFilterValue(input.captions.fontsDir)}` : '';
    // Drawn minus blank: every pixel libass touched (text, outline, box, shadow) differs from the grey.
    graph.push(
      `[${next}:v]format=yuv420p,split=2[qc1][qc2]`,
      `[qc1]subtitles=filename=${escapeFilterValue(input.captions.assPath)}${fontsDir}[qcs]`,
      `[qcs][qc2]blend=all_mode=difference,bbox=min_val=${CAPTION_MIN_DIFF}[qcap]`,
    );
    outputs.push('-map', '[qcap]', '-f', 'null', '-');
  }
  return { args: [...inputs, '-filter_complex', graph.join(';'), ...outputs] };
}

export interface TimeRun {
  start: number;
  end: number;
  duration: number;
}

export interface CaptionBox {
  at: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** What the filters of one pass printed, collected line by line. */
export interface PassLog {
  black: TimeRun[];
  frozen: TimeRun[];
  /** A freeze still running when the video ended (freezedetect reports no end for it). */
  frozenFrom: number | null;
  captionBoxes: CaptionBox[];
}

const BLACK = /black_start:\s*(-?[\d.]+)\s+black_end:\s*(-?[\d.]+)\s+black_duration:\s*(-?[\d.]+)/;
const FREEZE_START = /lavfi\.freezedetect\.freeze_start:\s*(-?[\d.]+)/;
const FREEZE_END = /lavfi\.freezedetect\.freeze_end:\s*(-?[\d.]+)/;
const BBOX = /pts_time:(-?[\d.]+)\s+x1:(\d+)\s+x2:(\d+)\s+y1:(\d+)\s+y2:(\d+)/;

export function emptyPassLog(): PassLog {
  return { black: [], frozen: [], frozenFrom: null, captionBoxes: [] };
}

/** Folds one stderr line of the pass into `log`. */
export function readPassLine(log: PassLog, line: string): void {
  const black = BLACK.exec(line);
  if (black) {
    log.black.push({ start: Number(black[1]), end: Number(black[2]), duration: Number(black[3]) });
    return;
  }
  const freezeStart = FREEZE_START.exec(line);
  if (freezeStart) {
    log.frozenFrom = Number(freezeStart[1]);
    return;
  }
  const freezeEnd = FREEZE_END.exec(line);
  if (freezeEnd && log.frozenFrom !== null) {
    const end = Number(freezeEnd[1]);
    log.frozen.push({ start: log.frozenFrom, end, duration: end - log.frozenFrom });
    log.frozenFrom = null;
    return;
  }
  const box = BBOX.exec(line);
  if (box) {
    log.captionBoxes.push({
      at: Number(box[1]),
      x1: Number(box[2]),
      x2: Number(box[3]),
      y1: Number(box[4]),
      y2: Number(box[5]),
    });
  }
}

/**
 * Runs that touch are one: a keyframe refreshing a still picture ends a freeze where the next one starts.
 * Runs a moving frame apart stay apart.
 */
const JOIN_GAP_SEC = 0.5 / DETECT_FPS;

/** Runs in time order, touching ones joined. */
export function joinRuns(runs: readonly TimeRun[]): TimeRun[] {
  const out: TimeRun[] = [];
  for (const run of [...runs].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last && run.start - last.end <= JOIN_GAP_SEC) {
      last.end = Math.max(last.end, run.end);
      last.duration = last.end - last.start;
    } else out.push({ ...run });
  }
  return out;
}

/** The frozen runs, with one still running at the end closed at `durationSec`, touching ones joined. */
export function frozenRuns(log: PassLog, durationSec: number): TimeRun[] {
  if (log.frozenFrom === null || durationSec - log.frozenFrom < REPORT_MIN_RUN_SEC)
    return joinRuns(log.frozen);
  return joinRuns([
    ...log.frozen,
    { start: log.frozenFrom, end: durationSec, duration: durationSec - log.frozenFrom },
  ]);
}
