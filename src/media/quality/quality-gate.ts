// The quality gate every delivered video is held to (docs/quality.md), and the report built from what the
// delivered file measured. The limits live here and nowhere else.
import { platformSafeZone, frameScale, type FrameSize, type SafeZone } from '../captions/safe-zone.ts';
import type { LoudnessStats } from '../ffmpeg/measure.ts';
import type { CaptionOffsets } from './caption-timing.ts';
import type { CaptionBox, TimeRun } from './measure-command.ts';

export const QUALITY_GATE = Object.freeze({
  /** Integrated loudness target and tolerance (the social platforms' −14 LUFS). */
  loudnessLufs: -14,
  loudnessToleranceLu: 1,
  /** Highest true peak, dBTP. */
  truePeakMaxDb: -1,
  /** Longest black or frozen stretch allowed, s. */
  stillRunMaxSec: 0.5,
  /** Largest audio/video stream length difference, ms. */
  avDifferenceMaxMs: 40,
  /** Largest caption onset offset from its narrated word, ms. */
  captionOffsetMaxMs: 100,
  /** Delivered length against the planned length, s (three frames at 30 fps). */
  durationToleranceSec: 0.1,
  /** Caption pixels may reach this far into the safe margin (outline and shadow), px at 1080 wide. */
  safeZoneSlackPx: 12,
});

/** Which checks fail the render in a mode (docs/quality.md says why per mode); the others are reported only. */
export interface QualityPolicy {
  loudness: boolean;
  black: boolean;
  frozen: boolean;
  avSync: boolean;
  captions: boolean;
  duration: boolean;
  safeZone: boolean;
}

/** Narrated and rendered videos: everything is ours, everything is held to the gate. */
export const FULL_POLICY: QualityPolicy = Object.freeze({
  loudness: true,
  black: true,
  frozen: true,
  avSync: true,
  captions: true,
  duration: true,
  safeZone: true,
});

/**
 * A composition over the caller's own footage (asset_urls): a still card or a held shot is theirs to choose, so
 * frozen stretches are reported only; a black picture, sound, sync, captions and length stay gated.
 */
export const CALLER_FOOTAGE_POLICY: QualityPolicy = Object.freeze({ ...FULL_POLICY, frozen: false });

export interface DeliveryMeasurement {
  /** null when the file has no audio stream. */
  loudness: LoudnessStats | null;
  black: TimeRun[];
  frozen: TimeRun[];
  videoStreamSec: number;
  /** null when the file has no audio stream. */
  audioStreamSec: number | null;
  /** Where the narration was found in the delivered audio, s; null without a narration to look for. */
  narrationLagSec: number | null;
  narrationCorrelation: number | null;
  captionOffsets: CaptionOffsets | null;
  captionBoxes: CaptionBox[];
  frame: FrameSize;
  /** Wall seconds of the measuring ffmpeg pass and the probe. */
  measureSec: number;
}

export interface QualityContext {
  /** The length the pipeline planned for the output, s. */
  plannedSec: number;
  /** The length the caller asked for, when they asked for one (reported, not gated). */
  requestedSec?: number;
  /**
   * From here on the picture may be still on purpose (an end card, a presenter's closing hold after the last
   * word): black and frozen stretches are judged before it.
   */
  stillFrom?: number;
  policy?: QualityPolicy;
}

interface Check {
  /** null: does not apply to this video (e.g. no captions). */
  passed: boolean | null;
  /** Whether a failure fails the render (QualityPolicy). */
  gated: boolean;
}

