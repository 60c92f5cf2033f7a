// The local motion engine's frame producer: for each moving shot, the source (a still decoded once, or a clip
// decoded frame by frame) pre-scaled with lanczos to the size its closest view needs, then one sub-pixel
// view per frame resampled (and a foreground layer blended over for parallax), written as raw yuv420p into
// the compose ffmpeg's one rawvideo input. Shots are drawn one after another, each made ready while the one
// before is drawn, so memory holds two shots.
import { readFile, rm, writeFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { num } from '../ffmpeg/filter-escape.ts';
import { runFfmpeg, runFfprobe } from '../ffmpeg/runner.ts';
import {
  foregroundViewport,
  moveViewports,
  type CameraMove,
  type Size,
  type Viewport,
} from './camera-move.ts';
import { makeFifo, openFifoReader, openFifoWriter, type FifoReader } from './fifo.ts';
import { MAX_DOWNSCALE, YuvResampler, yuv420pBytes, yuva420pBytes } from './resample.ts';

/**
 * A layer that moves further than the background (parallax): a cut-out with alpha covering the same picture
 * as the shot's still (any size; it is scaled to the still's). Either an image file with alpha (PNG) or
 * straight (not premultiplied) RGBA pixels.
 */
export type ForegroundLayer = { path: string } | { rgba: Uint8Array; width: number; height: number };

export interface MotionShot {
  /** A still image or a video clip. */
  path: string;
  kind: 'image' | 'video';
  /** Seconds into a clip where the shot starts (ignored for stills). */
  inPoint: number;
  /** Frames the shot lasts; a clip that runs short holds its last frame. */
  frames: number;
  move: CameraMove;
  /** Only on stills. */
  foreground?: ForegroundLayer;
}

export interface FeedFormat {
  width: number;
  height: number;
  fps: number;
}

export interface FeedOptions {
  /** Folder for the shots' decoded stills and clip pipes; the caller removes it. */
  workDir: string;
  signal?: AbortSignal;
  ffmpegPath?: string;
  ffprobePath?: string;
}

/** Integer crop of the source, then its pre-scaled size, and the per-frame views in pre-scaled pixels. */
export interface ShotPlan {
  source: Size;
  region: { x: number; y: number; width: number; height: number };
  scaled: Size;
  views: Viewport[];
  foregroundViews: Viewport[] | null;
}

/**
 * Cap on a pre-scaled source (pixels): bounds memory when a pan crosses a huge panorama; past it the closest
 * view is slightly upscaled instead.
 */
const MAX_SOURCE_PIXELS = 12_000_000;

function even(n: number): number {
  return Math.max(2, 2 * Math.round(n / 2));
}

/**
 * Plans a shot: the views of its move, the part of the source they (and the foreground's views) ever show,
 * and the scale at which the closest view has one source pixel per output pixel (no upscaling blur when
 * zoomed in, at most MAX_DOWNSCALE when zoomed out).
 */
export function planShot(
  move: CameraMove,
  source: Size,
  output: Size,
  frames: number,
  foreground: boolean,
): ShotPlan {
  const views = moveViewports(move, source, output, frames);
  const middle = views[Math.floor((views.length - 1) / 2)]!;
  const fgViews = foreground ? views.map((v) => foregroundViewport(v, middle)) : null;
  const all = [...views, ...(fgViews ?? [])];
  const x0 = Math.max(0, 2 * Math.floor(Math.min(...all.map((v) => v.x)) / 2));
  const y0 = Math.max(0, 2 * Math.floor(Math.min(...all.map((v) => v.y)) / 2));
  const x1 = Math.min(source.width, 2 * Math.ceil(Math.max(...all.map((v) => v.x + v.width)) / 2));
  const y1 = Math.min(source.height, 2 * Math.ceil(Math.max(...all.map((v) => v.y + v.height)) / 2));
  const region = { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  const closest = Math.min(...views.map((v) => v.width));
  const widest = Math.max(...all.map((v) => v.width));
  const scale = Math.min(
    output.width / closest,
    (0.97 * MAX_DOWNSCALE * output.width) / widest,
    Math.sqrt(MAX_SOURCE_PIXELS / (region.width * region.height)),
  );
  const scaled = { width: even(region.width * scale), height: even(region.height * scale) };
  const sx = scaled.width / region.width;
  const sy = scaled.height / region.height;
  const map = (v: Viewport): Viewport => ({
    x: (v.x - region.x) * sx,
    y: (v.y - region.y) * sy,
    width: v.width * sx,
    height: v.height * sy,
  });
  return { source, region, scaled, views: views.map(map), foregroundViews: fgViews?.map(map) ?? null };
}

/** crop to the plan's region and lanczos-scale it; `fit` first brings a layer to the source's size. */
/**
 * A still is scaled once, so it gets the best filter; a clip is scaled every frame, where bicubic costs a
 * fraction of lanczos with exact rounding and no difference a viewer of moving footage sees.
 */
function prescaleFilter(plan: ShotPlan, format: string, fit?: Size, perFrame = false): string {
  const { region: r, scaled } = plan;
  return [
    ...(fit ? [`scale=${fit.width}:${fit.height}:flags=lanczos`] : []),
    `crop=${r.width}:${r.height}:${r.x}:${r.y}`,
    `scale=${scaled.width}:${scaled.height}:flags=${perFrame ? 'bicubic' : 'lanczos+accurate_rnd+full_chroma_int'}`,
    `format=${format}`,
    'setsar=1',
  ].join(',');
}

interface ProbeSize {
  streams?: { width?: number; height?: number; side_data_list?: { rotation?: number }[] }[];
}

/** Picture size as decoded frames have it: a clip's rotation metadata (phone video) swaps the sides. */
export async function displaySize(path: string, options: FeedOptions): Promise<Size> {
  const { stdout } = await runFfprobe(
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=width,height:stream_side_data=rotation',
      '-of',
      'json',
      path,
    ],
    { signal: options.signal, binary: options.ffprobePath },
  );
  const stream = (JSON.parse(stdout) as ProbeSize).streams?.[0];
  const width = stream?.width ?? 0;
  const height = stream?.height ?? 0;
  if (!(width > 0 && height > 0)) throw new Error(`motion: ${path} has no picture`);
  const rotation = Math.abs(stream?.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? 0);
  return rotation % 180 === 90 ? { width: height, height: width } : { width, height };
}

async function decodeOnce(
  inputArgs: string[],
  filter: string,
  bytes: number,
  file: string,
  options: FeedOptions,
) {
  await runFfmpeg(['-y', ...inputArgs, '-frames:v', '1', '-vf', filter, '-f', 'rawvideo', file], {
    signal: options.signal,
    binary: options.ffmpegPath,
  });
  const data = await readFile(file);
  await rm(file, { force: true });
  if (data.length !== bytes) throw new Error(`motion: decoded ${data.length} bytes, expected ${bytes}`);
  return data;
}

async function loadStill(
  shot: MotionShot,
  plan: ShotPlan,
  r: YuvResampler,
  index: number,
  options: FeedOptions,
) {
  const file = join(options.workDir, `still-${index}.yuv`);
  r.source.set(
    await decodeOnce(
      ['-i', shot.path],
      prescaleFilter(plan, 'yuv420p'),
      yuv420pBytes(plan.scaled),
      file,
      options,
    ),
  );
  const layer = shot.foreground;
  if (!layer) return;
  let input = ['-i', 'path' in layer ? layer.path : join(options.workDir, `layer-${index}.rgba`)];
  if (!('path' in layer)) {
    if (layer.rgba.length !== layer.width * layer.height * 4)
      throw new RangeError('motion: foreground rgba size');
    await writeFile(input[1]!, layer.rgba);
    input = ['-f', 'rawvideo', '-pix_fmt', 'rgba', '-video_size', `${layer.width}x${layer.height}`, ...input];
  }
  const yuva = await decodeOnce(
    input,
    prescaleFilter(plan, 'yuva420p', plan.source),
    yuva420pBytes(plan.scaled),
    join(options.workDir, `layer-${index}.yuva`),
    options,
  );
  if (!('path' in layer)) await rm(input[input.length - 1]!, { force: true });
  r.setForeground(yuva);
}

/**
 * A clip's frames, pre-scaled, decoded into the resampler's source one at a time. The decoder writes exactly
 * `frames` frames (a short clip's last frame repeated) into a FIFO read with backpressure, so at most a pipe's
 * worth is ahead of the resampler. Opening starts the decoder at once: it seeks and fills the first frame
 * while the shot before is still being drawn.
 */
class ClipReader {
  private filled = 0;
  private whole = false;
  private ended = false;
  private wake: (() => void) | null = null;
  private readonly failed: { error?: Error } = {};
  private readonly stop = new AbortController();
  private readonly reader: FifoReader;
  private readonly decoder: Promise<void>;

  private constructor(
    private readonly shot: MotionShot,
    private readonly fifo: string,
    plan: ShotPlan,
    r: YuvResampler,
    format: FeedFormat,
    options: FeedOptions,
  ) {
    const frame = r.source;
    const notify = () => {
      const waiting = this.wake;
      this.wake = null;
      waiting?.();
    };
    // Bytes are read straight into the resampler's source frame; reading pauses when a frame is whole and
    // resumes (resume()) once it has been drawn.
    this.reader = openFifoReader(fifo, {
      buffer: () => frame.subarray(this.filled),
      callback: (bytesRead) => {
        this.filled += bytesRead;
        if (this.filled < frame.length) return true;
        // The next read goes to the frame's start, once drawing this one has resumed reading.
        this.filled = 0;
        this.whole = true;
        notify();
        return false;
      },
    });
    const { socket } = this.reader;
    socket.on('error', () => undefined);
    const end = () => {
      this.ended = true;
      notify();
    };
    socket.on('end', end);
    socket.on('close', end);
    const signal = options.signal ? AbortSignal.any([options.signal, this.stop.signal]) : this.stop.signal;
    const seconds = shot.frames / format.fps;
    const seek = shot.inPoint > 0 ? ['-ss', num(shot.inPoint)] : [];
    const filter =
      `fps=${num(format.fps)},${prescaleFilter(plan, 'yuv420p', undefined, true)},` +
      `tpad=stop_mode=clone:stop_duration=${num(seconds + 1)},trim=end_frame=${shot.frames}`;
    this.decoder = runFfmpeg(
      [
        '-y',
        ...seek,
        '-t',
        num(seconds),
        '-i',
        shot.path,
        '-an',
        '-sn',
        '-vf',
        filter,
        '-f',
        'rawvideo',
        fifo,
      ],
      { signal, binary: options.ffmpegPath },
    )
      .then(
        () => undefined,
        (error: unknown) => {
          this.failed.error = error instanceof Error ? error : new Error(String(error));
        },
      )
      .finally(this.reader.writerDone);
  }

  static async open(
    shot: MotionShot,
    plan: ShotPlan,
    r: YuvResampler,
    format: FeedFormat,
    index: number,
    options: FeedOptions,
  ): Promise<ClipReader> {
    const fifo = join(options.workDir, `clip-${index}.yuv`);
    await makeFifo(fifo, options.signal);
    return new ClipReader(shot, fifo, plan, r, format, options);
  }

  /** Waits until the next frame is whole in the source; throws when the decoder ends (or fails) first. */
  async next(produced: number): Promise<void> {
    if (!this.whole && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    if (this.whole) {
      this.whole = false;
      return;
    }
    await this.decoder;
    if (this.failed.error) throw this.failed.error;
    throw new Error(`motion: ${this.shot.path} gave ${produced} of ${this.shot.frames} frames`);
  }

  /** Lets the next frame be read into the source, once the one there has been drawn. */
  resume(): void {
    this.reader.socket.resume();
  }

  async close(): Promise<void> {
    this.stop.abort();
    this.reader.socket.destroy();
    await this.decoder;
    await rm(this.fifo, { force: true });
  }
}

function writeFrame(socket: Socket, frame: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.write(frame, (error) => (error ? reject(error) : resolve()));
  });
}

