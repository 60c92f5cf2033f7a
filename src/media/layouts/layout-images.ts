// The still pictures presenter layouts are built from, drawn once with sharp (shapes as SVG through librsvg,
// text through Pango): the bubble's mask and border, the logo host's card, glow and cube face, its URL line,
// and the outro end card. The compose reads each as a single frame and animates or repeats it in ffmpeg.
import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import { FALLBACK_FONT_FAMILY, SYSTEM_FONT_FAMILIES, findFontFamily } from '../fonts/font-catalogue.ts';

export interface Size {
  width: number;
  height: number;
}

/** A logo prepared for drawing: trimmed RGBA pixels, and whether it reads as light (needs a dark plate). */
export interface LayoutLogo {
  png: Buffer;
  width: number;
  height: number;
  light: boolean;
}

/** Wider than this (width / height) is a wordmark: the logo host shows it on a card, not on a cube. */
export const WIDE_LOGO_ASPECT = 1.5;
/** Mean luma of the opaque pixels above which a logo is light and gets a dark plate. */
const LIGHT_LOGO_LUMA = 170;
const WHITE = '#FFFFFF';
const INK = '#111827';

function hex(color: string): string {
  if (!/^#[0-9a-fA-F]{6}$/.test(color))
    throw new RangeError(`colour must be #RRGGBB, got ${JSON.stringify(color)}`);
  return color.toUpperCase();
}

function escapeMarkup(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The family text on layout pictures is drawn in. sharp's Pango finds fonts through fontconfig, which knows the
 * system families but cannot read the shipped web fonts (WOFF), so a brand font that is one of those falls back.
 */
export function imageFontFamily(name?: string | null): string {
  const family = findFontFamily(name);
  return family !== undefined && family in SYSTEM_FONT_FAMILIES ? family : FALLBACK_FONT_FAMILY;
}

/** Reads a logo file: trimmed of its empty margins, and measured for lightness. */
export async function loadLayoutLogo(path: string): Promise<LayoutLogo> {
  const { data, info } = await sharp(path)
    .toColourspace('srgb')
    .ensureAlpha()
    .trim({ background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  let luma = 0;
  let weight = 0;
  for (let p = 0; p < data.length; p += 4) {
    const a = data[p + 3]! / 255;
    luma += a * (0.2126 * data[p]! + 0.7152 * data[p + 1]! + 0.0722 * data[p + 2]!);
    weight += a;
  }
  const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png()
    .toBuffer();
  return {
    png,
    width: info.width,
    height: info.height,
    light: weight > 0 && luma / weight > LIGHT_LOGO_LUMA,
  };
}

/** card for wide logos (wordmarks), cube for square-ish ones (icons). */
export function autoHostStyle(logo: Pick<LayoutLogo, 'width' | 'height'>): 'card' | 'cube' {
  return logo.width / logo.height >= WIDE_LOGO_ASPECT ? 'card' : 'cube';
}

/** The logo scaled to fit inside a box, keeping its shape. */
async function fitLogo(logo: LayoutLogo, box: Size): Promise<{ png: Buffer } & Size> {
  const scale = Math.min(box.width / logo.width, box.height / logo.height);
  const width = Math.max(1, Math.round(logo.width * scale));
  const height = Math.max(1, Math.round(logo.height * scale));
  const png = await sharp(logo.png).resize(width, height, { fit: 'fill' }).png().toBuffer();
  return { png, width, height };
}

function svg(size: Size, body: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}" viewBox="0 0 ${size.width} ${size.height}">${body}</svg>`,
  );
}

function canvas(size: Size): Sharp {
  return sharp({ create: { ...size, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } });
}

interface TextOptions {
  family: string;
  bold: boolean;
  color: string;
  /** Wrap width, px. */
  width: number;
  /** Largest font size tried, px; smaller sizes are tried until the text fits `maxHeight`. */
  size: number;
  maxHeight: number;
}

/** Text wrapped and centred, shrunk until it fits; RGBA PNG sized to the text. */
async function textImage(text: string, o: TextOptions): Promise<{ png: Buffer } & Size> {
  let size = o.size;
  for (;;) {
    const { data, info } = await sharp({
      text: {
        text: `<span foreground="${hex(o.color)}">${escapeMarkup(text)}</span>`,
        font: `${o.family}${o.bold ? ' Bold' : ''} ${size}`,
        width: o.width,
        align: 'centre',
        wrap: 'word',
        dpi: 72,
        rgba: true,
      },
    })
      .png()
      .toBuffer({ resolveWithObject: true });
    if (info.height <= o.maxHeight || size <= 8) return { png: data, width: info.width, height: info.height };
    size = Math.floor(size * 0.85);
  }
}

/** Bubble mask (grey, white inside) and its border ring (RGBA), both the size of the presenter's box. */
export async function bubbleImages(
  size: Size,
  radius: number,
  borderPx: number,
  borderColor: string,
): Promise<{ mask: Buffer; ring: Buffer }> {
  const shape = (inset: number, paint: string) =>
    `<rect x="${inset}" y="${inset}" width="${size.width - 2 * inset}" height="${size.height - 2 * inset}" ` +
    `rx="${Math.max(0, radius - inset)}" ry="${Math.max(0, radius - inset)}" ${paint}/>`;
  const mask = await sharp(
    svg(size, `<rect width="100%" height="100%" fill="#000"/>${shape(0, 'fill="#fff"')}`),
  )
    .greyscale()
    .png()
    .toBuffer();
  const half = borderPx / 2;
  const ring = await sharp(
    svg(size, shape(half, `fill="none" stroke="${hex(borderColor)}" stroke-width="${borderPx}"`)),
  )
    .png()
    .toBuffer();
  return { mask, ring };
}

export interface HostCardOptions {
  logo: LayoutLogo;
  /** Side of the square canvas the card sways on, px. */
  canvas: number;
  /** Card colour; default white, or near-black for a light logo. */
  cardColor?: string;
}

/** The card's share of its canvas: room left for the sway, the bob and the shadow. */
const CARD_WIDTH = 0.78;

/**
 * The logo on a rounded card with a soft shadow, centred on a transparent square canvas; and the grey glow
 * shape (a blurred halo around the card) the narration's loudness lights up behind it.
 */
export async function hostCardImages(o: HostCardOptions): Promise<{ card: Buffer; glow: Buffer }> {
  const c = o.canvas;
  const cardWidth = Math.round(c * CARD_WIDTH);
  const pad = Math.round(cardWidth * 0.12);
  const logo = await fitLogo(o.logo, { width: cardWidth - 2 * pad, height: Math.round(c * 0.42) });
  const cardHeight = Math.max(Math.round(cardWidth * 0.42), logo.height + 2 * pad);
  const x = Math.round((c - cardWidth) / 2);
  const y = Math.round((c - cardHeight) / 2);
  const radius = Math.round(Math.min(cardWidth, cardHeight) * 0.16);
  const fill = hex(o.cardColor ?? (o.logo.light ? INK : WHITE));
  const blur = Math.max(2, Math.round(c * 0.02));
  const body =
    `<defs><filter id="s" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="${blur}"/></filter></defs>` +
    `<rect x="${x}" y="${y + blur}" width="${cardWidth}" height="${cardHeight}" rx="${radius}" fill="#000" fill-opacity="0.45" filter="url(#s)"/>` +
    `<rect x="${x}" y="${y}" width="${cardWidth}" height="${cardHeight}" rx="${radius}" fill="${fill}"/>`;
  const size = { width: c, height: c };
  const card = await canvas(size)
    .composite([
      { input: svg(size, body) },
      {
        input: logo.png,
        left: Math.round((c - logo.width) / 2),
        top: Math.round((c - logo.height) / 2),
      },
    ])
    .png()
    .toBuffer();
  const spread = Math.round(c * 0.04);
  const glowBlur = Math.round(c * 0.035);
  const glowBody =
    `<rect width="100%" height="100%" fill="#000"/>` +
    `<defs><filter id="g" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${glowBlur}"/></filter></defs>` +
    `<rect x="${x - spread}" y="${y - spread}" width="${cardWidth + 2 * spread}" height="${cardHeight + 2 * spread}" ` +
    `rx="${radius + spread}" fill="#fff" filter="url(#g)"/>`;
  const glow = await sharp(svg(size, glowBody)).greyscale().png().toBuffer();
  return { card, glow };
}

export interface CubeFaceOptions {
  logo: LayoutLogo;
  canvas: number;
  /** Face colour; default white, or near-black for a light logo. */
  faceColor?: string;
}

/**
 * One face of the cube filling the canvas (perspective maps the whole frame onto the face), inside a
 * transparent 2 px border: outside a face's quad, perspective repeats the frame's edge, which is then clear.
 */
export async function cubeFaceImage(o: CubeFaceOptions): Promise<Buffer> {
  const c = o.canvas;
  const border = 2;
  const face = c - 2 * border;
  const fill = hex(o.faceColor ?? (o.logo.light ? INK : WHITE));
  const edge = o.logo.light ? '#374151' : '#D1D5DB';
  const line = Math.max(2, Math.round(c * 0.012));
  const logo = await fitLogo(o.logo, { width: Math.round(face * 0.7), height: Math.round(face * 0.7) });
  const body =
    `<rect x="${border}" y="${border}" width="${face}" height="${face}" fill="${fill}"/>` +
    `<rect x="${border + line / 2}" y="${border + line / 2}" width="${face - line}" height="${face - line}" ` +
    `fill="none" stroke="${edge}" stroke-width="${line}"/>`;
  const size = { width: c, height: c };
  return canvas(size)
    .composite([
      { input: svg(size, body) },
      { input: logo.png, left: Math.round((c - logo.width) / 2), top: Math.round((c - logo.height) / 2) },
    ])
    .png()
    .toBuffer();
}

export interface UrlLineOptions {
  text: string;
  size: Size;
  fontFamily?: string | null;
}

/** The URL under the logo host: white text on a dark translucent pill, legible over any footage. */
export async function urlLineImage(o: UrlLineOptions): Promise<Buffer> {
  const { width, height } = o.size;
  const text = await textImage(o.text, {
    family: imageFontFamily(o.fontFamily),
    bold: true,
    color: WHITE,
    width: Math.round(width * 0.86),
    size: Math.round(height * 0.5),
    maxHeight: Math.round(height * 0.62),
  });
  const pillWidth = Math.min(width, text.width + Math.round(height * 0.8));
  const pillHeight = Math.min(height, text.height + Math.round(height * 0.3));
  const px = Math.round((width - pillWidth) / 2);
  const py = Math.round((height - pillHeight) / 2);
  const pill = `<rect x="${px}" y="${py}" width="${pillWidth}" height="${pillHeight}" rx="${pillHeight / 2}" fill="#000" fill-opacity="0.55"/>`;
  const layers: OverlayOptions[] = [
    { input: svg(o.size, pill) },
    {
      input: text.png,
      left: Math.round((width - text.width) / 2),
      top: Math.round((height - text.height) / 2),
    },
  ];
  return canvas(o.size).composite(layers).png().toBuffer();
}

export interface OutroCardOptions {
  size: Size;
  logo: LayoutLogo | null;
  /** Call to action, up to 40 characters. */
  cta: string | null;
  url: string | null;
  /** Background (#RRGGBB); default a dark slate. */
  backgroundColor?: string;
  textColor?: string;
  /** URL colour; default the text colour. */
  accentColor?: string;
  fontFamily?: string | null;
}

/** The end card: the logo on a plate, the call to action under it, and the URL. Opaque, frame-sized. */
export async function outroCardImage(o: OutroCardOptions): Promise<Buffer> {
  const { width: W, height: H } = o.size;
  const short = Math.min(W, H);
  const background = hex(o.backgroundColor ?? '#0F172A');
  const textColor = hex(o.textColor ?? WHITE);
  const family = imageFontFamily(o.fontFamily);
  const layers: OverlayOptions[] = [
    {
      input: svg(
        o.size,
        `<defs><linearGradient id="b" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${background}"/>` +
          `<stop offset="1" stop-color="#000" stop-opacity="1"/></linearGradient></defs>` +
          `<rect width="100%" height="100%" fill="${background}"/>` +
          `<rect width="100%" height="100%" fill="url(#b)" fill-opacity="0.35"/>`,
      ),
    },
  ];
  const blocks: { png: Buffer; width: number; height: number; gap: number }[] = [];
  if (o.logo) {
    const logo = await fitLogo(o.logo, { width: Math.round(W * 0.5), height: Math.round(H * 0.16) });
    const pad = Math.round(short * 0.06);
    const plate = { width: logo.width + 2 * pad, height: logo.height + 2 * pad };
    const plateColor = o.logo.light ? INK : WHITE;
    const png = await canvas(plate)
      .composite([
        {
          input: svg(
            plate,
            `<rect width="100%" height="100%" rx="${Math.round(short * 0.04)}" fill="${plateColor}"/>`,
          ),
        },
        { input: logo.png, left: pad, top: pad },
      ])
      .png()
      .toBuffer();
    blocks.push({ png, ...plate, gap: 0 });
  }
  if (o.cta) {
    const text = await textImage(o.cta, {
      family,
      bold: true,
      color: textColor,
      width: Math.round(W * 0.84),
      size: Math.round(short * 0.075),
      maxHeight: Math.round(H * 0.2),
    });
    blocks.push({ ...text, gap: Math.round(short * 0.07) });
  }
  if (o.url) {
    const text = await textImage(o.url, {
      family,
      bold: false,
      color: hex(o.accentColor ?? textColor),
      width: Math.round(W * 0.84),
      size: Math.round(short * 0.045),
      maxHeight: Math.round(H * 0.08),
    });
    blocks.push({ ...text, gap: Math.round(short * 0.035) });
  }
  // The blocks as one column, centred a little above the middle.
  const total = blocks.reduce((sum, b) => sum + b.gap + b.height, 0);
  let top = Math.round((H - total) * 0.45);
  for (const b of blocks) {
    top += b.gap;
    layers.push({ input: b.png, left: Math.round((W - b.width) / 2), top });
    top += b.height;
  }
  return sharp({ create: { width: W, height: H, channels: 3, background } })
    .composite(layers)
    .png()
    .toBuffer();
}
