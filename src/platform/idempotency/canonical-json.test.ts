import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson } from './canonical-json.ts';

test('canonicalJson ignores key order at every depth and keeps array order', () => {
  const cases: [unknown, unknown, boolean][] = [
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, true],
    [{ a: { x: 1, y: [1, 2] } }, { a: { y: [1, 2], x: 1 } }, true],
    [{ a: [1, 2] }, { a: [2, 1] }, false],
    [{ a: 'x' }, { a: 'y' }, false],
    [{ a: 1, u: undefined }, { a: 1 }, true],
    [{ é: 'ü' }, { é: 'ü' }, true],
  ];
  for (const [left, right, same] of cases) {
    assert.equal(canonicalJson(left) === canonicalJson(right), same, JSON.stringify([left, right]));
  }
});
