import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { productModes } from '../src/modes/index.ts';
import { startHookReceiver, type HookReceiver } from './support/hook-receiver.ts';
import { startTestService, waitForJob, type TestService } from './support/test-service.ts';

// POST /transcribe and GET /resources/transcribe-languages end to end: real media served on loopback, real
// ffprobe, the local pocketsphinx engine, and (in the second service) an OpenAI-compatible transcription
// service played by a local fake.

const run = promisify(execFile);
const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav';

/** Two espeak-ng voices taking turns: a man (en-us) and a woman (en-us+f3). */
const DIALOGUE: [string, string][] = [
  ['en-us', 'The museum opens at nine and closes late on Fridays.'],
  ['en-us+f3', 'Please send the final report to everyone before lunch.'],
  ['en-us', 'Heavy rain is expected across the northern valleys tonight.'],
  ['en-us+f3', 'She bought fresh bread, cheese and apples at the market.'],
];

let service: TestService;
let remote: TestService;
let receiver: HookReceiver;
let files: http.Server;
let fakeTranscription: http.Server;
let base = '';
let dir = '';
/** Where each dialogue turn ends, in seconds. */
const turnEnds: number[] = [];

const ffmpeg = (...args: string[]) => run('ffmpeg', ['-v', 'error', '-y', ...args]);

async function durationOf(path: string): Promise<number> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    path,
  ]);
  return Number(stdout.trim());
}

async function makeFixtures(): Promise<void> {
  await ffmpeg('-i', LIBRIVOX, join(dir, 'speech.wav'));
  // MP3 content behind a .wav name: formats are told by probing.
  await ffmpeg('-i', LIBRIVOX, '-c:a', 'libmp3lame', '-f', 'mp3', join(dir, 'speech-mp3.wav'));
  await ffmpeg(
    ...['-f', 'lavfi', '-i', 'color=c=0x1E3A8A:s=160x90:r=10', '-i', LIBRIVOX, '-shortest'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    join(dir, 'talk.mp4'),
  );
  const parts = await Promise.all(
    DIALOGUE.map(async ([voice, text], i) => {
      const path = join(dir, `turn-${i}.wav`);
      await run('espeak-ng', ['-v', voice, '-w', path, text]);
      return path;
    }),
  );
  let end = 0;
  for (const part of parts) turnEnds.push((end += await durationOf(part)));
  await ffmpeg(
    ...parts.flatMap((p) => ['-i', p]),
    ...['-filter_complex', `concat=n=${parts.length}:v=0:a=1`, '-ac', '1', '-ar', '16000'],
    join(dir, 'dialogue.wav'),
  );
  // Digital silence compresses to almost nothing in FLAC: over four hours in about a megabyte.
  await ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'anullsrc=r=1000:cl=mono',
    '-t',
    '14500',
    '-c:a',
    'flac',
    join(dir, 'long.flac'),
  );
  await writeFile(join(dir, 'notes.mp3'), 'These are meeting notes, not audio.\n');
}

/** Serves the fixtures; /huge announces 600 MB and would send nothing. */
function fixtureServer(): http.Server {
  return http.createServer((req, res) => {
    const name = (req.url ?? '/').slice(1);
    if (name === 'huge') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(600 * 1024 * 1024) }).end();
      return;
    }
    const path = join(dir, name);
    if (!name || !existsSync(path)) return void res.writeHead(404).end();
    res.writeHead(200);
    if (req.method === 'HEAD') return void res.end();
    createReadStream(path).pipe(res);
  });
}

/** What the fake transcription service answers: a profane sentence in English, a 400 for German. */
function transcriptionServer(): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void new Response(Buffer.concat(chunks), {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      })
        .formData()
        .then((form) => {
          res.setHeader('content-type', 'application/json');
          if (form.get('language') === 'de') {
            res.writeHead(400).end(JSON.stringify({ error: { message: 'Audio file is corrupt.' } }));
            return;
          }
          res.writeHead(200).end(
            JSON.stringify({
              text: ' Well, shit. It works!',
              language: 'english',
              duration: 2.99,
              words: [
                { word: 'Well', start: 0.3, end: 0.6 },
                { word: 'shit', start: 0.7, end: 1.1 },
                { word: 'It', start: 1.5, end: 1.7 },
                { word: 'works', start: 1.7, end: 2.2 },
              ],
              segments: [{ start: 0, end: 2.99, avg_logprob: -0.1 }],
            }),
          );
        });
    });
  });
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reelsmith-transcribe-'));
  await makeFixtures();
  files = fixtureServer();
  fakeTranscription = transcriptionServer();
  base = await listen(files);
  const fakeUrl = await listen(fakeTranscription);
  [service, remote, receiver] = await Promise.all([
    startTestService({ modes: productModes, env: { RENDER_PRESET: 'ultrafast' } }),
    startTestService({
      modes: productModes,
      env: {
        RENDER_PRESET: 'ultrafast',
        TRANSCRIBE_BASE_URL: `${fakeUrl}/v1`,
        TRANSCRIBE_MODEL: 'whisper-test',
      },
    }),
    startHookReceiver(),
  ]);
});

