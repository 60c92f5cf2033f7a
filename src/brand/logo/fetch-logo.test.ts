import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { ApiError } from '../../platform/errors.ts';
import { UrlGuard, UrlRejectedError } from '../../platform/net/url-guard.ts';
import { solidPng } from '../../../test/fixtures/logos/draw-logo.ts';
import { fetchLogo } from './fetch-logo.ts';

const png = await solidPng(120, 80, '#1E6FD9');
const hits: string[] = [];

// A loopback site serving logos the ways real sites do, well and badly.
const server = createServer((req, res) => {
  hits.push(req.url ?? '');
  switch (req.url) {
    case '/logo.png':
      return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    case '/mislabelled':
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(png);
    case '/moved':
      return res.writeHead(302, { location: '/logo.png' }).end();
    case '/logo.svg':
      return res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 1"><rect width="2" height="1"/></svg>');
    case '/page':
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><html><body>Logo</body></html>');
    case '/huge':
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(Buffer.concat([png, Buffer.alloc(11 * 1024 * 1024)]));
    case '/to-metadata':
      return res.writeHead(302, { location: 'https://169.254.169.254/latest/meta-data/' }).end();
    case '/slow':
      setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png), 5_000).unref();
      return;
    case undefined:
    default:
      return res.writeHead(404, { 'content-type': 'text/plain' }).end('missing');
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const guard = new UrlGuard({ allowLoopback: true });
const strictGuard = new UrlGuard({ allowLoopback: false });

after(async () => {
  await guard.close();
  await strictGuard.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function unreadable(work: Promise<unknown>, message: RegExp, reason?: string): Promise<void> {
  const err = await work.then(
    () => assert.fail('expected LOGO_UNREADABLE'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ApiError, String(err));
  assert.equal(err.status, 422);
  assert.equal(err.code, 'LOGO_UNREADABLE');
  assert.match(err.message, message);
  if (reason) assert.deepEqual(err.details, { reason });
}

void describe('fetchLogo through the URL guard', () => {
  void test('returns the bytes, the declared type and the final URL after redirects', async () => {
    hits.length = 0;
    const fetched = await fetchLogo(`${base}/moved`, guard);
    assert.ok(fetched.bytes.equals(png));
    assert.equal(fetched.contentType, 'image/png');
    assert.equal(fetched.finalUrl, `${base}/logo.png`);
    assert.deepEqual(hits, ['/moved', '/logo.png'], 'one GET, plus the redirect it followed');
  });

  void test('the bytes decide: a mislabelled PNG and an SVG served as text/plain are accepted', async () => {
    assert.ok((await fetchLogo(`${base}/mislabelled`, guard)).bytes.equals(png));
    assert.equal((await fetchLogo(`${base}/logo.svg`, guard)).contentType, 'text/plain');
  });

  void test('an HTML page, a 404 and an oversized file are LOGO_UNREADABLE with the reason', async () => {
    await unreadable(fetchLogo(`${base}/page`, guard), /HTML page, not an image/);
    await unreadable(fetchLogo(`${base}/nowhere.png`, guard), /answered HTTP 404/, 'http_status');
    await unreadable(fetchLogo(`${base}/huge`, guard), /larger than 10 MB/, 'too_large');
  });

  void test('refused addresses say so: a redirect to the metadata address, loopback without the test switch', async () => {
    hits.length = 0;
    await unreadable(fetchLogo(`${base}/to-metadata`, guard), /URL was refused.*public https/, 'ip_literal');
    await unreadable(fetchLogo(`${base}/logo.png`, strictGuard), /URL was refused/);
    assert.deepEqual(hits, ['/to-metadata']);
  });

  void test('cancellation by the caller is passed through, not reported as a bad logo', async () => {
    const controller = new AbortController();
    const pending = fetchLogo(`${base}/slow`, guard, controller.signal);
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(
      pending,
      (err: unknown) => err instanceof UrlRejectedError && err.reason === 'aborted',
    );
  });
});
