import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { startTestService, type TestService } from './support/test-service.ts';

// Spec 2 §4.6: GET /resources/caption-styles lists the 63 presets in 5 categories; each has a rendered
// preview image, cached on disk.

const LIST = '/api/v1/resources/caption-styles';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let service: TestService;
before(async () => {
  service = await startTestService();
});
after(async () => {
  await service.stop();
});

interface ListedStyle {
  id: string;
  name: string;
  category: string;
  description: string;
  style: Record<string, unknown>;
  brand_colors: Record<string, string> | null;
  preview_url: string;
}

async function list(query = ''): Promise<{ styles: ListedStyle[]; data: any }> {
  const response = await service.call('GET', `${LIST}${query}`);
  assert.equal(response.status, 200, response.text);
  assert.equal(response.body.success, true);
  return { styles: response.body.data.styles, data: response.body.data };
}

/** GET of a binary resource with the account's key (or none). */
async function fetchBinary(path: string, key: string | null = service.account.live_key) {
  const response = await fetch(service.url + path, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

function pathOf(url: string): string {
  assert.ok(url.startsWith(service.url), url);
  return url.slice(service.url.length);
}

const cacheDir = () => join(service.dataDir, 'cache', 'caption-previews');

void describe('caption styles', () => {
  void test('the listing needs an API key', async () => {
    const response = await service.call('GET', LIST, { key: null });
    assert.equal(response.status, 401);
    assert.equal(response.body.error.code, 'AUTH_REQUIRED');
  });

  void test('lists 63 presets in 5 categories, each with its style values and a preview link', async () => {
    const { styles, data } = await list();
    assert.equal(data.total, 63);
    assert.equal(styles.length, 63);
    assert.equal(new Set(styles.map((s) => s.id)).size, 63);
    assert.deepEqual(
      data.categories.map((c: { id: string }) => c.id),
      ['default', 'neon', 'bold', 'karaoke-highlighted', 'branded'],
    );
    for (const category of data.categories as { id: string; count: number }[])
      assert.equal(category.count, styles.filter((s) => s.category === category.id).length, category.id);

    const clean = styles.find((s) => s.id === 'clean-white');
    assert.ok(clean);
    assert.equal(clean.category, 'default');
    assert.equal(clean.brand_colors, null);
    assert.deepEqual(clean.style, {
      font_family: 'DejaVu Sans',
      font_size: 76,
      bold: true,
      italic: false,
      uppercase: false,
      letter_spacing: 0,
      text_color: '#FFFFFF',
      highlight_color: '#FFD60A',
      outline_color: '#000000',
      border: 'outline',
      outline_width: 5,
      outline_opacity: 1,
      shadow_color: '#000000',
      shadow_depth: 2,
      shadow_opacity: 0.5,
      blur: 0,
      scale_x: 100,
      rotation: 0,
      position: 'lower_third',
      animation: 'none',
      words_per_chunk: 4,
      max_chars_per_chunk: 24,
    });
    assert.equal(clean.preview_url, `${service.url}${LIST}/clean-white/preview.png`);
    assert.equal(styles.find((s) => s.id === 'karaoke-yellow')?.style.animation, 'karaoke');
    assert.ok((styles.find((s) => s.id === 'neon-pink')?.style.blur as number) > 0);
  });

  void test('filters by category and refuses an unknown one', async () => {
    const { styles, data } = await list('?category=neon');
    assert.ok(styles.length >= 10);
    assert.equal(data.total, styles.length);
    assert.ok(styles.every((s) => s.category === 'neon'));
    const bad = await service.call('GET', `${LIST}?category=sparkly`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'INPUT_INVALID');
    assert.ok(bad.body.error.details.fields[0].valid_values.includes('karaoke-highlighted'));
  });

  void test('branded presets take brand colours from the query, else the saved account brand', async () => {
    const defaults = await list();
    assert.deepEqual(defaults.data.brand_colors, { primary_color: '#2563EB', accent_color: '#F59E0B' });
    const defaultBox = defaults.styles.find((s) => s.id === 'brand-box')!;
    assert.equal(defaultBox.style.outline_color, '#2563EB');
    assert.deepEqual(defaultBox.brand_colors, { outline_color: 'primary', text_color: 'on-primary' });
    assert.ok(defaultBox.preview_url.includes('primary_color=%232563EB'), defaultBox.preview_url);

    const fromQuery = await list('?primary_color=%23ffeb3b&accent_color=0B3D91');
    const box = fromQuery.styles.find((s) => s.id === 'brand-box')!;
    assert.equal(box.style.outline_color, '#FFEB3B');
    assert.equal(box.style.text_color, '#111111');
    assert.equal(fromQuery.styles.find((s) => s.id === 'brand-highlight')?.style.highlight_color, '#0B3D91');
    assert.equal(fromQuery.styles.find((s) => s.id === 'neon-pink')?.style.outline_color, '#FF2BD6');

    const other = await service.newAccount();
    await sql`UPDATE accounts SET brand = ${JSON.stringify({ name: 'Acme', primary_color: '#1b1b3a' })}::jsonb
              WHERE id = ${other.account_id}`.execute(service.runtime.database.db);
    const saved = await service.call('GET', LIST, { key: other.live_key });
    assert.equal(saved.status, 200, saved.text);
    assert.deepEqual(saved.body.data.brand_colors, { primary_color: '#1B1B3A', accent_color: '#F59E0B' });
    const savedBox = (saved.body.data.styles as ListedStyle[]).find((s) => s.id === 'brand-box')!;
    assert.equal(savedBox.style.outline_color, '#1B1B3A');

    const bad = await service.call('GET', `${LIST}?primary_color=blue`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details.fields[0].field, 'primary_color');
  });

  void test('serves a rendered PNG preview, cached on disk and reused', async () => {
    const { styles } = await list();
    const path = pathOf(styles.find((s) => s.id === 'clean-white')!.preview_url);
    const first = await fetchBinary(path);
    assert.equal(first.status, 200);
    assert.equal(first.type, 'image/png');
    assert.deepEqual(first.body.subarray(0, 8), PNG_SIGNATURE);

    const cached = (await readdir(cacheDir())).filter((n) => n.startsWith('clean-white-'));
    assert.equal(cached.length, 1);
    assert.match(cached[0]!, /^clean-white-[0-9a-f]{16}\.png$/);
    const file = join(cacheDir(), cached[0]!);
    const written = (await stat(file)).mtimeMs;

    const second = await fetchBinary(path);
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, first.body);
    assert.equal((await stat(file)).mtimeMs, written);
  });

  void test('concurrent preview requests all get the same complete image, cached once', async () => {
    const path = `${LIST}/bold-red-box/preview.png`;
    const results = await Promise.all([fetchBinary(path), fetchBinary(path), fetchBinary(path)]);
    for (const result of results) {
      assert.equal(result.status, 200);
      assert.deepEqual(result.body, results[0].body);
    }
    const files = await readdir(cacheDir());
    assert.equal(files.filter((n) => n.startsWith('bold-red-box-')).length, 1);
    assert.deepEqual(
      files.filter((n) => n.includes('.part.')),
      [],
    );
  });

  void test('a branded preview follows the brand colours of its link', async () => {
    const blue = await fetchBinary(`${LIST}/brand-box/preview.png?primary_color=%230B3D91`);
    const yellow = await fetchBinary(`${LIST}/brand-box/preview.png?primary_color=%23FFEB3B`);
    assert.equal(blue.status, 200);
    assert.equal(yellow.status, 200);
    assert.notDeepEqual(blue.body, yellow.body);
    assert.equal((await readdir(cacheDir())).filter((n) => n.startsWith('brand-box-')).length, 2);
  });

  void test('an unknown style gives the 404 envelope; previews need an API key', async () => {
    const missing = await service.call('GET', `${LIST}/no-such-style/preview.png`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.success, false);
    assert.equal(missing.body.error.code, 'NOT_FOUND');
    assert.match(missing.body.error.message, /no-such-style/);

    const anonymous = await fetchBinary(`${LIST}/clean-white/preview.png`, null);
    assert.equal(anonymous.status, 401);
    assert.equal(JSON.parse(anonymous.body.toString()).error.code, 'AUTH_REQUIRED');
  });
});
