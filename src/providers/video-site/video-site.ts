// What clip mode needs from the video site, whichever client is behind it: the recent uploads of a channel and
// one video downloaded to a local file. Production uses yt-dlp (ytdlp-fetcher.ts); tests serve real media
// files from a local stand-in that implements this same interface.

export interface ChannelUpload {
  /** The 11-character video id. */
  id: string;
  url: string;
  title: string;
  /** ISO 8601 when the site says; flat channel listings often do not (their order is newest first). */
  publishedAt: string | null;
  durationSec: number | null;
}

export interface DownloadedVideo {
  path: string;
  title: string | null;
  durationSec: number | null;
}

export interface VideoSiteFetcher {
  /** The channel's most recent uploads, newest first, at most `limit`. */
  listChannel(channelUrl: string, limit?: number, signal?: AbortSignal): Promise<ChannelUpload[]>;
  /** Downloads one video (at most 1080p, MP4 where offered) into destDir. */
  download(videoUrl: string, destDir: string, signal?: AbortSignal): Promise<DownloadedVideo>;
}

/**
 * - not_found: the channel or video does not exist.
 * - video_unavailable: the video exists but cannot be had (private, removed, age- or member-restricted, live).
 * - tool_missing: no video-site client is installed on this server.
 * - unavailable: the site or the network failed; trying again later may work.
 */
export type VideoSiteFailure = 'not_found' | 'video_unavailable' | 'tool_missing' | 'unavailable';

export class VideoSiteError extends Error {
  constructor(
    readonly failure: VideoSiteFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'VideoSiteError';
  }
}

/** How many recent uploads channel mode considers (spec 1 §4.3: "about the 15 most recent"). */
export const CHANNEL_LISTING_LIMIT = 15;
