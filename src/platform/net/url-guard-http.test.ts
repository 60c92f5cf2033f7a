import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UrlGuard, UrlRejectedError, type HostLookup } from './url-guard.ts';

// Only loopback traffic: every name the guard may look up maps to loopback or to an address it refuses.
const lookup: HostLookup = async (hostname) => {
  const table: Record<string, string> = {
    'loop.example.com': '127.0.0.1',
    'private-name.example.com': '10.1.2.3',
  };
  const address = table[hostname];
  if (!address) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return [{ address, family: 4 }];
};

const hits = new Map<string, number>();
let port = 0;
let base = '';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
  });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
  const body = await readBody(req);
  const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
  if (chain) {
    const left = Number(chain[1]);
    if (left === 0) res.end('end of chain');
    else res.writeHead(302, { location: `/chain/${left - 1}` }).end();
    return;
  }
  switch (url.pathname) {
    case '/ok':
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    case '/echo':
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          method: req.method,
          body,
          authorization: req.headers.authorization ?? null,
          userAgent: req.headers['user-agent'] ?? null,
        }),
      );
      return;
    case '/redirect':
      res
        .writeHead(Number(url.searchParams.get('status') ?? 302), {
          location: url.searchParams.get('to') ?? '',
        })
        .end();
      return;
    case '/big-cl':
      res.writeHead(200, { 'content-length': '1000' }).end(Buffer.alloc(1000, 1));
      return;
    case '/lying-cl':
      // Declares 100 kB, sends 10 bytes and stalls: only the Content-Length check can refuse it quickly.
      res.writeHead(200, { 'content-length': '100000' });
      res.write(Buffer.alloc(10));
      return;
    case '/big-stream': {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 10; i++) res.write(Buffer.alloc(100, 2));
      res.end();
      return;
    }
    case '/media':
      if (req.method === 'HEAD')
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '1234' }).end();
      else res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.alloc(1234, 3));
      return;
    case '/no-head':
      if (req.method === 'HEAD') res.writeHead(405).end();
      else if (req.headers.range === 'bytes=0-0')
        res.writeHead(206, { 'content-type': 'image/png', 'content-range': 'bytes 0-0/5000' }).end('x');
      else res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(5000));
      return;
    case '/no-head-no-range':
      if (req.method === 'HEAD') res.writeHead(501).end();
      else
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': '777' }).end(Buffer.alloc(777));
      return;
    case '/head-drops':
      if (req.method === 'HEAD') req.socket.destroy();
      else res.writeHead(206, { 'content-type': 'audio/mpeg', 'content-range': 'bytes 0-0/42' }).end('x');
      return;
    case '/gone':
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>gone</h1>');
      return;
    case '/hang':
      return;
    case '/slow-body':
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('partial');
      return;
    default:
      res.writeHead(404).end();
  }
}

const server = createServer((req, res) => {
  handle(req, res).catch((err: unknown) => res.destroy(err as Error));
});

const guard = new UrlGuard({ allowLoopback: true, lookup, userAgent: 'reelsmith-test' });
const dir = mkdtempSync(join(tmpdir(), 'url-guard-'));

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

