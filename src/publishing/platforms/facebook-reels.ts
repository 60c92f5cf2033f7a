// Facebook Page Reels (facesite_reels): the Reels Publishing API. upload_phase=start gives a video id and an upload
// URL on rupload.facebook.com; the file is streamed there with `Authorization: OAuth`, `offset` and `file_size`
// headers; after a drop, the video's status (uploading_phase.bytes_transferred) says how many bytes arrived and the
// upload resumes from that offset; upload_phase=finish with video_state=PUBLISHED puts the reel on the Page.
//
// Tokens: a Page token minted from a long-lived user token has no expiry date; it stops working only when the user
// changes password, loses the Page role or removes the app. refresh() re-mints it when the user token was kept
// (fb_exchange_token, then the Page's access_token field); without one it can only confirm the Page token still works.
// Docs: https://developers.facebook.com/docs/video-api/guides/reels-publishing/ https://developers.facebook.com/docs/graph-api/reference/video-status https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived

import { z } from 'zod';
import { graphVersion, metaErrorClassifier } from './meta-graph.ts';
import { PlatformError } from './platform-error.ts';
import type { PlatformClient, PlatformToken, PostedVideo } from './platform.ts';
import {
  asRecord,
  checkDuration,
  checkedVideoSize,
  codePointLength,
  composeCaption,
  fileBody,
  Interruptions,
  originFor,
  parseOptions,
  pinReturnedUrl,
  PlatformHttp,
  requireApp,
  statusError,
  str,
  UPLOAD_REQUEST_TIMEOUT_MS,
  type ClientContext,
  type ErrorClassifier,
  type PlatformResponse,
} from './platform-support.ts';

const NAME = 'Facebook Reels';
const GRAPH_ORIGIN = 'https://graph.facebook.com';
/** The Reels Publishing API takes reels of 3 to 90 seconds. */
const MIN_SEC = 3;
const MAX_SEC = 90;
const DESCRIPTION_MAX = 63_206;

export const facebookReelsOptionsSchema = z.strictObject({
  /** PUBLISHED posts the reel now; DRAFT leaves it in the Page's drafts. */
  video_state: z.enum(['PUBLISHED', 'DRAFT']).default('PUBLISHED'),
});

