import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  buildMode,
  cliServices,
  deliverFiles,
  prepareRender,
  runRender,
  type ProgressStep,
} from '../../src/cli/render.ts';
import { DEFAULT_ENCODING } from '../../src/media/compose/compose-spec.ts';
import { probeMedia } from '../../src/media/ffmpeg/probe.ts';
import { runFfmpeg } from '../../src/media/ffmpeg/runner.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { RenderActivity } from '../../src/platform/jobs/render-activity.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { benchDatabase } from '../support/bench-database.ts';
import { childCpuSeconds, ownCpuSeconds, timed } from '../support/cpu-time.ts';
import { describeLoad, verdict, watchMachineLoad } from '../support/machine-load.ts';
import { deliveryEncodeArgs } from '../../src/media/ffmpeg/delivery-encode.ts';

// bench/render (issue 3 item 12): a 30 s stock video end to end, through the same pipeline as
// `npm run render` (validation, script, voice, footage, music, captions, one compose, poster), against a
// bare ffmpeg encode of an output of the same size and length on the same machine, in one run.
//
//   node --import tsx bench/render/run.ts [--seconds 30] [--keep DIR]
//
// The footage library is warmed (the whole catalogue generated, as LIBRARY_SEED=background does) before
// anything is timed. The baseline re-encodes the pipeline's own output with the same codec settings, so the
// content is exactly as hard to encode; a bare testsrc2 encode is shown for reference. The Node process's
// RSS is sampled every 100 ms during the pipeline (ffmpeg children are separate processes, not counted).
// Wall times depend on other load on this 2-core machine, so the CPU seconds of the ffmpeg/espeak/
// pocketsphinx children (from /proc/self/stat) and of Node itself are printed too.

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    keep: { type: 'string' },
  },
});
const seconds = Number(values.seconds);

const REQUEST = {
  topic: 'how compound interest grows savings',
  duration_sec: seconds,
  content_purpose: 'education',
  brand: { name: 'Acme Savings', accent_color: '#22C55E' },
  progress_bar: { enabled: true, position: 'top' },
};
/** Fixed, so every run writes the same script and picks the same footage and music. */
const JOB_ID = 'bench_render';

interface StageStart {
  stage: string;
  /** performance.now() */
  at: number;
  /** CPU seconds of this process and of its finished children so far. */
  cpu: number;
}

const cpuNow = () => childCpuSeconds() + ownCpuSeconds();