after(async () => {
  await guard.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function rejection(promise: Promise<unknown>): Promise<UrlRejectedError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof UrlRejectedError, `expected UrlRejectedError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the request to be refused');
}

const redirectTo = (to: string, status = 302): string =>
  `${base}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

void describe('request', () => {
  void test('fetches from a loopback server with the switch on', async () => {
    const res = await guard.request(`${base}/ok`);
    assert.equal(res.status, 200);
    assert.equal(res.body.toString(), 'ok');
    assert.equal(res.headers['content-type'], 'text/plain');
    assert.equal(res.url, `${base}/ok`);
  });

  void test('sends the configured user agent and the body', async () => {
    const res = await guard.request(`${base}/echo`, { method: 'POST', body: 'payload' });
    assert.deepEqual(JSON.parse(res.body.toString()), {
      method: 'POST',
      body: 'payload',
      authorization: null,
      userAgent: 'reelsmith-test',
    });
  });

  void test('returns non-2xx answers to the caller', async () => {
    const res = await guard.request(`${base}/gone`);
    assert.equal(res.status, 404);
  });

  void test('connection refused becomes fetch_failed', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await rejection(guard.request(`http://127.0.0.1:${closedPort}/`));
    assert.equal(err.reason, 'fetch_failed');
    assert.match(err.message, /ECONNREFUSED/);
  });
});

void describe('redirects', () => {
  void test('follows a chain of exactly 5 relative redirects', async () => {
    const res = await guard.request(`${base}/chain/5`);
    assert.equal(res.body.toString(), 'end of chain');
    assert.equal(res.url, `${base}/chain/0`);
  });

  void test('refuses a chain over the limit', async () => {
    assert.equal((await rejection(guard.request(`${base}/chain/6`))).reason, 'too_many_redirects');
    assert.equal(
      (await rejection(guard.request(`${base}/chain/2`, { maxRedirects: 1 }))).reason,
      'too_many_redirects',
    );
  });

  void test("redirect: 'manual' answers the 3xx with its Location instead of following it", async () => {
    const res = await guard.request(redirectTo('https://169.254.169.254/latest/meta-data/', 301), {
      redirect: 'manual',
    });
    assert.equal(res.status, 301);
    assert.equal(res.headers.location, 'https://169.254.169.254/latest/meta-data/');
    assert.equal(res.url, redirectTo('https://169.254.169.254/latest/meta-data/', 301));
  });

  const refused: [string, string][] = [
    ['http://10.0.0.1/', 'scheme_not_allowed'],
    ['https://10.0.0.1/', 'ip_literal'],
    ['https://169.254.169.254/latest/meta-data/', 'ip_literal'],
    ['https://private-name.example.com/', 'private_address'],
    ['https://unknown-name.example.com/', 'dns_failed'],
    ['https://printer.local/', 'internal_host'],
    ['ftp://127.0.0.1/file', 'scheme_not_allowed'],
    ['file:///etc/passwd', 'scheme_not_allowed'],
  ];
  for (const [target, reason] of refused) {
    void test(`refuses a redirect to ${target} (${reason})`, async () => {
      const err = await rejection(guard.request(redirectTo(target)));
      assert.equal(err.reason, reason);
      assert.match(err.message, /^redirect refused: /);
    });
  }

  void test('refuses a redirect adding userinfo, without echoing it', async () => {
    const err = await rejection(guard.request(redirectTo(`http://admin:s3cret@127.0.0.1:${port}/ok`)));
    assert.equal(err.reason, 'userinfo_not_allowed');
    assert.doesNotMatch(err.message, /s3cret/);
  });

  void test('allows a redirect to loopback under the switch and drops Authorization across origins', async () => {
    const res = await guard.request(redirectTo(`http://localhost:${port}/echo`), {
      headers: { Authorization: 'Bearer t0ken' },
    });
    assert.equal(res.url, `http://localhost:${port}/echo`);
    assert.equal(JSON.parse(res.body.toString()).authorization, null);
  });

  void test('keeps Authorization on a same-origin redirect', async () => {
    const res = await guard.request(redirectTo('/echo'), { headers: { authorization: 'Bearer t0ken' } });
    assert.equal(JSON.parse(res.body.toString()).authorization, 'Bearer t0ken');
  });

  void test('303 turns POST into GET without a body', async () => {
    const res = await guard.request(redirectTo('/echo', 303), { method: 'POST', body: 'data' });
    assert.deepEqual(JSON.parse(res.body.toString()).method, 'GET');
    assert.deepEqual(JSON.parse(res.body.toString()).body, '');
  });

  void test('302 turns POST into GET; 307 and 308 keep method and body', async () => {
    const r302 = JSON.parse(
      (await guard.request(redirectTo('/echo', 302), { method: 'POST', body: 'd' })).body.toString(),
    );
    assert.equal(r302.method, 'GET');
    for (const status of [307, 308]) {
      const res = await guard.request(redirectTo('/echo', status), { method: 'POST', body: 'kept' });
      const echoed = JSON.parse(res.body.toString());
      assert.equal(echoed.method, 'POST');
      assert.equal(echoed.body, 'kept');
    }
  });
});

void describe('size limits', () => {
  void test('Content-Length over maxBytes is refused before reading the body', async () => {
    const started = Date.now();
    const err = await rejection(guard.request(`${base}/lying-cl`, { maxBytes: 100, timeoutMs: 5000 }));
    assert.equal(err.reason, 'too_large');
    assert.ok(Date.now() - started < 2000);
    assert.equal((await rejection(guard.request(`${base}/big-cl`, { maxBytes: 999 }))).reason, 'too_large');
    assert.equal((await guard.request(`${base}/big-cl`, { maxBytes: 1000 })).body.length, 1000);
  });

  void test('a streamed body without Content-Length is cut off at maxBytes', async () => {
    assert.equal(
      (await rejection(guard.request(`${base}/big-stream`, { maxBytes: 500 }))).reason,
      'too_large',
    );
    assert.equal((await guard.request(`${base}/big-stream`, { maxBytes: 1000 })).body.length, 1000);
  });

  void test('download refuses by Content-Length and by streamed size, leaving no file', async () => {
    const byHeader = join(dir, 'by-header.bin');
    assert.equal(
      (await rejection(guard.download(`${base}/big-cl`, byHeader, { maxBytes: 100 }))).reason,
      'too_large',
    );
    assert.equal(existsSync(byHeader), false);
    const byStream = join(dir, 'by-stream.bin');
    assert.equal(
      (await rejection(guard.download(`${base}/big-stream`, byStream, { maxBytes: 350 }))).reason,
      'too_large',
    );
    assert.equal(existsSync(byStream), false);
  });
});

void describe('download', () => {
  void test('streams to the file and reports progress', async () => {
    const dest = join(dir, 'media.mp4');
    const progress: [number, number | undefined][] = [];
    const result = await guard.download(redirectTo('/media'), dest, {
      maxBytes: 10_000,
      onProgress: (bytes, total) => progress.push([bytes, total]),
    });
    assert.deepEqual(result, { bytes: 1234, contentType: 'video/mp4', finalUrl: `${base}/media` });
    assert.equal(readFileSync(dest).length, 1234);
    assert.ok(progress.length > 0);
    assert.deepEqual(progress.at(-1), [1234, undefined]);
  });

  void test('a non-2xx answer is http_status and creates no file', async () => {
    const dest = join(dir, 'gone.bin');
    const err = await rejection(guard.download(`${base}/gone`, dest, { maxBytes: 1000 }));
    assert.equal(err.reason, 'http_status');
    assert.match(err.message, /404/);
    assert.equal(existsSync(dest), false);
  });

  void test('a timeout mid-body deletes the partial file', async () => {
    const dest = join(dir, 'slow.bin');
    const err = await rejection(
      guard.download(`${base}/slow-body`, dest, { maxBytes: 1000, timeoutMs: 300 }),
    );
    assert.equal(err.reason, 'timeout');
    assert.equal(existsSync(dest), false);
  });

  void test('a local disk error surfaces unchanged, not as a URL problem', async () => {
    const dest = join(dir, 'missing-dir', 'media.mp4');
    await assert.rejects(
      guard.download(`${base}/media`, dest, { maxBytes: 10_000 }),
      (err: NodeJS.ErrnoException) => {
        assert.ok(!(err instanceof UrlRejectedError));
        assert.equal(err.code, 'ENOENT');
        return true;
      },
    );
  });

  void test('refusal before any byte leaves an existing file at destPath alone', async () => {
    const dest = join(dir, 'existing.bin');
    writeFileSync(dest, 'keep');
    await rejection(guard.download(redirectTo('https://10.0.0.1/'), dest, { maxBytes: 1000 }));
    assert.equal(readFileSync(dest, 'utf8'), 'keep');
  });
});

void describe('time limits and cancellation', () => {
  void test('a server that never answers hits timeoutMs', async () => {
    const started = Date.now();
    const err = await rejection(guard.request(`${base}/hang`, { timeoutMs: 300 }));
    assert.equal(err.reason, 'timeout');
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 250 && elapsed < 2000, `elapsed ${elapsed} ms`);
  });

  void test('a stalled body hits timeoutMs', async () => {
    assert.equal((await rejection(guard.request(`${base}/slow-body`, { timeoutMs: 300 }))).reason, 'timeout');
  });

  void test('the caller signal aborts the request', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const err = await rejection(
      guard.request(`${base}/hang`, { signal: controller.signal, timeoutMs: 5000 }),
    );
    assert.equal(err.reason, 'aborted');
    const already = await rejection(guard.request(`${base}/ok`, { signal: AbortSignal.abort() }));
    assert.equal(already.reason, 'aborted');
  });
});

