import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import sharp from 'sharp';
import { cliServices, deliverFiles, prepareRender, runRender } from '../../src/cli/render.ts';
import { DEFAULT_ENCODING } from '../../src/media/compose/compose-spec.ts';
import { deliveryEncodeArgs } from '../../src/media/ffmpeg/delivery-encode.ts';
import { probeMedia } from '../../src/media/ffmpeg/probe.ts';
import { runFfmpeg } from '../../src/media/ffmpeg/runner.ts';
import { detectFaces, segmentPerson, visionProcessId } from '../../src/media/vision/index.ts';
import { productModes } from '../../src/modes/index.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { openDatabase, type DatabaseHandle, type Db } from '../../src/platform/db/database.ts';
import { migrate } from '../../src/platform/db/migrate.ts';
import { Idempotency } from '../../src/platform/idempotency/idempotency.ts';
import { RenderActivity } from '../../src/platform/jobs/render-activity.ts';
import { topUp } from '../../src/platform/ledger/ledger.ts';
import { createLogger } from '../../src/platform/logger.ts';
import type { ModeDefinition } from '../../src/platform/modes/mode.ts';
import { UrlGuard } from '../../src/platform/net/url-guard.ts';
import { LocalMediaStore } from '../../src/platform/storage/media-store.ts';
import { normalisePhoto, PersonaService } from '../../src/presenters/personas/index.ts';
import { checkContent } from '../../src/presenters/safety/content-check.ts';
import { cutToFile, MAN_AT_TABLE, SAMPLES } from '../../test/support/sample-photos.ts';
import { benchDatabase } from '../support/bench-database.ts';
import { timed } from '../support/cpu-time.ts';
import { describeLoad, verdict, watchMachineLoad } from '../support/machine-load.ts';

// bench/presenter (issue 12 item 8): a persona made from a real photo as POST /avatars makes it (fetched over
// loopback, analysed, stored, charged), with the face analysis timed per photo at three sizes; then on the
// local avatar_iii engine a 30 s 1080×1920 talking head and a 30 s creator layout (B-roll per sentence, the
// presenter cut out, seam captions, music, logo and outro card), each against a bare re-encode of its own output
// with the same codec settings, in one run. Targets: wall ratio ≤ 2, Node peak RSS ≤ 400 MB. The scripts are
// sent (no writer in the timing) and long enough for 30 s: the local voice speaks about 3.3 words a second.
//
//   node --import tsx bench/presenter/run.ts [--only talking_head|creator] [--keep DIR] [--personas-apart]
//
// The footage library is warmed first in a child process, so its memory is not the measured process's. The
// personas are made in the measured process, as `npm start` (API and worker in one process) makes them; the
// vision models they need run in a child process of it that exits when idle, whose peak RSS is printed apart
// and together with this process's.
// --personas-apart makes them in a child process instead, as an API node apart from the worker (RUN_WORKER=0)
// would: the renders' Node RSS is then the worker's alone.

