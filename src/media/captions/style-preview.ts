// Preview images of caption styles: one PNG frame of a sample phrase burned in by ffmpeg over a neutral
// gradient, rendered on first request and kept on disk under a name that changes with the look.
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { escapeFilterValue, num } from '../ffmpeg/filter-escape.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import type { WordTiming } from '../types.ts';
import { buildAss } from './build-ass.ts';
import type { CaptionStyle } from './caption-style.ts';
import type { FrameSize } from './safe-zone.ts';

/** The phrase every preview shows. */
export const PREVIEW_WORDS: readonly WordTiming[] = [
  { word: 'Your', start: 0.3, end: 0.6 },
  { word: 'story', start: 0.65, end: 1.1 },
  { word: 'deserves', start: 1.15, end: 1.7 },
  { word: 'to', start: 1.75, end: 1.85 },
  { word: 'be', start: 1.9, end: 2.05 },
  { word: 'seen.', start: 2.1, end: 2.6 },
];
/** The instant shown: "story" is being spoken, so per-word animations show their mid-phrase state. */
export const PREVIEW_AT_SEC = 0.95;
/** Captions are laid out on the real output frame, then the image is scaled down for the file. */
export const PREVIEW_RENDER_FRAME: FrameSize = { width: 1080, height: 1920 };
export const PREVIEW_OUTPUT_FRAME: FrameSize = { width: 360, height: 640 };
/** Bump when the rendering below changes, so cached images are rendered again. */
const PREVIEW_VERSION = 1;
const PART_MARK = '.part.';

export interface PreviewArgsInput {
  assPath: string;
  /** The prepared fonts folder (src/media/fonts/caption-fonts-dir.ts). */
  fontsDir: string;
  outputPath: string;
  render: FrameSize;
  output: FrameSize;
  atSec: number;
}

/**
 * ffmpeg arguments for one preview frame. The gradient is computed on a 16×32 image and scaled up (cheap,
 * and identical on every run); its single frame is moved to `atSec` inside the graph because ffmpeg would
 * reset an input's timestamps to zero.
 */
export function buildPreviewArgs(input: PreviewArgsInput): string[] {
  const t = '(0.8*Y/31+0.2*X/15)';
  const background =
    `color=c=black:s=16x32:r=1:d=1,format=rgb24,` +
    `geq=r=42+96*${t}:g=47+97*${t}:b=58+102*${t},` +
    `scale=${input.render.width}:${input.render.height}:flags=bicubic`;
  const graph =
    `${background},settb=1/1000,setpts=PTS+${num(input.atSec, 3)}/TB,` +
    `subtitles=filename=${escapeFilterValue(input.assPath)}:fontsdir=${escapeFilterValue(input.fontsDir)},` +
    `scale=${input.output.width}:${input.output.height}:flags=area[out]`;
  return [
    '-y',
    '-filter_complex',
    graph,
    '-map',
    '[out]',
    '-frames:v',
    '1',
    '-c:v',
    'png',
    '-update',
    '1',
    input.outputPath,
  ];
}

/** JSON with object keys sorted, so equal looks hash equally whatever order their fields were written in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** 16 hex digits identifying what a preview shows: the style, the phrase and the sizes. */
export function previewHash(style: CaptionStyle, render: FrameSize, output: FrameSize): string {
  const what = canonicalJson({
    v: PREVIEW_VERSION,
    style,
    render,
    output,
    words: PREVIEW_WORDS,
    at: PREVIEW_AT_SEC,
  });
  return createHash('sha256').update(what).digest('hex').slice(0, 16);
}

/** A counting semaphore: at most `limit` tasks run at once, the rest wait in order. */
class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // A waiter inherits the slot, so `active` only drops when nobody is waiting.
      if (next) next();
      else this.active--;
    }
  }
}

