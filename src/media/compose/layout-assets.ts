// The pictures a presenter layout or an outro needs, drawn once with sharp before the render (see
// src/media/layouts/layout-images.ts) into the render's work folder; the graph reads each as one frame.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  autoHostStyle,
  bubbleImages,
  cubeFaceImage,
  hostCardImages,
  loadLayoutLogo,
  outroCardImage,
  urlLineImage,
} from '../layouts/layout-images.ts';
import type { ResolvedSpec } from './compose-spec.ts';

export interface HostAssets {
  /** What `auto` turned into. */
  style: 'card' | 'cube';
  /** The card on its canvas, or one cube face (RGBA PNG, the host box's size). */
  image: string;
  /** The card's glow shape (grey PNG); null for the cube. */
  glow: string | null;
  /** The URL line (RGBA PNG, the URL rect's size). */
  url: string | null;
}

export interface LayoutAssets {
  /** Grey mask and RGBA border of the creator's framed bubble. */
  bubble: { mask: string; ring: string } | null;
  host: HostAssets | null;
  /** The end card (PNG, frame-sized). */
  outro: string | null;
}

/** Whether the composition draws anything from pictures made before the render. */
export function needsLayoutAssets(spec: Pick<ResolvedSpec, 'presenter' | 'outro'>): boolean {
  return spec.outro !== null || spec.presenter?.geometry.style === 'bubble' || spec.presenter?.host != null;
}

async function save(dir: string, name: string, png: Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, png);
  return path;
}

async function hostAssets(spec: ResolvedSpec, dir: string): Promise<HostAssets | null> {
  const host = spec.presenter?.host;
  const place = spec.presenter?.geometry.host;
  if (!host || !place) return null;
  const logo = await loadLayoutLogo(host.logoPath);
  const style = host.style === 'auto' ? autoHostStyle(logo) : host.style;
  const canvas = place.box.width;
  const colour = host.cardColor ? { cardColor: host.cardColor } : {};
  let image: string;
  let glow: string | null = null;
  if (style === 'card') {
    const card = await hostCardImages({ logo, canvas, ...colour });
    image = await save(dir, 'host-card.png', card.card);
    glow = await save(dir, 'host-glow.png', card.glow);
  } else {
    const face = await cubeFaceImage({
      logo,
      canvas,
      ...(host.cardColor ? { faceColor: host.cardColor } : {}),
    });
    image = await save(dir, 'host-face.png', face);
  }
  const url =
    host.urlText !== null && place.url
      ? await save(
          dir,
          'host-url.png',
          await urlLineImage({
            text: host.urlText,
            size: { width: place.url.width, height: place.url.height },
            fontFamily: host.fontFamily,
          }),
        )
      : null;
  return { style, image, glow, url };
}

/** Draws the pictures `spec` needs into `dir` (which the caller creates and removes). */
export async function prepareLayoutAssets(spec: ResolvedSpec, dir: string): Promise<LayoutAssets> {
  const presenter = spec.presenter;
  let bubble: LayoutAssets['bubble'] = null;
  if (presenter?.geometry.bubble) {
    const { presenter: box, bubble: frame } = presenter.geometry;
    const images = await bubbleImages(box, frame.radius, frame.borderPx, presenter.borderColor);
    bubble = {
      mask: await save(dir, 'bubble-mask.png', images.mask),
      ring: await save(dir, 'bubble-ring.png', images.ring),
    };
  }
  const host = await hostAssets(spec, dir);
  let outro: string | null = null;
  if (spec.outro) {
    const o = spec.outro;
    const png = await outroCardImage({
      size: { width: spec.width, height: spec.height },
      logo: o.logoPath ? await loadLayoutLogo(o.logoPath) : null,
      cta: o.cta,
      url: o.url,
      ...(o.backgroundColor ? { backgroundColor: o.backgroundColor } : {}),
      ...(o.textColor ? { textColor: o.textColor } : {}),
      ...(o.accentColor ? { accentColor: o.accentColor } : {}),
      fontFamily: o.fontFamily,
    });
    outro = await save(dir, 'outro.png', png);
  }
  return { bubble, host, outro };
}
