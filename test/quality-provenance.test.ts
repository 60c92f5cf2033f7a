import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { productModes } from '../src/modes/index.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// The quality report and provenance manifest of docs/quality.md on the real service: a stock render measured
// on its delivered file passes every check and lists every asset with where it sits; a render of footage
// that is all black fails its gate, is rendered once more, and the job fails with a refund.

let service: TestService;
let dir: string;
let assets: http.Server;
let assetBase: string;

before(async () => {
  service = await startTestService({ modes: productModes, env: { RENDER_PRESET: 'ultrafast' } });
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-quality-'));
  const black = spawnSync('ffmpeg', [
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=black:s=270x480:r=30:d=3',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    join(dir, 'black.mp4'),
  ]);
  assert.equal(black.status, 0, black.stderr.toString());
  assets = http.createServer((req, res) => {
    const file = join(dir, (req.url ?? '/').slice(1));
    if (!existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'video/mp4' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => assets.listen(0, '127.0.0.1', resolve));
  assetBase = `http://127.0.0.1:${(assets.address() as AddressInfo).port}`;
});

after(async () => {
  await service.stop();
  await new Promise((resolve) => assets.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const balance = async (): Promise<number> =>
  (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;

interface Check {
  passed: boolean | null;
  gated: boolean;
}

interface Placement {
  start: number;
  end: number;
  region: { x: number; y: number; width: number; height: number } | null;
}

interface Item {
  kind: string;
  id: string;
  source: Record<string, unknown>;
  licence: string;
  placements: Placement[];
}

void describe('quality report and provenance', () => {
  void test('a stock render passes every check on its delivered file and lists every asset', async () => {
    const receipt = await service.call('POST', '/api/v1/generate-and-post', {
      headers: { 'idempotency-key': `quality-pass-${Date.now()}` },
      body: {
        script: 'Gold dust rises in the dark. Molten gold flows like honey.',
        clip_type: 'luxury',
        duration_sec: 15,
      },
    });
    assert.equal(receipt.status, 202, receipt.text);
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 300_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const quality = job.artifacts.quality as {
      passed: boolean;
      attempts: number;
      failed: string[];
      checks: Record<string, Check & Record<string, unknown>>;
    };
    const detail = JSON.stringify(quality, null, 1);
    assert.equal(quality.passed, true, detail);
    assert.equal(quality.attempts, 1, detail);
    // Every check applies to a narrated, captioned render, and each passed.
    for (const [name, check] of Object.entries(quality.checks)) {
      assert.equal(check.passed, true, `${name}: ${detail}`);
      assert.equal(check.gated, true, `${name}: ${detail}`);
    }
    const { loudness, true_peak, caption_sync, safe_zone, av_sync, duration } = quality.checks;
    assert.ok(Math.abs((loudness!.integrated_lufs as number) + 14) <= 1, detail);
    assert.ok((true_peak!.true_peak_dbtp as number) <= -1, detail);
    assert.ok((caption_sync!.compared as number) >= 8, detail);
    assert.ok((caption_sync!.worst_offset_ms as number) < 100, detail);
    assert.ok((av_sync!.difference_ms as number) < 40, detail);
    assert.ok(safe_zone!.caption_box, detail);
    assert.equal(duration!.requested_sec, 15);

    const provenance = job.artifacts.provenance as {
      video: { duration_sec: number; width: number; height: number };
      items: Item[];
      url: string;
    };
    const items = provenance.items;
    const list = JSON.stringify(items, null, 1);
    const kinds = new Set(items.map((i) => i.kind));
    for (const kind of ['footage', 'music', 'voice', 'font']) assert.ok(kinds.has(kind), `${kind}: ${list}`);
    for (const item of items) {
      assert.ok(item.licence.length > 0, list);
      assert.ok(item.placements.length > 0, list);
    }
    // The footage tiles the video: its placements add up to the delivered length, full frame.
    const shots = items
      .filter((i) => i.kind === 'footage')
      .flatMap((i) => i.placements)
      .sort((a, b) => a.start - b.start);
    const covered = shots.reduce((sum, p) => sum + (p.end - p.start), 0);
    assert.ok(Math.abs(covered - provenance.video.duration_sec) < 0.01, list);
    assert.ok(Math.abs(provenance.video.duration_sec - (job.artifacts.durationSec as number)) < 0.05, list);
    assert.equal(shots[0]!.start, 0);
    for (let i = 1; i < shots.length; i++) assert.ok(Math.abs(shots[i]!.start - shots[i - 1]!.end) < 0.01);
    for (const shot of shots)
      assert.deepEqual(shot.region, {
        x: 0,
        y: 0,
        width: provenance.video.width,
        height: provenance.video.height,
      });
    // Library footage and music are the project's own work; the fonts carry their package's licence.
    for (const item of items.filter((i) => i.kind === 'footage')) {
      assert.equal(item.source.type, 'generated', list);
      assert.equal(item.source.library_id, item.id);
      assert.equal(item.licence, 'CC0-1.0');
    }
    const music = items.find((i) => i.kind === 'music')!;
    assert.equal(music.licence, 'CC0-1.0');
    assert.equal(music.source.library_id, (job.artifacts.music as { id: string }).id);
    const voice = items.find((i) => i.kind === 'voice')!;
    assert.equal(voice.id, job.artifacts.voiceId);
    const captionFont = items.find((i) => i.kind === 'font' && i.placements[0]!.region !== null)!;
    assert.ok(captionFont, list);
    const watermark = items.find((i) => i.kind === 'font' && i.source.file === undefined);
    assert.equal(watermark, undefined, 'every font names its file or package');

    // provenance.json is stored next to the video behind a signed link, and says the same.
    const stored = await fetch(provenance.url);
    assert.equal(stored.status, 200);
    const inline: Partial<typeof provenance> = { ...provenance };
    delete inline.url;
    assert.deepEqual(await stored.json(), inline);
    const files = job.artifacts.output_files as { name: string; url: string }[];
    assert.ok(files.some((f) => f.name === 'provenance.json'));
  });

  void test('all-black footage fails the gate, is rendered once more, and the job fails with a refund', async () => {
    const before = await balance();
    const receipt = await service.call('POST', '/api/v1/generate-and-post', {
      headers: { 'idempotency-key': `quality-fail-${Date.now()}` },
      body: {
        script: 'Nothing at all can be seen here.',
        asset_urls: [`${assetBase}/black.mp4`],
        duration_sec: 15,
        captions: false,
        include_branding: false,
      },
    });
    assert.equal(receipt.status, 202, receipt.text);
    assert.ok((await balance()) < before, 'the job was charged');
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 300_000 });
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'QUALITY_GATE_FAILED', JSON.stringify(job.error));
    assert.equal(job.error.retryable, false);
    assert.match(job.error.message, /black stretch of [\d.]+ s/);
    const rerender = (job.progress as { stage: string; message: string }[]).filter(
      (p) => p.stage === 'quality',
    );
    assert.equal(rerender.length, 1, JSON.stringify(job.progress));
    assert.match(rerender[0]!.message, /rendering it once more with corrected parameters/);
    assert.equal(job.attempts, 1, 'not retried after the second render');
    assert.equal(await balance(), before, 'refunded');
  });
});
