import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { probeMedia } from '../src/media/ffmpeg/probe.ts';
import { downloadTo } from './support/media-files.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Public listing (spec 1 §4.2 `listing`, docs/studio.md): a finished public video has a watch page and is on the
// discovery page, sitemap.xml and feed.xml; a private one is on none of them and PATCH switches it either way.

let service: TestService;
let dir: string;
before(async () => {
  service = await startTestService();
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-public-'));
});
after(async () => {
  await service.stop();
});

const HOSTILE = `Tips <script>alert("x")</script> & "quotes" </script>`;

async function finishedJob(body: Record<string, unknown>): Promise<any> {
  const receipt = await service.call('POST', '/api/v1/generate-and-post', {
    body,
    headers: { 'idempotency-key': `public-${Math.random()}` },
  });
  assert.equal(receipt.status, 202, receipt.text);
  const job = await waitForJob(service, receipt.body.data.job_id);
  assert.equal(job.status, 'completed', JSON.stringify(job.error));
  return job;
}

const page = async (path: string) => {
  const response = await fetch(service.url + path);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    policy: response.headers.get('content-security-policy'),
    text: await response.text(),
  };
};

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_' });
const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

async function everywhere(
  videoId: string,
): Promise<{ watch: number; discover: boolean; sitemap: boolean; feed: boolean }> {
  const [watch, discover, map, feed] = await Promise.all([
    page(`/v/${videoId}`),
    page('/discover'),
    page('/sitemap.xml'),
    page('/feed.xml'),
  ]);
  const locs = asList(xml.parse(map.text).urlset.url).map((u: any) => u.loc as string);
  const entries = asList(xml.parse(feed.text).feed.entry).map((e: any) => e.id as string);
  return {
    watch: watch.status,
    discover: discover.text.includes(`/v/${videoId}`),
    sitemap: locs.includes(`${service.url}/v/${videoId}`),
    feed: entries.includes(`${service.url}/v/${videoId}`),
  };
}

