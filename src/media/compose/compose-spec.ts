// What a composition is made of, and its defaults and validation.
import { ffmpegColor } from '../ffmpeg/filter-escape.ts';
import {
  layoutFitsFrame,
  presenterLayoutGeometry,
  type BubbleShape,
  type PresenterLayoutGeometry,
  type PresenterLayoutName,
  type PresenterPlacement,
} from '../layouts/presenter-layout.ts';
import type { CameraMove } from '../motion/camera-move.ts';
import type { ForegroundLayer } from '../motion/motion-feed.ts';
import type { SeededBed } from '../music/seed.ts';
import type { FilterSource } from './filter-source.ts';
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

/** A library bed's intro, outro and the lengths of its sections (src/media/music/seed.ts). */
export type ComposeMusicBed = Pick<SeededBed, 'introPath' | 'outroPath' | 'sections'>;

export interface ComposeMusic {
  /** The file played round and round to the video's length; a library bed's loop when `bed` is given. */
  path: string;
  /**
   * A library bed: the music starts with its intro, loops `path` and ends with its outro, fitted to the
   * video's length (src/media/music/bed-graph.ts). Without it (music a user supplied) the file just loops.
   */
  bed?: ComposeMusicBed;
  /** Linear gain 0–1 applied to the music before mixing. */
  volume: number;
  /** Default 1 s, none for a bed: its intro swells in. */
  fadeInSec?: number;
  /** Default 2 s, none for a bed: its outro ends the music and fades its ring-out. */
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
  /**
   * This composition is one stretch of a longer video (a scene segment, src/media/compose/scene-segments.ts):
   * the bar is drawn as it stands from `offsetSec` into a timeline of `totalSec`. Absent: the whole timeline.
   */
  timeline?: { offsetSec: number; totalSec: number };
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
  /** Output frame numbers that start a closed GOP (scene boundaries a later revision cuts at). */
  keyframeFrames?: number[];
}

export type LogoHostStyle = 'card' | 'cube' | 'auto';

/** The brand's animated logo standing at the presenter's place instead of a face (spec 1 §4.5 `host`). */
export interface ComposeLogoHost {
  /** The logo, an image with alpha (a brand kit's normalized PNG); empty margins are trimmed. */
  logoPath: string;
  /**
   * card: the logo on a rounded card that sways and bobs, with a glow behind it following the narration's
   * loudness; cube: a slowly turning cube with the logo on its faces; auto (default): card for wide logos,
   * cube for square-ish ones.
   */
  style?: LogoHostStyle;
  /** Text under the logo (the caller resolves `show_url` and `url_text` into it); none when absent. */
  urlText?: string;
  /** Card or cube face colour, #RRGGBB; default white, or near-black behind a light logo. */
  cardColor?: string;
  /** Glow colour, #RRGGBB; default white. */
  glowColor?: string;
  /** Font family of the URL text (system families only; others fall back, see layout-images.ts). */
  fontFamily?: string;
}

/**
 * A presenter video (spec 1 §4.5 `format: presenter_broll` and `talking_head`). With it the scenes are the
 * B-roll and where they show depends on the layout:
 * - talking_head: the presenter fills the frame; scenes are not shown (may be empty).
 * - creator (portrait): scenes fill the frame; the presenter stands over them at `placement`, cut out by its
 *   matte when the source has alpha, else in a framed bubble (`bubble`).
 * - split (portrait): scenes cover the top half, the presenter the bottom half (the seam is in the geometry).
 * - cutaway: the presenter fills the frame; scene i fills it during `cutawayIntervals[i]` (its duration is
 *   set to the interval's).
 * The presenter's own sound is never used: the narration is its own input, as in every composition.
 * Regions come from presenterLayoutGeometry (src/media/layouts/presenter-layout.ts).
 */
export interface ComposePresenter {
  layout: PresenterLayoutName;
  /** The face: the talking-head engine's FilterSource, or videoFileSource of a hosted engine's MP4. */
  source?: FilterSource;
  /** The animated logo instead of a face; exactly one of source and host. */
  host?: ComposeLogoHost;
  /** Creator only; default bottom_left. */
  placement?: PresenterPlacement;
  /** Creator with a source without alpha; default circle. */
  bubble?: BubbleShape;
  /** Bubble border, #RRGGBB; default white. */
  borderColor?: string;
  /** Behind a host or a cut-out where no B-roll is (split's bottom half, full frame), #RRGGBB. */
  backdropColor?: string;
  /**
   * Cutaway only: [start, end] seconds on the timeline, in order and apart, one per scene. The caller picks
   * them on sentence boundaries covering the wanted share of the time. Rounded to whole frames.
   */
  cutawayIntervals?: [number, number][];
}

