import { spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cliServices, deliverFiles, prepareRender, runRender } from '../../src/cli/render.ts';
import { DEFAULT_ENCODING } from '../../src/media/compose/compose-spec.ts';
import { deliveryEncodeArgs } from '../../src/media/ffmpeg/delivery-encode.ts';
import { probeMedia } from '../../src/media/ffmpeg/probe.ts';
import { YuvResampler } from '../../src/media/motion/resample.ts';
import { runFfmpeg } from '../../src/media/ffmpeg/runner.ts';
import { cutToFile, MAN_AT_TABLE, SAMPLES } from '../../test/support/sample-photos.ts';
import { productModes } from '../../src/modes/index.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { RenderActivity } from '../../src/platform/jobs/render-activity.ts';
import { createLogger } from '../../src/platform/logger.ts';
import type { ModeDefinition } from '../../src/platform/modes/mode.ts';
import { UrlGuard } from '../../src/platform/net/url-guard.ts';
import { benchDatabase } from '../support/bench-database.ts';
import { timed } from '../support/cpu-time.ts';
import { describeLoad, verdict, watchMachineLoad } from '../support/machine-load.ts';

// bench/ai-video (issue 11 item 7): on the local motion engine, a 10 s 1080×1920 image-to-video (a slow zoom in
// on a photo, music bed) and a 30 s narrated text-to-video (library footage with a camera move per shot,
// narration, word captions, music), each against a bare re-encode of its own output with the same codec
// settings, in one run. Targets: wall ratio ≤ 1.5, Node peak RSS ≤ 300 MB.
//
//   node --import tsx bench/ai-video/run.ts [--only image_to_video|text_to_video] [--keep DIR]
//
// The footage library is warmed first, in a child process (so its memory is not the measured process's), and
// the resampler's WebAssembly kernel is compiled once before timing, as in a running service (its one-time cost
// is printed). The photo is a real one (a person, from the @vladmandic/human package's sample pictures) served
// on loopback, as a caller's image_url would be fetched.

const { values } = parseArgs({
  options: { keep: { type: 'string' }, only: { type: 'string' }, 'warm-only': { type: 'boolean' } },
});

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

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
  const kernelStart = performance.now();
  // Compiled here so that its one-time cost is shown apart from the renders.
  await YuvResampler.create({ source: { width: 2, height: 2 }, output: { width: 2, height: 2 } });
  console.log(
    `resampler kernel compiled in ${fmt((performance.now() - kernelStart) / 1000, 2)} s (once per process)`,
  );
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
    const mode = setup.modes.find((m) => m.name === bench.mode) as ModeDefinition;
    const video = join(dir, `${bench.mode}.mp4`);
    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    console.log(`${bench.name}: Node RSS before ${mb(rssBefore)} MB`);
    // Each stage keeps the highest RSS seen while it ran, so the report says which stage makes the peak.
    const starts: { stage: string; at: number; rssPeak: number }[] = [];
    const sampler = setInterval(() => {
      const rss = process.memoryUsage.rss();
      rssPeak = Math.max(rssPeak, rss);
      const current = starts.at(-1);
      if (current) current.rssPeak = Math.max(current.rssPeak, rss);
    }, 50);
    const mark = (stage: string) => {
      if (starts.at(-1)?.stage !== stage)
        starts.push({ stage, at: performance.now(), rssPeak: process.memoryUsage.rss() });
    };
    const load = watchMachineLoad();
    const pipeline = await timed(async () => {
      const workDir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-work-'));
      try {
        const services = cliServices(config, database, workDir, null);
        mark('validate');
        const prepared = await prepareRender(mode, bench.body, services);
        const output = await runRender(prepared, {
          services,
          workDir,
          signal: new AbortController().signal,
          log,
          jobId: `bench_ai_video_${index}_${Date.now()}`,
          onProgress: (step) => mark(step.stage),
        });
        mark('deliver');
        await deliverFiles(output, video, false);
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    });
    clearInterval(sampler);
    const end = performance.now();
    const stages = starts.map(
      ({ stage, at, rssPeak: peak }, i) =>
        `${stage} ${fmt(((starts[i + 1]?.at ?? end) - at) / 1000)} s (${mb(peak)} MB)`,
    );
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
    const ratio = pipeline.timing.wall / baseline.timing.wall;
    const cpuRatio = (pipeline.timing.childCpu + pipeline.timing.nodeCpu) / baseline.timing.childCpu;
    console.log(
      `${bench.name}: pipeline ${fmt(pipeline.timing.wall)} s (children cpu ${fmt(pipeline.timing.childCpu)} s, node cpu ${fmt(pipeline.timing.nodeCpu)} s); ` +
        `bare re-encode ${fmt(baseline.timing.wall)} s (cpu ${fmt(baseline.timing.childCpu)} s); ${info.video?.width}x${info.video?.height}, ${fmt(info.durationSec, 2)} s`,
    );
    rows.push(
      `| ${bench.name} | ${fmt(pipeline.timing.wall)} s | ${fmt(baseline.timing.wall)} s | **${fmt(ratio, 2)}** ${verdict(ratio <= 1.5, loadReport)} | ${fmt(cpuRatio, 2)} | **${mb(rssPeak)} MB** ${mb(rssPeak) <= 300 ? 'met' : 'missed'} |`,
    );
    summaries.push({
      case: bench.mode,
      video_sec: Math.round(info.durationSec * 100) / 100,
      pipeline_wall_sec: Math.round(pipeline.timing.wall * 10) / 10,
      pipeline_cpu_sec: Math.round((pipeline.timing.childCpu + pipeline.timing.nodeCpu) * 10) / 10,
      baseline_wall_sec: Math.round(baseline.timing.wall * 10) / 10,
      baseline_cpu_sec: Math.round(baseline.timing.childCpu * 10) / 10,
      ratio: Math.round(ratio * 100) / 100,
      cpu_ratio: Math.round(cpuRatio * 100) / 100,
      rss_before_mb: mb(rssBefore),
      rss_peak_mb: mb(rssPeak),
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
