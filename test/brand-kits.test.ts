import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import sharp from 'sharp';
import { deltaE2000 } from '../src/brand/colors/contrast.ts';
import type { CreatedAccount } from '../src/platform/accounts/accounts.ts';
import { ApiError } from '../src/platform/errors.ts';
import { BRAND_SITE_DECLARED, BrandSiteServer } from './support/brand-site-server.ts';
import { call, startTestService, type TestResponse, type TestService } from './support/test-service.ts';

// Saved brand kits (spec 2 §2.4, §4.3) on the real service and database: every input rule, paging, reads,
// updates and deletes, idempotency, well-known domains, logos normalized from a loopback server, and kits
// built from the fixture website.

const BRANDS = '/api/v1/b2b/brands';
const RED = '#D0021B';

let service: TestService;
let logos: http.Server;
let logoBase: string;
let site: BrandSiteServer;

/** A red disc on a white box, 400×300: the box must go, the margins be trimmed, leaving a 160 px disc. */
async function discOnWhite(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">
    <rect width="400" height="300" fill="#ffffff"/><circle cx="200" cy="150" r="80" fill="${RED}"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function tinySquare(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 40, channels: 4, background: RED } })
    .png()
    .toBuffer();
}

before(async () => {
  service = await startTestService();
  const files: Record<string, { type: string; body: Buffer }> = {
    '/disc.png': { type: 'image/png', body: await discOnWhite() },
    '/tiny.png': { type: 'image/png', body: await tinySquare() },
    '/not-an-image.png': { type: 'image/png', body: Buffer.from('this is plain text, not a PNG') },
  };
  logos = http.createServer((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) return res.writeHead(404).end('missing');
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body);
  });
  await new Promise<void>((resolve) => logos.listen(0, '127.0.0.1', resolve));
  logoBase = `http://127.0.0.1:${(logos.address() as AddressInfo).port}`;
  site = await BrandSiteServer.start();
});

after(async () => {
  await site?.close();
  await new Promise((resolve) => logos?.close(resolve));
  await service?.stop();
});

function post(body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) {
  return service.call('POST', BRANDS, { body, ...options });
}

function as(account: CreatedAccount, sandbox = false) {
  const key = sandbox ? account.sandbox_key : account.live_key;
  return (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    call(service.url, key, method, path, {
      ...(body !== undefined ? { body } : {}),
      ...(headers ? { headers } : {}),
    });
}

function fieldsOf(response: TestResponse): string[] {
  return (response.body?.error?.details?.fields ?? []).map((f: { field: string }) => f.field);
}

async function expectInvalid(body: unknown, field: string): Promise<void> {
  const response = await post(body);
  assert.equal(response.status, 400, `${JSON.stringify(body).slice(0, 120)} → ${response.text}`);
  assert.equal(response.body.error.code, 'INPUT_INVALID');
  assert.ok(
    fieldsOf(response).includes(field),
    `expected ${field} in ${JSON.stringify(fieldsOf(response))} for ${JSON.stringify(body).slice(0, 120)}`,
  );
}

/** Decodes a PNG the service links to: its size and the RGBA of a pixel. */
async function fetchPng(url: string) {
  const response = await fetch(url);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'image/png');
  const { data, info } = await sharp(Buffer.from(await response.arrayBuffer()))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixel = (x: number, y: number) => {
    const i = (y * info.width + x) * 4;
    return { r: data[i]!, g: data[i + 1]!, b: data[i + 2]!, a: data[i + 3]! };
  };
  return { width: info.width, height: info.height, pixel };
}