export function createFacebookReelsClient(context: ClientContext): PlatformClient {
  const { endpoints } = context;
  const graph = originFor(endpoints, GRAPH_ORIGIN);
  const version = graphVersion(endpoints.apiVersion);
  const graphErrors = metaErrorClassifier(NAME);
  const http = new PlatformHttp(NAME, context, ruploadAware(graphErrors));

  async function graphCall(request: {
    method: 'GET' | 'POST';
    path: string;
    what: string;
    token: string;
    body?: unknown;
    idempotent: boolean;
    signal?: AbortSignal | undefined;
  }): Promise<Record<string, unknown>> {
    const response = await http.send({
      method: request.method,
      url: `${graph}/${version}${request.path}`,
      what: request.what,
      headers: {
        authorization: `Bearer ${request.token}`,
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      idempotent: request.idempotent,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    return asRecord(response.json);
  }

  /** How many bytes Facebook holds, from the video's status. */
  async function transferredBytes(
    token: string,
    videoId: string,
    size: number,
    signal?: AbortSignal,
  ): Promise<number> {
    const state = asRecord(
      (
        await graphCall({
          method: 'GET',
          path: `/${encodeURIComponent(videoId)}?fields=status`,
          what: 'Facebook upload status',
          token,
          idempotent: true,
          signal,
        })
      ).status,
    );
    const phase = asRecord(state.uploading_phase);
    if (str(phase.status) === 'complete') return size;
    // The Graph field is bytes_transferred; the Reels guide's example spells it bytes_transfered.
    const bytes = Number(phase.bytes_transferred ?? phase.bytes_transfered);
    if (!Number.isFinite(bytes) || bytes < 0 || bytes > size) {
      throw new PlatformError(
        'PLATFORM_UNAVAILABLE',
        'Facebook upload status: no usable transferred byte count',
      );
    }
    return bytes;
  }

  async function upload(
    token: string,
    videoId: string,
    uploadUrl: string,
    filePath: string,
    size: number,
    signal: AbortSignal | undefined,
    onProgress: ((fraction: number) => void) | undefined,
  ): Promise<void> {
    const interruptions = new Interruptions(http, 'Facebook reel upload', signal);
    let offset = 0;
    let offsetKnown = true;
    for (;;) {
      if (!offsetKnown) {
        try {
          const have = await transferredBytes(token, videoId, size, signal);
          if (have > offset) interruptions.progressed();
          offset = have;
          offsetKnown = true;
        } catch (error) {
          await interruptions.absorb(error);
          continue;
        }
      }
      if (offset >= size) return;
      let sent = offset;
      const file = fileBody(filePath, offset, (bytes) => {
        sent += bytes;
        onProgress?.(sent / size);
      });
      try {
        const response = await http.send({
          method: 'POST',
          url: uploadUrl,
          what: 'Facebook reel upload',
          headers: {
            authorization: `OAuth ${token}`,
            offset: String(offset),
            file_size: String(size),
            'content-type': 'application/octet-stream',
            'content-length': String(size - offset),
          },
          body: file.body,
          idempotent: true,
          maxAttempts: 1,
          timeoutMs: UPLOAD_REQUEST_TIMEOUT_MS,
          signal,
        });
        if (asRecord(response.json).success !== true) {
          throw new PlatformError(
            'PLATFORM_UNAVAILABLE',
            'Facebook reel upload: the upload was not confirmed',
          );
        }
        return;
      } catch (error) {
        await interruptions.absorb(error);
        offsetKnown = false;
      } finally {
        await file.close();
      }
    }
  }

  return {
    id: 'facesite_reels',
    name: NAME,
    optionsSchema: facebookReelsOptionsSchema,

    async publish(account, video, opts = {}): Promise<PostedVideo> {
      const options = parseOptions(facebookReelsOptionsSchema, video.options, NAME);
      checkDuration(video, NAME, MIN_SEC, MAX_SEC);
      const size = await checkedVideoSize(video, NAME);
      const description = composeCaption(video.caption, video.hashtags, {
        name: NAME,
        maxLength: DESCRIPTION_MAX,
        length: codePointLength,
      });
      const pageId = encodeURIComponent(account.externalAccountId);
      const token = account.token.accessToken;
      const { signal } = opts;
      const started = await graphCall({
        method: 'POST',
        path: `/${pageId}/video_reels`,
        what: 'Facebook reel start',
        token,
        body: { upload_phase: 'start' },
        // An upload session that is never finished is simply dropped by Facebook.
        idempotent: true,
        signal,
      });
      const videoId = str(started.video_id);
      if (!videoId)
        throw new PlatformError('PLATFORM_UNAVAILABLE', 'Facebook reel start: no video_id in the answer');
      const uploadUrl = pinReturnedUrl(
        started.upload_url,
        endpoints,
        'facebook.com',
        NAME,
        'Facebook reel start',
      );
      await upload(token, videoId, uploadUrl, video.filePath, size, signal, opts.onProgress);
      const finished = await graphCall({
        method: 'POST',
        path: `/${pageId}/video_reels`,
        what: 'Facebook reel publish',
        token,
        body: {
          upload_phase: 'finish',
          video_id: videoId,
          video_state: options.video_state,
          description,
          ...(video.title?.trim() ? { title: video.title.trim() } : {}),
        },
        idempotent: false,
        signal,
      });
      if (finished.success !== true) {
        throw new PlatformError(
          'PLATFORM_UNAVAILABLE',
          `Facebook did not confirm publishing reel ${videoId}; check the Page before posting again`,
          { retryable: false },
        );
      }
      opts.onProgress?.(1);
      return {
        externalId: videoId,
        externalUrl: `https://www.facebook.com/reel/${videoId}`,
        postedAt: new Date(),
      };
    },

    async refresh(token: PlatformToken, pageId?: string): Promise<PlatformToken> {
      if (!token.refreshToken) {
        // Nothing to mint a new Page token from: confirm the current one works (Meta answers code 190 if not).
        await graphCall({
          method: 'GET',
          path: '/me?fields=id',
          what: 'Facebook Page token check',
          token: token.accessToken,
          idempotent: true,
        });
        return token;
      }
      const app = requireApp(endpoints, NAME);
      if (!pageId) {
        throw new PlatformError('PLATFORM_REJECTED', `${NAME}: minting a Page token again needs the Page id`);
      }
      const query = new URLSearchParams({
        grant_type: 'fb_exchange_token',
        client_id: app.clientId,
        client_secret: app.clientSecret,
        fb_exchange_token: token.refreshToken,
      });
      const exchanged = asRecord(
        (
          await http.send({
            method: 'GET',
            url: `${graph}/${version}/oauth/access_token?${query.toString()}`,
            what: 'Facebook user token exchange',
            idempotent: true,
          })
        ).json,
      );
      const userToken = str(exchanged.access_token);
      if (!userToken)
        throw new PlatformError('PLATFORM_UNAVAILABLE', 'Facebook token exchange: no access_token');
      const page = await graphCall({
        method: 'GET',
        path: `/${encodeURIComponent(pageId)}?fields=access_token`,
        what: 'Facebook Page token',
        token: userToken,
        idempotent: true,
      });
      const pageToken = str(page.access_token);
      if (!pageToken) {
        throw new PlatformError(
          'PLATFORM_OAUTH_EXPIRED',
          `${NAME}: the user no longer manages Page ${pageId} (no Page token given); the Page must be reconnected`,
        );
      }
      // A Page token minted from a long-lived user token has no expiry; the user token is kept to mint the next one.
      return {
        accessToken: pageToken,
        refreshToken: userToken,
        ...(token.scope ? { scope: token.scope } : {}),
      };
    },
  };
}

/**
 * rupload.facebook.com answers failures as {"debug_info": {"retriable", "type", "message"}} rather than Graph's
 * {"error": …}; its retriable flag decides between resuming and giving up.
 */
function ruploadAware(graphErrors: ErrorClassifier): ErrorClassifier {
  return (response: PlatformResponse, what: string): PlatformError => {
    const debug = asRecord(asRecord(response.json).debug_info);
    if (Object.keys(debug).length === 0) return graphErrors(response, what);
    const detail = [str(debug.type), str(debug.message)].filter(Boolean).join(': ') || undefined;
    if (debug.retriable === true) {
      return new PlatformError('PLATFORM_UNAVAILABLE', `${what}: Facebook asked to retry (${detail})`, {
        status: response.status,
      });
    }
    return statusError(NAME, what, response, detail);
  };
}
