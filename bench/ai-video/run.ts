import { spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_ENCODING } from '../../src/media/compose/compose-spec.ts';
import { deliveryEncodeArgs } from '../../src/media/ffmpeg/delivery-encode.ts';
import { probeMedia } from '../../src/media/ffmpeg/probe.ts';
import { runFfmpeg } from '../../src/media/ffmpeg/runner.ts';
import { cutToFile, MAN_AT_TABLE, SAMPLES } from '../../test/support/sample-photos.ts';
import { productModes } from '../../src/modes/index.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { RenderActivity } from '../../src/platform/jobs/render-activity.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { UrlGuard } from '../../src/platform/net/url-guard.ts';
import { benchDatabase } from '../support/bench-database.ts';
import { renderWithProduct } from '../support/product-render.ts';
import { timed } from '../support/cpu-time.ts';
import { describeLoad, verdict, watchMachineLoad } from '../support/machine-load.ts';

// bench/ai-video (issue 11 item 7): on the local motion engine, a 10 s 1080×1920 image-to-video (a slow zoom in
// on a photo, music bed) and a 30 s narrated text-to-video (library footage with a camera move per shot,
// narration, word captions, music), each against a bare re-encode of its own output with the same codec
// settings, in one run. Targets: wall ratio ≤ 1.5, Node peak RSS ≤ 300 MB.
//
//   node --import tsx bench/ai-video/run.ts [--only image_to_video|text_to_video] [--keep DIR]
//
// Each render runs in the product's own compiled render command, in its own process
// (bench/support/product-render.ts): its wall and CPU are from validation to the delivered files, its memory
// is that process's peak. The footage library is warmed first, in another child process. The photo is a real
// one (a person, from the @vladmandic/human package's sample pictures) served on loopback, as a caller's
// image_url would be fetched.

const { values } = parseArgs({
  options: { keep: { type: 'string' }, only: { type: 'string' }, 'warm-only': { type: 'boolean' } },
});

const fmt = (n: number, digits = 1) => n.toFixed(digits);

const dir = values.keep ?? (await mkdtemp(join(tmpdir(), 'reelsmith-bench-ai-video-')));
await cutToFile(SAMPLES, MAN_AT_TABLE, dir, 'photo', { width: 1280 });
const photos = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'image/png' });
  createReadStream(join(dir, 'photo.png')).pipe(res);
});
await new Promise<void>((resolve) => photos.listen(0, '127.0.0.1', resolve));
const photoUrl = `http://127.0.0.1:${(photos.address() as AddressInfo).port}/photo.png`;

const config = loadConfig({ ...process.env, LIBRARY_SEED: 'background', REELSMITH_ALLOW_LOOPBACK_URLS: '1' });
const log = createLogger('warn', 'stderr');
const dbServer = await benchDatabase();
const database = openDatabase(dbServer.url, { max: 4 });

const CASES: { name: string; mode: string; body: Record<string, unknown> }[] = [
  {
    name: '10 s image-to-video, 1080x1920 (slow zoom in, music)',
    mode: 'image_to_video',
    body: {
      image_url: photoUrl,
      prompt: 'slow zoom in',
      duration_sec: 10,
      model: 'host-x/pix/v6',
      resolution: '1080p',
    },
  },
  {
    name: '30 s narrated text-to-video, 1080x1920 (6 shots, captions, music)',
    mode: 'text_to_video',
    body: {
      prompt:
        'A harbour town at sunrise; boats leaving the harbour; a busy fish market; lights on the water at night',
      script:
        'Morning light spills over the harbour. Fishing boats head out past the old lighthouse. ' +
        'By noon the market is full of voices and fresh catch. In the evening the town lights glow on calm water. ' +
        'Come and see it for yourself this summer.',
    },
  },
];

