import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { productModes } from '../src/modes/index.ts';
import { UrlGuard } from '../src/platform/net/url-guard.ts';
import { userUrl, userUrlProblem } from '../src/platform/net/user-url.ts';
import { startTestService, type TestResponse, type TestService } from './support/test-service.ts';

// Issue 8 item 10: every user-supplied URL field is held to the outbound guard's rules when the request is
// validated, fetched or not (spec 1 §7: non-https or internal URLs are 400 INPUT_INVALID).

/** [url, what the refusal says] with the loopback switch off. */
const refused: [string, RegExp][] = [
  [
    'https://169.254.169.254/latest/meta-data/',
    /169\.254\.169\.254 is an IP address in the cloud-metadata range/,
  ],
  ['https://127.0.0.1', /127\.0\.0\.1 is an IP address in the loopback range/],
  ['https://127.0.0.1:8443/admin', /loopback range/],
  ['https://[fd00::1]/', /fd00::1 is an IP address in the unique-local range/],
  ['https://[::1]/', /::1 is an IP address in the loopback range/],
  ['https://[::ffff:169.254.169.254]/', /cloud-metadata range/],
  ['https://[fe80::1]/', /link-local range/],
  ['https://10.0.0.1/', /private range/],
  ['https://192.168.1.1/', /private range/],
  ['https://100.100.100.200/', /cloud-metadata range/],
  ['https://0.0.0.0/', /unspecified range/],
  ['https://2130706433/', /127\.0\.0\.1 is an IP address in the loopback range/],
  ['https://0x7f.1/', /127\.0\.0\.1 is an IP address/],
  ['https://0251.0376.0251.0376/', /169\.254\.169\.254 is an IP address/],
  ['https://8.8.8.8/', /8\.8\.8\.8 is an IP address; use a public host name/],
  ['https://metadata.google.internal/computeMetadata/v1/', /"metadata\.google\.internal" is an internal/],
  ['https://metadata.google.internal./', /"metadata\.google\.internal" is an internal/],
  ['https://metadata/', /"metadata" is an internal or single-label name/],
  ['https://localhost:8080/', /"localhost" is an internal/],
  ['https://LOCALHOST/', /"localhost" is an internal/],
  ['https://api.localhost/', /internal/],
  ['https://printer.local/', /internal/],
  ['https://kubernetes.default.svc/', /internal/],
  ['https://router.home.arpa/', /internal/],
  ['https://files.corp/', /internal/],
  ['http://example.com/logo.png', /scheme "http" is not allowed; use https/],
  ['ftp://example.com/clip.mp4', /scheme "ftp" is not allowed/],
  ['file:///etc/passwd', /scheme "file" is not allowed/],
  ['https://user:secret@example.com/', /must not contain a user name or password/],
  ['https://exa mple.com/', /whitespace or control characters/],
  ['not a url', /whitespace or control/],
  ['example.com/logo.png', /not a valid absolute URL/],
  [`https://example.com/${'a'.repeat(2100)}`, /longer than 2048 characters/],
];

const accepted = [
  'https://example.com/logo.png',
  'https://cdn.example.com:8443/clips/a.mp4?sig=abc#t=3',
  'https://blog.example.org/2024/05/why-bread-rises.html',
  'https://xn--bcher-kva.de/',
  'https://acme.co.uk/about',
];

// Loopback is what tests' fixture servers use; the switch lets exactly that through, nothing else.
const loopbackOnly = ['http://127.0.0.1:8080/logo.png', 'https://localhost/x', 'http://[::1]:9/a.mp4'];
const refusedEvenWithSwitch = [
  'https://169.254.169.254/',
  'https://10.0.0.1/',
  'https://[fd00::1]/',
  'https://metadata.google.internal/',
  'http://example.com/',
  'http://10.0.0.1/',
];

void describe('userUrl: the guard rules every user URL field meets', () => {
  const strict = new UrlGuard({ allowLoopback: false });
  const loopback = new UrlGuard({ allowLoopback: true });
  after(async () => {
    await strict.close();
    await loopback.close();
  });

  for (const [url, message] of refused) {
    void test(`refuses ${url.slice(0, 60)}`, () => {
      const parsed = strict.validating(() => userUrl.safeParse(url));
      assert.equal(parsed.success, false);
      assert.match(parsed.error.issues[0]!.message, message);
    });
  }

  void test('accepts public https URLs on names, any port', () => {
    for (const url of accepted) {
      assert.equal(strict.validating(() => userUrl.safeParse(url)).success, true, url);
      assert.equal(userUrlProblem(url), undefined, url);
    }
  });

  void test('the loopback switch lets loopback through and nothing else', () => {
    for (const url of loopbackOnly) {
      assert.equal(loopback.validating(() => userUrl.safeParse(url)).success, true, url);
      assert.notEqual(
        strict.validating(() => userUrlProblem(url)),
        undefined,
        url,
      );
    }
    for (const url of refusedEvenWithSwitch) {
      assert.notEqual(
        loopback.validating(() => userUrlProblem(url)),
        undefined,
        url,
      );
    }
  });

  void test('outside a guard scope the strict rules apply', () => {
    for (const url of loopbackOnly) assert.match(userUrlProblem(url) ?? '', /loopback|internal|scheme/, url);
  });

  void test('a non-string is refused by type', () => {
    assert.equal(userUrl.safeParse(42).success, false);
  });
});

