import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cliServices, prepareRender, runRender } from '../../src/cli/render.ts';
import { probeMedia } from '../../src/media/ffmpeg/probe.ts';
import { productModes } from '../../src/modes/index.ts';
import { REVISE_MODE } from '../../src/modes/revise/revise-mode.ts';
import { readRevisionPlan } from '../../src/modes/revise/revision-plan.ts';
import type { ReviseRequest } from '../../src/modes/revise/revise-request.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { createLogger } from '../../src/platform/logger.ts';
import type { JobOutput, ModeDefinition, PipelineServices } from '../../src/platform/modes/mode.ts';
import { UrlGuard } from '../../src/platform/net/url-guard.ts';
import { benchDatabase } from '../support/bench-database.ts';
import { timed, type Timing } from '../support/cpu-time.ts';
import { describeLoad, verdict, watchMachineLoad } from '../support/machine-load.ts';

// bench/revise (issue 17 item 7): what a one-scene change to a 30 s stock video costs against rendering the
// video, on the same machine in one run. The source is rendered by the stock pipeline (a sent script, voice,
// footage, music, captions, one compose, scene segments kept); then revised three ways through
// the revision pipeline (docs/revision.md):
//   - a scene's line replaced by a shorter one (its scene keeps its length: one scene rendered again),
//   - a scene's line replaced by a much longer one (the video grows: the later scenes start later, their
//     segments still reused),
//   - a scene's footage replaced by a library clip (one scene rendered again, the narration untouched),
//   - the music turned down (no scene rendered: the audio is remixed and the segments re-muxed),
//   - the caption style changed (every scene rendered again: the worst case, as is a length change of a video
//     with a progress bar).
// Wall time depends on the other load of this shared 2-core machine; CPU seconds (ffmpeg and voice children
// plus Node) much less, so the target (a one-scene change under half the original) is judged on CPU.
//
//   node --import tsx bench/revise/run.ts [--seconds 30] [--keep DIR]

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '30' }, keep: { type: 'string' } },
});
const seconds = Number(values.seconds);
// A sent script (about 30 s narrated), so the video has its full length and one scene per sentence.
const REQUEST = {
  script:
    'Compound interest is interest earned on interest. You save a little every month. The bank pays you a small share each year. ' +
    'Next year, that share earns its own share. At first the growth looks tiny and slow. After ten years the curve starts to bend upward. ' +
    'After thirty years most of the money is interest, not deposits. Start early, keep going, and let time do the heavy lifting.',
  duration_sec: seconds,
  content_purpose: 'education',
  brand: { name: 'Acme Savings', accent_color: '#22C55E' },
};
const SOURCE_ID = 'bench_revise_source';

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const cpu = (t: Timing) => t.childCpu + t.nodeCpu;

