import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { productModes } from '../src/modes/index.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// The Studio (docs/studio.md) in Debian's Chromium against the real service with the product's modes: sign-in,
// dry-run price, field errors, a sandbox video that plays, a live stock render whose bar moves, public listing
// switched from the page, a revoked key that signs the page out, and screenshots at desktop and phone widths.

// Globals of the page, for the functions that run in it (the project's TypeScript has no DOM library).
declare const document: any;
declare const location: any;
declare const sessionStorage: any;
declare const localStorage: any;

const ARTIFACTS = join(import.meta.dirname, '..', '.test-artifacts', 'studio');
const DESKTOP = { width: 1280, height: 800 };
// Not isMobile: switching it reloads the page, which would lose the page's state between the two shots.
const PHONE = { width: 390, height: 844 };

let service: TestService;
let browser: Browser;
let page: Page;
let liveJobId: string;

before(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  [service, browser] = await Promise.all([
    startTestService({ modes: productModes, env: { RENDER_PRESET: 'ultrafast' } }),
    puppeteer.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      protocolTimeout: 60_000,
      // Tests may run as root, where Chromium's sandbox cannot start.
      args: ['--no-sandbox', '--mute-audio', '--autoplay-policy=no-user-gesture-required'],
    }),
  ]);
  page = await browser.newPage();
  await page.setViewport(DESKTOP);
  page.on('dialog', (dialog) => void dialog.accept());
});
after(async () => {
  await browser?.close();
  await service?.stop();
});

async function screenshot(name: string, target: Page = page): Promise<void> {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await target.setViewport(viewport);
    await target.screenshot({ path: join(ARTIFACTS, `${name}-${size}.png`), fullPage: true });
  }
  await target.setViewport(DESKTOP);
}

async function signIn(key: string): Promise<void> {
  await page.goto(`${service.url}/studio`);
  await page.waitForSelector('#api-key');
  await page.type('#api-key', key);
  await Promise.all([page.waitForSelector('#sign-out'), page.keyboard.press('Enter')]);
}

const text = (selector: string) => page.$eval(selector, (el) => el.textContent ?? '');

/** Waits for the page's video element to report a duration and present a decoded frame, and samples it. */
async function playVideo(target: Page, selector: string) {
  await target.waitForSelector(selector);
  return target.$eval(selector, async (element: any) => {
    const video = element;
    video.muted = true;
    if (video.readyState < 1)
      await new Promise((resolve) => video.addEventListener('loadedmetadata', resolve, { once: true }));
    if (!video.paused) video.pause();
    const frame = new Promise<number>((resolve) =>
      video.requestVideoFrameCallback((_now: number, meta: any) => resolve(meta.presentedFrames)),
    );
    await video.play();
    // A frame that never comes fails here with the element's state rather than at the protocol timeout.
    const presented = await Promise.race([
      frame,
      new Promise<number>((_resolve, reject) =>
        setTimeout(
          () => reject(new Error(`no frame: readyState ${video.readyState}, error ${video.error?.message}`)),
          30_000,
        ),
      ),
    ]);
    video.pause();
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 64;
    const context = canvas.getContext('2d')!;
    context.drawImage(video, 0, 0, 64, 64);
    const pixels = context.getImageData(0, 0, 64, 64).data;
    const distinct = new Set<number>();
    for (let i = 0; i < pixels.length; i += 4)
      distinct.add((pixels[i]! >> 4) * 256 + (pixels[i + 1]! >> 4) * 16 + (pixels[i + 2]! >> 4));
    return {
      duration: video.duration,
      width: video.videoWidth,
      height: video.videoHeight,
      presented,
      colours: distinct.size,
    };
  });
}