const { values } = parseArgs({
  options: {
    keep: { type: 'string' },
    only: { type: 'string' },
    'personas-apart': { type: 'boolean' },
    'warm-only': { type: 'boolean' },
    // Internal: the child process of --personas-apart, given the photo server's address.
    'personas-only': { type: 'string' },
  },
});

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));
/** RSS and what V8 knows of it: its heap, Buffers, and other external memory (WebAssembly memories count there). */
function memory(): string {
  const m = process.memoryUsage();
  return (
    `${mb(m.rss)} MB (JS heap ${mb(m.heapUsed)}, Buffers ${mb(m.arrayBuffers)}, ` +
    `WebAssembly and other external ${mb(m.external - m.arrayBuffers)})`
  );
}
/** A process's current (VmRSS) or peak (VmHWM) resident set from /proc, in bytes; 0 once it has exited. */
function procMemory(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const kb = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`));
    return kb ? Number(kb[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Peak RSS sampled every 50 ms: of this process (the figure the target is about), of the vision models' child
 * process (src/media/vision/vision-process-client.ts; its own high-water mark, so no peak falls between
 * samples), and of both together.
 */
function watchMemory() {
  const peaks = { node: process.memoryUsage.rss(), vision: 0, together: 0 };
  const sample = () => {
    const node = process.memoryUsage.rss();
    const pid = visionProcessId();
    const vision = pid === null ? 0 : procMemory(pid, 'VmRSS');
    peaks.node = Math.max(peaks.node, node);
    if (pid !== null) peaks.vision = Math.max(peaks.vision, procMemory(pid, 'VmHWM'));
    peaks.together = Math.max(peaks.together, node + vision);
    return node;
  };
  const timer = setInterval(sample, 50);
  return {
    peaks,
    sample,
    stop: () => {
      sample();
      clearInterval(timer);
      return peaks;
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Photo widths analysed (the sample is 4:3, its face a sixth of the height; at 640 px the face is under the
 * policy's 128 px): the persona the videos use is made from the middle one.
 */
const PHOTO_WIDTHS = [844, 1280, 2048] as const;
const PERSONA_WIDTH = 1280;
/** Warm runs of each analysis step per photo; the median is reported. */
const REPEATS = 3;
/** The account a local render runs as (src/cli/render.ts): personas belong to an account. */
const RENDER_ACCOUNT = 'cli';

const config = loadConfig({ ...process.env, LIBRARY_SEED: 'background', REELSMITH_ALLOW_LOOPBACK_URLS: '1' });
const log = createLogger('warn', 'stderr');
const dbServer = await benchDatabase();
const database = openDatabase(dbServer.url, { max: 4 });

if (values['warm-only']) {
  try {
    await migrate(database.pool);
    const setup = productModes({
      config,
      db: database.db,
      log,
      urlGuard: new UrlGuard({ allowLoopback: true }),
    });
    console.log(`library ${config.libraryDir}: warming (generates what is missing)…`);
    const scratch = await mkdtemp(join(tmpdir(), 'reelsmith-bench-presenter-warm-'));
    try {
      await setup.background?.(new AbortController().signal, new RenderActivity(scratch));
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  } finally {
    await database.close();
  }
  process.exit(0);
}

const dir = values.keep ?? (await mkdtemp(join(tmpdir(), 'reelsmith-bench-presenter-')));
await mkdir(dir, { recursive: true });
// One media store for the personas and the renders: a render reads the persona's photo and mask from it.
const store = new LocalMediaStore(join(dir, 'media'), config.publicBaseUrl, randomBytes(32).toString('hex'));

// The persona service's own "persona ready" lines carry its face and segmentation timings; warnings and
// errors still reach stderr.
const personaTimings: { facesMs: number; segmentMs: number; totalMs: number }[] = [];
const personaLog = pino(
  { level: 'info' },
  {
    write(line: string) {
      const entry = JSON.parse(line) as {
        level: number;
        msg: string;
        facesMs: number;
        segmentMs: number;
        totalMs: number;
      };
      if (entry.msg === 'persona ready') personaTimings.push(entry);
      else if (entry.level >= 40) process.stderr.write(line);
    },
  },
);

/** The render account with a balance for the personas' charges ($2.65 each). */
async function renderAccount(db: Db, cents: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('accounts')
      .values({
        id: RENDER_ACCOUNT,
        name: 'bench-presenter',
        webhook_secret: `whsec_${randomBytes(24).toString('base64url')}`,
      })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    await topUp(tx, RENDER_ACCOUNT, cents, 'bench/presenter balance');
  });
}

interface PersonaBench {
  avatarId: string;
  rows: string[];
  summaries: Record<string, unknown>[];
  rssPeak: number;
  /** Peak RSS of the vision models' child process, and of it and the persona-making process together. */
  visionPeak: number;
  togetherPeak: number;
}

/**
 * Makes a persona from each photo as POST /avatars does (fetch, analysis, storage, charge), the first of them
 * loading the vision runtime, and times the analysis steps on each photo; answers the first persona's id.
 */
async function makePersonas(
  handle: DatabaseHandle,
  fileBase: string,
  say: (line: string) => void,
): Promise<PersonaBench> {
  const personas = new PersonaService({
    db: handle.db,
    store,
    urlGuard: new UrlGuard({ allowLoopback: true }),
    idempotency: new Idempotency(handle.db),
    config,
    log: personaLog,
    providerEngines: [],
    readyWaitMs: 600_000,
  });
  const rows: string[] = [];
  const summaries: Record<string, unknown>[] = [];
  let created = 0;
  /** POST /avatars without HTTP: answers the avatar id and the service's own timings. */
  const createPersona = async (width: number) => {
    created += 1;
    const answer = await personas.create({
      caller: { accountId: RENDER_ACCOUNT, keyId: 'bench', sandbox: false },
      requestId: `req_bench_presenter_${created}`,
      idempotencyKey: `bench-presenter-${Date.now()}-${created}`,
      repeatToken: undefined,
      body: { image_url: `${fileBase}/photo-${width}.png`, name: `Bench ${width} px #${created}` },
    });
    if (answer.status !== 201)
      throw new Error(`POST /avatars answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    const timings = personaTimings.at(-1);
    if (personaTimings.length !== created || !timings)
      throw new Error('the persona service logged no timings');
    return { avatarId: (answer.body.data as { avatar_id: string }).avatar_id, timings };
  };
  const row = (
    label: string,
    width: number,
    create: { wall: number; nodeCpu: number },
    t: { facesMs: number; segmentMs: number },
    steps?: string,
  ) => {
    const height = Math.round((width * MAN_AT_TABLE.height) / MAN_AT_TABLE.width);
    rows.push(
      `| ${label} | ${width}×${height} | ${fmt(create.wall, 2)} s | ${fmt(create.nodeCpu, 2)} s | ${fmt(t.facesMs / 1000, 2)} s | ${fmt(t.segmentMs / 1000, 2)} s | ${steps ?? '—'} |`,
    );
  };

  const rssBeforeVision = process.memoryUsage.rss();
  say(`Node RSS before the vision runtime ${memory()}`);
  const watch = watchMemory();
  const cold = await timed(() => createPersona(PERSONA_WIDTH));
  const rssAfterVision = process.memoryUsage.rss();
  say(
    `persona (first, loads the models) from a ${PERSONA_WIDTH} px photo: ${fmt(cold.timing.wall, 2)} s ` +
      `(faces ${fmt(cold.result.timings.facesMs / 1000, 2)} s, segmentation ${fmt(cold.result.timings.segmentMs / 1000, 2)} s); ` +
      `Node RSS after ${memory()}`,
  );
  row('first persona (models load)', PERSONA_WIDTH, cold.timing, cold.result.timings);
  summaries.push({
    photo_width: PERSONA_WIDTH,
    first: true,
    create_wall_sec: Math.round(cold.timing.wall * 100) / 100,
    create_cpu_sec: Math.round(cold.timing.nodeCpu * 100) / 100,
    faces_sec: Math.round(cold.result.timings.facesMs) / 1000,
    segment_sec: Math.round(cold.result.timings.segmentMs) / 1000,
    rss_before_mb: mb(rssBeforeVision),
    rss_after_mb: mb(rssAfterVision),
  });

  for (const width of PHOTO_WIDTHS) {
    const warmCreate = await timed(() => createPersona(width));
    // The steps of the analysis alone, on the photo as the service normalises it: the box search over tiles
    // (maxFaces 0 analyses none), the whole face pass (boxes, 478-point mesh with iris, descriptor), the cut-out.
    const photo = await normalisePhoto(join(dir, `photo-${width}.png`));
    const runs = { boxes: [] as number[], faces: [] as number[], segment: [] as number[] };
    for (let i = 0; i < REPEATS; i++) {
      runs.boxes.push((await timed(() => detectFaces(photo, { maxFaces: 0 }))).timing.wall);
      const faces = await timed(() => detectFaces(photo));
      if (faces.result.length !== 1)
        throw new Error(`${faces.result.length} faces found in the ${width} px photo`);
      runs.faces.push(faces.timing.wall);
      runs.segment.push((await timed(() => segmentPerson(photo))).timing.wall);
    }
    const [boxes, faces, segment] = [median(runs.boxes), median(runs.faces), median(runs.segment)];
    const steps = `boxes ${fmt(boxes, 2)} s, + mesh and descriptor ${fmt(faces - boxes, 2)} s, segmentation ${fmt(segment, 2)} s`;
    say(
      `persona from a ${width} px photo: ${fmt(warmCreate.timing.wall, 2)} s (node cpu ${fmt(warmCreate.timing.nodeCpu, 2)} s); ` +
        `faces ${fmt(warmCreate.result.timings.facesMs / 1000, 2)} s, segmentation ${fmt(warmCreate.result.timings.segmentMs / 1000, 2)} s; ` +
        `steps (median of ${REPEATS}): ${steps}`,
    );
    row('warm', width, warmCreate.timing, warmCreate.result.timings, steps);
    summaries.push({
      photo_width: width,
      first: false,
      create_wall_sec: Math.round(warmCreate.timing.wall * 100) / 100,
      create_cpu_sec: Math.round(warmCreate.timing.nodeCpu * 100) / 100,
      faces_sec: Math.round(warmCreate.result.timings.facesMs) / 1000,
      segment_sec: Math.round(warmCreate.result.timings.segmentMs) / 1000,
      boxes_sec: Math.round(boxes * 1000) / 1000,
      full_faces_sec: Math.round(faces * 1000) / 1000,
      segmentation_sec: Math.round(segment * 1000) / 1000,
    });
  }
  const peaks = watch.stop();
  say(`Node RSS after ${created} personas and the analysis steps ${memory()}`);
  say(
    `peak RSS while analysing: this process ${mb(peaks.node)} MB, the vision process ${mb(peaks.vision)} MB, ` +
      `both together ${mb(peaks.together)} MB`,
  );
  return {
    avatarId: cold.result.avatarId,
    rows,
    summaries,
    rssPeak: peaks.node,
    visionPeak: peaks.vision,
    togetherPeak: peaks.together,
  };
}

if (values['personas-only']) {
  try {
    const made = await makePersonas(database, values['personas-only'], (line) => console.error(line));
    console.log(JSON.stringify(made));
  } catch (error) {
    // Printed here: the WebAssembly backend's own unhandled-rejection hook would print its whole source instead.
    console.error(error);
    process.exitCode = 1;
  } finally {
    await database.close();
  }
  process.exit();
}

const served = new Map<string, { type: string; body: Buffer }>();
for (const width of PHOTO_WIDTHS) {
  const path = await cutToFile(SAMPLES, MAN_AT_TABLE, dir, `photo-${width}`, { width });
  served.set(`/photo-${width}.png`, { type: 'image/png', body: await readFile(path) });
}
// A brand logo with transparency: a coloured disc with a white bar, as a real logo PNG would be.
const logo = await sharp(
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">' +
      '<circle cx="256" cy="256" r="240" fill="#E6285A"/><rect x="136" y="226" width="240" height="60" fill="#FFFFFF"/></svg>',
  ),
)
  .png()
  .toBuffer();
served.set('/logo.png', { type: 'image/png', body: logo });
const files = http.createServer((req, res) => {
  const file = served.get(req.url ?? '');
  if (!file) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body);
});
await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
const fileBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

/** The personas made in a child process, which shares this one's database, photo server and media store. */
async function personasApart(): Promise<PersonaBench> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--personas-only', fileBase, '--keep', dir],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DATABASE_URL: dbServer.url } },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) throw new Error(`the personas' process failed (exit ${code})`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as PersonaBench;
}

