// How every video we deliver for posting is encoded, whichever pipeline made it (stock composition, clips):
// H.264 High in yuv420p (plays everywhere), a keyframe every 2 s, AAC stereo at 48 kHz, and the index at the
// front of the file (+faststart) so players start before the download ends.
import { num } from './filter-escape.ts';

export interface DeliveryEncoding {
  /** x264 preset and constant-rate factor. */
  preset: string;
  crf: number;
  /** Frame rate of the output; sets the keyframe interval. */
  fps: number;
  /** Also force the output frame rate (-r), for graphs whose sources have other rates. */
  forceFps?: boolean;
  /** Encoder threads; 0 or absent lets ffmpeg decide. */
  threads?: number;
  audioBitrateKbps: number;
  durationSec: number;
  /** Output frame numbers forced to start a GOP (an IDR frame: x264's GOPs are closed). */
  keyframeFrames?: number[];
  /**
   * The video stream is already encoded with these settings (scene segments joined by stream copy): only the
   * audio is encoded.
   */
  copyVideo?: boolean;
}

/** Output options for one deliverable MP4 (put the output path after them). */
export function deliveryEncodeArgs(e: DeliveryEncoding): string[] {
  const keyframes = e.keyframeFrames?.length
    ? ['-force_key_frames', `expr:${e.keyframeFrames.map((n) => `eq(n,${n})`).join('+')}`]
    : [];
  const video = e.copyVideo
    ? ['-c:v', 'copy']
    : [
        '-c:v',
        'libx264',
        '-preset',
        e.preset,
        '-crf',
        String(e.crf),
        '-profile:v',
        'high',
        '-pix_fmt',
        'yuv420p',
        ...(e.forceFps ? ['-r', num(e.fps)] : []),
        '-g',
        String(Math.round(e.fps * 2)),
        ...keyframes,
        ...(e.threads && e.threads > 0 ? ['-threads', String(e.threads)] : []),
      ];
  return [
    ...video,
    '-c:a',
    'aac',
    '-b:a',
    `${e.audioBitrateKbps}k`,
    '-ar',
    '48000',
    '-ac',
    '2',
    '-t',
    num(e.durationSec, 3),
    '-movflags',
    '+faststart',
  ];
}
