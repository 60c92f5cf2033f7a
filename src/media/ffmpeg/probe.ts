// Media facts from ffprobe's JSON output.
import { runFfprobe, type RunOptions } from './runner.ts';

export interface ProbedVideo {
  width: number;
  height: number;
  fps: number;
  codec: string;
  pixFmt: string;
}

export interface ProbedAudio {
  codec: string;
  sampleRate: number;
  channels: number;
}

export interface MediaInfo {
  durationSec: number;
  formatName: string;
  sizeBytes: number;
  video?: ProbedVideo;
  audio?: ProbedAudio;
}

export function buildProbeArgs(path: string): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path];
}

/** "30000/1001" → 29.97; "0/0" or junk → 0. */
export function parseFrameRate(rate: string | undefined): number {
  if (!rate) return 0;
  const [num, den] = rate.split('/');
  const n = Number(num);
  const d = den === undefined ? 1 : Number(den);
  if (!Number.isFinite(n) || !Number.isFinite(d) || d === 0) return 0;
  return n / d;
}

function toNumber(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : 0;
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  disposition?: { attached_pic?: number };
}

interface ProbeJson {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string; size?: string };
}

/** Turns ffprobe `-show_format -show_streams` JSON into MediaInfo (first video and audio stream). */
export function parseProbeOutput(json: string): MediaInfo {
  const data = JSON.parse(json) as ProbeJson;
  const streams = data.streams ?? [];
  // Cover art in audio files shows up as a one-frame video stream; it is not video.
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const info: MediaInfo = {
    durationSec: toNumber(data.format?.duration ?? video?.duration ?? audio?.duration),
    formatName: data.format?.format_name ?? '',
    sizeBytes: toNumber(data.format?.size),
  };
  if (video) {
    const avg = parseFrameRate(video.avg_frame_rate);
    info.video = {
      width: toNumber(video.width),
      height: toNumber(video.height),
      fps: avg > 0 ? avg : parseFrameRate(video.r_frame_rate),
      codec: video.codec_name ?? '',
      pixFmt: video.pix_fmt ?? '',
    };
  }
  if (audio) {
    info.audio = {
      codec: audio.codec_name ?? '',
      sampleRate: toNumber(audio.sample_rate),
      channels: toNumber(audio.channels),
    };
  }
  return info;
}

export async function probeMedia(path: string, options: RunOptions = {}): Promise<MediaInfo> {
  const { stdout } = await runFfprobe(buildProbeArgs(path), options);
  return parseProbeOutput(stdout);
}
