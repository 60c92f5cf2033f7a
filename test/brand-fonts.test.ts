// A brand's font in real renders: captions burned in through the compose graph with the prepared fonts folder,
// checked on the decoded pixels, and libass's own report of which font file it drew each family from.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAss } from '../src/media/captions/build-ass.ts';
import { highlightPreset } from '../src/media/captions/caption-presets.ts';
import type { CaptionStyle } from '../src/media/captions/caption-style.ts';
import { brandedCaptionPresets } from '../src/media/captions/branded-presets.ts';
import { CaptionPreviewCache } from '../src/media/captions/style-preview.ts';
import { buildComposeCommand } from '../src/media/compose/compose-command.ts';
import { escapeFilterValue } from '../src/media/ffmpeg/filter-escape.ts';
import { runFfmpeg } from '../src/media/ffmpeg/runner.ts';
import { captionFontsDir } from '../src/media/fonts/caption-fonts-dir.ts';
import { FALLBACK_FONT_FAMILY, SHIPPED_FONT_FAMILIES } from '../src/media/fonts/font-catalogue.ts';
import { frameRgb } from './support/media-files.ts';
import { startTestService, type TestService } from './support/test-service.ts';

/** Prepared once in the repository's test cache and reused by every run. */
const TEST_CACHE = new URL('../.test-cache', import.meta.url).pathname;
const W = 540;
const H = 960;
const WORDS = [
  { word: 'Brand', start: 0.2, end: 0.5 },
  { word: 'fonts', start: 0.55, end: 0.9 },
  { word: 'matter', start: 0.95, end: 1.3 },
];
/** All three words are up; "fonts" is being spoken. */
const AT_SEC = 0.7;

interface Ink {
  left: number;
  right: number;
  top: number;
  bottom: number;
  pixels: number;
  width: number;
  height: number;
}

/** Where the picture departs from the flat grey background: the caption's glyphs, outline and shadow. */
function ink(rgb: Buffer): Ink {
  let left = W;
  let right = -1;
  let top = H;
  let bottom = -1;
  let pixels = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 3;
      const distance = Math.abs(rgb[i]! - 128) + Math.abs(rgb[i + 1]! - 128) + Math.abs(rgb[i + 2]! - 128);
      if (distance < 60) continue;
      pixels++;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return { left, right, top, bottom, pixels, width: right - left + 1, height: bottom - top + 1 };
}

function differingPixels(a: Buffer, b: Buffer): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 3)
    if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > 60) n++;
  return n;
}

