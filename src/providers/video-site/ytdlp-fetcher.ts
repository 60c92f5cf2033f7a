// The video-site client of production: the yt-dlp command-line tool (YTDLP_PATH, else `yt-dlp` on PATH).
// Arguments are built and outputs parsed by pure functions (tested with tables); one runner executes them.

import { execFile, type ExecFileException } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import {
  CHANNEL_LISTING_LIMIT,
  VideoSiteError,
  type ChannelUpload,
  type DownloadedVideo,
  type VideoSiteFailure,
  type VideoSiteFetcher,
} from './video-site.ts';

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const LIST_TIMEOUT_MS = 60_000;
const DOWNLOAD_TIMEOUT_MS = 40 * 60_000;
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/**
 * Best MP4 video up to 1080p with M4A audio (merged into MP4 by ffmpeg); then a progressive MP4 up to 1080p;
 * then any container up to 1080p; then whatever the site offers.
 */
export const DOWNLOAD_FORMAT =
  'bv*[height<=1080][ext=mp4]+ba[ext=m4a]/b[height<=1080][ext=mp4]/bv*[height<=1080]+ba/b[height<=1080]/b';

/** Options every call starts with: no user config files, no warnings on stderr noise, bounded socket waits. */
const COMMON_ARGS = ['--ignore-config', '--no-warnings', '--socket-timeout', '30'];

export function buildListArgs(channelUrl: string, limit: number): string[] {
  return [...COMMON_ARGS, '--flat-playlist', '-J', '--playlist-end', String(limit), '--', channelUrl];
}

export function buildDownloadArgs(videoUrl: string, destDir: string): string[] {
  return [
    ...COMMON_ARGS,
    '--no-playlist',
    '--no-progress',
    '--no-simulate',
    '--match-filter',
    '!is_live',
    '-f',
    DOWNLOAD_FORMAT,
    '--merge-output-format',
    'mp4',
    '-o',
    join(destDir, 'source.%(ext)s'),
    '--print',
    'after_move:%(.{id,title,duration,filepath})j',
    '--',
    videoUrl,
  ];
}

interface FlatEntry {
  id?: unknown;
  url?: unknown;
  title?: unknown;
  timestamp?: unknown;
  release_timestamp?: unknown;
  upload_date?: unknown;
  duration?: unknown;
  live_status?: unknown;
}

function publishedAt(entry: FlatEntry): string | null {
  const seconds = typeof entry.timestamp === 'number' ? entry.timestamp : entry.release_timestamp;
  if (typeof seconds === 'number' && Number.isFinite(seconds)) return new Date(seconds * 1000).toISOString();
  const day =
    typeof entry.upload_date === 'string' ? /^(\d{4})(\d{2})(\d{2})$/.exec(entry.upload_date) : null;
  return day ? `${day[1]}-${day[2]}-${day[3]}T00:00:00.000Z` : null;
}

/** Videos of a `--flat-playlist -J` channel tab, newest first; upcoming and running live streams are skipped. */
export function parseChannelListing(json: string, limit: number = CHANNEL_LISTING_LIMIT): ChannelUpload[] {
  const data = JSON.parse(json) as { entries?: FlatEntry[] };
  const uploads: ChannelUpload[] = [];
  for (const entry of data.entries ?? []) {
    if (typeof entry.id !== 'string' || !VIDEO_ID.test(entry.id)) continue;
    if (entry.live_status === 'is_upcoming' || entry.live_status === 'is_live') continue;
    uploads.push({
      id: entry.id,
      url: `https://www.youtube.com/watch?v=${entry.id}`,
      title: typeof entry.title === 'string' ? entry.title : entry.id,
      publishedAt: publishedAt(entry),
      durationSec: typeof entry.duration === 'number' ? entry.duration : null,
    });
    if (uploads.length >= limit) break;
  }
  return uploads;
}

/** The JSON line printed after the download was moved into place. */
export function parseDownloadOutput(stdout: string): DownloadedVideo {
  const line = stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('{'))
    .pop();
  if (!line) throw new VideoSiteError('unavailable', 'yt-dlp finished without naming the downloaded file');
  const info = JSON.parse(line) as { filepath?: unknown; title?: unknown; duration?: unknown };
  if (typeof info.filepath !== 'string' || info.filepath === '') {
    throw new VideoSiteError('unavailable', 'yt-dlp finished without naming the downloaded file');
  }
  return {
    path: info.filepath,
    title: typeof info.title === 'string' ? info.title : null,
    durationSec: typeof info.duration === 'number' ? info.duration : null,
  };
}

/** The last ERROR line of yt-dlp's stderr, without the "ERROR: [extractor] id:" prefix. */
export function errorLine(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const error = [...lines].reverse().find((l) => l.startsWith('ERROR:')) ?? lines[lines.length - 1] ?? '';
  return error
    .replace(/^ERROR:\s*/, '')
    .replace(/^\[[^\]]+\]\s*[^:\s]*:\s*/, '')
    .slice(0, 300);
}

