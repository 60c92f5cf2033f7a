// Renders one clip: the reframe plan (the speaking face when one is found, else the motion of its stretch),
// captions shifted to the clip, the gain that brings its audio to −14 LUFS (from the source's loudness blocks,
// no extra pass), then one ffmpeg run.
import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { buildAss } from '../captions/build-ass.ts';
import { highlightPreset } from '../captions/caption-presets.ts';
import { initialGain, type LoudnessTarget } from '../compose/loudness-plan.ts';
import type { FfmpegRunOptions } from '../ffmpeg/runner.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { probeMedia } from '../ffmpeg/probe.ts';
import { blocksIn, integratedLufs, peakDb, type LoudnessBlock } from '../moments/loudness-track.ts';
import type { WordTiming } from '../types.ts';
import { correctedGain } from '../quality/gated-delivery.ts';
import type { QualityReport } from '../quality/quality-gate.ts';
import { VisionModelsMissingError } from '../vision/index.ts';
import type { ClipBounds } from './clip-bounds.ts';
import { buildClipArgs } from './clip-command.ts';
import { measureMotion } from './motion-analysis.ts';
import { planReframe, sameAspect, type ReframePlan } from './reframe.ts';
import { findSpeakingFace, type SpeakerSegment } from './speaking-face.ts';

export const CLIP_LOUDNESS: LoudnessTarget = { integratedLufs: -14, truePeakDb: -1 };
const CLIP_CRF = 21;
const AUDIO_BITRATE_KBPS = 160;
/** Poster frame: a little into the clip, once the first caption is up. */
const POSTER_AT_SEC = 1.5;

export interface RenderClipInput {
  sourcePath: string;
  source: { width: number; height: number; fps: number };
  bounds: ClipBounds;
  /** The moment's words on the source timeline. */
  words: readonly WordTiming[];
  /** ebur128 blocks of the whole source audio. */
  loudness: readonly LoudnessBlock[];
  width: number;
  height: number;
  captions: boolean;
  /** Font family of the captions, see ClipPipelineInput. */
  fontFamily?: string | null;
  fontsDir?: string;
  preset: string;
  /** Output files: `<basePath>.mp4`, `.jpg`, `.ass`, and `.json` (the record of a finished clip). */
  basePath: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /** The first render's quality report when the clip is rendered again after failing its gate. */
  correction?: QualityReport;
}

/**
 * Which reframe ran: `speaking_face` (a crop holding the face that speaks), `motion` (a crop following the
 * motion), `fit` (the whole picture over a blurred copy) or `scale` (same aspect). `fallbackReason` says why
 * the speaking face was not used, when it was tried.
 */
export interface ReframeReport {
  method: 'speaking_face' | 'motion' | 'fit' | 'scale';
  fallbackReason?: string;
  /** Speaking face only: who speaks when, the faces followed, and the frames looked at. */
  speakers?: SpeakerSegment[];
  faces?: number;
  sampledFrames?: number;
}

export interface RenderedClipFile {
  path: string;
  posterPath: string;
  captionsPath: string | null;
  framing: ReframePlan;
  reframe: ReframeReport;
  width: number;
  height: number;
  durationSec: number;
  /** The caption font family drawn (null without captions). */
  captionFont?: string | null;
}

/** Words moved onto the clip's timeline (clip start = 0), kept inside the clip. */
export function wordsOnClip(words: readonly WordTiming[], bounds: ClipBounds): WordTiming[] {
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return words
    .filter((w) => w.start >= bounds.startSec - 1e-6 && w.end <= bounds.endSec + 1e-6)
    .map((w) => ({
      ...w,
      start: round(Math.max(0, w.start - bounds.startSec)),
      end: round(Math.min(bounds.durationSec, w.end - bounds.startSec)),
    }));
}

export interface RenderClipResult {
  clip: RenderedClipFile;
  /**
   * Wall seconds of the reframe analysis (faces and motion) and of the render (both 0 for a clip an earlier
   * attempt finished).
   */
  seconds: { motion: number; encode: number };
}

type ReframeInput = Pick<RenderClipInput, 'sourcePath' | 'source' | 'bounds' | 'loudness' | 'basePath'>;

