import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { ApiError, type FieldIssue } from '../../platform/errors.ts';
import { parseGenerateRequest } from '../../platform/generation/parse-request.ts';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import { clipMode, legacyClipMode } from './clip-mode.ts';
import type { VideoSiteFetcher } from '../../providers/video-site/video-site.ts';

// The request bodies of POST /clipper/vidsite and POST /api/clip-video through the platform's one parsing path
// (aliases folded, delivery options taken out, the mode's schema).

const unusedFetcher: VideoSiteFetcher = {
  listChannel: () => Promise.reject(new Error('not used by parsing')),
  download: () => Promise.reject(new Error('not used by parsing')),
};
const mode = clipMode({
  fetcher: unusedFetcher,
  recognizer: () => {
    throw new Error('not used by parsing');
  },
  renderPreset: 'ultrafast',
});
const legacy = legacyClipMode(mode);
const guard = new UrlGuard({ allowLoopback: false });
after(() => guard.close());

const VIDEO = 'https://youtu.be/dQw4w9WgXcQ';
const WATCH = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';

const parse = (body: unknown) => parseGenerateRequest(mode, body, guard);
const parseLegacy = (body: unknown) => parseGenerateRequest(legacy, body, guard);

function refusal(run: () => unknown): FieldIssue[] {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'INPUT_INVALID');
    return (error.details as { fields: FieldIssue[] }).fields;
  }
  assert.fail('the body was accepted');
}

const fieldsOf = (issues: FieldIssue[]) => issues.map((i) => i.field).sort();