/** A channel that exists but has never uploaded (or streamed) has no such tab: an empty listing, not an error. */
export function isMissingTab(stderr: string): boolean {
  return /does not have an? (videos|streams|shorts) tab/i.test(stderr);
}

/** Reads what went wrong from yt-dlp's stderr. */
export function classifyFailure(stderr: string): VideoSiteFailure {
  const text = stderr.toLowerCase();
  if (/this channel does not exist|http error 404|404: not found|channel.*not found/.test(text))
    return 'not_found';
  if (
    /video unavailable|private video|has been removed|account associated with this video has been terminated|sign in to confirm your age|members-only|join this channel|is not available in your country|premieres in|this live event will begin|does not pass filter/.test(
      text,
    )
  ) {
    return 'video_unavailable';
  }
  return 'unavailable';
}

/** The yt-dlp binary: YTDLP_PATH when set (it must be executable), else the first `yt-dlp` on PATH. */
export async function findYtDlp(
  configured: string | undefined,
  pathEnv: string | undefined,
): Promise<string | null> {
  const executable = async (path: string) => {
    try {
      await access(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (configured) return (await executable(configured)) ? configured : null;
  for (const dir of (pathEnv ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'yt-dlp');
    if (await executable(candidate)) return candidate;
  }
  return null;
}

/** yt-dlp ran and failed; what it said on stderr tells why. */
class YtDlpExit extends Error {
  constructor(
    readonly stderr: string,
    cause: unknown,
  ) {
    super(`yt-dlp failed: ${errorLine(stderr)}`, { cause });
    this.name = 'YtDlpExit';
  }
}

interface RunResult {
  stdout: string;
}

function run(binary: string, args: string[], timeoutMs: number, signal?: AbortSignal): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      args,
      { timeout: timeoutMs, maxBuffer: MAX_OUTPUT_BYTES, signal, encoding: 'utf8' },
      (error: ExecFileException | null, stdout: string, stderr: string) => {
        if (!error) {
          resolve({ stdout });
          return;
        }
        if (signal?.aborted) {
          reject(signal.reason instanceof Error ? signal.reason : error);
          return;
        }
        if (error.code === 'ENOENT' || error.code === 'EACCES') {
          reject(
            new VideoSiteError('tool_missing', `yt-dlp could not be started at ${binary}`, { cause: error }),
          );
          return;
        }
        if (error.killed) {
          reject(
            new VideoSiteError('unavailable', `the video site did not answer within ${timeoutMs / 1000} s`, {
              cause: error,
            }),
          );
          return;
        }
        reject(new YtDlpExit(stderr, error));
      },
    );
  });
}

export interface YtDlpFetcherOptions {
  /** Finds the binary at each call, so installing yt-dlp takes effect without a restart. */
  binary: () => Promise<string | null>;
  listTimeoutMs?: number;
  downloadTimeoutMs?: number;
}

export class YtDlpFetcher implements VideoSiteFetcher {
  constructor(private readonly options: YtDlpFetcherOptions) {}

  private async binary(): Promise<string> {
    const binary = await this.options.binary();
    if (!binary) {
      throw new VideoSiteError(
        'tool_missing',
        'yt-dlp is not installed on this server (install it, or set YTDLP_PATH to its location).',
      );
    }
    return binary;
  }

  async listChannel(
    channelUrl: string,
    limit: number = CHANNEL_LISTING_LIMIT,
    signal?: AbortSignal,
  ): Promise<ChannelUpload[]> {
    const binary = await this.binary();
    try {
      const { stdout } = await run(
        binary,
        buildListArgs(channelUrl, limit),
        this.options.listTimeoutMs ?? LIST_TIMEOUT_MS,
        signal,
      );
      return parseChannelListing(stdout, limit);
    } catch (error) {
      if (isMissingTab(stderrOf(error) ?? '')) return [];
      throw siteError(error, 'channel');
    }
  }

  async download(videoUrl: string, destDir: string, signal?: AbortSignal): Promise<DownloadedVideo> {
    const binary = await this.binary();
    try {
      const { stdout } = await run(
        binary,
        buildDownloadArgs(videoUrl, destDir),
        this.options.downloadTimeoutMs ?? DOWNLOAD_TIMEOUT_MS,
        signal,
      );
      return parseDownloadOutput(stdout);
    } catch (error) {
      throw siteError(error, 'video');
    }
  }
}

function stderrOf(error: unknown): string | undefined {
  return error instanceof YtDlpExit ? error.stderr : undefined;
}

/** Turns a failed run into a VideoSiteError (errors that are not yt-dlp's, such as an abort, pass through). */
function siteError(error: unknown, what: 'channel' | 'video'): unknown {
  if (error instanceof VideoSiteError) return error;
  if (error instanceof SyntaxError) {
    return new VideoSiteError('unavailable', `yt-dlp answered with unreadable ${what} data`, {
      cause: error,
    });
  }
  const stderr = stderrOf(error);
  if (stderr === undefined) return error;
  return new VideoSiteError(
    classifyFailure(stderr),
    errorLine(stderr) || `yt-dlp failed to read the ${what}`,
    {
      cause: error,
    },
  );
}
