// Whether a file an operator sent is footage the stock engine can cut: ffprobe must find a moving picture.

import { probeMedia, type MediaInfo } from '../ffmpeg/probe.ts';
import { ProcessError } from '../process/run-process.ts';

export const MIN_CLIP_SEC = 1;
export const MIN_CLIP_SIDE_PX = 144;

export interface ClipFacts {
  width: number;
  height: number;
  durationSec: number;
  /** File extension for the stored copy, from the container ffprobe recognised. */
  extension: string;
}

export type ClipInspection = { ok: true; facts: ClipFacts } | { ok: false; problem: string };

/** Why probed media is not usable footage, or undefined when it is. */
export function videoProblem(info: MediaInfo): string | undefined {
  if (!info.video) return 'has no video stream (audio only, or not a video)';
  if (info.formatName === 'image2' || info.formatName.endsWith('_pipe'))
    return 'is a still image, not a video';
  if (info.video.width < MIN_CLIP_SIDE_PX || info.video.height < MIN_CLIP_SIDE_PX) {
    return `is ${info.video.width}×${info.video.height}; both sides must be at least ${MIN_CLIP_SIDE_PX} px`;
  }
  if (!(info.durationSec >= MIN_CLIP_SEC))
    return `lasts ${info.durationSec} s; a clip must last at least ${MIN_CLIP_SEC} s`;
  return undefined;
}

/** "mov,mp4,m4a,3gp,3g2,mj2" → "mp4"; ffmpeg reads files by their content, the extension is for people. */
export function clipExtension(formatName: string): string {
  const names = formatName.split(',');
  if (names.includes('mp4') || names.includes('mov')) return 'mp4';
  if (names.includes('webm') || names.includes('matroska')) return 'mkv';
  const first = names[0] ?? '';
  return /^[a-z0-9]{1,8}$/.test(first) ? first : 'video';
}

export async function inspectClip(path: string, signal?: AbortSignal): Promise<ClipInspection> {
  let info: MediaInfo;
  try {
    info = await probeMedia(path, { signal, timeoutMs: 30_000 });
  } catch (error) {
    if (error instanceof ProcessError && error.reason === 'exit') {
      return { ok: false, problem: 'is not a media file ffprobe can read' };
    }
    throw error;
  }
  const problem = videoProblem(info);
  if (problem) return { ok: false, problem };
  return {
    ok: true,
    facts: {
      width: info.video!.width,
      height: info.video!.height,
      durationSec: Math.round(info.durationSec * 1000) / 1000,
      extension: clipExtension(info.formatName),
    },
  };
}