void describe('public listing', () => {
  void test('a public video gets a watch page with a playable signed video, Open Graph and VideoObject data', async () => {
    const job = await finishedJob({ topic: HOSTILE, listing: 'public' });
    assert.equal(job.listing, 'public');
    const watch = await page(`/v/${job.video_id}`);
    assert.equal(watch.status, 200);
    assert.match(watch.type ?? '', /^text\/html/);
    assert.match(watch.policy ?? '', /default-src 'none'/, 'the page runs no script');
    assert.ok(!watch.text.includes('<script>alert'), 'the title is escaped');
    assert.ok(watch.text.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'));
    const og = (property: string) =>
      new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(watch.text)?.[1];
    assert.equal(og('og:type'), 'video.other');
    assert.equal(og('og:url'), `${service.url}/v/${job.video_id}`);
    assert.match(og('og:title') ?? '', /^About Tips &lt;script&gt;/);
    const ldText = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(watch.text)?.[1];
    assert.ok(ldText, 'JSON-LD present');
    assert.ok(!ldText.includes('</script'), 'no text closes the JSON-LD element early');
    const ld = JSON.parse(ldText);
    assert.equal(ld['@type'], 'VideoObject');
    assert.equal(ld.name, `About ${HOSTILE}`);
    assert.equal(ld.description, 'A test video. #test');
    assert.equal(ld.duration, 'PT0.5S');
    assert.ok(!Number.isNaN(Date.parse(ld.uploadDate)));
    // The player's link is an expiring signed /media link, made for this page, and it plays.
    const src = /<video [^>]*src="([^"]+)"/.exec(watch.text)?.[1]?.replace(/&amp;/g, '&');
    assert.equal(src, ld.contentUrl);
    assert.match(src!, /\/media\/.+\?expires=\d+&sig=/);
    assert.equal(og('og:video')?.replace(/&amp;/g, '&'), src);
    const info = await probeMedia(await downloadTo(src!, join(dir, 'public.mp4')));
    assert.equal(info.video?.codec, 'h264');
    assert.ok((info.durationSec ?? 0) > 0.3);
    assert.deepEqual(await everywhere(job.video_id), {
      watch: 200,
      discover: true,
      sitemap: true,
      feed: true,
    });
  });

  void test('the feed is Atom with an enclosure per video; the sitemap lists the discovery page', async () => {
    const job = await finishedJob({ topic: 'feed entry', listing: 'public' });
    const feed = await page('/feed.xml');
    assert.match(feed.type ?? '', /^application\/atom\+xml/);
    const parsed = xml.parse(feed.text).feed;
    assert.equal(parsed['@_xmlns'], 'http://www.w3.org/2005/Atom');
    const entry = asList(parsed.entry).find((e: any) => e.id === `${service.url}/v/${job.video_id}`);
    assert.equal(entry.title, 'About feed entry');
    const enclosure = asList(entry.link).find((l: any) => l['@_rel'] === 'enclosure');
    assert.equal(enclosure['@_type'], 'video/mp4');
    assert.equal((await fetch(enclosure['@_href'])).status, 200);
    const map = await page('/sitemap.xml');
    assert.match(map.type ?? '', /^application\/xml/);
    assert.ok(asList(xml.parse(map.text).urlset.url).some((u: any) => u.loc === `${service.url}/discover`));
  });

  void test('a private video (the default) is nowhere and its page is a 404', async () => {
    const job = await finishedJob({ topic: 'kept private' });
    assert.equal(job.listing, 'private');
    assert.deepEqual(await everywhere(job.video_id), {
      watch: 404,
      discover: false,
      sitemap: false,
      feed: false,
    });
    assert.equal((await page('/v/vid_doesnotexist')).status, 404);
    assert.equal((await page(`/v/${job.id}`)).status, 404, 'a job id is not a video id');
  });

  void test('PATCH /jobs/{id} switches the listing: private removes it everywhere, public brings it back', async () => {
    const job = await finishedJob({ topic: 'switched', listing: 'public' });
    const toPrivate = await service.call('PATCH', `/api/v1/jobs/${job.id}`, { body: { listing: 'private' } });
    assert.equal(toPrivate.status, 200, toPrivate.text);
    assert.equal(toPrivate.body.data.job.listing, 'private');
    assert.deepEqual(await everywhere(job.video_id), {
      watch: 404,
      discover: false,
      sitemap: false,
      feed: false,
    });
    const toPublic = await service.call('PATCH', `/api/v1/jobs/${job.id}`, { body: { listing: 'public' } });
    assert.equal(toPublic.body.data.job.listing, 'public');
    assert.deepEqual(await everywhere(job.video_id), {
      watch: 200,
      discover: true,
      sitemap: true,
      feed: true,
    });
    assert.equal((await service.call('GET', `/api/v1/jobs/${job.id}`)).body.data.job.listing, 'public');
  });

  void test('PATCH refuses bad values, other accounts’ jobs and public sandbox placeholders', async () => {
    const job = await finishedJob({ topic: 'guarded' });
    const bad = await service.call('PATCH', `/api/v1/jobs/${job.id}`, { body: { listing: 'everyone' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'INPUT_INVALID');
    assert.equal(bad.body.error.details.fields[0].field, 'listing');
    const extra = await service.call('PATCH', `/api/v1/jobs/${job.id}`, { body: { status: 'completed' } });
    assert.equal(extra.status, 400);
    const other = await service.newAccount();
    const foreign = await service.call('PATCH', `/api/v1/jobs/${job.id}`, {
      key: other.live_key,
      body: { listing: 'public' },
    });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.error.code, 'JOB_NOT_FOUND');
    const sandbox = await service.call('POST', '/api/v1/generate-and-post', {
      key: service.account.sandbox_key,
      body: { topic: 'placeholder', listing: 'public' },
    });
    const placeholder = await service.call('PATCH', `/api/v1/jobs/${sandbox.body.data.job_id}`, {
      key: service.account.sandbox_key,
      body: { listing: 'public' },
    });
    assert.equal(placeholder.status, 409);
    assert.equal(placeholder.body.error.code, 'LISTING_NOT_ALLOWED');
    assert.equal((await page(`/v/${sandbox.body.data.video_id}`)).status, 404);
  });

  void test('a public job that has not finished is not shown until it completes', async () => {
    const receipt = await service.call('POST', '/api/v1/generate-and-post', {
      body: { topic: 'not yet', listing: 'public', outcome: 'sleep', sleep_ms: 400 },
      headers: { 'idempotency-key': `public-${Math.random()}` },
    });
    const videoId = receipt.body.data.video_id;
    assert.equal((await page(`/v/${videoId}`)).status, 404);
    await waitForJob(service, receipt.body.data.job_id);
    assert.equal((await page(`/v/${videoId}`)).status, 200);
  });
});