describe('brand fonts in renders', () => {
  let dir = '';
  let fontsDir = '';
  let background = '';

  /** Burns `style`'s captions into a short clip and decodes the frame at AT_SEC. */
  async function render(name: string, style: CaptionStyle, withFonts = true): Promise<Buffer> {
    const assPath = join(dir, `${name}.ass`);
    await writeFile(assPath, buildAss(WORDS, style, { width: W, height: H }));
    const video = join(dir, `${name}.mp4`);
    const { args } = buildComposeCommand({
      outputPath: video,
      width: W,
      height: H,
      durationSec: 1.5,
      scenes: [{ path: background, inPoint: 0, duration: 1.5 }],
      ass: withFonts ? { path: assPath, fontsDir } : { path: assPath },
    });
    await runFfmpeg(args);
    const rgb = await frameRgb(video, AT_SEC);
    assert.equal(rgb.length, W * H * 3);
    return rgb;
  }

  const style = (font?: string | null) => highlightPreset({ position: 'center', font_size: 'large' }, font);
  let fallback: Buffer;
  let bebas: Buffer;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rs-brand-fonts-'));
    fontsDir = await captionFontsDir(TEST_CACHE);
    background = join(dir, 'grey.png');
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      `color=c=0x808080:s=${W}x${H}`,
      '-frames:v',
      '1',
      background,
    ]);
    [fallback, bebas] = await Promise.all([
      render('fallback', style()),
      render('bebas', style('Bebas Neue')),
    ]);
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('the fonts folder is prepared once and reused', async () => {
    assert.equal(await captionFontsDir(TEST_CACHE), fontsDir);
  });

  test('Bebas Neue draws a measurably different caption from the fallback font', (t) => {
    const a = ink(fallback);
    const b = ink(bebas);
    t.diagnostic(
      `fallback ink ${a.width}×${a.height} px (${a.pixels} px), Bebas Neue ${b.width}×${b.height} px (${b.pixels} px)`,
    );
    assert.ok(a.pixels > 2000 && b.pixels > 1000, `ink pixels: fallback ${a.pixels}, Bebas ${b.pixels}`);
    // Bebas Neue is a condensed all-caps face: the same words at the same size take far less width.
    assert.ok(b.width < a.width * 0.8, `caption width: Bebas ${b.width} px vs fallback ${a.width} px`);
    assert.notEqual(b.height, a.height, `caption height: Bebas ${b.height} px vs fallback ${a.height} px`);
    const changed = differingPixels(fallback, bebas);
    t.diagnostic(`pixels that differ: ${changed}`);
    assert.ok(changed > 2000, `pixels that differ in the caption: ${changed}`);
    // Both sit centred in the frame: the layout is the same, only the font differs.
    const centre = (i: Ink) => (i.left + i.right) / 2;
    assert.ok(Math.abs(centre(a) - W / 2) < 12 && Math.abs(centre(b) - W / 2) < 12);
  });

  test('an unknown family renders exactly as the fallback', async () => {
    assert.equal(style('Proxima Nova Condensed').fontFamily, FALLBACK_FONT_FAMILY);
    const unknown = await render('unknown', style('Proxima Nova Condensed'));
    assert.ok(unknown.equals(fallback), `${differingPixels(unknown, fallback)} pixels differ`);
  });

  test('the font comes from the prepared folder: without it libass cannot draw Bebas Neue', async (t) => {
    const without = await render('bebas-without-folder', style('Bebas Neue'), false);
    const changed = differingPixels(without, bebas);
    t.diagnostic(`pixels that differ without the folder: ${changed}`);
    assert.ok(changed > 2000, `pixels that differ without the fonts folder: ${changed}`);
  });

  test("a branded preview takes the kit's font", async (t) => {
    const previews = new CaptionPreviewCache({
      dir: join(dir, 'previews'),
      render: { width: W, height: H },
      output: { width: W, height: H },
      fontsDir: () => captionFontsDir(TEST_CACHE),
    });
    const look = (font: string | null) =>
      brandedCaptionPresets({ primary: '#0B3D91', accent: '#FFCC00', font_family: font }).styles.find(
        (s) => s.preset.id === 'brand-outline',
      )!.style;
    const decode = async (png: Buffer, name: string) => {
      const path = join(dir, `${name}.png`);
      await writeFile(path, png);
      return frameRgb(path, 0);
    };
    const own = await decode(await previews.png('brand-outline', look(null)), 'own');
    const anton = await decode(await previews.png('brand-outline', look('anton')), 'anton');
    const changed = differingPixels(own, anton);
    t.diagnostic(`pixels that differ between brand-outline in its own font and in Anton: ${changed}`);
    assert.ok(changed > 2000, `pixels that differ between the preset font and Anton: ${changed}`);
  });

  test('libass draws every shipped family and weight from our files, under its real name', async () => {
    const faces = SHIPPED_FONT_FAMILIES.flatMap((f) =>
      f.weights.map((weight) => ({ family: f.family, weight })),
    );
    const styles = faces.map(
      ({ family, weight }, i) =>
        `Style: S${i},${family},20,&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,${weight === 700 ? -1 : 0},0,0,0,100,100,0,0,1,1,0,7,10,10,${10 + i * 25},1`,
    );
    const events = faces.map((_, i) => `Dialogue: 0,0:00:00.00,0:00:01.00,S${i},,0,0,0,,Zażółć ĄĘ`);
    const assPath = join(dir, 'every-face.ass');
    await writeFile(
      assPath,
      [
        '[Script Info]',
        'ScriptType: v4.00+',
        `PlayResX: ${W}`,
        `PlayResY: ${H}`,
        '',
        '[V4+ Styles]',
        'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
        ...styles,
        '',
        '[Events]',
        'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
        ...events,
        '',
      ].join('\n'),
    );
    const selections: string[] = [];
    await runFfmpeg(
      [
        '-loglevel',
        'verbose',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `color=c=gray:s=${W}x${H}:d=1`,
        '-vf',
        `subtitles=filename=${escapeFilterValue(assPath)}:fontsdir=${escapeFilterValue(fontsDir)}`,
        '-frames:v',
        '1',
        '-f',
        'null',
        '-',
      ],
      { onStderrLine: (line) => void (line.includes('fontselect:') && selections.push(line)) },
    );
    for (const { family, weight } of faces) {
      // "fontselect: (Family, weight, italic) -> source, index, PostScript name": a font loaded from the
      // fonts folder has no file path as its source (fontconfig's fonts do).
      const picked = selections.filter((l) => l.includes(`fontselect: (${family}, ${weight}, 0) ->`));
      assert.ok(picked.length > 0, `${family} ${weight} was not selected: ${selections.join('\n')}`);
      const postscript = `${family.replace(/ /g, '')}-${weight === 700 ? 'Bold' : 'Regular'}`;
      for (const line of picked) {
        assert.doesNotMatch(line, /-> \//, `${family} ${weight} came from a system file: ${line}`);
        assert.ok(line.trimEnd().endsWith(`, ${postscript}`), line);
      }
    }
  });
});