const CASES: {
  name: string;
  key: string;
  layout: string;
  body: (avatarId: string) => Record<string, unknown>;
}[] = [
  {
    name: '30 s talking head, 1080x1920 (avatar_iii, karaoke captions, music)',
    key: 'talking_head',
    layout: 'talking_head',
    body: (avatarId) => ({
      avatar_id: avatarId,
      script:
        'Here is the one habit that changed my mornings. I stopped checking my phone for the first hour of the day. ' +
        'At first it felt strange, almost uncomfortable, and I kept reaching for it out of habit. By the third day I ' +
        'noticed something. I was calmer, I ate breakfast slowly, and I planned my work before anyone else could ' +
        'plan it for me. My focus lasted longer, and the afternoons felt lighter too. You do not need an app or a ' +
        'course for this. Put the phone in another room tonight and try it tomorrow morning.',
    }),
  },
  {
    name: '30 s creator layout, 1080x1920 (B-roll per sentence, cut-out presenter, seam captions, music, logo, outro)',
    key: 'creator',
    layout: 'creator',
    body: (avatarId) => ({
      avatar_id: avatarId,
      format: 'presenter_broll',
      script:
        'Most people brew coffee too hot and then wonder why it tastes bitter. Boiling water pulls harsh flavours ' +
        'out of the grounds, so let the kettle rest for thirty seconds first. Use about one gram of coffee for every ' +
        'sixteen grams of water, and weigh it once so you learn what that looks like. Grind the beans just before ' +
        'you brew, because ground coffee goes stale within minutes. Keep the beans in a sealed jar away from light. ' +
        'Try these three changes this week and taste the difference.',
      brand: { name: 'Northwind Coffee', logo_url: `${fileBase}/logo.png`, accent_color: '#E6285A' },
      outro_cta: 'Follow for more coffee tips',
    }),
  },
];