/** A shot ready to draw: planned, its resampler made, its still loaded or its clip's decoder started. */
interface ReadyShot {
  shot: MotionShot;
  plan: ShotPlan;
  r: YuvResampler;
  clip: ClipReader | null;
}

async function prepareShot(
  shot: MotionShot,
  index: number,
  format: FeedFormat,
  options: FeedOptions,
  recycle: YuvResampler | undefined,
): Promise<ReadyShot> {
  if (shot.foreground && shot.kind !== 'image')
    throw new RangeError('motion: a foreground layer needs a still');
  const output = { width: format.width, height: format.height };
  const source = await displaySize(shot.path, options);
  const plan = planShot(shot.move, source, output, shot.frames, shot.foreground !== undefined);
  const r = await YuvResampler.create(
    { source: plan.scaled, output, ...(shot.foreground ? { foreground: plan.scaled } : {}) },
    recycle,
  );
  if (shot.kind === 'image') {
    await loadStill(shot, plan, r, index, options);
    return { shot, plan, r, clip: null };
  }
  return { shot, plan, r, clip: await ClipReader.open(shot, plan, r, format, index, options) };
}

/**
 * Writes every shot's frames, in order, into the FIFO at `feedPath` once the compose ffmpeg opens it, then
 * closes it. Rejects on a decode failure or when the reader goes away (EPIPE) before all frames are taken.
 *
 * While one shot is drawn the next is made ready (probed, its still decoded or its clip's decoder seeking),
 * so the compose does not wait at each cut (nor, for the first shot, after its own start-up); two resamplers
 * take turns, so memory holds two shots.
 */