describe('input rules (spec 2 §2.4): each violation is a 400 naming the field', () => {
  const long = (n: number) => 'x'.repeat(n);
  const icp = { roles: ['CFO'], pains: ['late books'] };
  const cases: [string, Record<string, unknown>, string][] = [
    ['name or website_url is required', {}, 'name'],
    ['name is 1-80 characters', { name: '' }, 'name'],
    ['name longer than 80', { name: long(81) }, 'name'],
    ['name that is blank', { name: '   ' }, 'name'],
    ['brand_id empty', { name: 'A', brand_id: '' }, 'brand_id'],
    ['brand_id longer than 128', { name: 'A', brand_id: long(129) }, 'brand_id'],
    ['brand_id starting with punctuation', { name: 'A', brand_id: '-acme' }, 'brand_id'],
    ['brand_id with a space', { name: 'A', brand_id: 'acme inc' }, 'brand_id'],
    ['customer_id with a slash', { name: 'A', customer_id: 'cust/1' }, 'customer_id'],
    ['customer_id longer than 128', { name: 'A', customer_id: long(129) }, 'customer_id'],
    ['website_url shorter than 3', { website_url: 'ab' }, 'website_url'],
    ['website_url longer than 2048', { website_url: `acme.com/${long(2045)}` }, 'website_url'],
    ['website_url of another scheme', { website_url: 'ftp://acme.com' }, 'website_url'],
    ['website_url at a private address', { website_url: 'https://10.1.2.3/' }, 'website_url'],
    ['website_url of an internal name', { website_url: 'intranet' }, 'website_url'],
    ['website_url with credentials', { website_url: 'https://user:pw@acme.com/' }, 'website_url'],
    ['website_url that is not a string', { website_url: 42 }, 'website_url'],
    ['refresh with name', { name: 'A', website_url: 'acme.com', refresh: true }, 'refresh'],
    ['refresh without website_url', { name: 'A', refresh: true }, 'refresh'],
    ['refresh not a boolean', { website_url: 'acme.com', refresh: 'yes' }, 'refresh'],
    ['confirm_authorized not a boolean', { name: 'A', confirm_authorized: 'true' }, 'confirm_authorized'],
    ['logo_url over plain http', { name: 'A', logo_url: 'http://cdn.acme.com/logo.png' }, 'logo_url'],
    ['logo_url of a GIF', { name: 'A', logo_url: 'https://cdn.acme.com/logo.gif' }, 'logo_url'],
    [
      'logo_url longer than 2048',
      { name: 'A', logo_url: `https://cdn.acme.com/${long(2040)}.png` },
      'logo_url',
    ],
    ['logo_url at an IP literal', { name: 'A', logo_url: 'https://192.168.1.5/logo.png' }, 'logo_url'],
    ['primary_color by name', { name: 'A', primary_color: 'red' }, 'primary_color'],
    ['accent_color of five digits', { name: 'A', accent_color: '#12345' }, 'accent_color'],
    ['font_family of one character', { name: 'A', font_family: 'A' }, 'font_family'],
    ['font_family longer than 60', { name: 'A', font_family: long(61) }, 'font_family'],
    ['font_family with CSS in it', { name: 'A', font_family: 'Inter; color: red' }, 'font_family'],
    ['style not in the enum', { name: 'A', style: 'fancy' }, 'style'],
    ['profile not an object', { name: 'A', profile: 'b2b' }, 'profile'],
    ['unknown profile field', { name: 'A', profile: { mood: 'x' } }, 'profile.mood'],
    ['industry empty', { name: 'A', profile: { industry: '' } }, 'profile.industry'],
    ['industry longer than 80', { name: 'A', profile: { industry: long(81) } }, 'profile.industry'],
    ['icp without roles', { name: 'A', profile: { icp: { pains: ['x'] } } }, 'profile.icp.roles'],
    ['icp without pains', { name: 'A', profile: { icp: { roles: ['x'] } } }, 'profile.icp.pains'],
    ['icp with no roles', { name: 'A', profile: { icp: { ...icp, roles: [] } } }, 'profile.icp.roles'],
    [
      'icp with 11 roles',
      { name: 'A', profile: { icp: { ...icp, roles: Array(11).fill('r') } } },
      'profile.icp.roles',
    ],
    [
      'a role longer than 80',
      { name: 'A', profile: { icp: { ...icp, roles: [long(81)] } } },
      'profile.icp.roles[0]',
    ],
    [
      'company_size longer than 40',
      { name: 'A', profile: { icp: { ...icp, company_size: long(41) } } },
      'profile.icp.company_size',
    ],
    [
      '11 regions',
      { name: 'A', profile: { icp: { ...icp, regions: Array(11).fill('EU') } } },
      'profile.icp.regions',
    ],
    [
      'a region longer than 60',
      { name: 'A', profile: { icp: { ...icp, regions: [long(61)] } } },
      'profile.icp.regions[0]',
    ],
    [
      '11 pains',
      { name: 'A', profile: { icp: { ...icp, pains: Array(11).fill('p') } } },
      'profile.icp.pains',
    ],
    [
      'a pain longer than 160',
      { name: 'A', profile: { icp: { ...icp, pains: [long(161)] } } },
      'profile.icp.pains[0]',
    ],
    ['offer longer than 240', { name: 'A', profile: { offer: long(241) } }, 'profile.offer'],
    ['tone not in the enum', { name: 'A', profile: { tone: 'angry' } }, 'profile.tone'],
    [
      '21 proof points',
      { name: 'A', profile: { proof_points: Array(21).fill({ claim: 'c' }) } },
      'profile.proof_points',
    ],
    [
      'a claim longer than 240',
      { name: 'A', profile: { proof_points: [{ claim: long(241) }] } },
      'profile.proof_points[0].claim',
    ],
    [
      'a proof source over http',
      { name: 'A', profile: { proof_points: [{ claim: 'c', source_url: 'http://a.com/' }] } },
      'profile.proof_points[0].source_url',
    ],
    [
      '31 banned topics',
      { name: 'A', profile: { banned_topics: Array(31).fill('t') } },
      'profile.banned_topics',
    ],
    [
      'a banned topic longer than 80',
      { name: 'A', profile: { banned_topics: [long(81)] } },
      'profile.banned_topics[0]',
    ],
    ['cta without text', { name: 'A', profile: { cta: { url: 'https://acme.com/' } } }, 'profile.cta.text'],
    ['cta text longer than 160', { name: 'A', profile: { cta: { text: long(161) } } }, 'profile.cta.text'],
    [
      'cta url that is script',
      { name: 'A', profile: { cta: { text: 'Go', url: 'javascript:alert(1)' } } },
      'profile.cta.url',
    ],
    [
      'presenter without avatar_id',
      { name: 'A', profile: { default_presenter: { voice_id: 'v' } } },
      'profile.default_presenter.avatar_id',
    ],
    [
      'avatar_id longer than 64',
      { name: 'A', profile: { default_presenter: { avatar_id: long(65) } } },
      'profile.default_presenter.avatar_id',
    ],
    [
      'voice_id longer than 100',
      { name: 'A', profile: { default_presenter: { avatar_id: 'a', voice_id: long(101) } } },
      'profile.default_presenter.voice_id',
    ],
    [
      'engine not in the enum',
      { name: 'A', profile: { default_presenter: { avatar_id: 'a', engine: 'avatar_x' } } },
      'profile.default_presenter.engine',
    ],
    ['no languages', { name: 'A', profile: { languages: [] } }, 'profile.languages'],
    [
      '6 languages',
      { name: 'A', profile: { languages: ['en', 'de', 'fr', 'es', 'it', 'nl'] } },
      'profile.languages',
    ],
    [
      'a language that is not a code',
      { name: 'A', profile: { languages: ['english'] } },
      'profile.languages[0]',
    ],
    ['an empty topic pool', { name: 'A', profile: { topic_pool: [] } }, 'profile.topic_pool'],
    ['21 topics', { name: 'A', profile: { topic_pool: Array(21).fill('t') } }, 'profile.topic_pool'],
    ['a topic longer than 120', { name: 'A', profile: { topic_pool: [long(121)] } }, 'profile.topic_pool[0]'],
    ['an unknown field', { name: 'A', colour: '#000000' }, 'colour'],
  ];
  for (const [title, body, field] of cases) test(title, () => expectInvalid(body, field));

  test('a body that is not an object', () => expectInvalid([{ name: 'A' }], '(body)'));

  test('every limit at its edge is accepted, and the profile comes back as sent', async () => {
    const profile = {
      industry: long(80),
      icp: {
        roles: Array.from({ length: 10 }, (_, i) => `${i}${long(79)}`),
        company_size: long(40),
        regions: Array(10).fill(long(60)),
        pains: Array(10).fill(long(160)),
      },
      offer: long(240),
      tone: 'technical',
      proof_points: Array.from({ length: 20 }, (_, i) => ({
        claim: `${String(i).padStart(2, '0')}${long(238)}`,
        source_url: 'https://acme-widgets.com/case',
      })),
      banned_topics: Array(30).fill(long(80)),
      cta: { text: long(160), url: 'https://acme-widgets.com/demo' },
      default_presenter: { avatar_id: long(64), voice_id: long(100), engine: 'avatar_iv' },
      languages: ['en', 'de', 'fr', 'es', 'it'],
      topic_pool: Array(20).fill(long(120)),
    };
    const response = await post({
      brand_id: `A${'b'.repeat(127)}`,
      customer_id: 'c.1:x_y-z',
      name: long(80),
      font_family: long(60),
      style: 'minimal',
      primary_color: '#a1b2c3',
      profile,
    });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.body.data.profile, profile);
    assert.equal(response.body.data.primary_color, '#A1B2C3');
  });
});