/** Speaking face first; the motion reframe when there is none, the model is missing or tracking fails. */
async function chooseReframe(
  input: ReframeInput,
  target: { width: number; height: number },
  run: FfmpegRunOptions,
): Promise<{ plan: ReframePlan; reframe: ReframeReport }> {
  if (sameAspect(input.source, target)) return { plan: { mode: 'scale' }, reframe: { method: 'scale' } };
  const { bounds } = input;
  let fallbackReason: string;
  try {
    const face = await findSpeakingFace({
      sourcePath: input.sourcePath,
      source: input.source,
      target,
      startSec: bounds.startSec,
      durationSec: bounds.durationSec,
      loudness: input.loudness,
      framesPath: `${input.basePath}.faces.rgb`,
      run,
    });
    if (face.found) {
      const { plan, speakers, faces, sampledFrames } = face;
      return { plan, reframe: { method: 'speaking_face', speakers, faces, sampledFrames } };
    }
    fallbackReason = face.reason;
  } catch (error) {
    run.signal?.throwIfAborted();
    // A clip is still worth delivering with the motion reframe; the report says why the faces were not used.
    fallbackReason =
      error instanceof VisionModelsMissingError
        ? 'face model unavailable'
        : `face tracking failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  const motion = await measureMotion(
    input.sourcePath,
    bounds.startSec,
    bounds.durationSec,
    input.source,
    `${input.basePath}.motion.gray`,
    run,
  );
  const plan = planReframe(input.source, target, motion);
  return { plan, reframe: { method: plan.mode === 'crop' ? 'motion' : plan.mode, fallbackReason } };
}

/** Renders the clip, or returns the one a previous attempt finished (its record is written last). */
export async function renderClip(input: RenderClipInput): Promise<RenderClipResult> {
  const recordPath = `${input.basePath}.json`;
  if (input.correction) await rm(recordPath, { force: true });
  if (existsSync(recordPath)) {
    return {
      clip: JSON.parse(await readFile(recordPath, 'utf8')) as RenderedClipFile,
      seconds: { motion: 0, encode: 0 },
    };
  }
  const { bounds } = input;
  const started = performance.now();
  const run: FfmpegRunOptions = { signal: input.signal };
  const target = { width: input.width, height: input.height };
  const { plan, reframe } = await chooseReframe(input, target, run);
  const analysed = performance.now();

  let captionsPath: string | null = null;
  const captionStyle = input.captions ? highlightPreset({}, input.fontFamily) : null;
  if (captionStyle) {
    captionsPath = `${input.basePath}.ass`;
    await writeFile(captionsPath, buildAss(wordsOnClip(input.words, bounds), captionStyle, target));
  }

  const blocks = blocksIn(input.loudness, bounds.startSec, bounds.endSec);
  const planned = initialGain(
    {
      integratedLufs: integratedLufs(blocks),
      truePeakDb: peakDb(input.loudness, bounds.startSec, bounds.endSec),
      lra: 0,
    },
    CLIP_LOUDNESS,
  );
  // A render after a failed gate moves the gain by what the delivery missed by (the encoder and limiter shift
  // loudness by amounts only the delivered file shows).
  const gain = input.correction ? correctedGain(planned, input.correction) : planned;

  const path = `${input.basePath}.mp4`;
  const posterPath = `${input.basePath}.jpg`;
  // Written under a temporary name: a clip file that exists is a finished clip.
  const partial = `${input.basePath}.part.mp4`;
  try {
    await runFfmpeg(
      buildClipArgs({
        sourcePath: input.sourcePath,
        startSec: bounds.startSec,
        durationSec: bounds.durationSec,
        sourceFps: input.source.fps,
        width: input.width,
        height: input.height,
        plan,
        assPath: captionsPath,
        fontsDir: input.fontsDir,
        gain: gain.gainDb === 0 && !gain.limiter ? null : gain,
        loudness: CLIP_LOUDNESS,
        preset: input.preset,
        crf: CLIP_CRF,
        audioBitrateKbps: AUDIO_BITRATE_KBPS,
        outputPath: partial,
        posterPath,
        posterAtSec: Math.min(POSTER_AT_SEC, bounds.durationSec / 2),
      }),
      {
        ...run,
        onProgress: input.onProgress
          ? (seconds) => input.onProgress?.(Math.min(1, seconds / bounds.durationSec))
          : undefined,
      },
    );
    await rename(partial, path);
  } finally {
    await rm(partial, { force: true });
  }
  const probed = await probeMedia(path, run);
  const rendered: RenderedClipFile = {
    path,
    posterPath,
    captionsPath,
    framing: plan,
    reframe,
    width: probed.video?.width ?? input.width,
    height: probed.video?.height ?? input.height,
    durationSec: Math.round(probed.durationSec * 1000) / 1000,
    captionFont: captionStyle?.fontFamily ?? null,
  };
  await writeFile(recordPath, JSON.stringify(rendered));
  return {
    clip: rendered,
    seconds: { motion: (analysed - started) / 1000, encode: (performance.now() - analysed) / 1000 },
  };
}
