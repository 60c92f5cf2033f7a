import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { productModes } from '../src/modes/index.ts';
import { startTestService, type TestService } from './support/test-service.ts';

// Issue 8 item 9: malformed and hostile bodies get a 400 (or 413) in the error envelope that says what to
// fix, over real HTTP against the product's routes, and nothing is charged and no job is created.

const BODY_LIMIT = 1024 * 1024;
let service: TestService;
let startBalance: number;

before(async () => {
  service = await startTestService({
    modes: productModes,
    worker: false,
    env: { BODY_LIMIT_BYTES: String(BODY_LIMIT) },
  });
  startBalance = await balance();
});
after(async () => {
  await service.stop();
});

interface RawResponse {
  status: number;
  body: any;
  text: string;
}

/** POSTs exact bytes (invalid UTF-8 included) with the live key and a fresh Idempotency-Key. */
function post(
  path: string,
  body: Buffer | string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${service.url}${path}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': String(bytes.length),
          authorization: `Bearer ${service.account.live_key}`,
          'idempotency-key': `hostile-${randomUUID()}`,
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: response.statusCode ?? 0, body: parsed, text });
        });
      },
    );
    request.on('error', reject);
    request.end(bytes);
  });
}

async function balance(): Promise<number> {
  return (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents as number;
}

async function jobCount(): Promise<number> {
  const row = await service.runtime.database.db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', service.account.account_id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function assertNothingCharged(): Promise<void> {
  assert.equal(await balance(), startBalance, 'the balance changed');
  assert.equal(await jobCount(), 0, 'a job was created');
}

/** The spec's envelope with the code, a message matching `message`, and optionally the field it names. */
function assertRefused(
  response: RawResponse,
  status: number,
  code: string,
  message: RegExp,
  field?: string | RegExp,
): void {
  assert.equal(response.status, status, response.text.slice(0, 500));
  assert.equal(response.body?.success, false, response.text.slice(0, 500));
  assert.equal(response.body.error.code, code);
  assert.match(response.body.error.message, message);
  assert.equal(typeof response.body.meta.request_id, 'string');
  if (field !== undefined) {
    const named = response.body.error.details.fields[0].field as string;
    if (typeof field === 'string') assert.equal(named, field);
    else assert.match(named, field);
  }
}

const deepBrand = (levels: number): string =>
  `{"topic":"compound interest","brand":${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}`;
const deepArrays = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const invalidUtf8 = Buffer.concat([
  Buffer.from('{"topic":"money '),
  Buffer.from([0xff, 0xfe, 0xc3]),
  Buffer.from(' tips"}'),
]);

void describe('hostile bodies on POST /api/v1/generate-and-post', () => {
  void test('a brand object nested 100,000 levels deep is 400 naming where it got too deep', async () => {
    const response = await post('/api/v1/generate-and-post', deepBrand(100_000));
    assertRefused(response, 400, 'INPUT_INVALID', /deeper than 32 levels.*flatter/, /^brand(\.a){31}$/);
    await assertNothingCharged();
  });

  void test('a body of 200,000 nested arrays is 400', async () => {
    const response = await post('/api/v1/generate-and-post', deepArrays(200_000));
    assertRefused(response, 400, 'INPUT_INVALID', /deeper than 32 levels/, /^(\[0\]){32}$/);
    await assertNothingCharged();
  });

  void test('a body of more than 100,000 values is 413 even under the byte limit', async () => {
    const body = `{"topic":"x","keywords":[${Array.from({ length: 100_001 }, () => '0').join(',')}]}`;
    assert.ok(body.length < BODY_LIMIT);
    const response = await post('/api/v1/generate-and-post', body);
    assertRefused(response, 413, 'PAYLOAD_TOO_LARGE', /more than 100000 JSON values.*fewer/);
    await assertNothingCharged();
  });

  void test('a topic containing \\u0000 is 400 naming the field and the character', async () => {
    const response = await post('/api/v1/generate-and-post', JSON.stringify({ topic: 'tea\u0000time' }));
    assertRefused(
      response,
      400,
      'INPUT_INVALID',
      /topic contains a NUL character.*position 3.*remove it/,
      'topic',
    );
    await assertNothingCharged();
  });

  void test('a topic containing a lone surrogate \\ud800 is 400 naming the field', async () => {
    const response = await post('/api/v1/generate-and-post', '{"topic":"tea \\ud800 time"}');
    assertRefused(response, 400, 'INPUT_INVALID', /unpaired UTF-16 surrogate \(\\ud800\)/, 'topic');
    const low = await post('/api/v1/generate-and-post', '{"brand":{"name":"\\udfff"},"topic":"x"}');
    assertRefused(low, 400, 'INPUT_INVALID', /surrogate \(\\udfff\)/, 'brand.name');
    await assertNothingCharged();
  });

  void test('unstorable text in a field name is refused too, and so are prototype keys', async () => {
    const nul = await post('/api/v1/generate-and-post', '{"topic":"x","brand":{"na\\u0000me":"A"}}');
    assertRefused(nul, 400, 'INPUT_INVALID', /has a name that contains a NUL/, 'brand["na\\u0000me"]');
    const proto = await post('/api/v1/generate-and-post', '{"topic":"x","brand":{"__proto__":{"x":1}}}');
    assertRefused(proto, 400, 'INPUT_INVALID', /brand\.__proto__ is not an allowed field name/);
    await assertNothingCharged();
  });

  void test('a body with invalid UTF-8 bytes is 400, never decoded into replacement characters', async () => {
    const response = await post('/api/v1/generate-and-post', invalidUtf8);
    assertRefused(response, 400, 'INPUT_INVALID', /not valid UTF-8.*encoded as UTF-8/);
    await assertNothingCharged();
  });

  void test('malformed, empty and non-JSON bodies are 400 with what to send', async () => {
    assertRefused(
      await post('/api/v1/generate-and-post', '{"topic": "cut'),
      400,
      'INPUT_INVALID',
      /not valid JSON \(.+\)\. Send one JSON object/,
    );
    assertRefused(
      await post('/api/v1/generate-and-post', '{"topic":"raw\u0000byte"}'),
      400,
      'INPUT_INVALID',
      /not valid JSON \(Bad control character/,
    );
    assertRefused(await post('/api/v1/generate-and-post', ''), 400, 'INPUT_INVALID', /body is empty/);
    assertRefused(
      await post('/api/v1/generate-and-post', 'topic=tea', { 'content-type': 'text/plain' }),
      400,
      'INPUT_INVALID',
      /Content-Type: application\/json/,
    );
    await assertNothingCharged();
  });

  void test('well-formed text still passes: emoji (surrogate pairs), accents and a UTF-8 byte-order mark', async () => {
    const text = JSON.stringify({ topic: 'coffee ☕ and crêpes 😀 explained', dry_run: true });
    const response = await post(
      '/api/v1/generate-and-post',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
    );
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.data.normalized_request.topic, 'coffee ☕ and crêpes 😀 explained');
    await assertNothingCharged();
  });
});

void describe('the same guards on every JSON route', () => {
  const routes = [
    '/api/v1/batch',
    '/api/v1/jobs',
    '/api/v1/videos/magic',
    '/api/v1/blog-to-video',
    '/api/v1/videos/news',
    '/api/v1/clipper/vidsite',
    '/api/v1/transcribe',
    '/api/v1/captions/render',
    '/api/stock-clips/extlib/single',
    '/api/stock-clips/presigned-url',
  ];

  void test('deep, unstorable and non-UTF-8 bodies are refused in the envelope on each route', async () => {
    for (const route of routes) {
      assertRefused(await post(route, deepBrand(100_000)), 400, 'INPUT_INVALID', /deeper than 32/);
      assertRefused(await post(route, deepArrays(200_000)), 400, 'INPUT_INVALID', /deeper than 32/);
      assertRefused(await post(route, '{"topic":"a\\u0000"}'), 400, 'INPUT_INVALID', /NUL/, 'topic');
      assertRefused(await post(route, '{"title":"\\ud800"}'), 400, 'INPUT_INVALID', /surrogate/, 'title');
      assertRefused(await post(route, invalidUtf8), 400, 'INPUT_INVALID', /UTF-8/);
    }
    await assertNothingCharged();
  });

  void test('the legacy POST /api/clip-video refuses them in its older shape', async () => {
    const cases: [Buffer | string, RegExp][] = [
      [deepBrand(100_000), /deeper than 32/],
      ['{"video_url":"https://cdn.example.com/a.mp4","user_id":"u\\u0000"}', /user_id contains a NUL/],
      ['{"video_url":"https://cdn.example.com/\\ud800.mp4","user_id":"u"}', /video_url contains an unpaired/],
      [invalidUtf8, /UTF-8/],
    ];
    for (const [body, message] of cases) {
      const response = await post('/api/clip-video', body);
      assert.equal(response.status, 400, response.text);
      assert.deepEqual(Object.keys(response.body).sort(), ['error', 'message', 'success']);
      assert.equal(response.body.error, 'INPUT_INVALID');
      assert.match(response.body.message, message);
    }
    await assertNothingCharged();
  });

  void test('NUL in a path parameter or a query value is 400 naming it; a path that is not UTF-8 too', async () => {
    const job = await service.call('GET', '/api/v1/jobs/job_%00');
    assert.equal(job.status, 400, job.text);
    assert.equal(job.body.error.code, 'INPUT_INVALID');
    assert.equal(job.body.error.details.fields[0].field, 'jobId');
    assert.match(job.body.error.message, /jobId contains a NUL/);

    const cancel = await service.call('POST', '/api/v1/jobs/%00/cancel', { body: {} });
    assert.equal(cancel.status, 400, cancel.text);

    const search = await service.call('GET', '/api/stock-clips?q=%00');
    assert.equal(search.status, 400, search.text);
    assert.equal(search.body.error.details.fields[0].field, 'q');

    const clip = await service.call('GET', '/api/stock-clips/%00');
    assert.equal(clip.status, 400, clip.text);

    for (const path of ['/api/v1/jobs/job_%FF', '/api/v1/jobs/job_%ED%A0%80']) {
      const badUrl = await service.call('GET', path);
      assert.equal(badUrl.status, 400, badUrl.text);
      assert.equal(badUrl.body.success, false);
      assert.equal(badUrl.body.error.code, 'INPUT_INVALID');
      assert.match(badUrl.body.error.message, /percent-escapes must encode UTF-8/);
      assert.equal(typeof badUrl.body.meta.request_id, 'string');
    }
    await assertNothingCharged();
  });
});

/**
 * Sends a whole body over a raw socket before reading anything, as many HTTP clients do, and reports the
 * answer's status line, or the socket error that lost it.
 */
function uploadThenRead(bytes: number, chunked: boolean): Promise<string> {
  const url = new URL(service.url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port), allowHalfOpen: true });
    const received: Buffer[] = [];
    socket.pause();
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(`socket error ${error.code}`));
    socket.on('end', () => resolve(Buffer.concat(received).toString('latin1').split('\r\n')[0]!));
    const head = [
      'POST /api/v1/generate-and-post HTTP/1.1',
      `host: ${url.host}`,
      'content-type: application/json',
      `authorization: Bearer ${service.account.live_key}`,
      `idempotency-key: big-${randomUUID()}`,
      chunked ? 'transfer-encoding: chunked' : `content-length: ${bytes}`,
      '',
      '',
    ].join('\r\n');
    const piece = Buffer.alloc(256 * 1024, 0x20);
    const frame = chunked
      ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
      : piece;
    let sent = 0;
    const writeMore = (): void => {
      while (sent < bytes) {
        sent += piece.length;
        if (!socket.write(frame)) return void socket.once('drain', writeMore);
      }
      socket.end(chunked ? '0\r\n\r\n' : '', () => socket.resume());
    };
    socket.write(head, writeMore);
  });
}

