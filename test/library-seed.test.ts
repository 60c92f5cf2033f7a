import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { seedFootageRecipes, type FootageRecipe } from '../src/media/footage/procedural.ts';
import { StockLibrary } from '../src/media/library/stock-library.ts';
import { createAccount } from '../src/platform/accounts/accounts.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createLogger } from '../src/platform/logger.ts';
import { startRuntime, type Runtime } from '../src/platform/runtime.ts';
import { createTestDatabase } from './support/test-database.ts';
import { testMode, testPriceBook } from './support/test-mode.ts';
import { call, freePort } from './support/test-service.ts';

// The background library as the server runs it (LIBRARY_SEED=background through the runtime's background
// hook), on a catalogue of real recipes shortened to one second so items take about a second each.

interface Child {
  pid: number;
  comm: string;
  /** Nice value of every thread. */
  nice: number[];
  cmdline: string;
}

/** Whether a process is still running (an exited one keeps its /proc entry until it is reaped). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Running ffmpeg and ffprobe processes this test process started, read from /proc. */
function mediaChildren(): Child[] {
  const children: Child[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      // Fields after "pid (comm) ": state ppid … ; nice is field 19 of the whole line.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid || !['ffmpeg', 'ffprobe'].includes(comm)) continue;
      if (fields[0] === 'Z') continue;
      const nice = readdirSync(`/proc/${name}/task`).map((tid) => {
        const task = readFileSync(`/proc/${name}/task/${tid}/stat`, 'utf8');
        return Number(task.slice(task.lastIndexOf(')') + 2).split(' ')[16]);
      });
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      children.push({ pid: Number(name), comm, nice, cmdline });
    } catch {
      // The process ended while being read.
    }
  }
  return children;
}

const shortened = (recipes: FootageRecipe[]) => recipes.map((r) => ({ ...r, durationSec: 1 }));
const ioniceWorks = spawnSync('ionice', ['-c', '3', 'true']).status === 0;

let runtime: Runtime;
let liveKey = '';
let dataDir = '';
const progress: { index: number; at: number }[] = [];

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'reelsmith-library-seed-'));
  const config = loadConfig({
    DATABASE_URL: await createTestDatabase(),
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    QUEUE_MAINTENANCE_SECONDS: '1',
    WORKER_CONCURRENCY: '1',
  });
  const mode = testMode();
  runtime = await startRuntime({
    config,
    log: createLogger('silent'),
    modes: ({ db, log }) => {
      const library = new StockLibrary(db, join(dataDir, 'library'), log, undefined, {
        footage: shortened(seedFootageRecipes()),
        music: [],
      });
      return {
        modes: [mode],
        background: (signal, renders) =>
          library.seedAll(signal, {
            foreground: renders,
            onProgress: ({ index }) => progress.push({ index, at: Date.now() }),
          }),
      };
    },
    prices: testPriceBook([mode]),
    http: true,
    worker: true,
  });
  liveKey = (await createAccount(runtime.database.db, 'library-seed', 100_000)).live_key;
});

after(async () => {
  await runtime.stop({ graceMs: 1000 });
  await rm(dataDir, { recursive: true, force: true });
});