after(async () => {
  await Promise.all([service.stop(), remote.stop(), receiver.close()]);
  files.close();
  fakeTranscription.close();
  await rm(dir, { recursive: true, force: true });
});

const transcribe = (target: TestService, body: Record<string, unknown>, key = `tr-${Math.random()}`) =>
  target.call('POST', '/api/v1/transcribe', { body, headers: { 'idempotency-key': key } });

async function balance(target: TestService): Promise<number> {
  return (await target.call('GET', '/api/v1/usage')).body.data.balance_usd_cents;
}

async function jobCount(target: TestService): Promise<number> {
  const { rows } = await target.runtime.database.pool.query('SELECT count(*)::int AS n FROM jobs');
  return rows[0].n;
}

async function text(url: string): Promise<string> {
  const response = await fetch(url);
  assert.equal(response.status, 200, url);
  return response.text();
}

function outputFile(job: any, format: string): { name: string; format: string; url: string } {
  const file = job.artifacts.output_files.find((f: { format: string }) => f.format === format);
  assert.ok(file, `no ${format} file in ${JSON.stringify(job.artifacts.output_files)}`);
  return file;
}

function assertWordsInOrder(transcript: any): void {
  assert.equal(transcript.word_count, transcript.words.length);
  for (const [i, w] of transcript.words.entries()) {
    assert.ok(w.start <= w.end && w.end <= transcript.duration_sec + 0.01, JSON.stringify(w));
    if (i > 0) assert.ok(w.start >= transcript.words[i - 1].start);
    assert.ok(w.confidence === null || (w.confidence >= 0 && w.confidence <= 1));
  }
}

void describe('GET /resources/transcribe-languages', () => {
  void test('the local engine lists English only, with word timestamps and diarization', async () => {
    const response = await service.call('GET', '/api/v1/resources/transcribe-languages');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.data, {
      engine: 'pocketsphinx-en-us',
      auto_detect: false,
      count: 1,
      languages: [
        {
          code: 'en',
          name: 'English',
          word_timestamps: true,
          engine: 'pocketsphinx-en-us',
          diarization: true,
        },
      ],
    });
  });

  void test('a configured transcription service lists its languages and detects the language', async () => {
    const response = await remote.call('GET', '/api/v1/resources/transcribe-languages');
    const data = response.body.data;
    assert.equal(data.engine, 'openai-transcription:whisper-test');
    assert.equal(data.auto_detect, true);
    assert.ok(data.count >= 90, `${data.count} languages`);
    assert.deepEqual(
      data.languages.find((l: { code: string }) => l.code === 'fr'),
      {
        code: 'fr',
        name: 'French',
        word_timestamps: true,
        engine: 'openai-transcription:whisper-test',
        diarization: true,
      },
    );
  });

  void test('/capabilities and /tools describe both modes with their schema and price unit', async () => {
    const capabilities = (await service.call('GET', '/api/v1/capabilities')).body.data;
    for (const [mode, path] of [
      ['transcription', '/api/v1/transcribe'],
      ['caption_render', '/api/v1/captions/render'],
    ]) {
      const entry = capabilities.modes.find((m: { mode: string }) => m.mode === mode);
      assert.equal(entry.path, path);
      assert.equal(entry.dry_run, true);
      assert.ok(entry.input_schema?.properties, `${mode} has an input schema`);
    }
    const tools = (await service.call('GET', '/api/v1/tools', { key: null })).body.data.tools;
    assert.deepEqual(
      tools.filter((t: { name: string }) => ['transcription', 'caption_render'].includes(t.name)),
      [
        {
          name: 'transcription',
          path: '/api/v1/transcribe',
          title: 'Transcription',
          price_usd_cents: 5,
          unit: 'started_4_minutes',
          engine: 'speech',
        },
        {
          name: 'caption_render',
          path: '/api/v1/captions/render',
          title: 'Caption render',
          price_usd_cents: 25,
          unit: 'started_minute',
          engine: 'captions',
        },
      ],
    );
  });

  void test('the list needs an API key', async () => {
    const response = await service.call('GET', '/api/v1/resources/transcribe-languages', { key: null });
    assert.equal(response.status, 401);
  });
});

