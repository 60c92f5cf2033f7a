// A caller's media file (POST /transcribe media_url, POST /captions/render video_url): fetched through the URL
// guard within the spec's limits (spec 2 §8: 4 hours, 500 MB) and identified by probing its content with
// ffprobe, never by its name or Content-Type.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobFailure } from '../../platform/errors.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import type { JobContext, ValidationServices } from '../../platform/modes/mode.ts';
import { UrlRejectedError, type UrlGuard } from '../../platform/net/url-guard.ts';
import { buildProbeArgs, parseProbeOutput } from '../../media/ffmpeg/probe.ts';
import { runFfmpeg, runFfprobe } from '../../media/ffmpeg/runner.ts';

export const SOURCE_MAX_BYTES = 500 * 1024 * 1024;
export const SOURCE_MAX_DURATION_SEC = 4 * 60 * 60;

/** Where a source fetched during validation waits (in the staging folder, later the job's work folder). */
export const SOURCE_FILE = 'source';

export const AUDIO_FORMATS = ['mp3', 'wav', 'm4a', 'flac', 'ogg'] as const;
export const VIDEO_FORMATS = ['mp4', 'mov', 'webm'] as const;
export type SourceFormat = (typeof AUDIO_FORMATS)[number] | (typeof VIDEO_FORMATS)[number];

export interface SourceLimits {
  maxBytes: number;
  maxDurationSec: number;
}

export const SOURCE_LIMITS: SourceLimits = {
  maxBytes: SOURCE_MAX_BYTES,
  maxDurationSec: SOURCE_MAX_DURATION_SEC,
};

export interface ProbedSource {
  format: SourceFormat;
  durationSec: number;
  sizeBytes: number;
  audio?: { codec: string; sampleRate: number; channels: number };
  /** Size as displayed, i.e. with the stream's rotation applied. */
  video?: { width: number; height: number };
}

/** A source the caller must fix (too large, too long, not media, unreachable); the message names no field. */
export class SourceRejectedError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SourceRejectedError';
  }
}

/** The parts of ffprobe's JSON that tell formats apart. */
export interface ProbeFacts {
  formatName: string;
  /** `major_brand` of ISO media files ("isom", "qt  ", "M4A "…). */
  majorBrand?: string;
  videoCodecs: string[];
  audioCodecs: string[];
}

const WEBM_VIDEO = new Set(['vp8', 'vp9', 'av1']);
const WEBM_AUDIO = new Set(['opus', 'vorbis']);

/**
 * The spec's format a probed file is, or undefined when it is none of them (e.g. Matroska, 3GP, AVI).
 * ISO media (mp4/m4a/mov) share one demuxer; the major brand and the presence of video tell them apart.
 */
export function detectFormat(facts: ProbeFacts): SourceFormat | undefined {
  const names = facts.formatName.split(',');
  const hasVideo = facts.videoCodecs.length > 0;
  if (names.includes('mp3')) return 'mp3';
  if (names.includes('wav')) return 'wav';
  if (names.includes('flac')) return 'flac';
  if (names.includes('ogg')) return 'ogg';
  if (names.includes('mov')) {
    const brand = (facts.majorBrand ?? '').trim().toLowerCase();
    if (brand === 'qt') return 'mov';
    if (brand.startsWith('3g')) return undefined;
    if (brand === 'm4a' || brand === 'm4b') return 'm4a';
    return hasVideo ? 'mp4' : 'm4a';
  }
  if (names.includes('webm')) {
    // Matroska and WebM share a demuxer too; WebM is the subset with these codecs.
    const webm =
      facts.videoCodecs.every((c) => WEBM_VIDEO.has(c)) && facts.audioCodecs.every((c) => WEBM_AUDIO.has(c));
    return webm ? 'webm' : undefined;
  }
  return undefined;
}

interface RawStream {
  codec_type?: string;
  codec_name?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
}

interface RawProbe {
  streams?: RawStream[];
  format?: { format_name?: string; tags?: Record<string, string> };
}

function isPicture(stream: RawStream): boolean {
  return stream.codec_type === 'video' && stream.disposition?.attached_pic === 1;
}

/** Degrees the first video stream is turned when displayed (phones record portrait as rotated landscape). */
function rotationOf(stream: RawStream | undefined): number {
  const fromSideData = stream?.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  const degrees = fromSideData ?? Number(stream?.tags?.rotate ?? 0);
  return Number.isFinite(degrees) ? degrees : 0;
}

export function probeFacts(json: string): ProbeFacts {
  const raw = JSON.parse(json) as RawProbe;
  const streams = raw.streams ?? [];
  const tags = raw.format?.tags ?? {};
  return {
    formatName: raw.format?.format_name ?? '',
    majorBrand: tags.major_brand ?? tags.MAJOR_BRAND,
    videoCodecs: streams
      .filter((s) => s.codec_type === 'video' && !isPicture(s))
      .map((s) => s.codec_name ?? ''),
    audioCodecs: streams.filter((s) => s.codec_type === 'audio').map((s) => s.codec_name ?? ''),
  };
}

/** Seconds of media by reading every packet, for files whose header states no duration (e.g. live WebM). */
async function measureDuration(path: string, signal?: AbortSignal): Promise<number> {
  let seconds = 0;
  await runFfmpeg(['-i', path, '-map', '0:a?', '-map', '0:v?', '-c', 'copy', '-f', 'null', '-'], {
    signal,
    onProgress: (s) => (seconds = Math.max(seconds, s)),
  });
  return seconds;
}