describe('manual kits', () => {
  test('a name alone makes a kit: default id, colours and font, locked name, revision 1', async () => {
    const response = await post({ name: 'Acme Widgets' });
    assert.equal(response.status, 201, response.text);
    const kit = response.body.data;
    assert.match(kit.brand_id, /^brand_[0-9a-f]{24}$/);
    assert.equal(kit.name, 'Acme Widgets');
    assert.equal(kit.source, 'manual');
    assert.equal(kit.customer_id, null);
    assert.equal(kit.logo, null);
    assert.equal(kit.normalized_logo_url, null);
    assert.deepEqual(kit.kit.colors.provenance, { primary: 'default', accent: 'default' });
    assert.equal(kit.kit.font.source, 'default');
    assert.deepEqual(kit.kit.logo_policy, { show_at: [], persistent: false });
    assert.equal(kit.kit.style_source, 'default');
    assert.equal(kit.style, 'auto');
    assert.deepEqual(kit.locked_fields, ['name']);
    assert.deepEqual(kit.fields_auto, []);
    assert.equal(kit.revision, 1);
    assert.equal(kit.stale, false);
    assert.equal(kit.crawled_at, null);
    assert.equal(kit.autogen, null);
    assert.equal(kit.reused, false);
    assert.equal(kit.refreshed, false);
    assert.deepEqual(kit.authorized_by.auth_type, 'api_key');
    assert.equal(kit.authorized_by.key_mode, 'live');
    assert.match(kit.authorized_by.user_id, /^key_/);
    assert.deepEqual(response.body.meta.key_mode, 'live');
    assert.equal(response.body.success, true);
  });

  test('the derived text colours are readable on what they sit on', async () => {
    const { body } = await post({ name: 'Contrast', primary_color: '#FFDD00', accent_color: '#00AAFF' });
    const { contrastRatio } = await import('../src/brand/colors/contrast.ts');
    const colors = body.data.kit.colors;
    assert.deepEqual(colors.provenance, { primary: 'provided', accent: 'provided' });
    assert.ok(contrastRatio(colors.text, colors.background) >= 4.5);
    assert.ok(contrastRatio(colors.text, colors.surface) >= 4.5);
    assert.ok(contrastRatio(colors.on_primary, colors.primary) >= 4.5);
    assert.ok(contrastRatio(colors.on_accent, colors.accent) >= 4.5);
  });

  test('a brand_id already used in the account is a 409', async () => {
    assert.equal((await post({ name: 'One', brand_id: 'dup-id' })).status, 201);
    const again = await post({ name: 'Two', brand_id: 'dup-id' });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'RESOURCE_ALREADY_EXISTS');
    assert.deepEqual(fieldsOf(again), ['brand_id']);
  });

  test('a logo on a white box is normalized: box removed, margins trimmed, measured, colours taken from it', async () => {
    const response = await post({ name: 'Disc Co', logo_url: `${logoBase}/disc.png` });
    assert.equal(response.status, 201, response.text);
    const kit = response.body.data;
    assert.equal(kit.logo_url, `${logoBase}/disc.png`);
    assert.equal(kit.logo.source_format, 'png');
    assert.equal(kit.logo.background, 'white_removed');
    assert.equal(kit.logo.trimmed, true);
    assert.ok(
      Math.abs(kit.logo.width - 160) <= 2 && Math.abs(kit.logo.height - 160) <= 2,
      JSON.stringify(kit.logo),
    );
    assert.equal(kit.logo.aspect_class, 'icon');
    assert.ok(deltaE2000(kit.primary_color, RED) <= 5, kit.primary_color);
    assert.equal(kit.kit.colors.provenance.primary, 'extracted');
    assert.ok(kit.fields_auto.includes('primary_color'));
    assert.deepEqual(kit.kit.logo_policy, { show_at: ['intro', 'outro'], persistent: false });

    const png = await fetchPng(kit.normalized_logo_url);
    assert.equal(png.width, kit.logo.width);
    assert.equal(png.height, kit.logo.height);
    for (const [x, y] of [
      [0, 0],
      [png.width - 1, 0],
      [0, png.height - 1],
      [png.width - 1, png.height - 1],
    ])
      assert.equal(png.pixel(x!, y!).a, 0, `corner ${x},${y} is transparent`);
    const centre = png.pixel(png.width >> 1, png.height >> 1);
    assert.equal(centre.a, 255);
    assert.ok(centre.r > 180 && centre.g < 40 && centre.b < 60, JSON.stringify(centre));

    // The link is stable: the kit answers the same one on every read.
    const read = await service.call('GET', `${BRANDS}/${kit.brand_id}`);
    assert.equal(read.body.data.normalized_logo_url, kit.normalized_logo_url);
  });

  test('a logo under 64 px is LOGO_TOO_SMALL; bytes that are no image, or a missing file, LOGO_UNREADABLE', async () => {
    const small = await post({ name: 'Tiny', logo_url: `${logoBase}/tiny.png` });
    assert.equal(small.status, 422);
    assert.equal(small.body.error.code, 'LOGO_TOO_SMALL');
    for (const path of ['/not-an-image.png', '/missing.png']) {
      const bad = await post({ name: 'Bad', logo_url: `${logoBase}${path}` });
      assert.equal(bad.status, 422, bad.text);
      assert.equal(bad.body.error.code, 'LOGO_UNREADABLE');
    }
  });

  test('a Google Fonts family gets its stylesheet; another name falls back to the default', async () => {
    const google = (await post({ name: 'F', font_family: 'poppins' })).body.data;
    assert.equal(google.font_family, 'poppins');
    assert.deepEqual(google.kit.font, {
      family: 'Poppins',
      source: 'google',
      css_url: 'https://fonts.googleapis.com/css2?family=Poppins:wght@400;700&display=swap',
    });
    const other = (await post({ name: 'F', font_family: 'Helvetica Neue' })).body.data;
    assert.equal(other.kit.font.source, 'default');
    assert.equal(other.kit.font.family, 'Inter');
  });

  test('style: explicit is kept; auto is one variant per brand_id', async () => {
    const explicit = (await post({ name: 'S', style: 'split' })).body.data;
    assert.deepEqual([explicit.kit.style, explicit.kit.style_source], ['split', 'explicit']);
    const first = (await post({ name: 'S', brand_id: 'style-a', style: 'auto' })).body.data;
    assert.equal(first.kit.style_source, 'hash');
    assert.ok(['label', 'minimal', 'bold_backdrop', 'split'].includes(first.kit.style));
    await service.call('DELETE', `${BRANDS}/style-a`);
    const again = (await post({ name: 'Other name', brand_id: 'style-a', style: 'auto' })).body.data;
    assert.equal(again.kit.style, first.kit.style);
  });

  test('a sandbox key gets the kit it would make, with nothing saved', async () => {
    const response = await post(
      { name: 'Sandbox Co', brand_id: 'sandbox-preview', logo_url: `${logoBase}/disc.png` },
      { key: service.account.sandbox_key },
    );
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.meta.key_mode, 'sandbox');
    assert.equal(response.body.data.revision, 0);
    assert.equal(response.body.data.authorized_by.key_mode, 'sandbox');
    assert.equal(response.body.data.normalized_logo_url, null);
    assert.equal((await service.call('GET', `${BRANDS}/sandbox-preview`)).status, 404);
  });
});

