import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { productModes } from '../src/modes/index.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// Footage matched per sentence (docs/footage.md) on the real service: each shot of a real render names its
// sentence, the words that matched and a score; a dry run with a script names the sentences the library cannot
// match and the fix, reading the library but rendering, fetching and charging nothing.

let service: TestService;
let dir: string;

// The first two sentences are the generated clips "Gold dust rising on black" and "Molten gold flowing" (both
// filed under luxury, so a luxury render makes them); nothing in the library is about quantum computers.
const GOLD_DUST = 'Gold dust rises in the dark.';
const MOLTEN_GOLD = 'Molten gold flows like honey.';
const ABSENT = 'Quantum computers crack every password.';
const SCRIPT = `${GOLD_DUST} ${MOLTEN_GOLD} ${ABSENT}`;

before(async () => {
  service = await startTestService({ modes: productModes, env: { RENDER_PRESET: 'ultrafast' } });
  await sql`INSERT INTO stock_clip_operators (account_id) VALUES (${service.account.account_id})`.execute(
    service.runtime.database.db,
  );
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-footage-match-'));
});

after(async () => {
  await service.stop();
  await rm(dir, { recursive: true, force: true });
});

const db = () => service.runtime.database.db;

async function count(table: 'jobs' | 'stock_clips'): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db());
  return Number(rows[0]!.n);
}

