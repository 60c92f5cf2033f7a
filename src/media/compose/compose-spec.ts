// What a composition is made of, and its defaults and validation.
import { ffmpegColor } from '../ffmpeg/filter-escape.ts';
import type { CameraMove } from '../motion/camera-move.ts';
import type { ForegroundLayer } from '../motion/motion-feed.ts';
import type { LoudnessGain, LoudnessTarget } from './loudness-plan.ts';

export type SceneKind = 'video' | 'image';

/**
 * A camera move over the scene, drawn by the local motion engine (src/media/motion) and fed to the render
 * as raw frames; the scene's sound (hasAudio) still comes from its file.
 */
export interface SceneMotion {
  move: CameraMove;
  /** Parallax layer over a still (a cut-out moving further than the background). */
  foreground?: ForegroundLayer;
}

export interface ComposeScene {
  path: string;
  /** Inferred from the file extension when absent (png/jpg/jpeg/webp/bmp/tif/tiff → image). */
  kind?: SceneKind;
  /** Seconds into the source where the segment starts; ignored for images. */
  inPoint: number;
  /** Seconds the segment lasts on the output timeline. Short sources hold their last frame. */
  duration: number;
  /** Keep the source's own sound in the mix (the source must have an audio stream). */
  hasAudio?: boolean;
  motion?: SceneMotion;
}

export interface ComposeNarration {
  path: string;
  /** Speed-up applied with atempo, 1.0–1.35. */
  tempo?: number;
}

export interface ComposeMusic {
  path: string;
  /** Linear gain 0–1 applied to the music before mixing. */
  volume: number;
  fadeInSec?: number;
  fadeOutSec?: number;
}

export interface ComposeCaptions {
  /** ASS script, e.g. from buildAss. */
  path: string;
  /**
   * Folder libass loads every font file of before looking at system fonts: the prepared folder of
   * src/media/fonts/caption-fonts-dir.ts, needed when the ASS names a shipped web font (a brand's font).
   */
  fontsDir?: string;
}

export interface ComposeLogo {
  path: string;
  /** Logo width as a fraction of the frame's shorter side. */
  widthFraction?: number;
  /** Distance from the right edge and from the caption area, px. */
  margin?: number;
}

export interface ComposeWatermark {
  text: string;
  /** TrueType font drawtext renders with. */
  fontFile?: string;
}

export interface ComposeProgressBar {
  position: 'top' | 'bottom';
  /** #RRGGBB */
  color: string;
  heightPx?: number;
}

export interface ComposeLoudness extends Partial<LoudnessTarget> {
  /** Gain stage planned from measurements (see loudness-plan.ts); without it loudnorm runs single-pass. */
  gain?: LoudnessGain;
}

export interface ComposeEncoding {
  /** libx264 preset. */
  preset?: string;
  crf?: number;
  audioBitrateKbps?: number;
  /** Encoder/filter threads; 0 lets ffmpeg decide. */
  threads?: number;
}

export interface ComposeSpec {
  outputPath: string;
  width?: number;
  height?: number;
  fps?: number;
  durationSec: number;
  /** Footage in timeline order. If shorter in total than durationSec, the last scene is held longer. */
  scenes: ComposeScene[];
  /** Linear gain for scene audio (hasAudio scenes) in the mix. */
  sceneAudioVolume?: number;
  narration?: ComposeNarration;
  music?: ComposeMusic;
  ass?: ComposeCaptions;
  logo?: ComposeLogo;
  watermark?: ComposeWatermark;
  progressBar?: ComposeProgressBar;
  loudness?: ComposeLoudness;
  encoding?: ComposeEncoding;
}

export interface ResolvedScene {
  path: string;
  kind: SceneKind;
  inPoint: number;
  duration: number;
  hasAudio: boolean;
  motion?: SceneMotion;
}

/** A spec with every default filled in and every value checked. */
export interface ResolvedSpec {
  outputPath: string;
  width: number;
  height: number;
  fps: number;
  durationSec: number;
  scenes: ResolvedScene[];
  sceneAudioVolume: number;
  narration: { path: string; tempo: number } | null;
  music: { path: string; volume: number; fadeInSec: number; fadeOutSec: number } | null;
  ass: { path: string; fontsDir: string | null } | null;
  logo: { path: string; widthFraction: number; margin: number } | null;
  watermark: { text: string; fontFile: string } | null;
  progressBar: { position: 'top' | 'bottom'; color: string; heightPx: number } | null;
  loudness: LoudnessTarget & { gain: LoudnessGain | null };
  encoding: { preset: string; crf: number; audioBitrateKbps: number; threads: number };
}

export const DEFAULT_WATERMARK_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
export const DEFAULT_LOUDNESS: LoudnessTarget = { integratedLufs: -14, truePeakDb: -1.5 };
// Measured on a 30 s 1080×1920 composition at CRF 22: veryfast 24.4 s CPU / 6.1 MB, faster 34.4 s / 6.6 MB,
// superfast 18.7 s / 14.1 MB. veryfast is the speed/size sweet spot.
export const DEFAULT_ENCODING = { preset: 'veryfast', crf: 22, audioBitrateKbps: 160, threads: 0 } as const;

const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'webp', 'bmp', 'tif', 'tiff']);

/** Frames a scene lasts on the output timeline (at least one). */
export function sceneFrames(scene: Pick<ResolvedScene, 'duration'>, fps: number): number {
  return Math.max(1, Math.round(scene.duration * fps));
}

export function sceneKindOf(path: string): SceneKind {
  const ext = /\.([^./\\]+)$/.exec(path)?.[1]?.toLowerCase();
  return ext !== undefined && IMAGE_EXTENSIONS.has(ext) ? 'image' : 'video';
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new RangeError(`compose spec: ${message}`);
}

