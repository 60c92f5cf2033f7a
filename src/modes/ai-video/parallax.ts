import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { makeParallaxPlates, segmentPerson } from '../../media/vision/index.ts';

// The two layers of a parallax move on a photo: the background with the person removed and filled, and the
// person cut out at the photo's full size (transparent elsewhere), so the motion engine can move them apart.
// A photo without a person gets no layers: its shots move the photo as one plane.

export interface ParallaxLayers {
  background: string;
  foreground: string;
}

export async function parallaxLayer(
  image: string,
  workDir: string,
  signal?: AbortSignal,
): Promise<ParallaxLayers | undefined> {
  const dir = join(workDir, 'parallax');
  const background = join(dir, 'background.png');
  const foreground = join(dir, 'foreground-full.png');
  if (existsSync(background) && existsSync(foreground)) return { background, foreground };
  signal?.throwIfAborted();
  // The model runs in the vision process, which exits when idle: its memory is not this render's.
  const person = await segmentPerson(image);
  if (!person) return undefined;
  await mkdir(dir, { recursive: true });
  const plates = await makeParallaxPlates(image, person, dir);
  const { width, height } = await sharp(plates.background).metadata();
  await sharp({
    create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([{ input: plates.foreground, left: Math.round(plates.box.x), top: Math.round(plates.box.y) }])
    .png()
    .toFile(foreground);
  return { background: plates.background, foreground };
}
