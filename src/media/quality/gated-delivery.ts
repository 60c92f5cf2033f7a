// The quality gate for renders that are not compositions (a clip cut from a caller's video, captions burned into
// one): the caller renders, this measures the delivered file and judges it; a failure is rendered once more by
// the caller with the first report in hand, and a second failure is refused (QualityGateError).
import {
  gainFilter,
  initialGain,
  nextLimitedGain,
  type GainTrial,
  type LoudnessGain,
  type LoudnessTarget,
} from '../compose/loudness-plan.ts';
import { parseEbur128Summary } from '../ffmpeg/measure.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { measureDelivery, type MeasureDeliveryInput } from './measure-delivery.ts';
import {
  QUALITY_GATE,
  judgeQuality,
  type QualityContext,
  type QualityPolicy,
  type QualityReport,
} from './quality-gate.ts';
import { QualityGateError, type QualityArtifact } from './gated-render.ts';

/**
 * The caller's own video: its sound is ours to level and keep in step with the picture, and burned captions are
 * ours, but a still talk or a slide deck is static on purpose, so black and frozen stretches are reported only.
 * Its length and the captions' placement follow the caller's video and the requested position: reported only.
 */
export const CALLER_VIDEO_POLICY: QualityPolicy = Object.freeze({
  loudness: true,
  black: false,
  frozen: false,
  avSync: true,
  captions: true,
  duration: false,
  safeZone: false,
});

export interface GatedDeliveryInput {
  /** Renders the delivery to `measure.videoPath`; `previous` is the first render's report on the second call. */
  render: (previous: QualityReport | null) => Promise<void>;
  measure: MeasureDeliveryInput;
  context: QualityContext;
  /** Whether the delivery has sound to hold to loudness and A/V sync (a caller's video may have none). */
  hasSound: boolean;
  onRerender?: (report: QualityReport) => Promise<void> | void;
}

async function renderAndJudge(input: GatedDeliveryInput, previous: QualityReport | null) {
  await input.render(previous);
  const policy = input.context.policy ?? CALLER_VIDEO_POLICY;
  return judgeQuality(await measureDelivery(input.measure), {
    ...input.context,
    policy: input.hasSound ? policy : { ...policy, loudness: false, avSync: false },
  });
}

/** Renders, measures, renders once more if the delivery fails its gate; throws QualityGateError if it fails again. */
export async function deliverGated(input: GatedDeliveryInput): Promise<QualityArtifact> {
  const first = await renderAndJudge(input, null);
  if (first.passed) return { ...first, attempts: 1 };
  await input.onRerender?.(first);
  const second = await renderAndJudge(input, first);
  if (!second.passed) throw new QualityGateError(second, 2);
  return { ...second, attempts: 2, rerendered_after: first.failed };
}

/**
 * The gain that brings a delivery to the loudness target, from what it measured (null when its loudness and
 * true peak passed, or it is silent: no gain makes a voice out of silence).
 */
export function correctiveGain(report: QualityReport): LoudnessGain | null {
  const { loudness, true_peak: peak } = report.checks;
  if (loudness.passed !== false && peak.passed !== false) return null;
  const lufs = loudness.integrated_lufs;
  if (lufs === null || lufs <= -60) return null;
  return initialGain({ integratedLufs: lufs, truePeakDb: peak.true_peak_dbtp ?? -Infinity, lra: 0 }, TARGET);
}

/**
 * A render's own planned gain moved by what its delivery missed the loudness target by, with the limiter on
 * when the true peak overshot or would overshoot (a silent delivery keeps its gain: nothing to level).
 */
export function correctedGain(gain: LoudnessGain, report: QualityReport): LoudnessGain {
  const lufs = report.checks.loudness.integrated_lufs;
  const peak = report.checks.true_peak.true_peak_dbtp;
  if (lufs === null || lufs <= -60) return gain;
  const delta = report.checks.loudness.passed === false ? QUALITY_GATE.loudnessLufs - lufs : 0;
  const limiter =
    gain.limiter ||
    report.checks.true_peak.passed === false ||
    (peak !== null && peak + delta > QUALITY_GATE.truePeakMaxDb);
  return { gainDb: gain.gainDb + delta, limiter };
}

const TARGET: LoudnessTarget = {
  integratedLufs: QUALITY_GATE.loudnessLufs,
  truePeakDb: QUALITY_GATE.truePeakMaxDb,
};
/** Audio-only measuring passes allowed to find the gain a limiter needs, and how close they must land, LU. */
const MAX_LIMITER_TRIALS = 4;
const TRIAL_TOLERANCE_LU = 0.5;

async function loudnessWith(sourcePath: string, filter: string, signal?: AbortSignal) {
  const { stderrTail } = await runFfmpeg(
    ['-nostats', '-i', sourcePath, '-map', '0:a:0', '-af', `${filter},ebur128=peak=true`, '-f', 'null', '-'],
    { signal },
  );
  return parseEbur128Summary(stderrTail);
}

/**
 * The audio filter of a corrected render of `sourcePath`'s sound: the gain that brings it to the target (when a
 * limiter is needed, it takes away loudness only a measurement shows, so audio-only passes find the gain), and
 * the sound padded or cut to the picture's length so the two streams end together.
 */
export async function correctiveAudioFilter(
  sourcePath: string,
  report: QualityReport,
  videoSec: number,
  signal?: AbortSignal,
): Promise<string> {
  let gain = correctiveGain(report);
  const trials: GainTrial[] = [];
  while (gain?.limiter && trials.length < MAX_LIMITER_TRIALS) {
    const measured = await loudnessWith(sourcePath, gainFilter(gain, TARGET), signal);
    trials.push({ gainDb: gain.gainDb, measuredLufs: measured.integratedLufs });
    if (Math.abs(TARGET.integratedLufs - measured.integratedLufs) <= TRIAL_TOLERANCE_LU) break;
    gain = nextLimitedGain(trials, TARGET);
  }
  const length = videoSec.toFixed(3);
  return [
    ...(gain ? [gainFilter(gain, TARGET)] : []),
    `apad=whole_dur=${length}`,
    `atrim=duration=${length}`,
  ].join(',');
}
