// Renders a composition: audio-only loudness measurement(s), then the single-graph video render.
import { parseEbur128Summary, type LoudnessStats } from '../ffmpeg/measure.ts';
import { runFfmpeg, type FfmpegRunOptions } from '../ffmpeg/runner.ts';
import { buildAudioMeasureCommand, buildComposeCommand } from './compose-command.ts';
import { resolveComposeSpec, type ComposeSpec } from './compose-spec.ts';
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

export async function renderComposition(
  spec: ComposeSpec,
  options: RenderOptions = {},
): Promise<RenderResult> {
  const resolved = resolveComposeSpec(spec);
  const target = resolved.loudness;
  const run = { signal: options.signal, timeoutMs: options.timeoutMs, binary: options.ffmpegPath };

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

  const command = buildComposeCommand({ ...spec, loudness: { ...spec.loudness, gain: gain ?? undefined } });
  const onProgress = options.onProgress;
  await runFfmpeg(command.args, {
    ...run,
    onProgress: onProgress
      ? (seconds) => onProgress(Math.min(1, Math.max(0, seconds / resolved.durationSec)))
      : undefined,
  });
  return { outputPath: resolved.outputPath, mixLoudness, gain };
}
