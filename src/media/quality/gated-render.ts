// A composition rendered and held to the quality gate: measured on the delivered file; a render that fails is
// rendered once more with corrected parameters, and one that fails again is refused (QualityGateError), so a
// silent, black or out-of-sync video is never delivered.
import { renderComposition, type RenderOptions, type RenderResult } from '../compose/render-composition.ts';
import {
  DEFAULT_LOUDNESS,
  resolveComposeSpec,
  type ComposeScene,
  type ComposeSpec,
} from '../compose/compose-spec.ts';
import { probeMedia } from '../ffmpeg/probe.ts';
import type { WordTiming } from '../types.ts';
import { measureDelivery } from './measure-delivery.ts';
import { emptyPassLog, readPassLine, videoDetectFilter } from './measure-command.ts';
import {
  describeFailures,
  FULL_POLICY,
  QUALITY_GATE,
  judgeQuality,
  type QualityContext,
  type QualityReport,
} from './quality-gate.ts';

/** What artifacts.quality holds: the delivered file's report and, after a re-render, the first one's failures. */
export interface QualityArtifact extends QualityReport {
  attempts: number;
  /** The first render's failed checks, when it was rendered again. */
  rerendered_after?: string[];
}

export class QualityGateError extends Error {
  constructor(
    readonly report: QualityReport,
    readonly attempts: number,
  ) {
    super(`The video failed its quality gate after ${attempts} renders: ${describeFailures(report)}.`);
    this.name = 'QualityGateError';
  }
}

export interface GatedRenderInput {
  spec: ComposeSpec;
  /** The narration's words on the output timeline (for the caption check). */
  narrationWords?: readonly WordTiming[];
  context?: Omit<QualityContext, 'plannedSec'>;
  render?: RenderOptions;
  /** Told before the second render, with the first one's report. */
  onRerender?: (report: QualityReport) => Promise<void> | void;
  /**
   * Makes the first delivery of `spec` when it is not rendered whole (a revision joins stored segments); the
   * corrected second render is always a full render of the composition.
   */
  firstRender?: () => Promise<RenderResult>;
  /** The spec the second render starts from when `spec` names files not on this machine (fetched here). */
  rerenderSpec?: (spec: ComposeSpec) => Promise<ComposeSpec>;
}

export interface GatedRenderResult extends RenderResult {
  quality: QualityArtifact;
}

const LOUDNESS_BOUNDS = { lowest: -24, highest: -6 } as const;
/** Sources shorter than this are not looped; a scene this close to its source's end is not short. */
const MIN_LOOP_SEC = 0.1;
const FRAME_SLACK_SEC = 0.05;
/** Extra headroom the corrected true-peak ceiling leaves under what overshot. */
const PEAK_MARGIN_DB = 0.5;

/**
 * The spec of the second render: a loudness target moved by what the first one missed by (the encoder and the
 * limiter shift loudness by amounts only the delivered file shows), and a lower true-peak ceiling by what it
 * overshot. After a black or frozen stretch, short scenes are also looped (loopShortScenes). Other failures
 * are rendered again as they were: they come from a transient fault (a starved frame feed, a killed encoder)
 * or from the sources, which the second measurement then confirms.
 */
export function correctedSpec(spec: ComposeSpec, report: QualityReport): ComposeSpec {
  const loudness = { ...spec.loudness };
  const { integrated_lufs: lufs } = report.checks.loudness;
  // Integrated loudness below −60 LUFS is silence: no gain stage makes a voice out of it.
  if (report.checks.loudness.passed === false && lufs !== null && lufs > -60) {
    const current = spec.loudness?.integratedLufs ?? DEFAULT_LOUDNESS.integratedLufs;
    loudness.integratedLufs = Math.min(
      LOUDNESS_BOUNDS.highest,
      Math.max(LOUDNESS_BOUNDS.lowest, current + (QUALITY_GATE.loudnessLufs - lufs)),
    );
  }
  const peak = report.checks.true_peak.true_peak_dbtp;
  if (report.checks.true_peak.passed === false && peak !== null) {
    const current = spec.loudness?.truePeakDb ?? DEFAULT_LOUDNESS.truePeakDb;
    loudness.truePeakDb = current - (peak - QUALITY_GATE.truePeakMaxDb) - PEAK_MARGIN_DB;
  }
  // The gain planned for the first render is planned again for the new target.
  delete loudness.gain;
  return { ...spec, loudness };
}