/**
 * An end card appended after the timeline (spec 1 §4.5 `outro`): the logo, the call to action and the URL.
 * The output lasts durationSec + outro.durationSec; nothing of the timeline's overlays but the watermark shows
 * on it, the narration is over by then, and the music plays on and fades out at the very end.
 */
export interface ComposeOutro {
  /** 2.5–3 s; default 3. */
  durationSec?: number;
  logoPath?: string;
  /** Up to 40 characters. */
  cta?: string;
  url?: string;
  /** #RRGGBB; default a dark slate. */
  backgroundColor?: string;
  /** #RRGGBB; default white. */
  textColor?: string;
  /** URL colour, #RRGGBB; default the text colour. */
  accentColor?: string;
  fontFamily?: string;
}

/** A still of the finished picture, written by the render itself (no second decode of the MP4). */
export interface ComposePoster {
  /** A .jpg path. */
  path: string;
  /** Seconds into the output; the frame on screen then. */
  atSec: number;
}

export interface ComposeSpec {
  outputPath: string;
  poster?: ComposePoster;
  width?: number;
  height?: number;
  fps?: number;
  /** The timeline's length (an outro is appended after it). */
  durationSec: number;
  /**
   * Footage in timeline order. If shorter in total than durationSec, the last scene is held longer. May be
   * empty only with a talking_head or cutaway presenter.
   */
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
  presenter?: ComposePresenter;
  outro?: ComposeOutro;
}

export interface ResolvedScene {
  path: string;
  kind: SceneKind;
  inPoint: number;
  duration: number;
  hasAudio: boolean;
  motion?: SceneMotion;
}

export interface ResolvedLogoHost {
  logoPath: string;
  style: LogoHostStyle;
  urlText: string | null;
  cardColor: string | null;
  glowColor: string;
  fontFamily: string | null;
}

/** A cutaway's frames on the timeline: [startFrame, endFrame). */
export interface CutawayFrames {
  startFrame: number;
  endFrame: number;
}

export interface ResolvedPresenter {
  layout: PresenterLayoutName;
  geometry: PresenterLayoutGeometry;
  source: FilterSource | null;
  host: ResolvedLogoHost | null;
  borderColor: string;
  backdropColor: string;
  cutaways: CutawayFrames[];
}

export interface ResolvedOutro {
  durationSec: number;
  logoPath: string | null;
  cta: string | null;
  url: string | null;
  backgroundColor: string | null;
  textColor: string | null;
  accentColor: string | null;
  fontFamily: string | null;
}

/** A spec with every default filled in and every value checked. */
export interface ResolvedSpec {
  outputPath: string;
  poster: { path: string; frame: number } | null;
  width: number;
  height: number;
  fps: number;
  /** The output's length: the timeline plus the outro. */
  durationSec: number;
  /** The timeline's length (scenes, presenter, narration, captions), before the outro. */
  mainSec: number;
  scenes: ResolvedScene[];
  sceneAudioVolume: number;
  narration: { path: string; tempo: number } | null;
  music: {
    path: string;
    bed: ComposeMusicBed | null;
    volume: number;
    fadeInSec: number;
    fadeOutSec: number;
  } | null;
  ass: { path: string; fontsDir: string | null } | null;
  logo: { path: string; widthFraction: number; margin: number } | null;
  watermark: { text: string; fontFile: string } | null;
  progressBar: {
    position: 'top' | 'bottom';
    color: string;
    heightPx: number;
    timeline?: { offsetSec: number; totalSec: number };
  } | null;
  loudness: LoudnessTarget & { gain: LoudnessGain | null };
  encoding: {
    preset: string;
    crf: number;
    audioBitrateKbps: number;
    threads: number;
    keyframeFrames?: number[];
  };
  presenter: ResolvedPresenter | null;
  outro: ResolvedOutro | null;
}