export async function writeMotionFeed(
  feedPath: string,
  shots: readonly MotionShot[],
  format: FeedFormat,
  options: FeedOptions,
): Promise<void> {
  // The first shot is made ready while the compose ffmpeg starts up and opens its end of the feed.
  let upcoming: Promise<ReadyShot> | null = shots[0]
    ? prepareShot(shots[0], 0, format, options, undefined)
    : null;
  upcoming?.catch(() => undefined);
  let socket: Socket | undefined;
  const onAbort = () => socket?.destroy();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const feed = await openFifoWriter(feedPath, options.signal);
    socket = feed;
    feed.on('error', () => undefined);
    let spare: YuvResampler | undefined;
    for (let index = 0; upcoming; index++) {
      const ready: ReadyShot = await upcoming;
      const following = shots[index + 1];
      upcoming = following ? prepareShot(following, index + 1, format, options, spare) : null;
      // Awaited at the next cut, or settled in the finally below when this shot fails.
      upcoming?.catch(() => undefined);
      try {
        await drawShot(feed, ready, options);
      } finally {
        await ready.clip?.close();
      }
      spare = ready.r;
    }
    await new Promise<void>((resolve, reject) => {
      feed.end((error?: Error) => (error ? reject(error) : resolve()));
    });
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    socket?.destroy();
    const unused = await upcoming?.catch(() => undefined);
    await unused?.clip?.close();
  }
  options.signal?.throwIfAborted();
}

async function drawShot(socket: Socket, ready: ReadyShot, options: FeedOptions) {
  const { shot, plan, r, clip } = ready;
  // Two output buffers alternate: before drawing into one, the write that used it must be done.
  const inFlight: Promise<void>[] = [];
  const emit = async (i: number) => {
    if (inFlight.length === 2) await inFlight.shift();
    options.signal?.throwIfAborted();
    const frame = r.render(plan.views[i]!, plan.foregroundViews?.[i]);
    const written = writeFrame(socket, frame);
    written.catch(() => undefined);
    inFlight.push(written);
  };
  try {
    for (let i = 0; i < shot.frames; i++) {
      await clip?.next(i);
      await emit(i);
      if (i + 1 < shot.frames) clip?.resume();
    }
  } finally {
    await Promise.allSettled(inFlight);
  }
  await Promise.all(inFlight);
}