export interface QualityReport {
  passed: boolean;
  /** Names of the gated checks that failed. */
  failed: string[];
  checks: {
    loudness: Check & { integrated_lufs: number | null; target_lufs: number; tolerance_lu: number };
    true_peak: Check & { true_peak_dbtp: number | null; max_dbtp: number };
    black: Check & { longest_sec: number; runs: TimeRun[]; max_sec: number };
    frozen: Check & { longest_sec: number; runs: TimeRun[]; max_sec: number };
    av_sync: Check & {
      video_sec: number;
      audio_sec: number | null;
      difference_ms: number | null;
      max_ms: number;
    };
    caption_sync: Check & {
      compared: number;
      median_offset_ms: number | null;
      worst_offset_ms: number | null;
      worst_at_sec: number | null;
      narration_offset_ms: number | null;
      max_ms: number;
    };
    duration: Check & {
      duration_sec: number;
      target_sec: number;
      requested_sec: number | null;
      difference_sec: number;
      tolerance_sec: number;
    };
    safe_zone: Check & {
      caption_box: { x1: number; y1: number; x2: number; y2: number } | null;
      safe_area: { x1: number; y1: number; x2: number; y2: number };
      frames_outside: number;
    };
  };
  measure_sec: number;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const longest = (runs: TimeRun[]) => runs.reduce((m, r) => Math.max(m, r.duration), 0);
const roundRun = (r: TimeRun): TimeRun => ({
  start: round(r.start),
  end: round(r.end),
  duration: round(r.duration),
});

function safeArea(frame: FrameSize, zone: SafeZone) {
  const slack = Math.round(QUALITY_GATE.safeZoneSlackPx * frameScale(frame));
  return {
    x1: zone.left - slack,
    y1: zone.top - slack,
    x2: frame.width - zone.right + slack,
    y2: frame.height - zone.bottom + slack,
  };
}

/** Holds a measured delivery to the gate. */
export function judgeQuality(m: DeliveryMeasurement, context: QualityContext): QualityReport {
  const policy = context.policy ?? FULL_POLICY;
  const g = QUALITY_GATE;
  const lufs = m.loudness && Number.isFinite(m.loudness.integratedLufs) ? m.loudness.integratedLufs : null;
  const peak = m.loudness && Number.isFinite(m.loudness.truePeakDb) ? m.loudness.truePeakDb : null;
  // No audio at all is as silent as it gets: the loudness check fails rather than not applying.
  const loudnessOk = lufs !== null && Math.abs(lufs - g.loudnessLufs) <= g.loudnessToleranceLu;
  const peakOk = m.loudness !== null && (peak === null || peak <= g.truePeakMaxDb);
  const avDifference =
    m.audioStreamSec === null ? null : Math.abs(m.audioStreamSec - m.videoStreamSec) * 1000;
  const offsets = m.captionOffsets && m.captionOffsets.count > 0 ? m.captionOffsets : null;
  const narrationOffsetMs = m.narrationLagSec === null ? null : round(m.narrationLagSec * 1000, 1);
  const area = safeArea(m.frame, platformSafeZone(m.frame));
  const outside = m.captionBoxes.filter(
    (b) => b.x1 < area.x1 || b.y1 < area.y1 || b.x2 > area.x2 || b.y2 > area.y2,
  );
  const union =
    m.captionBoxes.length === 0
      ? null
      : {
          x1: Math.min(...m.captionBoxes.map((b) => b.x1)),
          y1: Math.min(...m.captionBoxes.map((b) => b.y1)),
          x2: Math.max(...m.captionBoxes.map((b) => b.x2)),
          y2: Math.max(...m.captionBoxes.map((b) => b.y2)),
        };
  const durationDiff = m.videoStreamSec - context.plannedSec;
  const cardAt = context.stillFrom ?? Infinity;
  const beforeCard = (runs: TimeRun[]) =>
    runs
      .filter((r) => r.start < cardAt - 0.05)
      .map((r) => (r.end <= cardAt ? r : { start: r.start, end: cardAt, duration: cardAt - r.start }));
  const black = beforeCard(m.black);
  const frozen = beforeCard(m.frozen);

  const checks: QualityReport['checks'] = {
    loudness: {
      passed: loudnessOk,
      gated: policy.loudness,
      integrated_lufs: lufs === null ? null : round(lufs, 1),
      target_lufs: g.loudnessLufs,
      tolerance_lu: g.loudnessToleranceLu,
    },
    true_peak: {
      passed: peakOk,
      gated: policy.loudness,
      true_peak_dbtp: peak === null ? null : round(peak, 1),
      max_dbtp: g.truePeakMaxDb,
    },
    black: {
      passed: longest(black) <= g.stillRunMaxSec,
      gated: policy.black,
      longest_sec: round(longest(black)),
      runs: black.map(roundRun),
      max_sec: g.stillRunMaxSec,
    },
    frozen: {
      passed: longest(frozen) <= g.stillRunMaxSec,
      gated: policy.frozen,
      longest_sec: round(longest(frozen)),
      runs: frozen.map(roundRun),
      max_sec: g.stillRunMaxSec,
    },
    av_sync: {
      passed: avDifference !== null && avDifference < g.avDifferenceMaxMs,
      gated: policy.avSync,
      video_sec: round(m.videoStreamSec, 3),
      audio_sec: m.audioStreamSec === null ? null : round(m.audioStreamSec, 3),
      difference_ms: avDifference === null ? null : round(avDifference, 1),
      max_ms: g.avDifferenceMaxMs,
    },
    caption_sync: {
      passed: offsets ? offsets.worstMs < g.captionOffsetMaxMs : null,
      gated: policy.captions,
      compared: offsets?.count ?? 0,
      median_offset_ms: offsets?.medianMs ?? null,
      worst_offset_ms: offsets?.worstMs ?? null,
      worst_at_sec: offsets?.worstAt ?? null,
      narration_offset_ms: narrationOffsetMs,
      max_ms: g.captionOffsetMaxMs,
    },
    duration: {
      passed: Math.abs(durationDiff) <= g.durationToleranceSec,
      gated: policy.duration,
      duration_sec: round(m.videoStreamSec, 3),
      target_sec: round(context.plannedSec, 3),
      requested_sec: context.requestedSec ?? null,
      difference_sec: round(durationDiff, 3),
      tolerance_sec: g.durationToleranceSec,
    },
    safe_zone: {
      passed: union ? outside.length === 0 : null,
      gated: policy.safeZone,
      caption_box: union,
      safe_area: area,
      frames_outside: outside.length,
    },
  };
  const failed = Object.entries(checks)
    .filter(([, check]) => check.gated && check.passed === false)
    .map(([name]) => name);
  return { passed: failed.length === 0, failed, checks, measure_sec: round(m.measureSec) };
}

/** One line naming each failed check with what was measured, for job errors and progress messages. */
export function describeFailures(report: QualityReport): string {
  const c = report.checks;
  const at = (runs: TimeRun[]) => {
    const run = runs.reduce<TimeRun | undefined>(
      (m, r) => (!m || r.duration > m.duration ? r : m),
      undefined,
    );
    return run ? ` at ${round(run.start)}–${round(run.end)} s` : '';
  };
  const say: Record<string, string> = {
    loudness: `loudness ${c.loudness.integrated_lufs ?? 'none (no audio)'} LUFS (gate ${c.loudness.target_lufs} ± ${c.loudness.tolerance_lu})`,
    true_peak: `true peak ${c.true_peak.true_peak_dbtp ?? 'none'} dBTP (gate ≤ ${c.true_peak.max_dbtp})`,
    black: `black stretch of ${c.black.longest_sec} s${at(c.black.runs)} (gate ≤ ${c.black.max_sec} s)`,
    frozen: `frozen stretch of ${c.frozen.longest_sec} s${at(c.frozen.runs)} (gate ≤ ${c.frozen.max_sec} s)`,
    av_sync: `audio/video length difference ${c.av_sync.difference_ms ?? 'n/a (no audio)'} ms (gate < ${c.av_sync.max_ms})`,
    caption_sync: `caption offset up to ${c.caption_sync.worst_offset_ms} ms (gate < ${c.caption_sync.max_ms})`,
    duration: `length ${c.duration.duration_sec} s against ${c.duration.target_sec} s planned`,
    safe_zone: `captions outside the safe zone in ${c.safe_zone.frames_outside} sampled frames`,
  };
  return report.failed.map((name) => say[name] ?? name).join('; ');
}
