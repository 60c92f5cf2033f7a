import type { Config } from '../../platform/config.ts';
import type { VideoSiteFetcher } from './video-site.ts';
import { findYtDlp, YtDlpFetcher } from './ytdlp-fetcher.ts';

/** The video-site client of a running service: yt-dlp at YTDLP_PATH, else on PATH (found at each call). */
export function createVideoSiteFetcher(
  config: Pick<Config, 'ytdlpPath'>,
  pathEnv: string | undefined = process.env.PATH,
): VideoSiteFetcher {
  return new YtDlpFetcher({ binary: () => findYtDlp(config.ytdlpPath, pathEnv) });
}
