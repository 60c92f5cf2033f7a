import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { jobWorkDir, newStagingDir, sweepStaleStaging } from './work-dirs.ts';

void test('staging folders are fresh per request and live beside the work folders', () => {
  const config = { dataDir: '/srv/reelsmith' };
  const a = newStagingDir(config);
  assert.notEqual(a, newStagingDir(config));
  assert.equal(dirname(a), '/srv/reelsmith/staging');
  assert.equal(jobWorkDir(config, 'job_1'), '/srv/reelsmith/work/job_1');
});

void test('the sweep removes only staging folders older than the age given', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'work-dirs-'));
  try {
    const config = { dataDir };
    assert.equal(await sweepStaleStaging(config, 1000), 0);
    const old = newStagingDir(config);
    const fresh = newStagingDir(config);
    for (const dir of [old, fresh]) {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'source.bin'), 'x');
    }
    const hoursAgo = new Date(Date.now() - 7 * 3600 * 1000);
    await utimes(old, hoursAgo, hoursAgo);
    assert.equal(await sweepStaleStaging(config, 6 * 3600 * 1000), 1);
    assert.ok(!existsSync(old));
    assert.ok(existsSync(join(fresh, 'source.bin')));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