void describe('POST /clipper/vidsite body', () => {
  void test('a video URL alone takes every default and names the video', () => {
    const { request, options } = parse({ vidsite_url: VIDEO });
    assert.deepEqual(request, {
      vidsite_url: WATCH,
      clip_count: 5,
      aspect_ratio: '9:16',
      captions: true,
      source_video: { vidsite_video_id: 'dQw4w9WgXcQ', title: null, url: WATCH },
    });
    assert.equal(options.listing, 'private');
  });

  void test('a channel URL is canonical, selects newest first by default and has no source yet', () => {
    const { request } = parse({ channel_url: 'https://m.youtube.com/@mkbhd/videos/', clip_count: 2 });
    assert.deepEqual(request, {
      channel_url: 'https://www.youtube.com/@mkbhd/videos',
      selection: 'newest_first',
      clip_count: 2,
      aspect_ratio: '9:16',
      captions: true,
    });
    assert.equal(
      parse({ channel_url: 'https://youtube.com/@mkbhd', selection: 'oldest_first' }).request.selection,
      'oldest_first',
    );
  });

  void test('every listed field is read; unlisted fields are ignored', () => {
    const { request } = parse({
      vidsite_url: VIDEO,
      clip_count: 10,
      aspect_ratio: '1:1',
      captions: false,
      focus: '  the part about money  ',
      content_purpose: 'education',
      voice_id: 'ignored',
      music: true,
      brand: { name: 'ignored' },
      anything: { at: 'all' },
    });
    assert.equal(request.clip_count, 10);
    assert.equal(request.aspect_ratio, '1:1');
    assert.equal(request.captions, false);
    assert.equal(request.focus, 'the part about money');
    assert.equal(request.content_purpose, 'education');
    assert.ok(!('voice_id' in request) && !('anything' in request) && !('brand' in request));
  });

  void test('shared aliases fold with a warning', () => {
    const { request, warnings } = parse({ vidsite_url: VIDEO, aspectRatio: '16:9', include_captions: false });
    assert.equal(request.aspect_ratio, '16:9');
    assert.equal(request.captions, false);
    assert.equal(warnings.length, 2);
  });

  void test('delivery, listing, webhook and agent_run_id are platform options', () => {
    const { options, request } = parse({
      vidsite_url: VIDEO,
      delivery: { visibility: 'private' },
      listing: 'public',
      webhook_url: 'https://hooks.example.com/clips',
      agent_run_id: 'run-42',
    });
    assert.deepEqual(
      { ...options },
      {
        dryRun: false,
        webhookUrl: 'https://hooks.example.com/clips',
        privateDelivery: true,
        agentRunId: 'run-42',
        listing: 'public',
      },
    );
    assert.ok(!('listing' in request));
  });

  void test('exactly one source: neither or both is refused naming the field', () => {
    assert.deepEqual(fieldsOf(refusal(() => parse({ clip_count: 3 }))), ['vidsite_url']);
    assert.deepEqual(fieldsOf(refusal(() => parse({ vidsite_url: null, channel_url: null }))), [
      'vidsite_url',
    ]);
    const both = refusal(() => parse({ vidsite_url: VIDEO, channel_url: 'https://www.youtube.com/@mkbhd' }));
    assert.deepEqual(fieldsOf(both), ['channel_url']);
    assert.match(both[0]!.message, /only one/);
  });

  void test('a bad URL names its field, the reason and the accepted forms', () => {
    const [issue] = refusal(() => parse({ vidsite_url: 'http://youtu.be/dQw4w9WgXcQ' }));
    assert.equal(issue!.field, 'vidsite_url');
    assert.match(issue!.message, /https/);
    assert.match(issue!.message, /accepted forms: .*youtu\.be\/<id>/);
    const [channel] = refusal(() => parse({ channel_url: 'https://www.youtube.com/@ab' }));
    assert.equal(channel!.field, 'channel_url');
    assert.match(channel!.message, /@handle/);
    assert.deepEqual(fieldsOf(refusal(() => parse({ vidsite_url: 42 }))), ['vidsite_url']);
  });

  void test('out-of-range values are refused, every offending field listed', () => {
    for (const clip_count of [0, 11, 2.5, '5', null]) {
      assert.deepEqual(fieldsOf(refusal(() => parse({ vidsite_url: VIDEO, clip_count }))), ['clip_count']);
    }
    const issues = refusal(() =>
      parse({
        vidsite_url: VIDEO,
        aspect_ratio: '4:5',
        captions: 'yes',
        focus: '',
        content_purpose: 'fun',
        selection: 'random',
      }),
    );
    assert.deepEqual(fieldsOf(issues), ['aspect_ratio', 'captions', 'content_purpose', 'focus', 'selection']);
    assert.deepEqual(issues.find((i) => i.field === 'aspect_ratio')!.valid_values, ['9:16', '16:9', '1:1']);
    assert.deepEqual(fieldsOf(refusal(() => parse({ vidsite_url: VIDEO, focus: 'x'.repeat(251) }))), [
      'focus',
    ]);
    assert.equal(parse({ vidsite_url: VIDEO, focus: 'x'.repeat(250) }).request.focus?.length, 250);
  });

  void test('a non-object body and a bad platform option are refused', () => {
    assert.deepEqual(fieldsOf(refusal(() => parse([VIDEO]))), ['(body)']);
    assert.deepEqual(fieldsOf(refusal(() => parse({ vidsite_url: VIDEO, listing: 'everyone' }))), [
      'listing',
    ]);
  });
});