export const DEFAULT_WATERMARK_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
export const OUTRO_SECONDS = { min: 2.5, max: 3, default: 3 } as const;
export const OUTRO_CTA_MAX_CHARS = 40;
const DEFAULT_BACKDROP = '#101418';
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
  const presenter = spec.presenter
    ? resolvePresenter(spec.presenter, width, height, fps, spec.durationSec)
    : null;
  const layout = presenter?.layout ?? null;
  check(
    spec.scenes.length > 0 || layout === 'talking_head' || layout === 'cutaway',
    'at least one scene is required',
  );

  // A talking head shows no footage, so its scenes are not read at all.
  const given = layout === 'talking_head' ? [] : spec.scenes;
  const scenes: ResolvedScene[] = given.map((s, i) => {
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
  if (layout === 'cutaway') {
    const cutaways = presenter?.cutaways ?? [];
    check(scenes.length === cutaways.length, 'a cutaway presenter needs one scene per cutaway interval');
    scenes.forEach((scene, i) => {
      // Cutaway footage is laid over the presenter at its interval; its sound would need placing too.
      check(!scene.hasAudio, `scenes[${i}] is a cutaway and cannot have audio`);
      const frames = cutaways[i]!;
      scene.duration = (frames.endFrame - frames.startFrame) / fps;
    });
  } else {
    const total = scenes.reduce((sum, s) => sum + s.duration, 0);
    const last = scenes[scenes.length - 1];
    if (last && total < spec.durationSec) last.duration += spec.durationSec - total;
  }

  const outro = spec.outro ? resolveOutro(spec.outro) : null;
  const mainSec = spec.durationSec;
  const durationSec = mainSec + (outro?.durationSec ?? 0);

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
    const bed = spec.music.bed ?? null;
    const half = durationSec / 2;
    const fadeInSec = Math.min(spec.music.fadeInSec ?? (bed ? 0 : 1), half);
    const fadeOutSec = Math.min(spec.music.fadeOutSec ?? (bed ? 0 : 2), half);
    check(fadeInSec >= 0 && fadeOutSec >= 0, 'music fades must be >= 0');
    music = { path: spec.music.path, bed, volume, fadeInSec, fadeOutSec };
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
    const { position, color, timeline } = spec.progressBar;
    progressBar = { position, color, heightPx, ...(timeline ? { timeline } : {}) };
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

  let poster: ResolvedSpec['poster'] = null;
  if (spec.poster) {
    check(spec.poster.path !== '', 'poster.path is empty');
    check(finite(spec.poster.atSec) && spec.poster.atSec >= 0, 'poster.atSec must be >= 0');
    const lastFrame = Math.max(0, Math.round(durationSec * fps) - 1);
    poster = { path: spec.poster.path, frame: Math.min(lastFrame, Math.round(spec.poster.atSec * fps)) };
  }

  return {
    outputPath: spec.outputPath,
    poster,
    width,
    height,
    fps,
    durationSec,
    mainSec,
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
    presenter,
    outro,
  };
}

function color(value: string | undefined, field: string): string | null {
  if (value === undefined) return null;
  check(/^#[0-9a-fA-F]{6}$/.test(value), `${field} must be #RRGGBB`);
  return value;
}

function resolveHost(host: ComposeLogoHost): ResolvedLogoHost {
  check(host.logoPath !== '', 'presenter.host.logoPath is empty');
  const style = host.style ?? 'auto';
  check(['card', 'cube', 'auto'].includes(style), 'presenter.host.style must be card, cube or auto');
  const urlText = host.urlText?.trim() ? host.urlText.trim() : null;
  return {
    logoPath: host.logoPath,
    style,
    urlText,
    cardColor: color(host.cardColor, 'presenter.host.cardColor'),
    glowColor: color(host.glowColor, 'presenter.host.glowColor') ?? '#FFFFFF',
    fontFamily: host.fontFamily ?? null,
  };
}

function resolvePresenter(
  p: ComposePresenter,
  width: number,
  height: number,
  fps: number,
  mainSec: number,
): ResolvedPresenter {
  check(['talking_head', 'creator', 'split', 'cutaway'].includes(p.layout), 'presenter.layout is unknown');
  check(
    (p.source === undefined) !== (p.host === undefined),
    'presenter needs exactly one of source and host',
  );
  check(
    layoutFitsFrame(p.layout, { width, height }),
    `presenter.layout ${p.layout} needs a portrait (9:16) frame`,
  );
  check(p.placement === undefined || p.layout === 'creator', 'presenter.placement is for the creator layout');
  check(p.bubble === undefined || p.layout === 'creator', 'presenter.bubble is for the creator layout');
  check(
    p.cutawayIntervals === undefined || p.layout === 'cutaway',
    'presenter.cutawayIntervals is for the cutaway layout',
  );
  const source = p.source ?? null;
  if (source) {
    check(
      Number.isInteger(source.width) &&
        source.width > 0 &&
        Number.isInteger(source.height) &&
        source.height > 0,
      'presenter.source size must be positive integers',
    );
    check(finite(source.fps) && source.fps > 0, 'presenter.source.fps must be > 0');
    check(finite(source.durationSec) && source.durationSec > 0, 'presenter.source.durationSec must be > 0');
    check(source.inputs.length > 0, 'presenter.source has no inputs');
  }
  const host = p.host ? resolveHost(p.host) : null;
  const geometry = presenterLayoutGeometry({
    layout: p.layout,
    width,
    height,
    presenter: host ? 'host' : source?.hasAlpha ? 'alpha' : 'opaque',
    hostUrl: (host?.urlText ?? null) !== null,
    ...(p.placement ? { placement: p.placement } : {}),
    ...(p.bubble ? { bubble: p.bubble } : {}),
  });
  const mainFrames = Math.round(mainSec * fps);
  const cutaways: CutawayFrames[] = [];
  (p.cutawayIntervals ?? []).forEach(([start, end], i) => {
    check(
      finite(start) && finite(end) && start >= 0 && end > start,
      `cutawayIntervals[${i}] must be [start, end]`,
    );
    const startFrame = Math.round(start * fps);
    const endFrame = Math.min(mainFrames, Math.round(end * fps));
    check(endFrame > startFrame, `cutawayIntervals[${i}] is shorter than a frame or past the end`);
    const previous = cutaways[cutaways.length - 1];
    check(!previous || startFrame >= previous.endFrame, `cutawayIntervals[${i}] overlaps the one before`);
    cutaways.push({ startFrame, endFrame });
  });
  return {
    layout: p.layout,
    geometry,
    source,
    host,
    borderColor: color(p.borderColor, 'presenter.borderColor') ?? '#FFFFFF',
    backdropColor: color(p.backdropColor, 'presenter.backdropColor') ?? DEFAULT_BACKDROP,
    cutaways,
  };
}

function resolveOutro(o: ComposeOutro): ResolvedOutro {
  const durationSec = o.durationSec ?? OUTRO_SECONDS.default;
  check(
    finite(durationSec) && durationSec >= OUTRO_SECONDS.min && durationSec <= OUTRO_SECONDS.max,
    `outro.durationSec must be within ${OUTRO_SECONDS.min}–${OUTRO_SECONDS.max}`,
  );
  const text = (value: string | undefined) => (value?.trim() ? value.trim() : null);
  const cta = text(o.cta);
  const url = text(o.url);
  check(
    cta === null || [...cta].length <= OUTRO_CTA_MAX_CHARS,
    `outro.cta is longer than ${OUTRO_CTA_MAX_CHARS} characters`,
  );
  const logoPath = o.logoPath ? o.logoPath : null;
  check(logoPath !== null || cta !== null || url !== null, 'outro needs a logo, a call to action or a URL');
  return {
    durationSec,
    logoPath,
    cta,
    url,
    backgroundColor: color(o.backgroundColor, 'outro.backgroundColor'),
    textColor: color(o.textColor, 'outro.textColor'),
    accentColor: color(o.accentColor, 'outro.accentColor'),
    fontFamily: o.fontFamily ?? null,
  };
}

/** The size scenes are drawn at: the layout's B-roll region, else the frame. */
export function brollSize(spec: Pick<ResolvedSpec, 'width' | 'height' | 'presenter'>): {
  width: number;
  height: number;
} {
  const region = spec.presenter?.geometry.broll;
  return region ? { width: region.width, height: region.height } : { width: spec.width, height: spec.height };
}