const balance = async (): Promise<number> =>
  (await service.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;

const dryRun = (path: string, body: Record<string, unknown>) =>
  service.call('POST', path, { body: { ...body, dry_run: true } });

const matchWarnings = (warnings: string[]): string[] => warnings.filter((w) => /shares no word/.test(w));

interface Shot {
  start: number;
  duration: number;
  clipId: string;
  matched: string[];
  sentence: string;
  matched_terms: string[];
  score: number;
}

void describe('footage matched per sentence', () => {
  void test('a dry run names the sentence the library cannot match and the fix, and charges nothing', async () => {
    const balanceBefore = await balance();
    const jobsBefore = await count('jobs');
    const clipsBefore = await count('stock_clips');

    const dry = await dryRun('/api/v1/generate-and-post', {
      script: SCRIPT,
      clip_type: 'luxury',
      duration_sec: 15,
    });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.data.charged, false);
    const warnings = matchWarnings(dry.body.data.warnings);
    assert.equal(warnings.length, 1, JSON.stringify(dry.body.data.warnings));
    const [warning] = warnings as [string];
    assert.ok(warning.startsWith(`Sentence 3 ("${ABSENT}")`), warning);
    assert.ok(
      warning.includes(
        'upload clips tagged "quantum", "computers", "crack" via POST /api/stock-clips/direct-upload?tags=quantum,computers,crack',
      ),
      warning,
    );
    // This build has no footage provider configured, so the other fix is to configure one.
    assert.match(warning, /set PEXELS_API_KEY/);
    assert.equal(
      'footage' in dry.body.data.normalized_request,
      false,
      'the check adds nothing to the request',
    );

    // A topic's script is written at render time: nothing to check yet.
    const topic = await dryRun('/api/v1/generate-and-post', { topic: 'quantum computers', duration_sec: 15 });
    assert.equal(topic.status, 200, topic.text);
    assert.deepEqual(matchWarnings(topic.body.data.warnings), []);
    // The caller's own footage is not matched either.
    const own = await dryRun('/api/v1/generate-and-post', {
      script: SCRIPT,
      asset_urls: ['http://127.0.0.1:9/own.mp4'],
      duration_sec: 15,
    });
    assert.equal(own.status, 200, own.text);
    assert.deepEqual(matchWarnings(own.body.data.warnings), []);

    // Magic and article-to-video check their narration the same way.
    const magic = await dryRun('/api/v1/videos/magic', {
      topic: 'gold',
      script: SCRIPT,
      duration_sec: 15,
    });
    assert.equal(magic.status, 200, magic.text);
    assert.equal(matchWarnings(magic.body.data.warnings).length, 1, JSON.stringify(magic.body.data.warnings));
    const article = await dryRun('/api/v1/blog-to-video', {
      article_title: 'Gold and code',
      article_text: `${GOLD_DUST} ${ABSENT}`,
      duration_target_sec: 30,
    });
    assert.equal(article.status, 200, article.text);
    const articleWarnings = matchWarnings(article.body.data.warnings);
    assert.equal(articleWarnings.length, 1, JSON.stringify(article.body.data.warnings));
    assert.match(articleWarnings[0]!, /Quantum computers crack every password/);

    assert.equal(await balance(), balanceBefore);
    assert.equal(await count('jobs'), jobsBefore);
    assert.equal(await count('stock_clips'), clipsBefore, 'a dry run makes no clip');
  });

  void test('a real render: every shot carries its sentence, the matched words and a score', async () => {
    const receipt = await service.call('POST', '/api/v1/generate-and-post', {
      headers: { 'idempotency-key': `footage-match-${Date.now()}` },
      body: {
        script: SCRIPT,
        clip_type: 'luxury',
        duration_sec: 15,
        music: false,
        captions: false,
        include_branding: false,
      },
    });
    assert.equal(receipt.status, 202, receipt.text);
    const job = await waitForJob(service, receipt.body.data.job_id, { timeoutMs: 240_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const footage = job.artifacts.footage as { shots: Shot[]; warnings: string[] };
    const shots = footage.shots;
    const detail = JSON.stringify(shots, null, 1);
    assert.deepEqual([...new Set(shots.map((s) => s.sentence))], [GOLD_DUST, MOLTEN_GOLD, ABSENT], detail);

    const [dust, molten] = [GOLD_DUST, MOLTEN_GOLD].map((sentence) =>
      shots.find((s) => s.sentence === sentence)!,
    );
    assert.equal(dust!.clipId, 'particles-gold-dust', detail);
    assert.deepEqual(dust!.matched_terms, ['gold', 'dust', 'rises', 'dark'], detail);
    assert.equal(dust!.score, 1);
    assert.equal(molten!.clipId, 'liquid-gold', detail);
    assert.deepEqual(molten!.matched_terms, ['molten', 'gold', 'flows'], detail);
    assert.equal(molten!.score, 1);
    for (const shot of shots.filter((s) => s.matched_terms.length > 0)) {
      assert.ok(shot.score >= 0.4 && shot.score <= 1, detail);
      const words = shot.sentence.toLowerCase().match(/[a-z]+/g)!;
      assert.ok(
        shot.matched_terms.every((t) => words.includes(t)),
        detail,
      );
    }

    // No library clip is about quantum computers: niche footage (luxury), a low score, and the warning.
    const absent = shots.filter((s) => s.sentence === ABSENT);
    assert.ok(absent.length >= 1);
    for (const shot of absent) {
      assert.deepEqual(shot.matched_terms, []);
      assert.ok(shot.score < 0.4, detail);
    }
    const warning = footage.warnings.find((w) => w.startsWith(`Sentence 3 ("${ABSENT}")`));
    assert.ok(warning, JSON.stringify(footage.warnings));
    assert.match(warning, /upload clips tagged "quantum".*set PEXELS_API_KEY/);
    assert.equal(
      footage.warnings.filter((w) => /shared no word/.test(w)).length,
      1,
      JSON.stringify(footage.warnings),
    );
    // Shots tile the timeline in order.
    for (let i = 1; i < shots.length; i++)
      assert.ok(Math.abs(shots[i]!.start - (shots[i - 1]!.start + shots[i - 1]!.duration)) < 0.02, detail);
  });

  void test('uploading the clip the warning names clears it', async () => {
    const clip = join(dir, 'quantum.mp4');
    const made = spawnSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'mandelbrot=s=360x640:r=25',
      '-t',
      '3',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      clip,
    ]);
    assert.equal(made.status, 0, made.stderr.toString());
    const upload = await fetch(
      `${service.url}/api/stock-clips/direct-upload?title=Quantum%20processor&tags=quantum,computers`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${service.account.live_key}`, 'content-type': 'video/mp4' },
        body: await readFile(clip),
      },
    );
    assert.equal(upload.status, 201, await upload.clone().text());
    const dry = await dryRun('/api/v1/generate-and-post', {
      script: SCRIPT,
      clip_type: 'luxury',
      duration_sec: 15,
    });
    assert.equal(dry.status, 200, dry.text);
    assert.deepEqual(matchWarnings(dry.body.data.warnings), []);
    // Excluding it brings the warning back: only clips the request may use count.
    const excluded = await dryRun('/api/v1/generate-and-post', {
      script: SCRIPT,
      clip_type: 'luxury',
      duration_sec: 15,
      exclude_keywords: ['processor'],
    });
    assert.equal(
      matchWarnings(excluded.body.data.warnings).length,
      1,
      JSON.stringify(excluded.body.data.warnings),
    );
  });
});