void describe('URL fields of the product routes', () => {
  let production: TestService;
  let withSwitch: TestService;
  let startBalance: number;

  before(async () => {
    [production, withSwitch] = await Promise.all([
      startTestService({ modes: productModes, worker: false, env: { REELSMITH_ALLOW_LOOPBACK_URLS: '0' } }),
      startTestService({ modes: productModes, worker: false }),
    ]);
    startBalance = await balance(production);
  });
  after(async () => {
    await Promise.all([production.stop(), withSwitch.stop()]);
  });

  async function balance(service: TestService): Promise<number> {
    return (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents as number;
  }

  function post(service: TestService, path: string, body: Record<string, unknown>): Promise<TestResponse> {
    return service.call('POST', path, { body, headers: { 'idempotency-key': `urls-${randomUUID()}` } });
  }

  function assertFieldRefused(response: TestResponse, field: string, message: RegExp): void {
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.error.code, 'INPUT_INVALID');
    const issue = (response.body.error.details.fields as { field: string; message: string }[]).find(
      (f) => f.field === field,
    );
    assert.ok(issue, `no issue for ${field}: ${response.text}`);
    assert.match(issue.message, message);
    assert.match(response.body.error.message, new RegExp(field.replace(/[[\]]/g, '\\$&')));
  }

  void test('brand.website_url refuses every internal form the issue found, and charges nothing', async () => {
    const forms: [string, RegExp][] = [
      ['https://169.254.169.254/latest/meta-data/iam/', /cloud-metadata range/],
      ['https://127.0.0.1', /loopback range/],
      ['https://[fd00::1]', /unique-local range/],
      ['https://metadata.google.internal', /internal/],
      ['http://acme.example.com', /use https/],
    ];
    for (const [url, message] of forms) {
      const response = await post(production, '/api/v1/generate-and-post', {
        topic: 'compound interest',
        brand: { name: 'Acme', website_url: url },
      });
      assertFieldRefused(response, 'brand.website_url', message);
    }
    assert.equal(await balance(production), startBalance);
  });

  void test('every URL field of every route is checked, fetched or not', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [
        '/api/v1/generate-and-post',
        { topic: 'x', brand: { logo_url: 'https://10.1.2.3/logo.png' } },
        'brand.logo_url',
      ],
      ['/api/v1/generate-and-post', { topic: 'x', website_url: 'https://localhost/' }, 'website_url'],
      [
        '/api/v1/generate-and-post',
        { topic: 'x', asset_urls: ['https://cdn.example.com/a.mp4', 'https://[::1]/b.mp4'] },
        'asset_urls[1]',
      ],
      ['/api/v1/blog-to-video', { article_url: 'https://intranet.corp/post' }, 'article_url'],
      [
        '/api/v1/blog-to-video',
        { article_title: 'x', asset_urls: ['https://192.168.0.9/a.mp4'] },
        'asset_urls[0]',
      ],
      ['/api/v1/videos/news', { sourceUrl: 'https://metadata.google.internal/' }, 'sourceUrl'],
      [
        '/api/v1/videos/news',
        { sourceUrl: 'https://news.example.com/a', backgroundMusicUrl: 'https://169.254.169.254/m.mp3' },
        'backgroundMusicUrl',
      ],
      ['/api/v1/transcribe', { media_url: 'https://[fd00::1]/talk.mp3' }, 'media_url'],
      [
        '/api/v1/captions/render',
        { video_url: 'https://100.100.100.200/v.mp4', transcript_job_id: 'job_x' },
        'video_url',
      ],
      [
        '/api/v1/generate-and-post',
        { topic: 'x', webhook_url: 'https://169.254.169.254/hook' },
        'webhook_url',
      ],
    ];
    for (const [path, body, field] of cases) {
      assertFieldRefused(await post(production, path, body), field, /IP address|internal|https/);
    }
    const legacy = await post(production, '/api/clip-video', {
      video_url: 'https://169.254.169.254/video.mp4',
      user_id: production.account.account_id,
      video_type: 1,
    });
    assert.equal(legacy.status, 400, legacy.text);
    assert.equal(legacy.body.error, 'INPUT_INVALID');
    assert.match(legacy.body.message, /video_url .*cloud-metadata range/);

    assert.equal(await balance(production), startBalance);
    const jobs = await production.runtime.database.db
      .selectFrom('jobs')
      .select('id')
      .where('account_id', '=', production.account.account_id)
      .execute();
    assert.deepEqual(jobs, []);
  });

  void test('a public website_url passes: it is recorded, not fetched', async () => {
    const dryRun = await post(production, '/api/v1/generate-and-post', {
      topic: 'compound interest',
      brand: { name: 'Acme', website_url: 'https://acme.example.com/about' },
      dry_run: true,
    });
    assert.equal(dryRun.status, 200, dryRun.text);
    assert.equal(dryRun.body.data.normalized_request.brand.website_url, 'https://acme.example.com/about');
  });

  void test('with REELSMITH_ALLOW_LOOPBACK_URLS=1 loopback passes and every other internal form is still refused', async () => {
    const loop = await post(withSwitch, '/api/v1/generate-and-post', {
      topic: 'compound interest',
      brand: { website_url: 'http://127.0.0.1:9/' },
      dry_run: true,
    });
    assert.equal(loop.status, 200, loop.text);
    for (const url of refusedEvenWithSwitch) {
      const response = await post(withSwitch, '/api/v1/generate-and-post', {
        topic: 'compound interest',
        brand: { website_url: url },
        dry_run: true,
      });
      assertFieldRefused(response, 'brand.website_url', /IP address|internal|https/);
    }
  });
});