void describe('POST /transcribe', () => {
  void test('a dry run probes the source and prices it, charging and keeping nothing', async () => {
    const before = await balance(service);
    const response = await service.call('POST', '/api/v1/transcribe', {
      body: { media_url: `${base}/speech.wav`, diarization: true, dry_run: true },
    });
    assert.equal(response.status, 200, response.text);
    const data = response.body.data;
    assert.equal(data.valid, true);
    assert.equal(data.charged, false);
    assert.equal(data.price.usd_cents, 8);
    assert.deepEqual(data.normalized_request.source, {
      duration_sec: 2.99,
      format: 'wav',
      size_bytes: data.normalized_request.source.size_bytes,
    });
    assert.equal(data.estimated_duration_sec, 2.99);
    assert.equal(await balance(service), before);
    const staging = join(service.dataDir, 'staging');
    assert.deepEqual(existsSync(staging) ? await readdir(staging) : [], [], 'the staged download is removed');
  });

  void test('transcribes a WAV into every format, with the receipt, charge and webhook of the spec', async () => {
    const before = await balance(service);
    const response = await transcribe(service, {
      media_url: `${base}/speech.wav`,
      output_formats: ['json', 'srt', 'vtt', 'ass', 'txt'],
      caption_style: 'bold-yellow',
      webhook_url: `${receiver.url}/transcripts`,
    });
    assert.equal(response.status, 202, response.text);
    const { data, meta } = response.body;
    assert.equal(data.status, 'queued');
    assert.equal(data.poll_url, `/api/v1/jobs/${data.job_id}`);
    assert.equal(data.price_usd_cents, 5);
    assert.deepEqual(data.source, { duration_sec: 2.99, format: 'wav' });
    assert.ok(Number.isInteger(data.estimated_completion_sec) && data.estimated_completion_sec > 0);
    assert.equal(meta.credits_used, 5);
    assert.equal(meta.credits_remaining, before - 5);
    assert.equal(response.headers.get('x-job-id'), data.job_id);
    assert.equal(response.headers.get('x-api-credits-cost-usd-cents'), '5');
    assert.equal(response.headers.get('x-api-credits-tool'), 'transcribe');
    assert.equal(response.headers.get('x-api-credits-model'), 'pocketsphinx-en-us');

    const job = await waitForJob(service, data.job_id, { timeoutMs: 120_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(job.operation, 'transcription');
    assert.equal(await balance(service), before - 5);
    const transcript = job.artifacts.transcript;
    assert.deepEqual(Object.keys(transcript).sort(), [
      'confidence',
      'duration_sec',
      'language',
      'speakers',
      'text',
      'word_count',
      'words',
    ]);
    assert.equal(transcript.language, 'en');
    assert.equal(transcript.duration_sec, 2.99);
    // LibriVox: "He was not an ill-disposed young man."
    assert.match(transcript.text, /\bhe was not\b.*\byoung man\b/);
    assert.ok(transcript.confidence > 0 && transcript.confidence <= 1);
    assert.deepEqual(transcript.speakers, []);
    assert.ok(transcript.words.every((w: { speaker: unknown }) => w.speaker === null));
    assertWordsInOrder(transcript);
    assert.deepEqual(job.artifacts.source, { duration_sec: 2.99, format: 'wav' });

    assert.deepEqual(
      job.artifacts.output_files.map((f: { format: string }) => f.format),
      ['json', 'srt', 'vtt', 'ass', 'txt'],
    );
    assert.deepEqual(JSON.parse(await text(outputFile(job, 'json').url)), transcript);
    const srt = await text(outputFile(job, 'srt').url);
    assert.match(srt, /^1\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n/);
    assert.deepEqual(
      srt
        .split('\n')
        .filter((line) => line && !/^\d+$/.test(line) && !line.includes('-->'))
        .join(' ')
        .split(' '),
      transcript.words.map((w: { text: string }) => w.text),
    );
    assert.match(await text(outputFile(job, 'vtt').url), /^WEBVTT\n\n\d\d:\d\d:\d\d\.\d{3} --> /);
    const ass = await text(outputFile(job, 'ass').url);
    assert.match(ass, /PlayResX: 1080\nPlayResY: 1920/);
    assert.match(ass, /^Dialogue: /m);
    assert.equal(job.artifacts.captionStyle, 'bold-yellow');
    assert.equal((await text(outputFile(job, 'txt').url)).trim(), transcript.text);

    const [hook] = await receiver.waitFor('/transcripts', 1);
    assert.equal(hook!.headers['x-service-event-type'], 'transcript.completed');
    const body = JSON.parse(hook!.rawBody);
    assert.equal(body.event_type, 'transcript.completed');
    assert.equal(body.event_id, hook!.headers['x-service-event-id']);
    assert.deepEqual(Object.keys(body.data).sort(), ['job_id', 'output_files', 'status', 'transcript']);
    assert.equal(body.data.job_id, data.job_id);
    assert.equal(body.data.status, 'completed');
    assert.deepEqual(body.data.transcript, transcript);
    assert.deepEqual(
      body.data.output_files.map((f: { name: string }) => f.name),
      job.artifacts.output_files.map((f: { name: string }) => f.name),
    );
  });

  void test('an MP3 named .wav is transcribed: the content is probed, not the name', async () => {
    const response = await transcribe(service, {
      media_url: `${base}/speech-mp3.wav`,
      output_formats: ['txt'],
    });
    assert.equal(response.status, 202, response.text);
    assert.equal(response.body.data.source.format, 'mp3');
    const job = await waitForJob(service, response.body.data.job_id, { timeoutMs: 120_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    // Lossy MP3 costs the local engine a word or two of "He was not an ill-disposed young man."
    assert.match(job.artifacts.transcript.text, /\bhe was not\b.*\byoung\b/);
  });

  void test('the sound of an MP4 video is transcribed, and its ass file is laid out for the picture', async () => {
    const response = await transcribe(service, {
      media_url: `${base}/talk.mp4`,
      output_formats: ['json', 'ass'],
    });
    assert.equal(response.status, 202, response.text);
    assert.equal(response.body.data.source.format, 'mp4');
    const job = await waitForJob(service, response.body.data.job_id, { timeoutMs: 120_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.match(job.artifacts.transcript.text, /\bhe was not\b.*\byoung\b/);
    assert.match(await text(outputFile(job, 'ass').url), /PlayResX: 160\nPlayResY: 90/);
  });

  void test('diarization tells two voices apart, word by word, at 50 % more', async () => {
    const before = await balance(service);
    const response = await transcribe(service, { media_url: `${base}/dialogue.wav`, diarization: true });
    assert.equal(response.status, 202, response.text);
    assert.equal(response.body.data.price_usd_cents, 8);
    const job = await waitForJob(service, response.body.data.job_id, { timeoutMs: 180_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.equal(await balance(service), before - 8);
    const { words, speakers } = job.artifacts.transcript;
    assert.deepEqual(
      speakers.map((s: { id: string }) => s.id),
      ['S1', 'S2'],
    );
    assert.ok(speakers.every((s: { estimated_minutes_active: number }) => s.estimated_minutes_active > 0));
    // Turns alternate between the two voices: S1 for the man's turns, S2 for the woman's.
    const turnOf = (t: number) => turnEnds.findIndex((end) => t < end);
    let right = 0;
    for (const word of words) {
      const turn = turnOf((word.start + word.end) / 2);
      if (word.speaker === (turn % 2 === 0 ? 'S1' : 'S2')) right++;
    }
    assert.ok(words.length >= 10 && right / words.length >= 0.8, `${right} of ${words.length} words`);
  });

  void test('sources that break the rules are refused with a free 400 before anything is charged', async () => {
    const before = await balance(service);
    const jobsBefore = await jobCount(service);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ media_url: `${base}/notes.mp3` }, 'media_url', /not an audio or video file/],
      [{ media_url: `${base}/huge` }, 'media_url', /is 600 MB; the limit is 500 MB/],
      [{ media_url: `${base}/long.flac` }, 'media_url', /lasts 4 h 2 min .*the limit is 4 h/],
      [{ media_url: `${base}/missing.wav` }, 'media_url', /answered HTTP 404/],
      [{ media_url: 'https://10.0.0.1/a.wav' }, 'media_url', /./],
      [{ media_url: `${base}/speech.wav`, language_hint: 'fr' }, 'language_hint', /supported: en/],
      [{ media_url: `${base}/speech.wav`, language_hint: 'french' }, 'language_hint', /ISO 639-1/],
      [
        { media_url: `${base}/speech.wav`, output_formats: ['pdf'] },
        'output_formats[0]',
        /json, srt, vtt, ass, txt/,
      ],
      [{ media_url: `${base}/speech.wav`, caption_style: 'comic-sans' }, 'caption_style', /clean-white/],
      [{ media_url: `${base}/speech.wav`, speakers: 2 }, 'speakers', /not a known field/],
    ];
    for (const [body, field, message] of cases) {
      const response = await transcribe(service, body);
      assert.equal(response.status, 400, `${JSON.stringify(body)}: ${response.text}`);
      assert.equal(response.body.error.code, 'INPUT_INVALID');
      const issue = response.body.error.details.fields.find((f: { field: string }) => f.field === field);
      assert.ok(issue, `${field} named in ${response.text}`);
      assert.match(issue.message, message);
    }
    const hint = await transcribe(service, { media_url: `${base}/speech.wav`, language_hint: 'de' });
    assert.deepEqual(hint.body.error.details.fields[0].valid_values, ['en']);
    assert.equal(await balance(service), before);
    assert.equal(await jobCount(service), jobsBefore);
  });

  void test('a paid call needs an Idempotency-Key, and a replay answers the stored receipt', async () => {
    const missing = await service.call('POST', '/api/v1/transcribe', {
      body: { media_url: `${base}/speech.wav` },
    });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    const key = `tr-replay-${Math.random()}`;
    const first = await transcribe(service, { media_url: `${base}/speech.wav` }, key);
    const again = await transcribe(service, { media_url: `${base}/speech.wav` }, key);
    assert.equal(again.status, 202);
    assert.equal(again.headers.get('x-idempotent-replay'), 'true');
    assert.equal(again.body.data.job_id, first.body.data.job_id);
    await waitForJob(service, first.body.data.job_id, { timeoutMs: 120_000 });
  });
});

void describe('POST /transcribe with a transcription service', () => {
  void test('the service transcribes; profanity is masked in the text, the words and the files', async () => {
    const response = await transcribe(remote, {
      media_url: `${base}/speech.wav`,
      language_hint: 'en',
      filter_profanity: true,
      output_formats: ['json', 'srt'],
    });
    assert.equal(response.status, 202, response.text);
    assert.equal(response.headers.get('x-api-credits-model'), 'openai-transcription:whisper-test');
    const job = await waitForJob(remote, response.body.data.job_id, { timeoutMs: 60_000 });
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    const transcript = job.artifacts.transcript;
    assert.equal(transcript.text, 'Well, s***. It works!');
    assert.deepEqual(
      transcript.words.map((w: { text: string }) => w.text),
      ['Well,', 's***.', 'It', 'works!'],
    );
    assert.equal(transcript.confidence, Math.round(Math.exp(-0.1) * 1000) / 1000);
    const srt = await text(outputFile(job, 'srt').url);
    assert.match(srt, /s\*\*\*/);
    assert.doesNotMatch(srt + (await text(outputFile(job, 'json').url)), /shit/);
  });

  void test('a job the service refuses fails with its error and is refunded', async () => {
    const before = await balance(remote);
    const response = await transcribe(remote, {
      media_url: `${base}/speech.wav`,
      language_hint: 'de',
      webhook_url: `${receiver.url}/failed-transcripts`,
    });
    assert.equal(response.status, 202, response.text);
    const jobId = response.body.data.job_id;
    const job = await waitForJob(remote, jobId, { timeoutMs: 60_000 });
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'TRANSCRIPTION_FAILED');
    assert.equal(job.error.retryable, false);
    assert.match(job.error.message, /Audio file is corrupt/);
    assert.equal(await balance(remote), before);
    const { rows } = await remote.runtime.database.pool.query(
      'SELECT kind, amount_cents FROM ledger_entries WHERE job_id = $1 ORDER BY id',
      [jobId],
    );
    assert.deepEqual(rows, [
      { kind: 'charge', amount_cents: -5 },
      { kind: 'refund', amount_cents: 5 },
    ]);
    const [hook] = await receiver.waitFor('/failed-transcripts', 1);
    assert.equal(hook!.headers['x-service-event-type'], 'transcript.failed');
    assert.deepEqual(JSON.parse(hook!.rawBody).data, { job_id: jobId, status: 'failed', error: job.error });
  });
});
