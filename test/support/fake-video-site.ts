// A local stand-in for the video site (tests only; nothing in src/ can reach it): channels list uploads that
// the test declares, and downloads copy real media files the test made. It implements the same
// VideoSiteFetcher interface as the yt-dlp client, so clip mode runs unchanged.
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CHANNEL_LISTING_LIMIT,
  VideoSiteError,
  type ChannelUpload,
  type DownloadedVideo,
  type VideoSiteFetcher,
} from '../../src/providers/video-site/video-site.ts';

interface FakeVideo {
  path: string;
  title: string;
}

export class FakeVideoSite implements VideoSiteFetcher {
  private readonly channels = new Map<string, ChannelUpload[] | VideoSiteError>();
  private readonly videos = new Map<string, FakeVideo | VideoSiteError>();
  readonly listed: string[] = [];
  readonly downloaded: string[] = [];

  /** A video served from a local file (or, with an error, one the site refuses). */
  addVideo(id: string, video: FakeVideo | VideoSiteError): void {
    this.videos.set(id, video);
  }

  /** A channel by its listing URL (…/videos); uploads newest first. */
  addChannel(listingUrl: string, uploads: Array<{ id: string; title: string }> | VideoSiteError): void {
    this.channels.set(
      listingUrl,
      uploads instanceof VideoSiteError
        ? uploads
        : uploads.map((u) => ({
            id: u.id,
            title: u.title,
            url: `https://www.youtube.com/watch?v=${u.id}`,
            publishedAt: null,
            durationSec: null,
          })),
    );
  }

  listChannel(channelUrl: string, limit: number = CHANNEL_LISTING_LIMIT): Promise<ChannelUpload[]> {
    this.listed.push(channelUrl);
    const channel = this.channels.get(channelUrl);
    if (!channel) return Promise.reject(new VideoSiteError('not_found', 'This channel does not exist.'));
    if (channel instanceof VideoSiteError) return Promise.reject(channel);
    return Promise.resolve(channel.slice(0, limit));
  }

  async download(videoUrl: string, destDir: string): Promise<DownloadedVideo> {
    const id = new URL(videoUrl).searchParams.get('v') ?? '';
    this.downloaded.push(id);
    const video = this.videos.get(id);
    if (!video) throw new VideoSiteError('not_found', 'Video unavailable');
    if (video instanceof VideoSiteError) throw video;
    const path = join(destDir, 'source.mp4');
    await copyFile(video.path, path);
    return { path, title: video.title, durationSec: null };
  }
}