void describe('background library', () => {
  void test('its ffmpeg and ffprobe run at nice 19 (every thread) and in the idle I/O class', async () => {
    const seen = new Map<number, Child>();
    const deadline = Date.now() + 60_000;
    while (![...seen.values()].some((c) => c.comm === 'ffmpeg') || seen.size < 3) {
      assert.ok(Date.now() < deadline, 'no ffmpeg of the background library seen within 60 s');
      for (const child of mediaChildren()) {
        seen.set(child.pid, child);
        if (ioniceWorks && child.comm === 'ffmpeg') {
          const ionice = spawnSync('ionice', ['-p', String(child.pid)], { encoding: 'utf8' });
          // Only an answer about the running process counts: an exited one has no I/O class left.
          if (ionice.status === 0 && running(child.pid)) assert.equal(ionice.stdout.trim(), 'idle');
        }
      }
      await sleep(20);
    }
    for (const child of seen.values()) {
      assert.ok(child.nice.length > 0);
      assert.deepEqual(
        new Set(child.nice),
        new Set([19]),
        `${child.comm} ${child.pid}: ${child.nice.join(',')}`,
      );
    }
  });

  void test('starts no item while a render job runs, and goes on after', async () => {
    // Long enough for the background to finish several items at the pace it had just before.
    while (progress.length < 3) await sleep(50);
    const recent = progress.slice(-3);
    const itemMs = Math.max(recent[1]!.at - recent[0]!.at, recent[2]!.at - recent[1]!.at);
    const jobMs = Math.max(6000, 5 * itemMs);

    const submitted = await call(runtime.url!, liveKey, 'POST', '/api/v1/generate-and-post', {
      body: { topic: 'a render', outcome: 'sleep', sleep_ms: jobMs },
      headers: { 'idempotency-key': `library-seed-${Date.now()}` },
    });
    assert.equal(submitted.status, 202, submitted.text);
    const jobId = submitted.body.data.job_id as string;
    let job: { started_at: Date | null; finished_at: Date | null; status: string } | undefined;
    const deadline = Date.now() + jobMs + 60_000;
    do {
      assert.ok(Date.now() < deadline, 'the job did not finish');
      await sleep(100);
      job = await runtime.database.db
        .selectFrom('jobs')
        .select(['started_at', 'finished_at', 'status'])
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow();
    } while (!job.finished_at);
    assert.equal(job.status, 'completed');

    // The item under way when the job started may end; no further one may.
    const from = job.started_at!.getTime() + 500;
    const to = job.finished_at.getTime();
    const during = progress.filter((p) => p.at > from && p.at < to);
    assert.ok(during.length <= 1, `${during.length} items finished during a ${jobMs} ms render`);

    const countAtEnd = progress.filter((p) => p.at <= to).length;
    const resumeBy = Date.now() + 60_000;
    while (progress.length < countAtEnd + 2) {
      assert.ok(Date.now() < resumeBy, 'the background did not resume after the render');
      await sleep(50);
    }
  });

  void test('a render needing an item the background is making takes it over: never made twice at once', async () => {
    // Three clips of one niche, so a render of that niche wants all three (ids of their own: the library
    // above shares the database).
    const all = seedFootageRecipes();
    const niche = all[0]!.niches[0]!;
    const recipes = all
      .filter((r) => r.niches.includes(niche))
      .slice(0, 3)
      .map((r) => ({ ...r, id: `takeover-${r.id}`, durationSec: 2 }));
    assert.equal(recipes.length, 3);
    const libraryDir = join(dataDir, 'takeover');
    const library = new StockLibrary(runtime.database.db, libraryDir, createLogger('silent'), undefined, {
      footage: recipes,
      music: [],
    });
    const makerOf = (child: Child) =>
      child.comm === 'ffmpeg'
        ? recipes.find((r) => child.cmdline.includes(join(libraryDir, 'footage', `${r.id}.mp4.`)))
        : undefined;

    // Every sample: the ffmpeg processes writing each clip, with their nice values.
    const samples: Map<string, Child[]>[] = [];
    const sample = () => {
      const byClip = new Map<string, Child[]>();
      for (const child of mediaChildren()) {
        const recipe = makerOf(child);
        if (recipe) byClip.set(recipe.id, [...(byClip.get(recipe.id) ?? []), child]);
      }
      samples.push(byClip);
      return byClip;
    };

    const stop = new AbortController();
    const seeding = library.seedAll(stop.signal);
    let taken: string | undefined;
    const deadline = Date.now() + 60_000;
    while (!taken) {
      assert.ok(Date.now() < deadline, 'the background never started a clip');
      taken = [...sample().entries()].find(([, children]) => children.some((c) => c.nice[0] === 19))?.[0];
      await sleep(10);
    }
    let rendering = true;
    const sampler = (async () => {
      while (rendering) {
        sample();
        await sleep(10);
      }
    })();
    await library.ensureFootage(niche);
    rendering = false;
    await sampler;
    await seeding;

    for (const byClip of samples)
      for (const [id, children] of byClip) assert.equal(children.length, 1, `${id} made twice at once`);
    const makersOfTaken = new Map(
      samples.flatMap((s) => s.get(taken) ?? []).map((child) => [child.pid, child.nice[0]]),
    );
    assert.ok([...makersOfTaken.values()].includes(0), `${taken} was not taken over at normal priority`);
    const ready = (await library.readyClips()).filter((c) => recipes.some((r) => r.id === c.id));
    assert.equal(ready.length, 3);
    for (const clip of ready) assert.ok(clip.path.startsWith(libraryDir));
  });
});
