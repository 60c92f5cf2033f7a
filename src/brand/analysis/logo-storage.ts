// Normalized logos live in the media store under their content's hash: a logo found again (a warm analysis,
// a kit built from the same site) is one file, and a key never changes what it names.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaStore } from '../../platform/storage/media-store.ts';

export function logoKeyOf(png: Buffer): string {
  return `brand-logos/${createHash('sha256').update(png).digest('hex')}.png`;
}

/** Stores a normalized logo (transparent PNG) and answers its key. */
export async function storeLogo(store: MediaStore, png: Buffer): Promise<string> {
  const key = logoKeyOf(png);
  const dir = await mkdtemp(join(tmpdir(), 'reelsmith-logo-'));
  try {
    const path = join(dir, 'logo.png');
    await writeFile(path, png);
    await store.put(key, path, { move: true });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return key;
}
