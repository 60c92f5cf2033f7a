// The folder handed to ffmpeg's subtitles filter as `fontsdir`: every shipped web font, copied once from the
// npm packages. libass loads each file of that folder itself (FreeType reads the name table, so a family is
// known by its real name) and looks there before any system font, so a brand font is always drawn from our
// files; the stock looks' DejaVu and Liberation fonts still come from the system through fontconfig.
import { createHash, randomUUID } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SHIPPED_FONT_FAMILIES, shippedFontFiles, type ShippedFontFile } from './font-catalogue.ts';

/** Bump when the way the folder is made changes, so existing folders are made again. */
const LAYOUT_VERSION = 1;

function allFiles(): ShippedFontFile[] {
  return SHIPPED_FONT_FAMILIES.flatMap(shippedFontFiles);
}

/**
 * Names the folder after what it holds (file names and sizes), so a font package upgrade or a new family gets
 * a fresh folder and a finished folder never needs checking again.
 */
async function folderName(files: readonly ShippedFontFile[]): Promise<string> {
  const sizes = await Promise.all(files.map(async (f) => `${f.name}:${(await stat(f.path)).size}`));
  const digest = createHash('sha256')
    .update(`v${LAYOUT_VERSION}\n${sizes.join('\n')}`)
    .digest('hex');
  return `caption-fonts-${digest.slice(0, 16)}`;
}

function isAlreadyThere(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EEXIST' || code === 'ENOTEMPTY';
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Makes the fonts folder under `<cacheDir>/fonts/` unless a finished one is there, and answers its path.
 * Safe to run from several processes at once.
 */
export async function prepareCaptionFonts(cacheDir: string): Promise<string> {
  const files = allFiles();
  const root = join(cacheDir, 'fonts');
  const target = join(root, await folderName(files));
  if (await exists(target)) return target;
  // Filled under a unique name and renamed whole: a folder under its final name is always complete, also
  // when several processes prepare it at once.
  const staging = join(root, `.staging-${process.pid}-${randomUUID()}`);
  await mkdir(staging, { recursive: true });
  try {
    await Promise.all(files.map((f) => copyFile(f.path, join(staging, f.name))));
    await rename(staging, target);
  } catch (error) {
    if (!isAlreadyThere(error)) throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return target;
}

const prepared = new Map<string, Promise<string>>();

/**
 * The fonts folder for renders (`cacheDir` is e.g. `<DATA_DIR>/cache`): prepared on first use, then the same
 * answer for every render of this process.
 */
export function captionFontsDir(cacheDir: string): Promise<string> {
  let folder = prepared.get(cacheDir);
  if (!folder) {
    folder = prepareCaptionFonts(cacheDir);
    prepared.set(cacheDir, folder);
    // A failure (e.g. a full disk) is not remembered: the next render tries again.
    void folder.catch(() => prepared.delete(cacheDir));
  }
  return folder;
}