const rows: string[] = [];
let anyLoaded = false;
const summaries: Record<string, unknown>[] = [];
try {
  await migrate(database.pool);
  const setup = productModes({
    config,
    db: database.db,
    log,
    urlGuard: new UrlGuard({ allowLoopback: true }),
  });
  if (values['warm-only']) {
    console.log(`library ${config.libraryDir}: warming (generates what is missing)…`);
    await setup.background?.(new AbortController().signal, new RenderActivity(join(dir, 'renders')));
  } else {
    // The child uses this process's database, where the library's clips are recorded.
    const warm = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--warm-only'],
      { stdio: 'inherit', env: { ...process.env, DATABASE_URL: dbServer.url } },
    );
    if (warm.status !== 0) throw new Error('the library warm-up failed');
  }
  if (values['warm-only']) CASES.length = 0;
  const codec = (durationSec: number) =>
    deliveryEncodeArgs({
      preset: config.renderPreset,
      crf: DEFAULT_ENCODING.crf,
      fps: 30,
      forceFps: true,
      audioBitrateKbps: DEFAULT_ENCODING.audioBitrateKbps,
      durationSec,
    });

  for (const [index, bench] of CASES.entries()) {
    if (values.only && bench.mode !== values.only) continue;
    const video = join(dir, `${bench.mode}.mp4`);
    const load = watchMachineLoad();
    // The product's own render command in its own process (bench/support/product-render.ts).
    const pipeline = await renderWithProduct({
      mode: bench.mode,
      body: bench.body,
      out: video,
      seed: `bench_ai_video_${index}_${Date.now()}`,
      env: {
        ...process.env,
        DATABASE_URL: dbServer.url,
        REELSMITH_ALLOW_LOOPBACK_URLS: '1',
        LOG_LEVEL: 'warn',
      },
    });
    const rssPeak = pipeline.peakRssMb;
    const stages = pipeline.stages.map(
      ({ stage, seconds, rssPeakMb }) => `${stage} ${fmt(seconds)} s (${rssPeakMb} MB)`,
    );
    console.log(`${bench.name}: Node RSS once loaded ${pipeline.rssAtStartMb} MB`);
    console.log(`${bench.name}: stages (wall, Node peak RSS) ${stages.join(', ')}`);
    const info = await probeMedia(video);
    const baseline = await timed(() =>
      runFfmpeg([
        '-y',
        '-i',
        video,
        '-map',
        '0:v:0',
        '-map',
        '0:a:0',
        ...codec(info.durationSec),
        join(dir, 'bare.mp4'),
      ]),
    );
    const loadReport = load.finish();
    console.log(`${bench.name}: ${describeLoad(loadReport)}`);
    anyLoaded ||= !loadReport.quiet;
    const ratio = pipeline.wallSec / baseline.timing.wall;
    const cpuRatio = pipeline.cpuSec / baseline.timing.childCpu;
    console.log(
      `${bench.name}: pipeline ${fmt(pipeline.wallSec)} s (cpu ${fmt(pipeline.cpuSec)} s with its child processes); ` +
        `bare re-encode ${fmt(baseline.timing.wall)} s (cpu ${fmt(baseline.timing.childCpu)} s); ${info.video?.width}x${info.video?.height}, ${fmt(info.durationSec, 2)} s`,
    );
    rows.push(
      `| ${bench.name} | ${fmt(pipeline.wallSec)} s | ${fmt(baseline.timing.wall)} s | **${fmt(ratio, 2)}** ${verdict(ratio <= 1.5, loadReport)} | ${fmt(cpuRatio, 2)} | **${rssPeak} MB** ${rssPeak <= 300 ? 'met' : 'missed'} |`,
    );
    summaries.push({
      case: bench.mode,
      video_sec: Math.round(info.durationSec * 100) / 100,
      pipeline_wall_sec: Math.round(pipeline.wallSec * 10) / 10,
      pipeline_cpu_sec: Math.round(pipeline.cpuSec * 10) / 10,
      baseline_wall_sec: Math.round(baseline.timing.wall * 10) / 10,
      baseline_cpu_sec: Math.round(baseline.timing.childCpu * 10) / 10,
      ratio: Math.round(ratio * 100) / 100,
      cpu_ratio: Math.round(cpuRatio * 100) / 100,
      rss_loaded_mb: pipeline.rssAtStartMb,
      rss_peak_mb: rssPeak,
    });
  }
  console.log('');
  console.log(
    '| case | pipeline wall | bare re-encode | ratio (target ≤ 1.5) | CPU ratio | Node peak RSS (target ≤ 300 MB) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
  console.log('');
  console.log(
    JSON.stringify({
      date: new Date().toISOString(),
      cpus: cpus().length,
      load_1m_after: Math.round(loadavg()[0]! * 100) / 100,
      quiet: !anyLoaded,
      preset: config.renderPreset,
      cases: summaries,
    }),
  );
} finally {
  await database.close();
  await dbServer.stop();
  await new Promise((resolve) => photos.close(resolve));
  if (!values.keep) await rm(dir, { recursive: true, force: true });
}