void describe('headInfo', () => {
  void test('uses HEAD when the server supports it', async () => {
    assert.deepEqual(await guard.headInfo(`${base}/media`), {
      status: 200,
      contentLength: 1234,
      contentType: 'video/mp4',
      finalUrl: `${base}/media`,
    });
  });

  void test('falls back to a one-byte ranged GET when HEAD is refused', async () => {
    const info = await guard.headInfo(`${base}/no-head`);
    assert.deepEqual(info, {
      status: 206,
      contentLength: 5000,
      contentType: 'image/png',
      finalUrl: `${base}/no-head`,
    });
  });

  void test('uses Content-Length of a full 200 when Range is ignored', async () => {
    const info = await guard.headInfo(`${base}/no-head-no-range`);
    assert.equal(info.contentLength, 777);
    assert.equal(info.contentType, 'image/jpeg');
  });

  void test('falls back when the server drops the connection on HEAD', async () => {
    const info = await guard.headInfo(`${base}/head-drops`);
    assert.equal(info.contentLength, 42);
    assert.equal(info.contentType, 'audio/mpeg');
  });

  void test('reports unknown size when neither attempt tells', async () => {
    assert.deepEqual(await guard.headInfo(`${base}/gone`), {
      status: 404,
      contentLength: null,
      contentType: null,
      finalUrl: `${base}/gone`,
    });
  });

  void test('still refuses guarded targets', async () => {
    assert.equal(
      (await rejection(guard.headInfo(redirectTo('https://private-name.example.com/')))).reason,
      'private_address',
    );
  });
});