const supported = [...AUDIO_FORMATS, ...VIDEO_FORMATS].join(', ');

/** Identifies a downloaded file; SourceRejectedError when it is not audio or video of a supported format. */
export async function probeSource(path: string, signal?: AbortSignal): Promise<ProbedSource> {
  let stdout: string;
  try {
    ({ stdout } = await runFfprobe(buildProbeArgs(path), { signal, timeoutMs: 60_000 }));
  } catch (error) {
    signal?.throwIfAborted();
    throw new SourceRejectedError(`is not an audio or video file (supported: ${supported})`, {
      cause: error,
    });
  }
  const facts = probeFacts(stdout);
  const info = parseProbeOutput(stdout);
  const format = detectFormat(facts);
  if (!format) {
    const what = facts.formatName ? ` (${facts.formatName.split(',')[0]})` : '';
    throw new SourceRejectedError(`is not a supported format${what}; supported: ${supported}`);
  }
  const raw = JSON.parse(stdout) as RawProbe;
  const videoStream = (raw.streams ?? []).find((s) => s.codec_type === 'video' && !isPicture(s));
  const durationSec = info.durationSec > 0 ? info.durationSec : await measureDuration(path, signal);
  const source: ProbedSource = { format, durationSec, sizeBytes: info.sizeBytes };
  if (info.audio) source.audio = info.audio;
  if (info.video) {
    const turned = Math.abs(rotationOf(videoStream)) % 180 === 90;
    source.video = turned
      ? { width: info.video.height, height: info.video.width }
      : { width: info.video.width, height: info.video.height };
  }
  return source;
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

function hours(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  return m > 0 ? `${h} h ${m} min` : `${h} h`;
}

/** Refuses a source longer than the limit. */
export function checkDuration(durationSec: number, limits: SourceLimits = SOURCE_LIMITS): void {
  if (durationSec > limits.maxDurationSec) {
    throw new SourceRejectedError(
      `lasts ${hours(durationSec)} (${Math.round(durationSec)} s); the limit is ${hours(limits.maxDurationSec)}`,
    );
  }
}

function tooLarge(limits: SourceLimits, bytes?: number): SourceRejectedError {
  const limit = megabytes(limits.maxBytes);
  return new SourceRejectedError(
    bytes !== undefined
      ? `is ${megabytes(bytes)}; the limit is ${limit}`
      : `is larger than the ${limit} limit`,
  );
}

export interface FetchSourceOptions {
  signal?: AbortSignal;
  limits?: SourceLimits;
  timeoutMs?: number;
}

/**
 * Downloads the source to `destPath` and probes it. The size is checked on the declared length first (HEAD,
 * or a one-byte ranged GET), so an announced oversize file is refused without a download, and enforced again
 * while streaming; the duration is checked on the probe.
 */
export async function fetchSource(
  guard: UrlGuard,
  url: string,
  destPath: string,
  options: FetchSourceOptions = {},
): Promise<ProbedSource> {
  const limits = options.limits ?? SOURCE_LIMITS;
  const { signal } = options;
  try {
    const head = await guard.headInfo(url, { timeoutMs: 15_000, signal });
    if (head.status >= 400) throw new SourceRejectedError(`answered HTTP ${head.status}`);
    if (head.contentLength !== null && head.contentLength > limits.maxBytes)
      throw tooLarge(limits, head.contentLength);
    await guard.download(url, destPath, { maxBytes: limits.maxBytes, timeoutMs: options.timeoutMs, signal });
  } catch (error) {
    if (!(error instanceof UrlRejectedError)) throw error;
    signal?.throwIfAborted();
    throw error.reason === 'too_large' ? tooLarge(limits) : new SourceRejectedError(error.message);
  }
  const probed = await probeSource(destPath, signal);
  checkDuration(probed.durationSec, limits);
  return probed;
}

/**
 * Validation: fetches and probes the source into the staging folder (which becomes the job's work folder), or
 * into a temporary folder removed again where nothing is staged. A rejected source is a free 400 on `field`.
 */
export async function stageSource(
  services: ValidationServices,
  url: string,
  field: string,
): Promise<ProbedSource> {
  const dir = services.stagingDir ?? (await mkdtemp(join(tmpdir(), 'reelsmith-source-')));
  try {
    await mkdir(dir, { recursive: true });
    return await fetchSource(services.urlGuard, url, join(dir, SOURCE_FILE));
  } catch (error) {
    if (error instanceof SourceRejectedError) throw invalidInputError([{ field, message: error.message }]);
    throw error;
  } finally {
    if (!services.stagingDir) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The pipeline: the staged copy when validation left one in the work folder, else a fresh download (a worker
 * on another machine). A source that became unusable meanwhile fails the job without retries.
 */
export async function jobSource(
  ctx: JobContext<unknown>,
  url: string,
  field: string,
): Promise<{ path: string; probed: ProbedSource }> {
  const path = join(ctx.workDir, SOURCE_FILE);
  try {
    if (existsSync(path)) {
      const probed = await probeSource(path, ctx.signal);
      checkDuration(probed.durationSec);
      return { path, probed };
    }
    return { path, probed: await fetchSource(ctx.services.urlGuard, url, path, { signal: ctx.signal }) };
  } catch (error) {
    if (!(error instanceof SourceRejectedError)) throw error;
    throw new JobFailure({
      code: 'INPUT_INVALID_MEDIA',
      category: 'input',
      message: `${field} ${error.message}.`,
      retryable: false,
    });
  }
}