const apart = values['personas-apart'] === true;
const rows: string[] = [];
let anyLoaded = false;
const summaries: Record<string, unknown>[] = [];
let overallPeak = process.memoryUsage.rss();
try {
  await migrate(database.pool);
  // The child uses this process's database, where the library's clips are recorded.
  const warm = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--warm-only'],
    { stdio: 'inherit', env: { ...process.env, DATABASE_URL: dbServer.url } },
  );
  if (warm.status !== 0) throw new Error('the library warm-up failed');
  const setup = productModes({
    config,
    db: database.db,
    log,
    urlGuard: new UrlGuard({ allowLoopback: true }),
  });
  await renderAccount(database.db, 10_000);
  if (apart) console.log('personas made in a child process (an API node apart from the worker):');
  const personaBench = apart
    ? await personasApart()
    : await makePersonas(database, fileBase, (line) => console.log(line));
  if (!apart) overallPeak = Math.max(overallPeak, personaBench.rssPeak);
  const { avatarId } = personaBench;

  // Compiled here so that its one-time cost is shown apart from the renders, as the resampler's kernel is in
  // bench/ai-video: the first presenter request of a process builds the script policy's rules.
  const rssBeforePolicy = process.memoryUsage.rss();
  const policy = await timed(() => checkContent({ text: 'A first script for the content policy.' }));
  console.log(
    `script policy rules compiled in ${fmt(policy.timing.wall, 2)} s (once per process); ` +
      `Node RSS ${mb(rssBeforePolicy)} → ${mb(process.memoryUsage.rss())} MB`,
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
  const mode = setup.modes.find((m) => m.name === 'ai_influencer') as ModeDefinition;

  for (const [index, bench] of CASES.entries()) {
    if (values.only && bench.key !== values.only) continue;
    const video = join(dir, `${bench.key}.mp4`);
    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    console.log(`${bench.name}: Node RSS before ${memory()}`);
    // Each stage keeps the highest RSS sampled while it ran: where the render's memory goes.
    const starts: { stage: string; at: number; rssPeak: number }[] = [];
    const sample = () => {
      const rss = process.memoryUsage.rss();
      rssPeak = Math.max(rssPeak, rss);
      const current = starts.at(-1);
      if (current) current.rssPeak = Math.max(current.rssPeak, rss);
    };
    const sampler = setInterval(sample, 50);
    const visionWatch = watchMemory();
    const mark = (stage: string) => {
      sample();
      if (starts.at(-1)?.stage !== stage) starts.push({ stage, at: performance.now(), rssPeak: 0 });
      sample();
    };
    const load = watchMachineLoad();
    const pipeline = await timed(async () => {
      const workDir = await mkdtemp(join(tmpdir(), 'reelsmith-bench-work-'));
      try {
        const services = { ...cliServices(config, database, workDir, null), store };
        mark('validate');
        const prepared = await prepareRender(mode, bench.body(avatarId), services);
        const output = await runRender(prepared, {
          services,
          workDir,
          signal: new AbortController().signal,
          log,
          jobId: `bench_presenter_${index}_${Date.now()}`,
          onProgress: (step) => mark(step.stage),
        });
        mark('deliver');
        await deliverFiles(output, video, false);
        return output.artifacts;
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    });
    clearInterval(sampler);
    const visionDuringRender = visionWatch.stop().vision;
    overallPeak = Math.max(overallPeak, rssPeak);
    const end = performance.now();
    const stages = starts.map(
      ({ stage, at, rssPeak: peak }, i) =>
        `${stage} ${fmt(((starts[i + 1]?.at ?? end) - at) / 1000)} s (RSS ≤ ${mb(peak)} MB)`,
    );
    console.log(
      `${bench.name}: stages ${stages.join(', ')}; Node RSS after ${memory()}; ` +
        (visionDuringRender > 0
          ? `the vision process ran, peaking at ${mb(visionDuringRender)} MB`
          : 'no vision process ran'),
    );
    // A fallback layout would be another video than the one named: say so rather than report it as this case.
    if (pipeline.result.layout !== bench.layout)
      throw new Error(
        `${bench.key} rendered as ${String(pipeline.result.layout)}: ${JSON.stringify(pipeline.result.layout_fallbacks)}`,
      );
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
      `| ${bench.name}${apart ? ', personas made apart' : ''} | ${fmt(pipeline.timing.wall)} s | ${fmt(baseline.timing.wall)} s | **${fmt(ratio, 2)}** ${verdict(ratio <= 2, loadReport)} | ${fmt(cpuRatio, 2)} | **${mb(rssPeak)} MB** ${mb(rssPeak) <= 400 ? 'met' : 'missed'} (${mb(rssBefore)} MB before) |`,
    );
    summaries.push({
      case: bench.key,
      video_sec: Math.round(info.durationSec * 100) / 100,
      pipeline_wall_sec: Math.round(pipeline.timing.wall * 10) / 10,
      pipeline_cpu_sec: Math.round((pipeline.timing.childCpu + pipeline.timing.nodeCpu) * 10) / 10,
      node_cpu_sec: Math.round(pipeline.timing.nodeCpu * 10) / 10,
      baseline_wall_sec: Math.round(baseline.timing.wall * 10) / 10,
      baseline_cpu_sec: Math.round(baseline.timing.childCpu * 10) / 10,
      ratio: Math.round(ratio * 100) / 100,
      cpu_ratio: Math.round(cpuRatio * 100) / 100,
      stages: Object.fromEntries(
        starts.map(({ stage, at, rssPeak: peak }, i) => [
          stage,
          { sec: Math.round(((starts[i + 1]?.at ?? end) - at) / 100) / 10, rss_peak_mb: mb(peak) },
        ]),
      ),
      rss_before_mb: mb(rssBefore),
      rss_peak_mb: mb(rssPeak),
      vision_rss_peak_mb: mb(visionDuringRender),
    });
  }
  console.log('');
  console.log(
    '| persona | photo | POST /avatars equivalent | its Node CPU | faces (service log) | segmentation (service log) | steps, warm (median) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of personaBench.rows) console.log(row);
  console.log('');
  console.log(
    `while the personas were analysed${apart ? ' (in their own process)' : ''}: Node peak RSS ` +
      `**${mb(personaBench.rssPeak)} MB** ${mb(personaBench.rssPeak) <= 400 ? 'met' : 'missed'}; ` +
      `the vision process ${mb(personaBench.visionPeak)} MB; both together ${mb(personaBench.togetherPeak)} MB`,
  );
  console.log('');
  console.log(
    '| case | pipeline wall | bare re-encode | ratio (target ≤ 2) | CPU ratio | Node peak RSS (target ≤ 400 MB) |',
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
      node_rss_peak_mb: mb(overallPeak),
      personas_rss_peak_mb: mb(personaBench.rssPeak),
      vision_rss_peak_mb: mb(personaBench.visionPeak),
      personas_and_vision_rss_peak_mb: mb(personaBench.togetherPeak),
      personas_apart: apart,
      personas: personaBench.summaries,
      cases: summaries,
    }),
  );
} catch (error) {
  // Printed here: the WebAssembly backend's own unhandled-rejection hook would print its whole source instead.
  console.error(error);
  process.exitCode = 1;
} finally {
  await database.close();
  await dbServer.stop();
  await new Promise((resolve) => files.close(resolve));
  if (!values.keep) await rm(dir, { recursive: true, force: true });
}
