// Renders a composition: audio-only loudness measurement(s), then the single-graph video render (fed, when
// scenes move, by the local motion engine through a FIFO: no intermediate encode). A presenter layout's or an
// outro's pictures are drawn first into the render's work folder.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEbur128Summary, type LoudnessStats } from '../ffmpeg/measure.ts';
import { runFfmpeg, type FfmpegRunOptions } from '../ffmpeg/runner.ts';
import { makeFifo } from '../motion/fifo.ts';
import { writeMotionFeed, type MotionShot } from '../motion/motion-feed.ts';
import {
  buildAudioMeasureCommand,
  buildComposeCommand,
  type ComposeCommandOptions,
} from './compose-command.ts';
import {
  brollSize,
  resolveComposeSpec,
  sceneFrames,
  type ComposeSpec,
  type ResolvedSpec,
} from './compose-spec.ts';
import { needsLayoutAssets, prepareLayoutAssets } from './layout-assets.ts';
import { initialGain, nextLimitedGain, type GainTrial, type LoudnessGain } from './loudness-plan.ts';

/** Audio-only passes are cheap (well under 1 s of CPU per 30 s), so a limited mix may be measured 3 times. */
const MAX_LIMITER_TRIALS = 3;
const LOUDNESS_TOLERANCE_LU = 0.2;

export interface RenderOptions {
  signal?: AbortSignal;
  /** Applies to each ffmpeg run separately. */
  timeoutMs?: number;
  ffmpegPath?: string;
  /** Fraction 0–1 of the video render done. */
  onProgress?: (fraction: number) => void;
  /**
   * A measurement run on the finished picture during the render (buildComposeCommand's `tap`); every line
   * ffmpeg writes to stderr is handed to `onStderrLine`.
   */
  tap?: { filter: string; onStderrLine: (line: string) => void };
}

export interface RenderResult {
  outputPath: string;
  /** Loudness of the raw mix, null when nothing in the composition makes sound. */
  mixLoudness: LoudnessStats | null;
  /** Gain stage applied to the mix, null when there was no mix. */
  gain: LoudnessGain | null;
}

async function measureMix(spec: ComposeSpec, run: FfmpegRunOptions): Promise<LoudnessStats | null> {
  const command = buildAudioMeasureCommand(spec);
  if (!command) return null;
  const { stderrTail } = await runFfmpeg(command.args, run);
  return parseEbur128Summary(stderrTail);
}

/** Measures the spec's raw mix and plans the gain stage that brings it to the loudness target. */
export async function planMixGain(
  spec: ComposeSpec,
  run: FfmpegRunOptions,
): Promise<Pick<RenderResult, 'mixLoudness' | 'gain'>> {
  const target = resolveComposeSpec(spec).loudness;
  const mixLoudness = await measureMix({ ...spec, loudness: { ...spec.loudness, gain: undefined } }, run);
  let gain = mixLoudness ? initialGain(mixLoudness, target) : null;
  // The limiter lowers loudness by an amount only a measurement can tell; measure and make up for it.
  const trials: GainTrial[] = [];
  while (gain?.limiter && trials.length < MAX_LIMITER_TRIALS) {
    const limited = await measureMix({ ...spec, loudness: { ...spec.loudness, gain } }, run);
    if (!limited) break;
    trials.push({ gainDb: gain.gainDb, measuredLufs: limited.integratedLufs });
    if (Math.abs(target.integratedLufs - limited.integratedLufs) <= LOUDNESS_TOLERANCE_LU) break;
    gain = nextLimitedGain(trials, target);
  }
  return { mixLoudness, gain };
}

export async function renderComposition(
  spec: ComposeSpec,
  options: RenderOptions = {},
): Promise<RenderResult> {
  const resolved = resolveComposeSpec(spec);
  const run = { signal: options.signal, timeoutMs: options.timeoutMs, binary: options.ffmpegPath };
  const { mixLoudness, gain } = await planMixGain(spec, run);

  const final = { ...spec, loudness: { ...spec.loudness, gain: gain ?? undefined } };
  const onProgress = options.onProgress;
  const renderRun: FfmpegRunOptions = {
    ...run,
    ...(options.tap ? { onStderrLine: options.tap.onStderrLine } : {}),
    onProgress: onProgress
      ? (seconds) => onProgress(Math.min(1, Math.max(0, seconds / resolved.durationSec)))
      : undefined,
  };
  const moving = resolved.scenes.some((s) => s.motion);
  const tap = options.tap ? { tap: options.tap.filter } : {};
  if (!moving && !needsLayoutAssets(resolved)) {
    await runFfmpeg(buildComposeCommand(final, tap).args, renderRun);
  } else {
    const workDir = await mkdtemp(join(tmpdir(), 'rs-compose-'));
    try {
      const assets = needsLayoutAssets(resolved) ? await prepareLayoutAssets(resolved, workDir) : undefined;
      const commandOptions = { ...tap, ...(assets ? { assets } : {}) };
      if (moving) await renderWithMotion(final, resolved, renderRun, workDir, commandOptions);
      else await runFfmpeg(buildComposeCommand(final, commandOptions).args, renderRun);
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }
  return { outputPath: resolved.outputPath, mixLoudness, gain };
}

function motionShots(resolved: ResolvedSpec): MotionShot[] {
  return resolved.scenes.flatMap((scene) =>
    scene.motion
      ? [
          {
            path: scene.path,
            kind: scene.kind,
            inPoint: scene.inPoint,
            frames: sceneFrames(scene, resolved.fps),
            move: scene.motion.move,
            ...(scene.motion.foreground ? { foreground: scene.motion.foreground } : {}),
          },
        ]
      : [],
  );
}

/**
 * The render with the motion engine writing the moving scenes' frames into the FIFO ffmpeg reads them from
 * (in `workDir`, which the caller removes). A failing producer stops ffmpeg (a half-fed input would end the
 * scene early, not fail); when ffmpeg is done or fails, the producer is stopped.
 */
async function renderWithMotion(
  spec: ComposeSpec,
  resolved: ResolvedSpec,
  run: FfmpegRunOptions,
  workDir: string,
  options: Omit<ComposeCommandOptions, 'motionFeed'>,
): Promise<void> {
  const feed = join(workDir, 'feed.yuv');
  await makeFifo(feed, run.signal);
  const command = buildComposeCommand(spec, { ...options, motionFeed: feed });
  const stopRender = new AbortController();
  const stopFeed = new AbortController();
  const withCaller = (signal: AbortSignal) => (run.signal ? AbortSignal.any([run.signal, signal]) : signal);
  const format = { ...brollSize(resolved), fps: resolved.fps };
  const binary = run.binary;
  const producer = writeMotionFeed(feed, motionShots(resolved), format, {
    workDir,
    signal: withCaller(stopFeed.signal),
    ...(binary ? { ffmpegPath: binary } : {}),
  });
  let feedFailure: unknown = null;
  producer.catch((error: unknown) => {
    if (stopFeed.signal.aborted) return;
    feedFailure = error;
    stopRender.abort(error);
  });
  try {
    await runFfmpeg(command.args, { ...run, signal: withCaller(stopRender.signal) });
  } catch (error) {
    throw feedFailure ?? error;
  } finally {
    stopFeed.abort();
    await producer.catch(() => undefined);
  }
}