void describe('POST /api/clip-video body (earlier format)', () => {
  void test('a video-site URL with the earlier defaults', () => {
    const { request } = parseLegacy({ video_url: VIDEO, user_id: 'acct_1' });
    assert.deepEqual(request, {
      vidsite_url: WATCH,
      clip_count: 3,
      aspect_ratio: '9:16',
      captions: true,
      source_video: { vidsite_video_id: 'dQw4w9WgXcQ', title: null, url: WATCH },
    });
  });

  void test('finalVideo_type names and their aliases are normalized', () => {
    const cases: Array<[string, string]> = [
      ['Wide', '16:9'],
      ['wide', '16:9'],
      ['LANDSCAPE', '16:9'],
      ['16:9', '16:9'],
      ['Vertical', '9:16'],
      ['portrait', '9:16'],
      ['9:16', '9:16'],
      ['Fit', '1:1'],
      ['square', '1:1'],
      [' 1:1 ', '1:1'],
    ];
    for (const [name, ratio] of cases) {
      const { request } = parseLegacy({ video_url: VIDEO, user_id: 'u', finalVideo_type: name });
      assert.equal(request.aspect_ratio, ratio, name);
    }
    const [issue] = refusal(() =>
      parseLegacy({ video_url: VIDEO, user_id: 'u', finalVideo_type: 'Diagonal' }),
    );
    assert.equal(issue!.field, 'finalVideo_type');
    assert.match(issue!.message, /Wide, Vertical, Fit/);
  });

  void test('numbers and booleans may come as strings', () => {
    const { request } = parseLegacy({
      video_url: VIDEO,
      user_id: 7,
      numberOfClips: '4',
      video_type: '2',
      captions: 'false',
      templateId: 12,
    });
    assert.equal(request.clip_count, 4);
    assert.equal(request.captions, false);
    assert.ok(!('templateId' in request) && !('user_id' in request));
    for (const numberOfClips of [0, 11, 'many', 1.5]) {
      assert.deepEqual(
        fieldsOf(refusal(() => parseLegacy({ video_url: VIDEO, user_id: 'u', numberOfClips }))),
        ['numberOfClips'],
      );
    }
  });

  void test('video_type 1 (and 3-12) take a direct media link; a video-site address still goes to the site', () => {
    const file = parseLegacy({
      video_url: 'https://cdn.example.com/talk.mov',
      user_id: 'u',
      video_type: 1,
      ext: '.MOV',
    }).request;
    assert.deepEqual(file, {
      media_url: 'https://cdn.example.com/talk.mov',
      media_ext: 'mov',
      clip_count: 3,
      aspect_ratio: '9:16',
      captions: true,
    });
    assert.equal(
      parseLegacy({ video_url: 'https://files.example.com/a', user_id: 'u', video_type: 3 }).request
        .media_url,
      'https://files.example.com/a',
    );
    assert.equal(parseLegacy({ video_url: VIDEO, user_id: 'u', video_type: 7 }).request.vidsite_url, WATCH);
  });

  void test('refusals name the earlier field names', () => {
    const [site] = refusal(() =>
      parseLegacy({ video_url: 'https://cdn.example.com/talk.mp4', user_id: 'u' }),
    );
    assert.equal(site!.field, 'video_url');
    assert.match(site!.message, /video_type 2/);
    assert.deepEqual(fieldsOf(refusal(() => parseLegacy({ user_id: 'u' }))), ['video_url']);
    assert.deepEqual(fieldsOf(refusal(() => parseLegacy({ video_url: VIDEO }))), ['user_id']);
    assert.deepEqual(
      fieldsOf(refusal(() => parseLegacy({ video_url: VIDEO, user_id: 'u', video_type: 13 }))),
      ['video_type'],
    );
    assert.deepEqual(
      fieldsOf(refusal(() => parseLegacy({ video_url: VIDEO, user_id: 'u', video_type: 0 }))),
      ['video_type'],
    );
    assert.deepEqual(fieldsOf(refusal(() => parseLegacy({ video_url: VIDEO, user_id: 'u', ext: 'm p4' }))), [
      'ext',
    ]);
    assert.deepEqual(
      fieldsOf(refusal(() => parseLegacy({ video_url: VIDEO, user_id: 'u', templateId: { id: 1 } }))),
      ['templateId'],
    );
  });

  void test('the earlier route has no webhooks or private delivery', () => {
    assert.deepEqual(
      fieldsOf(
        refusal(() =>
          parseLegacy({ video_url: VIDEO, user_id: 'u', webhook_url: 'https://hooks.example.com/x' }),
        ),
      ),
      ['webhook_url'],
    );
    assert.throws(
      () => parseLegacy({ video_url: VIDEO, user_id: 'u', delivery: { visibility: 'private' } }),
      (error: unknown) => error instanceof ApiError && error.code === 'PRIVATE_DELIVERY_UNAVAILABLE',
    );
  });
});
