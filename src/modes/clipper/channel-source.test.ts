import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError } from '../../platform/errors.ts';
import type { ValidationServices } from '../../platform/modes/mode.ts';
import {
  VideoSiteError,
  type ChannelUpload,
  type VideoSiteFetcher,
} from '../../providers/video-site/video-site.ts';
import { pickUpload, resolveChannelSource } from './channel-source.ts';
import type { ClipRequest } from './clip-request.ts';

const upload = (id: string): ChannelUpload => ({
  id,
  url: `https://www.youtube.com/watch?v=${id}`,
  title: id,
  publishedAt: null,
  durationSec: null,
});
const uploads = ['newest00000', 'second00000', 'third000000', 'oldest00000'].map(upload);

void describe('channel mode picks the next upload', () => {
  void test('newest first takes the newest not clipped; oldest first the oldest of the recent ones', () => {
    assert.equal(pickUpload(uploads, new Set(), 'newest_first')?.id, 'newest00000');
    assert.equal(pickUpload(uploads, new Set(['newest00000']), 'newest_first')?.id, 'second00000');
    assert.equal(pickUpload(uploads, new Set(), 'oldest_first')?.id, 'oldest00000');
    assert.equal(
      pickUpload(uploads, new Set(['oldest00000', 'third000000']), 'oldest_first')?.id,
      'second00000',
    );
    assert.equal(pickUpload(uploads, new Set(uploads.map((u) => u.id)), 'newest_first'), undefined);
  });

  const request: ClipRequest = {
    channel_url: 'https://www.youtube.com/@someone',
    selection: 'newest_first',
    clip_count: 1,
    aspect_ratio: '9:16',
    captions: true,
  };
  // Refusals happen before the account's memory is read, so no database is needed here.
  const services = { accountId: 'acct_1' } as ValidationServices;
  const failing = (error: Error): VideoSiteFetcher => ({
    listChannel: () => Promise.reject(error),
    download: () => Promise.reject(new Error('not used')),
  });
  const refusal = async (fetcher: VideoSiteFetcher) => {
    const error = await resolveChannelSource(request, services, fetcher).then(
      () => assert.fail('expected a refusal'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ApiError, String(error));
    return error;
  };

  void test('the site outcomes become the spec codes, none of them charged', async () => {
    const missing = await refusal(failing(new VideoSiteError('not_found', 'This channel does not exist.')));
    assert.deepEqual([missing.status, missing.code, missing.retryable], [400, 'CHANNEL_NOT_FOUND', false]);
    const down = await refusal(failing(new VideoSiteError('unavailable', 'HTTP Error 503')));
    assert.deepEqual([down.status, down.code, down.retryable], [502, 'CHANNEL_UNAVAILABLE', true]);
    const noTool = await refusal(failing(new VideoSiteError('tool_missing', 'yt-dlp is not installed.')));
    assert.deepEqual([noTool.status, noTool.code, noTool.retryable], [502, 'CHANNEL_UNAVAILABLE', true]);
    assert.match(noTool.message, /yt-dlp is not installed/);
    const empty = await refusal({
      listChannel: () => Promise.resolve([]),
      download: () => Promise.reject(new Error('not used')),
    });
    assert.deepEqual([empty.status, empty.code], [409, 'NO_NEW_CHANNEL_VIDEOS']);
  });

  void test('the listing is read from the channel videos tab', async () => {
    const asked: string[] = [];
    const fetcher: VideoSiteFetcher = {
      listChannel: (url) => {
        asked.push(url);
        return Promise.resolve([]);
      },
      download: () => Promise.reject(new Error('not used')),
    };
    await refusal(fetcher);
    assert.deepEqual(asked, ['https://www.youtube.com/@someone/videos']);
  });
});
