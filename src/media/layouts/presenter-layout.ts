// Where everything sits in a presenter video (spec 1 §4.5 `layout`, `presenter_placement`, `caption_style`):
// the B-roll's region, the presenter's box and how it is drawn there, the seam captions sit on, the host
// logo's box, and the corner logo. One place for these numbers, so the compose, the talking-head engine
// (which can render straight at the box size, sparing a rescale) and the caption builder agree.
import { frameScale, platformSafeZone, type FrameSize } from '../captions/safe-zone.ts';

export type PresenterLayoutName = 'talking_head' | 'creator' | 'split' | 'cutaway';
export type PresenterPlacement = 'bottom_left' | 'bottom_center';
export type BubbleShape = 'circle' | 'rounded';
export type CaptionStyleName = 'seam' | 'karaoke';

/**
 * How the presenter is drawn in its box: `full` fills it (opaque), `cutout` is a person with a matte over
 * the B-roll, `bubble` is a framed circle or rounded rectangle, `host` is the animated logo instead of a face.
 */
export type PresenterStyle = 'full' | 'cutout' | 'bubble' | 'host';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface BubbleFrame {
  shape: BubbleShape;
  /** Corner radius of the rounded rectangle (half the side for a circle), px. */
  radius: number;
  /** Width of the thin border drawn on the bubble's edge, px. */
  borderPx: number;
}

/** The logo host's place: the square the animation moves in, and the line of URL text under it. */
export interface HostBox {
  box: Rect;
  url: Rect | null;
}

export interface CaptionBand {
  /** Vertical centre of the caption block, px from the top. */
  centerY: number;
  top: number;
  bottom: number;
}

export interface PresenterLayoutGeometry {
  layout: PresenterLayoutName;
  frame: FrameSize;
  /**
   * Where the B-roll scenes are drawn (scaled to cover it); null when the layout shows none. For cutaway the
   * whole frame, shown only during the cutaway intervals.
   */
  broll: Rect | null;
  /** The presenter's box on the frame; a FilterSource of this size is used as it is. */
  presenter: Rect;
  style: PresenterStyle;
  bubble: BubbleFrame | null;
  /** Set for the logo host: where the animation and the URL line go (inside `presenter`). */
  host: HostBox | null;
  /**
   * The line captions sit on: split, the seam between the B-roll and the presenter; creator, the top edge of
   * the presenter's box. Null on full-frame layouts.
   */
  seamY: number | null;
  /** The caption style the layout defaults to (spec: seam for creator and split, karaoke for cutaway). */
  captionStyle: CaptionStyleName;
  /** Where captions go without covering the presenter's face or the platform's UI. */
  captions: CaptionBand;
  /** Top edge of the corner logo (drawn top-right, clear of the presenter and the bottom UI), px. */
  logoTop: number;
}

export interface PresenterLayoutOptions {
  layout: PresenterLayoutName;
  width: number;
  height: number;
  /** Creator only; default bottom_left. */
  placement?: PresenterPlacement;
  /**
   * What stands at the presenter's place: a face video with a matte (`alpha`), one without (`opaque`), or
   * the animated logo host (`host`).
   */
  presenter: 'alpha' | 'opaque' | 'host';
  /** Creator with an opaque face; default circle. */
  bubble?: BubbleShape;
  /** The host has a line of URL text under it. */
  hostUrl?: boolean;
}

// Sizes as fractions of the frame width (creator and split are portrait only, so width is the short side).
/** A cut-out person: wide enough for head and shoulders, standing on the bottom edge. */
const CUTOUT = { width: 0.62, height: 0.5 } as const;
/** A circular bubble's diameter; a rounded bubble is 3:4 portrait. */
const BUBBLE_CIRCLE = 0.42;
const BUBBLE_ROUNDED = { width: 0.4, aspect: 4 / 3, radius: 0.12 } as const;
/** Border of the bubble at the reference size (1080 wide), px. */
const BUBBLE_BORDER_PX = 6;
/** The logo host's square: a little larger than a bubble, since a logo has no face to read. */
const HOST_CREATOR = 0.46;
/** On split and full-frame layouts the host fills this share of its box's shorter side. */
const HOST_CENTRED = 0.5;
/** URL line height as a fraction of the host square. */
const HOST_URL = 0.16;
/** Two caption lines at the reference scale (the compose's caption band), px. */
const CAPTION_BAND_PX = 240;
/** Gap between a caption block and the edge it sits on, at the reference scale, px. */
const CAPTION_GAP_PX = 24;

function even(n: number): number {
  return 2 * Math.round(n / 2);
}

/** Layouts and the frame shapes they accept (spec: creator and split need 9:16; cutaway is for any). */
export function layoutFitsFrame(layout: PresenterLayoutName, frame: FrameSize): boolean {
  return layout === 'creator' || layout === 'split' ? frame.height > frame.width : true;
}

/** The caption style a layout defaults to. */
export function defaultCaptionStyle(layout: PresenterLayoutName): CaptionStyleName {
  return layout === 'creator' || layout === 'split' ? 'seam' : 'karaoke';
}