/** Stage → [wall s, CPU s], each stage lasting until the next one starts (the last until `end`). */
function stageDurations(starts: StageStart[], end: StageStart): [string, number, number][] {
  return starts.map(({ stage, at, cpu }, i) => {
    const next = starts[i + 1] ?? end;
    return [stage, (next.at - at) / 1000, next.cpu - cpu];
  });
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

const dir = values.keep ?? (await mkdtemp(join(tmpdir(), 'reelsmith-bench-render-')));
const config = loadConfig({ ...process.env, LIBRARY_SEED: 'background' });
const log = createLogger('warn', 'stderr');
const dbServer = await benchDatabase();
const database = openDatabase(dbServer.url, { max: 4 });
try {
  await migrate(database.pool);
  const { mode, warmLibrary } = buildMode(config, database, log);
  console.log(`library ${config.libraryDir}: warming (generates what is missing)…`);
  if (!warmLibrary) throw new Error('the stock mode offers no library warm-up');
  // Nothing renders meanwhile: a render activity of its own, which stays idle.
  const idle = new RenderActivity(join(dir, 'renders'));
  const warm = await timed(() => warmLibrary(new AbortController().signal, idle));
  console.log(`library warm in ${fmt(warm.timing.wall)} s`);

  const encoding = {
    preset: config.renderPreset,
    crf: DEFAULT_ENCODING.crf,
    audioKbps: DEFAULT_ENCODING.audioBitrateKbps,
  };
  console.log(
    `pipeline: ${seconds} s stock video, 1080x1920 30 fps, libx264 ${encoding.preset} crf ${encoding.crf}, AAC ${encoding.audioKbps}k`,
  );

  // Pipeline, with the Node process's RSS sampled every 100 ms.
  const rssBefore = process.memoryUsage.rss();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 100);
  const starts: StageStart[] = [];
  const mark = (stage: string) => {
    if (starts.at(-1)?.stage !== stage) starts.push({ stage, at: performance.now(), cpu: cpuNow() });
  };
  const video = join(dir, 'pipeline.mp4');
  const load = watchMachineLoad();
  const pipeline = await timed(async () => {
    // With --keep the job's work folder (narration, captions, the stages' results) is kept too.
    const workDir = await mkdtemp(join(values.keep ?? tmpdir(), 'reelsmith-bench-work-'));
    try {
      const services = cliServices(config, database, workDir, null);
      mark('validate');
      const prepared = await prepareRender(mode, REQUEST, services);
      const output = await runRender(prepared, {
        services,
        workDir,
        signal: new AbortController().signal,
        log,
        jobId: JOB_ID,
        onProgress: (step: ProgressStep) => mark(step.stage),
      });
      mark('deliver');
      await deliverFiles(output, video, false);
      return output;
    } finally {
      if (!values.keep) await rm(workDir, { recursive: true, force: true });
    }
  });
  const pipelineEnd: StageStart = { stage: 'end', at: performance.now(), cpu: cpuNow() };
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  const info = await probeMedia(video);
  const duration = info.durationSec;
  console.log(
    `pipeline wall ${fmt(pipeline.timing.wall)} s (children cpu ${fmt(pipeline.timing.childCpu)} s, node cpu ${fmt(pipeline.timing.nodeCpu)} s): ` +
      `${info.video?.width}x${info.video?.height} ${info.video?.codec} ${info.video?.fps} fps + ${info.audio?.codec}, ${fmt(duration, 2)} s`,
  );
  const stages = stageDurations(starts, pipelineEnd);
  console.log(`stages (wall): ${stages.map(([s, t]) => `${s} ${fmt(t)} s`).join(', ')}`);
  console.log(`stages (CPU): ${stages.map(([s, , c]) => `${s} ${fmt(c)} s`).join(', ')}`);

  const codec = deliveryEncodeArgs({
    preset: encoding.preset,
    crf: encoding.crf,
    fps: 30,
    forceFps: true,
    audioBitrateKbps: encoding.audioKbps,
    durationSec: duration,
  });
  // Baseline: the finished video's own frames and sound, decoded and encoded again with the same settings.
  const baseline = await timed(() =>
    runFfmpeg([
      '-y',
      '-i',
      video,
      '-map',
      '0:v:0',
      '-map',
      '0:a:0',
      ...codec,
      join(dir, 'bare-reencode.mp4'),
    ]),
  );
  console.log(
    `bare re-encode of the output: wall ${fmt(baseline.timing.wall)} s (cpu ${fmt(baseline.timing.childCpu)} s)`,
  );
  const testsrc = await timed(() =>
    runFfmpeg([
      ...'-y -f lavfi -i testsrc2=s=1080x1920:r=30 -f lavfi -i sine=f=440:r=48000'.split(' '),
      ...codec,
      join(dir, 'bare-testsrc2.mp4'),
    ]),
  );
  console.log(
    `bare testsrc2 encode: wall ${fmt(testsrc.timing.wall)} s (cpu ${fmt(testsrc.timing.childCpu)} s)`,
  );

  const loadReport = load.finish();
  console.log(describeLoad(loadReport));
  const mb = (bytes: number) => bytes / (1024 * 1024);
  const ratio = pipeline.timing.wall / baseline.timing.wall;
  const cpuRatio = (pipeline.timing.childCpu + pipeline.timing.nodeCpu) / baseline.timing.childCpu;
  const summary = {
    date: new Date().toISOString(),
    cpus: cpus().length,
    load_1m_before: Math.round(loadReport.loadBefore * 100) / 100,
    load_1m_after: Math.round(loadReport.loadAfter * 100) / 100,
    other_cores_busy: Math.round(loadReport.otherCores * 100) / 100,
    quiet: loadReport.quiet,
    preset: encoding.preset,
    video_sec: Math.round(duration * 100) / 100,
    pipeline_wall_sec: Math.round(pipeline.timing.wall * 10) / 10,
    baseline_reencode_wall_sec: Math.round(baseline.timing.wall * 10) / 10,
    testsrc2_wall_sec: Math.round(testsrc.timing.wall * 10) / 10,
    ratio: Math.round(ratio * 100) / 100,
    cpu_ratio: Math.round(cpuRatio * 100) / 100,
    rss_before_mb: Math.round(mb(rssBefore)),
    rss_peak_mb: Math.round(mb(rssPeak)),
    stages_sec: Object.fromEntries(stages.map(([s, t]) => [s, Math.round(t * 10) / 10])),
    stages_cpu_sec: Object.fromEntries(stages.map(([s, , c]) => [s, Math.round(c * 10) / 10])),
  };
  console.log('');
  console.log(
    '| video | pipeline wall | bare re-encode | wall ratio (target ≤ 1.25) | CPU ratio (target ≤ 1.15) | testsrc2 encode | peak RSS (target ≤ 300 MB) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  console.log(
    `| ${fmt(duration)} s | ${fmt(pipeline.timing.wall)} s | ${fmt(baseline.timing.wall)} s | **${fmt(ratio, 2)}** ${verdict(ratio <= 1.25, loadReport)} | ` +
      `**${fmt(cpuRatio, 2)}** ${verdict(cpuRatio <= 1.15, loadReport)} | ${fmt(testsrc.timing.wall)} s | **${Math.round(mb(rssPeak))} MB** ${mb(rssPeak) <= 300 ? 'met' : 'missed'} (${Math.round(mb(rssBefore))} MB at start) |`,
  );
  console.log('');
  console.log(JSON.stringify(summary));
} finally {
  await database.close();
  await dbServer.stop();
  if (!values.keep) await rm(dir, { recursive: true, force: true });
}
