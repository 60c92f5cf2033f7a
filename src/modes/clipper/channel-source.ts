import { ApiError, errors } from '../../platform/errors.ts';
import type { ValidationServices } from '../../platform/modes/mode.ts';
import {
  CHANNEL_LISTING_LIMIT,
  VideoSiteError,
  type ChannelUpload,
  type VideoSiteFetcher,
} from '../../providers/video-site/video-site.ts';
import { clippedVideoIds } from './clip-memory.ts';
import type { ClipRequest, Selection } from './clip-request.ts';
import { parseChannelUrl } from './vidsite-urls.ts';

/** The upload channel mode takes: by `selection` among the recent uploads, the first this account has not clipped. */
export function pickUpload(
  uploads: readonly ChannelUpload[],
  clipped: ReadonlySet<string>,
  selection: Selection,
): ChannelUpload | undefined {
  const ordered = selection === 'oldest_first' ? [...uploads].reverse() : uploads;
  return ordered.find((upload) => !clipped.has(upload.id));
}

function channelError(error: unknown, channelUrl: string): unknown {
  if (!(error instanceof VideoSiteError)) return error;
  if (error.failure === 'not_found') return errors.channelNotFound(channelUrl);
  return errors.channelUnavailable(
    error.failure === 'tool_missing'
      ? `Channel mode is unavailable on this server: ${error.message} Nothing was charged.`
      : `The video site could not list ${channelUrl} (${error.message}). Nothing was charged; try again later.`,
  );
}

/**
 * Channel mode, before acceptance: lists the channel's recent uploads and answers the request with the video it
 * will clip in `source_video`. Refusals are never charged: 400 CHANNEL_NOT_FOUND, 409 NO_NEW_CHANNEL_VIDEOS,
 * 502 CHANNEL_UNAVAILABLE.
 */
export async function resolveChannelSource(
  request: ClipRequest,
  services: ValidationServices,
  fetcher: VideoSiteFetcher,
): Promise<ClipRequest> {
  const channelUrl = request.channel_url!;
  const channel = parseChannelUrl(channelUrl);
  if (!channel.ok) throw errors.inputInvalid(`channel_url ${channel.reason}.`);
  let uploads: ChannelUpload[];
  try {
    uploads = await fetcher.listChannel(channel.value.listingUrl, CHANNEL_LISTING_LIMIT);
  } catch (error) {
    throw channelError(error, channelUrl);
  }
  if (uploads.length === 0) {
    throw errors.noNewChannelVideos(`The channel ${channelUrl} has no uploads to clip. Nothing was charged.`);
  }
  const clipped = await clippedVideoIds(
    services.db,
    services.accountId,
    uploads.map((u) => u.id),
  );
  const upload = pickUpload(uploads, clipped, request.selection ?? 'newest_first');
  if (!upload) {
    throw errors.noNewChannelVideos(
      `This account has already clipped the ${uploads.length} most recent uploads of ${channelUrl}. Nothing was charged; call again after the channel uploads a new video.`,
    );
  }
  return { ...request, source_video: { vidsite_video_id: upload.id, title: upload.title, url: upload.url } };
}

/** The receipt's refusal when a concurrent request took the picked video between the listing and acceptance. */
export function takenMeanwhile(videoId: string): ApiError {
  return errors.noNewChannelVideos(
    `Another request of this account took the video ${videoId} a moment ago. Nothing was charged; call again to take the next one.`,
  );
}
