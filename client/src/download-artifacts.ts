import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** The parts of a job record (GET /api/v1/jobs/{id}) a download reads. */
export interface DownloadableJob {
  id: string;
  status: string;
  artifacts: {
    videoUrl?: string;
    videoUrls?: string[];
    thumbnailUrl?: string;
    output_files?: { name: string; format: string; url: string }[];
  };
}

export interface DownloadOptions {
  /** Where the main video goes (default `<dir>/<job id>.mp4`); the other files are named after it. */
  out?: string;
  /** The folder when `out` is not given (default: the working directory). */
  dir?: string;
  /** Also the other videos, the poster and every output file (captions, transcripts), not just the video. */
  all?: boolean;
  signal?: AbortSignal;
  fetch?: typeof globalThis.fetch;
}

export interface DownloadedFile {
  role: 'video' | 'poster' | 'output_file';
  path: string;
  bytes: number;
  contentType: string | null;
}

/** Why the files could not be downloaded: the job has none yet, delivery is private, or a link failed. */
export class DownloadError extends Error {
  override readonly name = 'DownloadError';
}

/**
 * Saves a finished job's files. Links are signed and expire after 24 h, so pass a freshly read job. No API
 * key is sent: the links carry their own signature (and may point at another host). A file is written under
 * a temporary name and renamed when complete, so a failed download leaves no truncated file behind.
 */
export async function downloadArtifacts(
  job: DownloadableJob,
  options: DownloadOptions = {},
): Promise<DownloadedFile[]> {
  if (job.status !== 'completed')
    throw new DownloadError(`job ${job.id} is ${job.status}; only a completed job has files to download`);
  const { artifacts } = job;
  if (!artifacts.videoUrl)
    throw new DownloadError(
      `job ${job.id} has no video link: read it again with GET /api/v1/jobs/${job.id} (a webhook of a private delivery carries none)`,
    );
  const out = resolve(options.out ?? join(options.dir ?? '.', `${job.id}.mp4`));
  const stem = join(dirname(out), basename(out, extname(out)));
  const plan: { role: DownloadedFile['role']; url: string; path: string }[] = [
    { role: 'video', url: artifacts.videoUrl, path: out },
  ];
  if (options.all) {
    (artifacts.videoUrls ?? [])
      .filter((url) => url !== artifacts.videoUrl)
      .forEach((url, index) =>
        plan.push({ role: 'video', url, path: `${stem}-${index + 2}${extensionOf(url, '.mp4')}` }),
      );
    if (artifacts.thumbnailUrl)
      plan.push({
        role: 'poster',
        url: artifacts.thumbnailUrl,
        path: `${stem}${extensionOf(artifacts.thumbnailUrl, '.jpg')}`,
      });
    const files = artifacts.output_files ?? [];
    for (const file of files) {
      // One file per format is named like the video (video.srt); a second of the same format keeps its name.
      const sameFormat = files.filter((f) => f.format === file.format).length > 1;
      plan.push({
        role: 'output_file',
        url: file.url,
        path: sameFormat ? `${stem}-${file.name}` : `${stem}.${file.format}`,
      });
    }
  }
  await mkdir(dirname(out), { recursive: true });
  const written: DownloadedFile[] = [];
  for (const item of plan) written.push(await downloadOne(item.url, item.path, item.role, options));
  return written;
}

function extensionOf(url: string, fallback: string): string {
  return extname(new URL(url).pathname) || fallback;
}

async function downloadOne(
  url: string,
  path: string,
  role: DownloadedFile['role'],
  options: DownloadOptions,
): Promise<DownloadedFile> {
  const response = await (options.fetch ?? fetch)(url, options.signal ? { signal: options.signal } : {});
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new DownloadError(
      `downloading the ${role.replace('_', ' ')} failed: HTTP ${response.status}${
        response.status === 403 || response.status === 404
          ? ' (the link is invalid or has expired: read the job again for fresh links)'
          : ''
      }`,
    );
  }
  const partial = `${path}.part`;
  const sink = createWriteStream(partial);
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      sink,
      options.signal ? { signal: options.signal } : {},
    );
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { role, path, bytes: sink.bytesWritten, contentType: response.headers.get('content-type') };
}