function centredHost(region: Rect, withUrl: boolean): HostBox {
  const side = even(Math.min(region.width, region.height) * HOST_CENTRED);
  const urlHeight = withUrl ? even(side * HOST_URL) : 0;
  const x = region.x + even((region.width - side) / 2);
  const y = region.y + even((region.height - side - urlHeight) / 2);
  return {
    box: { x, y, width: side, height: side },
    url: withUrl ? { x: region.x, y: y + side, width: region.width, height: urlHeight } : null,
  };
}

function lowerThird(frame: FrameSize): CaptionBand {
  const safe = platformSafeZone(frame);
  const band = Math.round(CAPTION_BAND_PX * frameScale(frame));
  const bottom = frame.height - safe.bottom;
  return { top: bottom - band, bottom, centerY: Math.round(bottom - band / 2) };
}

/** Caption band centred on a line (split's seam). */
function onLine(y: number, frame: FrameSize): CaptionBand {
  const half = Math.round((CAPTION_BAND_PX * frameScale(frame)) / 2);
  return { top: y - half, bottom: y + half, centerY: y };
}

/** Caption band resting just above a line (creator: above the presenter, not over the face). */
function aboveLine(y: number, frame: FrameSize): CaptionBand {
  const scale = frameScale(frame);
  const bottom = y - Math.round(CAPTION_GAP_PX * scale);
  const band = Math.round(CAPTION_BAND_PX * scale);
  return { top: bottom - band, bottom, centerY: Math.round(bottom - band / 2) };
}

function creatorBox(
  options: PresenterLayoutOptions,
  frame: FrameSize,
): Omit<
  PresenterLayoutGeometry,
  'layout' | 'frame' | 'broll' | 'seamY' | 'captionStyle' | 'captions' | 'logoTop'
> {
  const { width: W, height: H } = frame;
  const safe = platformSafeZone(frame);
  const placement = options.placement ?? 'bottom_left';
  const left = (boxWidth: number, marginLeft: number) =>
    placement === 'bottom_center' ? even((W - boxWidth) / 2) : marginLeft;

  if (options.presenter === 'alpha') {
    // The person stands on the bottom edge; only the body goes under the platform's bottom UI.
    const width = even(W * CUTOUT.width);
    const height = even(H * CUTOUT.height);
    return {
      presenter: { x: left(width, 0), y: H - height, width, height },
      style: 'cutout',
      bubble: null,
      host: null,
    };
  }
  if (options.presenter === 'host') {
    const side = even(W * HOST_CREATOR);
    const urlHeight = options.hostUrl ? even(side * HOST_URL) : 0;
    const x = left(side, safe.left);
    const y = H - safe.bottom - urlHeight - side;
    const box = { x, y, width: side, height: side };
    return {
      presenter: { x, y, width: side, height: side + urlHeight },
      style: 'host',
      bubble: null,
      host: { box, url: options.hostUrl ? { x, y: y + side, width: side, height: urlHeight } : null },
    };
  }
  const shape = options.bubble ?? 'circle';
  const width = even(W * (shape === 'circle' ? BUBBLE_CIRCLE : BUBBLE_ROUNDED.width));
  const height = shape === 'circle' ? width : even(width * BUBBLE_ROUNDED.aspect);
  const radius = shape === 'circle' ? width / 2 : Math.round(width * BUBBLE_ROUNDED.radius);
  // A framed bubble stays above the bottom UI, where the whole face is seen.
  return {
    presenter: { x: left(width, safe.left), y: H - safe.bottom - height, width, height },
    style: 'bubble',
    bubble: { shape, radius, borderPx: Math.max(2, even(BUBBLE_BORDER_PX * frameScale(frame))) },
    host: null,
  };
}

/** The regions of a layout on a frame; throws RangeError for a layout the frame's shape does not allow. */
export function presenterLayoutGeometry(options: PresenterLayoutOptions): PresenterLayoutGeometry {
  const frame = { width: options.width, height: options.height };
  const { width: W, height: H } = frame;
  if (!layoutFitsFrame(options.layout, frame))
    throw new RangeError(`the ${options.layout} layout needs a portrait (9:16) frame, got ${W}×${H}`);
  const full: Rect = { x: 0, y: 0, width: W, height: H };
  const safe = platformSafeZone(frame);
  const logoTop = safe.top + Math.round(Math.min(W, H) * 0.04);
  const base = { layout: options.layout, frame, captionStyle: defaultCaptionStyle(options.layout), logoTop };
  const hostOrFull = (region: Rect) =>
    options.presenter === 'host'
      ? { style: 'host' as const, host: centredHost(region, options.hostUrl ?? false) }
      : { style: 'full' as const, host: null };

  switch (options.layout) {
    case 'talking_head':
    case 'cutaway':
      return {
        ...base,
        broll: options.layout === 'cutaway' ? full : null,
        presenter: full,
        bubble: null,
        ...hostOrFull(full),
        seamY: null,
        captions: lowerThird(frame),
      };
    case 'split': {
      const seamY = even(H / 2);
      const presenter = { x: 0, y: seamY, width: W, height: H - seamY };
      return {
        ...base,
        broll: { x: 0, y: 0, width: W, height: seamY },
        presenter,
        bubble: null,
        ...hostOrFull(presenter),
        seamY,
        captions: onLine(seamY, frame),
      };
    }
    case 'creator': {
      const box = creatorBox(options, frame);
      return {
        ...base,
        broll: full,
        ...box,
        seamY: box.presenter.y,
        captions: aboveLine(box.presenter.y, frame),
      };
    }
  }
}