void describe('loopback switch off', () => {
  void test('refuses the running loopback server in every spelling and never reaches it', async () => {
    const strict = new UrlGuard({ allowLoopback: false, lookup });
    try {
      const before = hits.get('/ok') ?? 0;
      const attempts: [string, string][] = [
        [`${base}/ok`, 'scheme_not_allowed'],
        [`http://localhost:${port}/ok`, 'scheme_not_allowed'],
        [`https://127.0.0.1:${port}/ok`, 'ip_literal'],
        [`https://2130706433:${port}/ok`, 'ip_literal'],
        [`https://[::ffff:127.0.0.1]:${port}/ok`, 'ip_literal'],
        [`https://localhost:${port}/ok`, 'internal_host'],
        [`https://loop.example.com:${port}/ok`, 'private_address'],
      ];
      for (const [url, reason] of attempts) {
        assert.equal((await rejection(strict.request(url))).reason, reason, url);
      }
      assert.equal(
        (await rejection(strict.download(`${base}/ok`, join(dir, 'x'), { maxBytes: 10 }))).reason,
        'scheme_not_allowed',
      );
      assert.equal(
        (await rejection(strict.headInfo(`https://loop.example.com:${port}/ok`))).reason,
        'private_address',
      );
      assert.equal(hits.get('/ok') ?? 0, before);
    } finally {
      await strict.close();
    }
  });
});