function finite(value: number): boolean {
  return Number.isFinite(value);
}

/** Fills defaults and validates; throws RangeError naming the offending field. */
export function resolveComposeSpec(spec: ComposeSpec): ResolvedSpec {
  const width = spec.width ?? 1080;
  const height = spec.height ?? 1920;
  const fps = spec.fps ?? 30;
  check(Number.isInteger(width) && width > 0 && width % 2 === 0, 'width must be a positive even integer');
  check(Number.isInteger(height) && height > 0 && height % 2 === 0, 'height must be a positive even integer');
  check(finite(fps) && fps > 0 && fps <= 120, 'fps must be in (0, 120]');
  check(finite(spec.durationSec) && spec.durationSec > 0, 'durationSec must be > 0');
  check(spec.scenes.length > 0, 'at least one scene is required');

  const scenes: ResolvedScene[] = spec.scenes.map((s, i) => {
    check(s.path !== '', `scenes[${i}].path is empty`);
    check(finite(s.inPoint) && s.inPoint >= 0, `scenes[${i}].inPoint must be >= 0`);
    check(finite(s.duration) && s.duration > 0, `scenes[${i}].duration must be > 0`);
    const kind = s.kind ?? sceneKindOf(s.path);
    check(!(kind === 'image' && s.hasAudio), `scenes[${i}] is an image and cannot have audio`);
    if (s.motion) {
      const { strength } = s.motion.move;
      check(finite(strength) && strength >= 0 && strength <= 1, `scenes[${i}].motion strength must be 0–1`);
      check(
        !(s.motion.foreground && kind !== 'image'),
        `scenes[${i}] has a foreground layer but is not a still`,
      );
    }
    return {
      path: s.path,
      kind,
      inPoint: kind === 'image' ? 0 : s.inPoint,
      duration: s.duration,
      hasAudio: s.hasAudio ?? false,
      ...(s.motion ? { motion: s.motion } : {}),
    };
  });
  const total = scenes.reduce((sum, s) => sum + s.duration, 0);
  const last = scenes[scenes.length - 1];
  if (last && total < spec.durationSec) last.duration += spec.durationSec - total;

  const sceneAudioVolume = spec.sceneAudioVolume ?? 1;
  check(finite(sceneAudioVolume) && sceneAudioVolume >= 0, 'sceneAudioVolume must be >= 0');

  let narration: ResolvedSpec['narration'] = null;
  if (spec.narration) {
    const tempo = spec.narration.tempo ?? 1;
    check(finite(tempo) && tempo >= 1 && tempo <= 1.35, 'narration.tempo must be within 1.0–1.35');
    narration = { path: spec.narration.path, tempo };
  }

  let music: ResolvedSpec['music'] = null;
  if (spec.music) {
    const { volume } = spec.music;
    check(finite(volume) && volume >= 0 && volume <= 1, 'music.volume must be within 0–1');
    const half = spec.durationSec / 2;
    const fadeInSec = Math.min(spec.music.fadeInSec ?? 1, half);
    const fadeOutSec = Math.min(spec.music.fadeOutSec ?? 2, half);
    check(fadeInSec >= 0 && fadeOutSec >= 0, 'music fades must be >= 0');
    music = { path: spec.music.path, volume, fadeInSec, fadeOutSec };
  }

  let logo: ResolvedSpec['logo'] = null;
  if (spec.logo) {
    const widthFraction = spec.logo.widthFraction ?? 0.18;
    check(widthFraction > 0 && widthFraction <= 1, 'logo.widthFraction must be within (0, 1]');
    const margin = spec.logo.margin ?? Math.round(Math.min(width, height) * 0.04);
    check(margin >= 0, 'logo.margin must be >= 0');
    logo = { path: spec.logo.path, widthFraction, margin };
  }

  let progressBar: ResolvedSpec['progressBar'] = null;
  if (spec.progressBar) {
    ffmpegColor(spec.progressBar.color);
    const heightPx = spec.progressBar.heightPx ?? 8;
    check(
      Number.isInteger(heightPx) && heightPx > 0 && heightPx <= height,
      'progressBar.heightPx is out of range',
    );
    progressBar = { position: spec.progressBar.position, color: spec.progressBar.color, heightPx };
  }

  const loudness = {
    integratedLufs: spec.loudness?.integratedLufs ?? DEFAULT_LOUDNESS.integratedLufs,
    truePeakDb: spec.loudness?.truePeakDb ?? DEFAULT_LOUDNESS.truePeakDb,
    gain: spec.loudness?.gain ?? null,
  };
  check(
    finite(loudness.integratedLufs) && loudness.integratedLufs < 0,
    'loudness.integratedLufs must be < 0',
  );
  check(finite(loudness.truePeakDb) && loudness.truePeakDb <= 0, 'loudness.truePeakDb must be <= 0');
  const encoding = { ...DEFAULT_ENCODING, ...spec.encoding };
  check(
    Number.isInteger(encoding.crf) && encoding.crf >= 0 && encoding.crf <= 51,
    'encoding.crf must be 0–51',
  );

  return {
    outputPath: spec.outputPath,
    width,
    height,
    fps,
    durationSec: spec.durationSec,
    scenes,
    sceneAudioVolume,
    narration,
    music,
    ass: spec.ass ? { path: spec.ass.path, fontsDir: spec.ass.fontsDir ?? null } : null,
    logo,
    watermark: spec.watermark
      ? { text: spec.watermark.text, fontFile: spec.watermark.fontFile ?? DEFAULT_WATERMARK_FONT }
      : null,
    progressBar,
    loudness,
    encoding,
  };
}
