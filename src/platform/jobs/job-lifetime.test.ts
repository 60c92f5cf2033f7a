import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jobLifetimeSeconds, LONGEST_JOB_LIFETIME_SECONDS } from './job-lifetime.ts';

const config = { jobs: { maxLifetimeSeconds: 2700 } } as Parameters<typeof jobLifetimeSeconds>[0];

void test('a job gets the configured lifetime unless its mode asks for more, up to the longest allowed', () => {
  assert.equal(jobLifetimeSeconds(config, {}, {}), 2700);
  assert.equal(jobLifetimeSeconds(config, { lifetimeSeconds: () => 600 }, {}), 2700);
  assert.equal(jobLifetimeSeconds(config, { lifetimeSeconds: () => 7200.2 }, {}), 7201);
  assert.equal(
    jobLifetimeSeconds(config, { lifetimeSeconds: () => 99_999 }, {}),
    LONGEST_JOB_LIFETIME_SECONDS,
  );
  const request = { source: { duration_sec: 100 } };
  assert.equal(
    jobLifetimeSeconds(
      config,
      { lifetimeSeconds: (r: typeof request) => r.source.duration_sec * 40 },
      request,
    ),
    4000,
  );
});

void test('a mode whose spec caps its jobs gets at most that lifetime', () => {
  assert.equal(jobLifetimeSeconds(config, { maxLifetimeSeconds: 30 }, {}), 30);
  assert.equal(jobLifetimeSeconds(config, { maxLifetimeSeconds: 30, lifetimeSeconds: () => 7200 }, {}), 30);
  assert.equal(jobLifetimeSeconds(config, { maxLifetimeSeconds: 99_999 }, {}), 2700);
});