void describe('Studio in a real browser', () => {
  void test('a live key signs in, sees the price of a dry run and field errors, and the render’s bar moves', async () => {
    await signIn(service.account.live_key);
    assert.equal(await page.$('#sandbox-banner'), null, 'no sandbox banner for a live key');
    assert.match(await text('#balance'), /^\$1,?000\.00$/);
    assert.equal(await page.evaluate(() => sessionStorage.length), 1, 'the key is kept in the session only');
    assert.equal(await page.evaluate(() => localStorage.length), 0);

    await page.waitForSelector('#mode');
    assert.equal(await page.$eval('#mode', (el: any) => el.value), 'stock', 'stock video first');
    // The form is drawn from the mode's schema: duration_sec carries its limits.
    assert.deepEqual(await page.$eval('#field-duration_sec', (el: any) => [el.min, el.max]), ['15', '120']);
    await page.type('#field-topic', 'why short videos work');
    await page.type('#field-duration_sec', '5');
    await page.click('#dry-run');
    await page.waitForFunction(() => document.querySelector('#field-duration_sec-error')?.textContent);
    assert.match(await text('#field-duration_sec-error'), /15/);
    assert.equal(await page.$eval('#field-duration_sec', (el) => el.getAttribute('aria-invalid')), 'true');
    assert.equal(await page.$eval('#make', (el: any) => el.disabled), true, 'no paid call before a price');

    await page.$eval('#field-duration_sec', (el: any) => (el.value = ''));
    await page.type('#field-duration_sec', '15');
    await page.select('#field-listing', 'public');
    await page.click('#dry-run');
    await page.waitForSelector('#price-display');
    assert.equal(await text('#price-display'), '$0.60');
    await screenshot('make');

    // A double click is one submission: one Idempotency-Key, one job.
    await page.click('#make', { clickCount: 2 });
    await page.waitForSelector('rs-job rs-progress progress');
    liveJobId = decodeURIComponent(await page.evaluate(() => location.hash.split('/')[1]!));
    const jobs = await service.call('GET', '/api/v1/jobs');
    assert.deepEqual(
      jobs.body.data.jobs.map((j: any) => j.id),
      [liveJobId],
    );
    const start = await page.$eval('rs-job progress', (el: any) => Number(el.value));
    await page.waitForFunction(
      (initial) => {
        const bar: any = document.querySelector('rs-job progress');
        const stage = document.querySelector('rs-job .stage')?.textContent ?? '';
        return bar && bar.value > initial && bar.value < 100 && stage && !stage.startsWith('queued');
      },
      { timeout: 60_000 },
      start,
    );
    assert.match(await text('rs-job .stage'), /\w/);
    await page.goto(`${service.url}/studio#jobs`);
    await page.waitForSelector(`tr[data-job="${liveJobId}"]`);
    assert.match(await text(`tr[data-job="${liveJobId}"] td[data-label="Price"]`), /\$0\.60/);
    await screenshot('jobs');
  });

  void test('a sandbox key shows the banner; its placeholder video plays in the page', async () => {
    await page.click('#sign-out');
    await page.waitForSelector('#api-key');
    assert.equal(await page.evaluate(() => sessionStorage.length), 0, 'sign-out forgets the key');
    await signIn(service.account.sandbox_key);
    assert.match(await text('#sandbox-banner'), /Sandbox key/);
    await page.waitForSelector('#field-topic');
    await page.type('#field-topic', 'sandbox preview');
    await page.click('#dry-run');
    await page.waitForSelector('#price-display');
    await page.click('#make');
    await page.waitForSelector('#player');
    const played = await playVideo(page, '#player');
    assert.ok(Math.abs(played.duration - 3) < 0.2, `duration ${played.duration}`);
    assert.deepEqual([played.width, played.height], [1080, 1920]);
    assert.ok(played.presented >= 1, 'a frame was presented');
    assert.ok(played.colours > 8, `the decoded frame is a picture (${played.colours} colours)`);
    assert.equal(await page.$eval('#player', (el: any) => Boolean(el.poster)), true);
    assert.match(await text('#job-description'), /#sandbox/);
    assert.equal(await page.$('#listing'), null, 'a sandbox placeholder cannot be listed');
    await screenshot('sandbox-job');
  });

  void test('a key revoked while signed in signs the page out', async () => {
    await page.click('#sign-out');
    await signIn(service.account.live_key);
    await page.goto(`${service.url}/studio#account`);
    await page.waitForSelector('#create-key');
    await page.click('#create-key');
    await page.waitForSelector('#new-key-value');
    const fresh = await page.$eval('#new-key-value', (el: any) => el.value);
    assert.match(fresh, /^svc_[0-9A-Za-z]{32}$/);
    await page.waitForSelector('#usage-chart canvas');
    await page.waitForSelector('#ledger tbody tr');
    await screenshot('account');

    await page.click('#sign-out');
    await signIn(fresh);
    await page.goto(`${service.url}/studio#account`);
    const own = await page.waitForSelector('tr:has(.tag) button.revoke');
    await own!.click();
    await page.waitForSelector('#api-key');
    assert.match(await text('#signin-error'), /not valid|revoked/);
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    assert.equal((await service.call('GET', '/api/v1/usage', { key: fresh })).status, 401);

    // Revoked elsewhere (here: by the API) while the page is open: its next call signs it out.
    const other = (await service.call('POST', '/api/v1/keys', { body: {} })).body.data.key;
    await signIn(other.key);
    await page.goto(`${service.url}/studio#jobs`);
    await page.waitForSelector('#refresh-jobs');
    assert.equal((await service.call('DELETE', `/api/v1/keys/${other.id}`)).status, 200);
    await page.click('#refresh-jobs');
    await page.waitForSelector('#api-key');
    assert.match(await text('#signin-error'), /not valid|revoked/);
  });

  void test('the finished public video has a public page until the page switches it to private', async () => {
    assert.ok(liveJobId, 'the live job of the first test');
    const job = await waitForJob(service, liveJobId, { timeoutMs: 150_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const watch = await browser.newPage();
    await watch.setViewport(DESKTOP);
    const response = await watch.goto(`${service.url}/v/${job.video_id}`);
    assert.equal(response?.status(), 200);
    assert.equal(await watch.$eval('h1', (el) => el.textContent), job.artifacts.title);
    assert.equal(
      await watch.$eval('meta[property="og:title"]', (el) => el.getAttribute('content')),
      job.artifacts.title,
    );
    const played = await playVideo(watch, 'video');
    assert.ok(Math.abs(played.duration - job.artifacts.durationSec) < 1, `duration ${played.duration}`);
    assert.ok(played.colours > 8);
    await screenshot('public-watch', watch);
    await watch.goto(`${service.url}/discover`);
    assert.ok(await watch.$(`a[href="/v/${job.video_id}"]`), 'on the discovery page');
    await screenshot('discover', watch);

    await page.bringToFront();
    await signIn(service.account.live_key);
    await page.goto(`${service.url}/studio#job/${liveJobId}`);
    await page.waitForSelector('#player');
    assert.equal(await page.$eval('#job-title', (el) => el.textContent), job.artifacts.title);
    await screenshot('job');
    assert.ok(await page.$('#public-link'));
    await page.select('#listing', 'private');
    await page.click('#save-listing');
    await page.waitForFunction(() =>
      document.querySelector('#listing-status')?.textContent?.includes('private'),
    );
    assert.equal((await watch.goto(`${service.url}/v/${job.video_id}`))?.status(), 404);
    const feed = await (await fetch(`${service.url}/feed.xml`)).text();
    assert.ok(!feed.includes(job.video_id), 'not in the feed');
    const sitemap = await (await fetch(`${service.url}/sitemap.xml`)).text();
    assert.ok(!sitemap.includes(job.video_id), 'not in the sitemap');
    await watch.close();
  });
  void test('a failed job shows its error and its refund', async () => {
    // A loopback server whose "video" is text: the job fails while fetching its footage, and is refunded.
    const server = http.createServer((_request, response) => response.end('plain text, not a video'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const receipt = await service.call('POST', '/api/v1/generate-and-post', {
        body: { topic: 'a broken asset', duration_sec: 15, asset_urls: [`${base}/clip.mp4`] },
        headers: { 'idempotency-key': `studio-failed-${Date.now()}` },
      });
      assert.equal(receipt.status, 202, receipt.text);
      const jobId = receipt.body.data.job_id;
      await waitForJob(service, jobId, { timeoutMs: 90_000 });
      await page.bringToFront();
      await page.goto(`${service.url}/studio#job/${jobId}`);
      await page.waitForFunction(() =>
        document.querySelector('#refund')?.textContent?.startsWith('Refunded'),
      );
      assert.equal(await text('#job-status'), 'failed');
      assert.match(await text('.failure'), /INPUT_INVALID_MEDIA/);
      assert.equal(await text('#refund'), 'Refunded $0.60.');
      await screenshot('failed-job');
    } finally {
      server.close();
    }
  });
});