void describe('a body over the byte limit', () => {
  void test('a 10 MB body always gets its 413, even when the client reads only after sending it all', async () => {
    const tally = new Map<string, number>();
    for (let round = 0; round < 12; round++) {
      for (const chunked of [false, true]) {
        const line = await uploadThenRead(10 * 1024 * 1024, chunked);
        const key = `${chunked ? 'chunked' : 'content-length'}: ${line}`;
        tally.set(key, (tally.get(key) ?? 0) + 1);
      }
    }
    assert.deepEqual(Object.fromEntries(tally), {
      'content-length: HTTP/1.1 413 Payload Too Large': 12,
      'chunked: HTTP/1.1 413 Payload Too Large': 12,
    });
  });

  void test('the 413 is the envelope with the limit, over fetch and node:http alike', async () => {
    const body = Buffer.alloc(10 * 1024 * 1024, 0x20);
    for (let i = 0; i < 6; i++) {
      assertRefused(
        await post('/api/v1/generate-and-post', body),
        413,
        'PAYLOAD_TOO_LARGE',
        /1048576-byte limit/,
      );
      const response = await fetch(`${service.url}/api/v1/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${service.account.live_key}` },
        body,
      });
      assert.equal(response.status, 413);
      assert.equal(((await response.json()) as any).error.code, 'PAYLOAD_TOO_LARGE');
    }
    await assertNothingCharged();
  });
});