/**
 * A video scene whose source ends before the scene does is held on its last frame by the composition: a frozen
 * stretch. The corrected spec loops such a scene's source from its start instead (a cutaway's scenes stay one
 * per interval, and moving scenes are drawn by the motion engine, so those are left alone).
 */
export async function loopShortScenes(spec: ComposeSpec, signal?: AbortSignal): Promise<ComposeSpec> {
  if (spec.presenter?.layout === 'cutaway') return spec;
  const resolved = resolveComposeSpec(spec).scenes;
  const scenes: ComposeScene[] = [];
  for (const [index, scene] of spec.scenes.entries()) {
    const kind = resolved[index]?.kind;
    const sourceSec =
      kind === 'video' && !scene.motion
        ? (await probeMedia(scene.path, signal ? { signal } : {})).durationSec
        : 0;
    if (sourceSec <= MIN_LOOP_SEC || sourceSec - scene.inPoint >= scene.duration - FRAME_SLACK_SEC) {
      scenes.push(scene);
      continue;
    }
    let remaining = scene.duration;
    let inPoint = scene.inPoint;
    while (remaining > FRAME_SLACK_SEC) {
      const piece = Math.min(remaining, Math.max(MIN_LOOP_SEC, sourceSec - inPoint));
      scenes.push({ ...scene, inPoint, duration: piece });
      remaining -= piece;
      inPoint = 0;
    }
  }
  return { ...spec, scenes };
}

async function renderAndJudge(
  spec: ComposeSpec,
  input: GatedRenderInput,
  firstRender?: () => Promise<RenderResult>,
): Promise<{ result: RenderResult; report: QualityReport }> {
  // A full render looks for black and frozen stretches in its own frames as it encodes them.
  const videoLog = firstRender ? undefined : emptyPassLog();
  const result = firstRender
    ? await firstRender()
    : await renderComposition(spec, {
        ...input.render,
        tap: { filter: videoDetectFilter(), onStderrLine: (line) => readPassLine(videoLog!, line) },
      });
  const resolved = resolveComposeSpec(spec);
  const measurement = await measureDelivery({
    videoPath: resolved.outputPath,
    ...(videoLog ? { videoLog } : {}),
    ...(spec.narration
      ? {
          narration: {
            path: spec.narration.path,
            tempo: spec.narration.tempo ?? 1,
            words: input.narrationWords ?? [],
          },
        }
      : {}),
    ...(spec.ass
      ? {
          captions: { assPath: spec.ass.path, ...(spec.ass.fontsDir ? { fontsDir: spec.ass.fontsDir } : {}) },
        }
      : {}),
    ...(input.render?.signal ? { signal: input.render.signal } : {}),
  });
  // A video made without any sound on purpose (no narration, music or source sound) is not held to loudness.
  const soundless = !resolved.narration && !resolved.music && !resolved.scenes.some((s) => s.hasAudio);
  const policy = input.context?.policy ?? FULL_POLICY;
  const report = judgeQuality(measurement, {
    plannedSec: resolved.durationSec,
    ...(resolved.outro ? { stillFrom: resolved.mainSec } : {}),
    ...input.context,
    policy: soundless ? { ...policy, loudness: false, avSync: false } : policy,
  });
  return { result, report };
}

/** Renders `spec`, measures the delivery, renders once more if it fails; throws QualityGateError if it fails again. */
export async function renderCompositionGated(input: GatedRenderInput): Promise<GatedRenderResult> {
  const first = await renderAndJudge(input.spec, input, input.firstRender);
  if (first.report.passed) return { ...first.result, quality: { ...first.report, attempts: 1 } };
  await input.onRerender?.(first.report);
  const base = input.rerenderSpec ? await input.rerenderSpec(input.spec) : input.spec;
  let corrected = correctedSpec(base, first.report);
  if (first.report.failed.some((name) => name === 'frozen' || name === 'black'))
    corrected = await loopShortScenes(corrected, input.render?.signal);
  const second = await renderAndJudge(corrected, input);
  if (!second.report.passed) throw new QualityGateError(second.report, 2);
  return {
    ...second.result,
    quality: { ...second.report, attempts: 2, rerendered_after: first.report.failed },
  };
}