async function readIfPresent(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export interface CaptionPreviewOptions {
  /** Directory of the cached PNGs, e.g. `${dataDir}/cache/caption-previews`. */
  dir: string;
  /** The prepared fonts folder, asked for on the first render (e.g. `() => captionFontsDir(cache)`). */
  fontsDir: () => Promise<string>;
  render?: FrameSize;
  output?: FrameSize;
  /** Most images kept; the oldest go first. Brand colours make the set of looks open-ended. */
  maxFiles?: number;
  /** Renders run at once (a page of previews must not start dozens of ffmpeg processes). */
  concurrency?: number;
  timeoutMs?: number;
}

/**
 * Renders and caches preview images. Requests for the same image share one render; files appear only
 * complete (written to a unique temporary name, then renamed), so readers never see half a PNG, also when
 * several processes share the directory.
 */
export class CaptionPreviewCache {
  private readonly dir: string;
  private readonly fontsDir: () => Promise<string>;
  private readonly render: FrameSize;
  private readonly output: FrameSize;
  private readonly maxFiles: number;
  private readonly timeoutMs: number;
  private readonly slots: Slots;
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  private renders = 0;

  constructor(options: CaptionPreviewOptions) {
    this.dir = options.dir;
    this.fontsDir = options.fontsDir;
    this.render = options.render ?? PREVIEW_RENDER_FRAME;
    this.output = options.output ?? PREVIEW_OUTPUT_FRAME;
    this.maxFiles = options.maxFiles ?? 2000;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.slots = new Slots(options.concurrency ?? 2);
  }

  /** ffmpeg renders done by this cache (cache hits do not count). */
  get renderCount(): number {
    return this.renders;
  }

  /** The cache file name of a preview: `<id>-<hash of the look>.png`. */
  fileName(id: string, style: CaptionStyle): string {
    return `${id}-${previewHash(style, this.render, this.output)}.png`;
  }

  /** The PNG of preset `id` drawn in `style`, rendered now only if no cached copy exists. */
  async png(id: string, style: CaptionStyle): Promise<Buffer> {
    const name = this.fileName(id, style);
    const shared = this.inFlight.get(name);
    if (shared) return shared;
    const cached = await readIfPresent(join(this.dir, name));
    if (cached) return cached;
    // Checked again after the read: another request may have started the same render meanwhile.
    let pending = this.inFlight.get(name);
    if (!pending) {
      pending = this.slots.run(() => this.renderOnce(name, style)).finally(() => this.inFlight.delete(name));
      this.inFlight.set(name, pending);
    }
    return pending;
  }

  private async renderOnce(name: string, style: CaptionStyle): Promise<Buffer> {
    const path = join(this.dir, name);
    // A render that finished between the caller's read and now has already written the file.
    const existing = await readIfPresent(path);
    if (existing) return existing;
    await mkdir(this.dir, { recursive: true });
    const unique = `${process.pid}-${randomUUID()}`;
    const assPath = join(this.dir, `${name}.${unique}${PART_MARK}ass`);
    const partPath = join(this.dir, `${name}.${unique}${PART_MARK}png`);
    try {
      await writeFile(assPath, buildAss(PREVIEW_WORDS, style, this.render));
      this.renders++;
      await runFfmpeg(
        buildPreviewArgs({
          assPath,
          fontsDir: await this.fontsDir(),
          outputPath: partPath,
          render: this.render,
          output: this.output,
          atSec: PREVIEW_AT_SEC,
        }),
        { timeoutMs: this.timeoutMs },
      );
      const png = await readFile(partPath);
      await rename(partPath, path);
      await this.prune(name);
      return png;
    } finally {
      await Promise.all([rm(assPath, { force: true }), rm(partPath, { force: true })]);
    }
  }

  /** Removes the oldest finished images beyond `maxFiles`, never the one just written. */
  private async prune(keep: string): Promise<void> {
    const names = (await readdir(this.dir)).filter((n) => n.endsWith('.png') && !n.includes(PART_MARK));
    if (names.length <= this.maxFiles) return;
    const aged = await Promise.all(
      names
        .filter((n) => n !== keep)
        .map(async (n) => ({
          n,
          mtime: (await stat(join(this.dir, n)).catch(() => undefined))?.mtimeMs ?? 0,
        })),
    );
    aged.sort((a, b) => a.mtime - b.mtime);
    const excess = names.length - this.maxFiles;
    await Promise.all(aged.slice(0, excess).map(({ n }) => rm(join(this.dir, n), { force: true })));
  }
}