describe('listing', () => {
  let account: CreatedAccount;
  const made: string[] = [];

  before(async () => {
    account = await service.newAccount();
    const live = as(account);
    for (let i = 0; i < 5; i++) {
      const body = {
        name: `Kit ${i}`,
        brand_id: `kit-${i}`,
        ...(i % 2 === 0 ? { customer_id: 'cust-a' } : {}),
      };
      const response = await live('POST', BRANDS, body);
      assert.equal(response.status, 201, response.text);
      made.push(response.body.data.brand_id);
    }
  });

  test('pages run newest first and the cursor continues where a page ended', async () => {
    const live = as(account);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await live('GET', `${BRANDS}?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(response.status, 200, response.text);
      assert.ok(response.body.data.items.length <= 2);
      seen.push(...response.body.data.items.map((k: { brand_id: string }) => k.brand_id));
      cursor = response.body.data.next_cursor;
      if (cursor !== null) assert.match(cursor, /^[0-9a-f]{24}$/);
      pages++;
    } while (cursor !== null);
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...made].reverse());
  });

  test('customer_id narrows the list', async () => {
    const response = await as(account)('GET', `${BRANDS}?customer_id=cust-a&limit=100`);
    assert.deepEqual(
      response.body.data.items.map((k: { brand_id: string }) => k.brand_id),
      ['kit-4', 'kit-2', 'kit-0'],
    );
    assert.equal(response.body.data.next_cursor, null);
  });

  test('a sandbox key sees an empty list; another account sees none of these kits', async () => {
    const sandbox = await as(account, true)('GET', BRANDS);
    assert.equal(sandbox.status, 200);
    assert.deepEqual(sandbox.body.data, { items: [], next_cursor: null });
    assert.equal(sandbox.body.meta.key_mode, 'sandbox');
    const other = await as(await service.newAccount())('GET', BRANDS);
    assert.deepEqual(other.body.data.items, []);
  });

  test('limit is 1-100 and a cursor is 24 hex characters', async () => {
    const live = as(account);
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=2.5'])
      assert.deepEqual(fieldsOf(await live('GET', `${BRANDS}?${query}`)), ['limit'], query);
    assert.deepEqual(fieldsOf(await live('GET', `${BRANDS}?cursor=abc`)), ['cursor']);
    assert.deepEqual(fieldsOf(await live('GET', `${BRANDS}?customer_id=a%20b`)), ['customer_id']);
    const full = await live('GET', `${BRANDS}?limit=100`);
    assert.equal(full.body.data.items.length, 5);
  });
});

describe('read, update and delete', () => {
  test('a kit is read by brand_id; unknown, another account’s or a sandbox read is 404 BRAND_NOT_FOUND', async () => {
    await post({ name: 'Readable', brand_id: 'readable' });
    const read = await service.call('GET', `${BRANDS}/readable`);
    assert.equal(read.status, 200);
    assert.equal(read.body.data.name, 'Readable');
    const stranger = await as(await service.newAccount())('GET', `${BRANDS}/readable`);
    assert.equal(stranger.status, 404);
    assert.equal(stranger.body.error.code, 'BRAND_NOT_FOUND');
    assert.equal((await service.call('GET', `${BRANDS}/nope`)).body.error.code, 'BRAND_NOT_FOUND');
    const sandbox = await as(service.account, true)('GET', `${BRANDS}/readable`);
    assert.equal(sandbox.status, 404);
  });

  test('PATCH changes fields, locks them, and counts revisions; null clears a field', async () => {
    await post({ name: 'Patchy', brand_id: 'patchy', profile: { industry: 'retail', tone: 'friendly' } });
    const patched = await service.call('PATCH', `${BRANDS}/patchy`, {
      body: { primary_color: '#112233', customer_id: 'cust-9', profile: { tone: 'playful', offer: 'Toys' } },
    });
    assert.equal(patched.status, 200, patched.text);
    const kit = patched.body.data;
    assert.equal(kit.revision, 2);
    assert.equal(kit.primary_color, '#112233');
    assert.equal(kit.kit.colors.provenance.primary, 'provided');
    assert.equal(kit.customer_id, 'cust-9');
    assert.deepEqual(kit.profile, { industry: 'retail', tone: 'playful', offer: 'Toys' });
    assert.deepEqual(kit.locked_fields, [
      'name',
      'primary_color',
      'profile.industry',
      'profile.offer',
      'profile.tone',
    ]);
    assert.ok(Date.parse(kit.updated_at) >= Date.parse(kit.created_at));

    const cleared = await service.call('PATCH', `${BRANDS}/patchy`, {
      body: { primary_color: null, customer_id: null, profile: { industry: null } },
    });
    assert.equal(cleared.body.data.revision, 3);
    assert.equal(cleared.body.data.kit.colors.provenance.primary, 'default');
    assert.equal(cleared.body.data.customer_id, null);
    assert.deepEqual(cleared.body.data.profile, { tone: 'playful', offer: 'Toys' });
    assert.deepEqual(cleared.body.data.locked_fields, ['name', 'profile.offer', 'profile.tone']);
  });

  test('PATCH refuses what cannot apply, each naming the field', async () => {
    await post({ name: 'Strict', brand_id: 'strict' });
    const cases: [unknown, string][] = [
      [{ name: null }, 'name'],
      [{ refresh: true }, 'refresh'],
      [{ brand_id: 'renamed' }, 'brand_id'],
      [{ primary_color: 'blue' }, 'primary_color'],
      [{ profile: { icp: { roles: ['x'] } } }, 'profile.icp.pains'],
    ];
    for (const [body, field] of cases) {
      const response = await service.call('PATCH', `${BRANDS}/strict`, { body });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(fieldsOf(response), [field], JSON.stringify(body));
    }
    assert.equal((await service.call('GET', `${BRANDS}/strict`)).body.data.revision, 1);
    assert.equal((await service.call('PATCH', `${BRANDS}/missing`, { body: { name: 'x' } })).status, 404);
  });

  test('DELETE removes the kit; after that it is not found', async () => {
    await post({ name: 'Doomed', brand_id: 'doomed' });
    const stranger = await as(await service.newAccount())('DELETE', `${BRANDS}/doomed`);
    assert.equal(stranger.status, 404);
    const removed = await service.call('DELETE', `${BRANDS}/doomed`);
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body.data, { brand_id: 'doomed', deleted: true });
    assert.equal((await service.call('GET', `${BRANDS}/doomed`)).status, 404);
    assert.equal((await service.call('DELETE', `${BRANDS}/doomed`)).body.error.code, 'BRAND_NOT_FOUND');
  });
});

describe('idempotency', () => {
  test('the same key and body replay the first answer; another body with that key is a 409', async () => {
    const headers = { 'idempotency-key': 'kit-create-0001' };
    const first = await post({ name: 'Once' }, { headers });
    assert.equal(first.status, 201);
    const replay = await post({ name: 'Once' }, { headers });
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get('x-idempotent-replay'), 'true');
    assert.equal(replay.body.meta.replayed, true);
    assert.equal(replay.body.data.brand_id, first.body.data.brand_id);
    const other = await post({ name: 'Twice' }, { headers });
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'RESOURCE_ALREADY_EXISTS');
  });

  test('a refusal is replayed too', async () => {
    const headers = { 'idempotency-key': 'kit-create-0002' };
    const first = await post({ name: 'Tiny', logo_url: `${logoBase}/tiny.png` }, { headers });
    assert.equal(first.status, 422);
    const replay = await post({ name: 'Tiny', logo_url: `${logoBase}/tiny.png` }, { headers });
    assert.equal(replay.status, 422);
    assert.equal(replay.headers.get('x-idempotent-replay'), 'true');
  });
});

describe('well-known brand domains', () => {
  test('need confirm_authorized; a confirmed one is saved with its domain', async () => {
    const refused = await post({ name: 'Spotify', website_url: 'spotify.com' });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.error.code, 'BRAND_CONFIRMATION_REQUIRED');
    assert.equal(refused.body.error.details.domain, 'spotify.com');
    const confirmed = await post({
      name: 'Spotify',
      website_url: 'https://open.spotify.com/',
      confirm_authorized: true,
    });
    assert.equal(confirmed.status, 201, confirmed.text);
    assert.equal(confirmed.body.data.domain, 'spotify.com');
    assert.equal(confirmed.body.data.website_url, 'https://open.spotify.com/');
  });

  test('the same domain again answers the existing kit with reused: true, still only when confirmed', async () => {
    const account = as(await service.newAccount());
    const made = await account('POST', BRANDS, {
      name: 'GitHub',
      website_url: 'github.com',
      confirm_authorized: true,
    });
    assert.equal(made.status, 201);
    const unconfirmed = await account('POST', BRANDS, { website_url: 'https://github.com/about' });
    assert.equal(unconfirmed.body.error.code, 'BRAND_CONFIRMATION_REQUIRED');
    const reused = await account('POST', BRANDS, {
      website_url: 'https://github.com/about',
      confirm_authorized: true,
    });
    assert.equal(reused.status, 200, reused.text);
    assert.equal(reused.body.data.reused, true);
    assert.equal(reused.body.data.brand_id, made.body.data.brand_id);
    assert.equal(reused.body.data.revision, 1);
  });
});

describe('kits for generation (BrandKitService.resolveForGeneration)', () => {
  test('brand_id selects a kit of the account, wins over website_url, and customer_id only narrows', async () => {
    const kits = service.runtime.context.brandKits;
    const accountId = service.account.account_id;
    await post({ name: 'Gen', brand_id: 'gen-kit', customer_id: 'cust-g', logo_url: `${logoBase}/disc.png` });
    const resolved = await kits.resolveForGeneration(accountId, {
      brandId: 'gen-kit',
      websiteUrl: 'spotify.com',
    });
    assert.ok(resolved);
    assert.equal(resolved.kit.brand_id, 'gen-kit');
    assert.equal(resolved.source, 'reused');
    assert.equal(resolved.stale, false);
    assert.ok(resolved.logoPath);
    const decoded = await sharp(resolved.logoPath).metadata();
    assert.equal(decoded.width, resolved.kit.logo?.width);
    assert.equal(
      (await kits.resolveForGeneration(accountId, { brandId: 'gen-kit', customerId: 'cust-g' }))?.kit
        .brand_id,
      'gen-kit',
    );

    const notFound = async (
      selection: Parameters<typeof kits.resolveForGeneration>[1],
      owner = accountId,
    ) => {
      await assert.rejects(kits.resolveForGeneration(owner, selection), (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.status, 404);
        assert.equal(error.code, 'BRAND_NOT_FOUND');
        return true;
      });
    };
    await notFound({ brandId: 'gen-kit', customerId: 'cust-other' });
    await notFound({ brandId: 'no-such-kit' });
    await notFound({ brandId: 'gen-kit' }, (await service.newAccount()).account_id);
    assert.equal(await kits.resolveForGeneration(accountId, {}), undefined);
    assert.equal((await kits.get(accountId, 'gen-kit')).name, 'Gen');
  });

  test('website_url of a well-known domain needs confirmation, then reuses the account’s kit', async () => {
    const kits = service.runtime.context.brandKits;
    const accountId = service.account.account_id;
    await assert.rejects(
      kits.resolveForGeneration(accountId, { websiteUrl: 'spotify.com' }),
      (error: unknown) => error instanceof ApiError && error.code === 'BRAND_CONFIRMATION_REQUIRED',
    );
    const resolved = await kits.resolveForGeneration(accountId, {
      websiteUrl: 'spotify.com',
      confirmAuthorized: true,
    });
    assert.equal(resolved?.source, 'reused');
    assert.equal(resolved?.kit.domain, 'spotify.com');
    await assert.rejects(
      kits.resolveForGeneration(accountId, { websiteUrl: 'ftp://x.com' }),
      (error: unknown) => error instanceof ApiError && error.status === 400,
    );
  });
});

describe('kits built from a website (the fixture site)', () => {
  let account: CreatedAccount;
  let kitId: string;

  before(async () => {
    account = await service.newAccount();
  });

  test('a website-only kit is crawled: name, colours, font and logo come from the site', async () => {
    site.reset();
    const response = await as(account)('POST', BRANDS, { website_url: site.origin });
    assert.equal(response.status, 201, response.text);
    const kit = response.body.data;
    kitId = kit.brand_id;
    assert.equal(kit.brand_id, '127-0-0-1');
    assert.equal(kit.source, 'auto');
    assert.equal(kit.name, BRAND_SITE_DECLARED.name);
    assert.equal(kit.domain, '127.0.0.1');
    assert.ok(deltaE2000(kit.primary_color, BRAND_SITE_DECLARED.colors.primary) <= 5, kit.primary_color);
    assert.equal(kit.kit.colors.provenance.primary, 'extracted');
    assert.equal(kit.kit.font.family, BRAND_SITE_DECLARED.fonts.heading);
    assert.equal(kit.kit.font.source, 'google');
    assert.ok(kit.logo, 'the site logo was normalized');
    assert.ok(kit.normalized_logo_url);
    assert.ok(kit.crawled_at);
    assert.equal(kit.stale, false);
    assert.deepEqual(kit.locked_fields, []);
    for (const field of ['name', 'logo_url', 'primary_color', 'font_family'])
      assert.ok(kit.fields_auto.includes(field), `${field} in ${kit.fields_auto}`);
    assert.ok(kit.autogen.pages.length >= 1 && kit.autogen.pages.length <= 6);
    assert.equal(kit.autogen.pages[0].role, 'home');
    assert.equal(kit.autogen.robots_txt, true);
    assert.equal(kit.autogen.well_known_brand, null);
    assert.ok(!site.paths().some((path) => path.startsWith('/our-story')), 'robots.txt was honoured');
    const png = await fetchPng(kit.normalized_logo_url);
    assert.equal(png.width, kit.logo.width);
    assert.equal(png.pixel(0, 0).a, 0);
  });

  test('the same site again answers the existing kit with reused: true, without a crawl', async () => {
    site.reset();
    const response = await as(account)('POST', BRANDS, { website_url: `${site.origin}/pricing` });
    assert.equal(response.status, 200);
    assert.equal(response.body.data.reused, true);
    assert.equal(response.body.data.brand_id, kitId);
    assert.deepEqual(site.paths(), []);
  });

  test('a refresh re-crawls and keeps the fields the caller set', async () => {
    const live = as(account);
    const before = (await live('PATCH', `${BRANDS}/${kitId}`, { name: 'NW Ledger', accent_color: '#112233' }))
      .body.data;
    assert.deepEqual(before.locked_fields, ['name', 'accent_color']);
    site.reset();
    const refreshed = await live('PATCH', `${BRANDS}/${kitId}`, { refresh: true });
    assert.equal(refreshed.status, 200, refreshed.text);
    const kit = refreshed.body.data;
    assert.ok(site.paths().includes('/'), 'the site was crawled again');
    assert.equal(kit.refreshed, true);
    assert.equal(kit.revision, before.revision + 1);
    assert.equal(kit.name, 'NW Ledger');
    assert.equal(kit.accent_color, '#112233');
    assert.ok(deltaE2000(kit.primary_color, BRAND_SITE_DECLARED.colors.primary) <= 5);
    assert.ok(Date.parse(kit.crawled_at) > Date.parse(before.crawled_at));

    const viaPost = await live('POST', BRANDS, { website_url: site.origin, refresh: true });
    assert.equal(viaPost.status, 200);
    assert.equal(viaPost.body.data.refreshed, true);
    assert.equal(viaPost.body.data.name, 'NW Ledger');
    assert.equal(viaPost.body.data.revision, kit.revision + 1);

    // Clearing the name gives the site's back.
    const unlocked = await live('PATCH', `${BRANDS}/${kitId}`, { name: null });
    assert.equal(unlocked.body.data.name, BRAND_SITE_DECLARED.name);
  });

  test('a kit built more than 30 days ago is stale', async () => {
    await sql`UPDATE brand_kits SET crawled_at = now() - interval '31 days' WHERE brand_id = ${kitId}
      AND account_id = ${account.account_id}`.execute(service.runtime.database.db);
    const read = await as(account)('GET', `${BRANDS}/${kitId}`);
    assert.equal(read.body.data.stale, true);
    const resolved = await service.runtime.context.brandKits.resolveForGeneration(account.account_id, {
      brandId: kitId,
    });
    assert.equal(resolved?.stale, true);
  });

  test('website_url in a generation call builds a kit once, then reuses it', async () => {
    const other = await service.newAccount();
    const kits = service.runtime.context.brandKits;
    const built = await kits.resolveForGeneration(other.account_id, { websiteUrl: site.origin });
    assert.equal(built?.source, 'built');
    assert.equal(built?.kit.name, BRAND_SITE_DECLARED.name);
    const again = await kits.resolveForGeneration(other.account_id, { websiteUrl: site.origin });
    assert.equal(again?.source, 'reused');
    assert.equal(again?.kit.brand_id, built?.kit.brand_id);
  });

  test('two requests for one new site at once make one kit: the second answers it as reused', async () => {
    const live = as(await service.newAccount());
    const answers = await Promise.all([
      live('POST', BRANDS, { website_url: site.origin }),
      live('POST', BRANDS, { website_url: `${site.origin}/pricing` }),
    ]);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 201], answers.map((a) => a.text).join('\n'));
    assert.equal(answers[0].body.data.brand_id, answers[1].body.data.brand_id);
    assert.equal((await live('GET', BRANDS)).body.data.items.length, 1);
  });

  test('a logo the caller set survives a refresh; dropping the website makes the kit manual', async () => {
    const live = as(await service.newAccount());
    const made = await live('POST', BRANDS, {
      website_url: site.origin,
      logo_url: `${logoBase}/disc.png`,
      customer_id: 'cust-logo',
    });
    assert.equal(made.status, 201, made.text);
    const kit = made.body.data;
    assert.equal(kit.logo_url, `${logoBase}/disc.png`);
    assert.ok(kit.locked_fields.includes('logo_url'));
    assert.ok(!kit.fields_auto.includes('logo_url'));
    assert.ok(Math.abs(kit.logo.width - 160) <= 2);

    const refreshed = (await live('PATCH', `${BRANDS}/${kit.brand_id}`, { refresh: true })).body.data;
    assert.equal(refreshed.normalized_logo_url, kit.normalized_logo_url);
    assert.equal(refreshed.customer_id, 'cust-logo');

    // Unlocking the logo shows the site's, already normalized by the last crawl.
    const siteLogo = (await live('PATCH', `${BRANDS}/${kit.brand_id}`, { logo_url: null })).body.data;
    assert.equal(siteLogo.logo.aspect_class, 'wordmark');
    assert.ok(siteLogo.fields_auto.includes('logo_url'));

    const noName = await live('PATCH', `${BRANDS}/${kit.brand_id}`, { website_url: null });
    assert.deepEqual(fieldsOf(noName), ['name']);
    const manual = (await live('PATCH', `${BRANDS}/${kit.brand_id}`, { website_url: null, name: 'Kept' }))
      .body.data;
    assert.equal(manual.source, 'manual');
    assert.equal(manual.autogen, null);
    assert.equal(manual.logo, null);
    assert.deepEqual(manual.fields_auto, []);
  });

  test('a crawl stops as soon as its caller goes away', async () => {
    site.route('/', 'hang');
    try {
      const account = await service.newAccount();
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 300);
      await assert.rejects(
        service.runtime.context.brandKits.resolveForGeneration(
          account.account_id,
          { websiteUrl: site.origin },
          controller.signal,
        ),
        (error: unknown) =>
          error instanceof ApiError &&
          error.code === 'BRAND_AUTOGEN_FAILED' &&
          (error.details as { reason: string }).reason === 'aborted',
      );
      assert.ok(Date.now() - started < 5000, `stopped after ${Date.now() - started} ms`);
    } finally {
      site.reset();
    }
  });

  test('a site that cannot be crawled is 422 BRAND_AUTOGEN_FAILED with the reason; nothing is saved', async () => {
    const live = as(await service.newAccount());
    const response = await live('POST', BRANDS, { website_url: site.hostileUrl('not_html') });
    assert.equal(response.status, 422, response.text);
    assert.equal(response.body.error.code, 'BRAND_AUTOGEN_FAILED');
    assert.equal(typeof response.body.error.details.reason, 'string');
    assert.deepEqual((await live('GET', BRANDS)).body.data.items, []);
  });
});