const dir = values.keep ?? (await mkdtemp(join(tmpdir(), 'reelsmith-bench-revise-')));
const config = loadConfig({ ...process.env, LIBRARY_SEED: 'on_demand' });
const log = createLogger('warn', 'stderr');
const dbServer = await benchDatabase();
const database = openDatabase(dbServer.url, { max: 4 });
try {
  await migrate(database.pool);
  const setup = productModes({
    config,
    db: database.db,
    log,
    urlGuard: new UrlGuard({ allowLoopback: config.allowLoopbackUrls }),
  });
  const modeNamed = (name: string): ModeDefinition => {
    const mode = setup.modes.find((m) => m.name === name);
    if (!mode) throw new Error(`the ${name} mode is not registered`);
    return mode;
  };
  // One store for the source and its revisions, as on the server.
  const storeDir = join(dir, 'store');
  await mkdir(storeDir, { recursive: true });
  const services: PipelineServices = cliServices(config, database, storeDir, null);
  const run = async (
    mode: ModeDefinition,
    request: unknown,
    jobId: string,
    runServices = services,
  ): Promise<JobOutput> => {
    const workDir = await mkdtemp(join(dir, `work-${jobId}-`));
    return runRender(
      { mode, request, dryRun: false, warnings: [], estimate: mode.estimate(request) },
      {
        services: runServices,
        workDir,
        signal: new AbortController().signal,
        log,
        jobId,
        onProgress: () => {},
      },
    );
  };

  const stock = modeNamed('stock');
  const prepared = await prepareRender(stock, REQUEST, services);
  // The same render once untimed: the footage and music it picks are generated now if the library lacks them.
  console.log(`library ${config.libraryDir}: warming with an untimed render of the same request…`);
  await run(
    stock,
    prepared.request,
    SOURCE_ID,
    cliServices(config, database, await mkdtemp(join(dir, 'warm-')), null),
  );
  const load = watchMachineLoad();
  const source = await timed(() => run(stock, prepared.request, SOURCE_ID));
  const plan = (await readRevisionPlan(services.store, SOURCE_ID))!;
  const sourceVideo = source.result.files.find((f) => f.role === 'video')!.path;
  const sourceSec = (await probeMedia(sourceVideo)).durationSec;
  console.log(
    `source: ${fmt(sourceSec, 2)} s video, ${plan.scenes.length} scenes: wall ${fmt(source.timing.wall)} s, cpu ${fmt(cpu(source.timing))} s`,
  );

  const revise = modeNamed(REVISE_MODE);
  const middle = Math.floor(plan.scenes.length / 2);
  const clips = await database.db
    .selectFrom('stock_clips')
    .select('id')
    .where('status', '=', 'ready')
    .execute();
  const otherClip = clips.find((c) => !plan.scenes[middle]!.clipIds.includes(c.id))!.id;
  const cases: { name: string; request: ReviseRequest }[] = [
    {
      name: `scene ${middle} line (shorter)`,
      request: {
        source_job_id: SOURCE_ID,
        scenes: [{ index: middle, script_line: 'Start small, start today.' }],
      },
    },
    {
      name: `scene ${middle} line (longer: the later scenes start later)`,
      request: {
        source_job_id: SOURCE_ID,
        scenes: [
          {
            index: middle,
            script_line:
              'Even a small monthly deposit, left alone for decades, grows into a sum that surprises almost everyone who tries it, because every year the interest itself earns interest.',
          },
        ],
      },
    },
    {
      name: `scene ${middle} footage (clip_id)`,
      request: { source_job_id: SOURCE_ID, scenes: [{ index: middle, clip_id: otherClip }] },
    },
    { name: 'music volume', request: { source_job_id: SOURCE_ID, scenes: [], music: { volume: 0.2 } } },
    {
      name: 'caption style (every scene drawn again)',
      request: { source_job_id: SOURCE_ID, scenes: [], caption_style: { position: 'center' } },
    },
  ];
  const rows: string[] = [];
  const results: Record<string, unknown>[] = [];
  for (const [i, c] of cases.entries()) {
    const revision = await timed(() => run(revise, c.request, `bench_revision_${i}`));
    const record = revision.result.artifacts.revision as { rendered_scenes: number; reused_scenes: number };
    const wallRatio = revision.timing.wall / source.timing.wall;
    const cpuRatio = cpu(revision.timing) / cpu(source.timing);
    console.log(
      `${c.name}: rendered ${record.rendered_scenes}, reused ${record.reused_scenes}; wall ${fmt(revision.timing.wall)} s, cpu ${fmt(cpu(revision.timing))} s`,
    );
    rows.push(
      `| ${c.name} | ${record.rendered_scenes} of ${plan.scenes.length} | ${fmt(revision.timing.wall)} s (${fmt(wallRatio * 100, 0)} %) | ${fmt(cpu(revision.timing))} s (**${fmt(cpuRatio * 100, 0)} %**) |`,
    );
    results.push({
      case: c.name,
      rendered_scenes: record.rendered_scenes,
      wall_sec: Math.round(revision.timing.wall * 10) / 10,
      cpu_sec: Math.round(cpu(revision.timing) * 10) / 10,
      cpu_ratio: Math.round(cpuRatio * 100) / 100,
      wall_ratio: Math.round(wallRatio * 100) / 100,
    });
  }
  const loadReport = load.finish();
  console.log(describeLoad(loadReport));
  const oneScene = results[0]!.cpu_ratio as number;
  console.log('');
  console.log(
    `| change to the ${fmt(sourceSec, 0)} s video | scenes rendered | wall (of the source's) | CPU (of the source's) |`,
  );
  console.log('| --- | --- | --- | --- |');
  console.log(
    `| source render (stock pipeline) | ${plan.scenes.length} of ${plan.scenes.length} | ${fmt(source.timing.wall)} s | ${fmt(cpu(source.timing))} s |`,
  );
  for (const row of rows) console.log(row);
  console.log('');
  console.log(`one-scene change under half the source's CPU: ${verdict(oneScene < 0.5, loadReport)}`);
  console.log(
    JSON.stringify({
      date: new Date().toISOString(),
      cpus: cpus().length,
      quiet: loadReport.quiet,
      preset: config.renderPreset,
      video_sec: Math.round(sourceSec * 100) / 100,
      scenes: plan.scenes.length,
      source_wall_sec: Math.round(source.timing.wall * 10) / 10,
      source_cpu_sec: Math.round(cpu(source.timing) * 10) / 10,
      revisions: results,
    }),
  );
} finally {
  await database.close();
  await dbServer.stop();
  if (!values.keep) await rm(dir, { recursive: true, force: true });
}