describe('GET /resources/caption-styles with a brand font', () => {
  const LIST = '/api/v1/resources/caption-styles';
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => {
    await service.stop();
  });

  interface Listed {
    id: string;
    category: string;
    style: { font_family: string; bold: boolean; font_size: number };
    preview_url: string;
  }

  async function list(query: string): Promise<{ brand_font_family: string | null; styles: Listed[] }> {
    const response = await service.call('GET', `${LIST}${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body.data;
  }

  async function png(url: string): Promise<Buffer> {
    assert.ok(url.startsWith(service.url), url);
    const response = await fetch(url, { headers: { authorization: `Bearer ${service.account.live_key}` } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/png');
    return Buffer.from(await response.arrayBuffer());
  }

  test('branded presets take a font we ship; the others keep theirs', async () => {
    const plain = await list('');
    const data = await list('?category=branded&font_family=bebas%20neue&primary_color=%230B3D91');
    assert.equal(plain.brand_font_family, null);
    assert.equal(data.brand_font_family, 'Bebas Neue');
    assert.equal(data.styles.length, 12);
    for (const s of data.styles) {
      assert.equal(s.style.font_family, 'Bebas Neue', s.id);
      assert.equal(s.style.bold, false, `${s.id}: Bebas Neue has one weight`);
      const before = plain.styles.find((p) => p.id === s.id)!;
      assert.equal(s.style.font_size, before.style.font_size, s.id);
      assert.ok(new URL(s.preview_url).searchParams.get('font_family') === 'Bebas Neue', s.preview_url);
    }
    const withFont = await list('?font_family=Inter');
    for (const s of withFont.styles.filter((x) => x.category !== 'branded')) {
      const before = plain.styles.find((p) => p.id === s.id)!;
      assert.equal(s.style.font_family, before.style.font_family, s.id);
      assert.equal(s.preview_url, before.preview_url, s.id);
    }

    const box = data.styles.find((s) => s.id === 'brand-box')!;
    const boxPlain = await list('?category=branded&primary_color=%230B3D91');
    const plainBox = boxPlain.styles.find((s) => s.id === 'brand-box')!;
    assert.equal(new URL(plainBox.preview_url).searchParams.get('font_family'), null);
    assert.notDeepEqual(await png(box.preview_url), await png(plainBox.preview_url));
  });

  test('a font we do not have leaves every preset in its own font', async () => {
    const plain = await list('?category=branded');
    const data = await list('?category=branded&font_family=Circular%20Std');
    assert.equal(data.brand_font_family, null);
    assert.deepEqual(data.styles, plain.styles);
  });

  test('a font name that is far too long is a field error', async () => {
    const response = await service.call('GET', `${LIST}?font_family=${'x'.repeat(101)}`);
    assert.equal(response.status, 400);
    assert.equal(response.body.error.details.fields[0].field, 'font_family');
  });
});
