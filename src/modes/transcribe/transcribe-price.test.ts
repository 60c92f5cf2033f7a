import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captionRenderPrice } from '../caption-render/caption-render-mode.ts';
import { PocketsphinxRecognizer } from '../../media/speech/pocketsphinx-recognizer.ts';
import { jobLifetimeSeconds, LONGEST_JOB_LIFETIME_SECONDS } from '../../platform/jobs/job-lifetime.ts';
import { transcribeMode, transcriptionPrice, transcriptionSeconds } from './transcribe-mode.ts';

test('transcription: 5 cents per started 4 minutes of source, diarization adds half (rounded up)', () => {
  const cents = (seconds: number, diarization = false) =>
    transcriptionPrice(seconds, diarization, 'engine').usdCents;
  assert.equal(cents(3), 5);
  assert.equal(cents(240), 5);
  assert.equal(cents(240.001), 10);
  assert.equal(cents(14_400), 300);
  assert.equal(cents(3, true), 8);
  assert.equal(cents(480, true), 15);
  assert.deepEqual(transcriptionPrice(600, true, 'pocketsphinx-en-us'), {
    usdCents: 23,
    breakdown: [
      { item: 'transcription', usd_cents: 15, quantity: 3, unit: 'started_4_minutes' },
      { item: 'diarization (+50 %)', usd_cents: 8 },
    ],
    tool: 'transcribe',
    model: 'pocketsphinx-en-us',
    tier: 'diarization',
    engine: 'speech',
  });
});

test('caption render: 25 cents per started minute of output', () => {
  assert.equal(captionRenderPrice(5).usdCents, 25);
  assert.equal(captionRenderPrice(60).usdCents, 25);
  assert.equal(captionRenderPrice(61).usdCents, 50);
});

test('a local engine is estimated slower than a service, and diarization adds time', () => {
  const local = transcriptionSeconds(600, false, true);
  const service = transcriptionSeconds(600, false, false);
  assert.ok(local.typical > service.typical);
  assert.ok(transcriptionSeconds(600, true, true).typical > local.typical);
  assert.ok(local.min <= local.typical && local.typical <= local.max);
});

test('a 4-hour source on the local engine may run past JOB_MAX_LIFETIME_SECONDS, within the longest lifetime', () => {
  const mode = transcribeMode({ recognizer: new PocketsphinxRecognizer() });
  const request = (durationSec: number) =>
    ({ diarization: true, source: { duration_sec: durationSec, format: 'mp3' } }) as Parameters<
      NonNullable<typeof mode.lifetimeSeconds>
    >[0];
  const config = { jobs: { maxLifetimeSeconds: 2700 } } as Parameters<typeof jobLifetimeSeconds>[0];
  assert.equal(jobLifetimeSeconds(config, mode, request(60)), 2700);
  const fourHours = jobLifetimeSeconds(config, mode, request(14_400));
  assert.ok(fourHours >= transcriptionSeconds(14_400, true, true).max, `${fourHours} s`);
  assert.ok(fourHours <= LONGEST_JOB_LIFETIME_SECONDS);
});
