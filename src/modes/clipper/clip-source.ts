import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { JobFailure, type JobError } from '../../platform/errors.ts';
import type { JobContext } from '../../platform/modes/mode.ts';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';
import { probeMedia } from '../../media/ffmpeg/probe.ts';
import { VideoSiteError, type VideoSiteFetcher } from '../../providers/video-site/video-site.ts';
import type { ClipRequest } from './clip-request.ts';

// Getting a clip job's source into its work folder: from the video site through the VideoSiteFetcher, or a
// direct media file through the URL guard. The fetched source is recorded in the work folder, so a retried
// attempt reuses it instead of downloading again.

/** Largest direct media file fetched (the video site's downloads are bounded by the 1080p format choice). */
export const MAX_SOURCE_BYTES = 2 * 1024 * 1024 * 1024;
const DIRECT_TIMEOUT_MS = 20 * 60_000;

export interface ClipSource {
  path: string;
  title: string | null;
  durationSec: number;
  width: number;
  height: number;
}

function failure(error: JobError): JobFailure {
  return new JobFailure(error);
}

/** What a VideoSiteError means for the job (spec 2.4 error object). */
export function siteFailure(error: VideoSiteError, url: string): JobFailure {
  switch (error.failure) {
    case 'not_found':
      return failure({
        code: 'SOURCE_NOT_FOUND',
        category: 'input',
        message: `The video ${url} does not exist on the video site; the charge was refunded.`,
        retryable: false,
      });
    case 'video_unavailable':
      return failure({
        code: 'SOURCE_UNAVAILABLE',
        category: 'input',
        message: `The video ${url} cannot be downloaded (${error.message}); the charge was refunded.`,
        retryable: false,
      });
    case 'tool_missing':
      return failure({
        code: 'VIDSITE_DOWNLOADER_MISSING',
        category: 'internal',
        message: `This server cannot download from the video site: ${error.message} The charge was refunded.`,
        retryable: false,
      });
    case 'unavailable':
      return failure({
        code: 'VIDSITE_UNAVAILABLE',
        category: 'provider',
        message: `The video site could not deliver ${url} (${error.message}).`,
        retryable: true,
      });
  }
}

/** What a URL-guard refusal of a direct media link means for the job: network trouble may pass, the rest will not. */
export function directFailure(error: UrlRejectedError): JobFailure {
  const transient =
    error.reason === 'timeout' || error.reason === 'fetch_failed' || error.reason === 'dns_failed';
  return failure({
    code: 'SOURCE_FETCH_FAILED',
    category: transient ? 'provider' : 'input',
    message: `video_url could not be downloaded: ${error.message}.`,
    retryable: transient,
  });
}

async function downloadDirect(
  ctx: JobContext<ClipRequest>,
  url: string,
  ext: string | undefined,
): Promise<string> {
  const given = ext ?? extname(new URL(url).pathname).slice(1).toLowerCase();
  const path = join(ctx.workDir, 'source', `source.${/^[a-z0-9]{1,8}$/.test(given) ? given : 'media'}`);
  let reported = 0;
  try {
    await ctx.services.urlGuard.download(url, path, {
      maxBytes: MAX_SOURCE_BYTES,
      timeoutMs: DIRECT_TIMEOUT_MS,
      signal: ctx.signal,
      onProgress: (bytes, total) => {
        const percent = total ? Math.floor((bytes / total) * 10) : 0;
        if (percent > reported) {
          reported = percent;
          void ctx.progress('source', 1 + percent, `Downloading the source (${Math.round(bytes / 1e6)} MB).`);
        }
      },
    });
  } catch (error) {
    if (error instanceof UrlRejectedError && !ctx.signal.aborted) throw directFailure(error);
    throw error;
  }
  return path;
}

/** Downloads (or, on a retried attempt, finds) the job's source and checks it has the picture and sound clips need. */
export async function fetchClipSource(
  ctx: JobContext<ClipRequest>,
  fetcher: VideoSiteFetcher,
): Promise<ClipSource> {
  const record = join(ctx.workDir, 'source.json');
  if (existsSync(record)) {
    const kept = JSON.parse(await readFile(record, 'utf8')) as ClipSource;
    if (existsSync(kept.path)) return kept;
  }
  const r = ctx.request;
  await mkdir(join(ctx.workDir, 'source'), { recursive: true });
  await ctx.progress('source', 1, 'Downloading the source video.');
  let path: string;
  let title: string | null = null;
  if (r.media_url) {
    path = await downloadDirect(ctx, r.media_url, r.media_ext);
  } else {
    const url = r.source_video?.url ?? r.vidsite_url!;
    try {
      const downloaded = await fetcher.download(url, join(ctx.workDir, 'source'), ctx.signal);
      path = downloaded.path;
      title = downloaded.title;
    } catch (error) {
      if (error instanceof VideoSiteError && !ctx.signal.aborted) throw siteFailure(error, url);
      throw error;
    }
  }
  const info = await probeMedia(path, { signal: ctx.signal }).catch((error: unknown) => {
    if (ctx.signal.aborted) throw error;
    throw failure({
      code: 'SOURCE_UNUSABLE',
      category: 'input',
      message: 'The source is not a video file ffmpeg can read; the charge was refunded.',
      retryable: false,
    });
  });
  const lacks = !info.video ? 'picture' : !info.audio ? 'sound' : info.durationSec <= 0 ? 'length' : null;
  if (lacks || !info.video) {
    throw failure({
      code: 'SOURCE_UNUSABLE',
      category: 'input',
      message: `The source has no ${lacks ?? 'picture'}: clips are cut from what is shown and said; the charge was refunded.`,
      retryable: false,
    });
  }
  const source: ClipSource = {
    path,
    title,
    durationSec: info.durationSec,
    width: info.video.width,
    height: info.video.height,
  };
  await writeFile(record, JSON.stringify(source));
  await ctx.progress('source', 12, `Source ready: ${Math.round(info.durationSec)} s.`);
  return source;
}
