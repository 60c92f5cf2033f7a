import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canTransition, FINAL_STATUSES, isFinal, JOB_STATUSES, legalSources } from './job-status.ts';

test('final statuses have no way out', () => {
  for (const from of FINAL_STATUSES) {
    for (const to of JOB_STATUSES) assert.equal(canTransition(from, to), false, `${from} → ${to}`);
  }
});

test('the spec transitions are legal', () => {
  const cases: [string, string, boolean][] = [
    ['queued', 'leased', true],
    ['leased', 'running', true],
    ['running', 'uploading', true],
    ['uploading', 'completed', true],
    ['queued', 'cancelled', true],
    ['running', 'cancelled', true],
    ['uploading', 'cancelled', false],
    ['queued', 'completed', false],
    ['running', 'completed', false],
    ['queued', 'failed', true],
    ['uploading', 'dead_lettered', true],
    ['completed', 'failed', false],
    ['cancelled', 'queued', false],
  ];
  for (const [from, to, ok] of cases) {
    assert.equal(canTransition(from as never, to as never), ok, `${from} → ${to}`);
  }
});

test('legalSources lists exactly the statuses that may precede', () => {
  assert.deepEqual(legalSources('completed'), ['uploading']);
  assert.deepEqual(legalSources('cancelled'), ['queued', 'leased', 'running']);
  assert.ok(!legalSources('failed').some(isFinal));
});
