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

test('canonicalJson writes the exact text stored fingerprints were made from', () => {
  assert.equal(
    canonicalJson({ topic: 'tea', brand: { name: 'A"b', keywords: ['x', 2, null, true] }, n: -1.5, e: {} }),
    '{"brand":{"keywords":["x",2,null,true],"name":"A\\"b"},"e":{},"n":-1.5,"topic":"tea"}',
  );
  assert.equal(canonicalJson([[], [{}], 'a']), '[[],[{}],"a"]');
  assert.equal(canonicalJson('plain'), '"plain"');
  assert.equal(canonicalJson(null), 'null');
  assert.equal(canonicalJson([undefined]), '[null]');
});

test('canonicalJson equals JSON.stringify on bodies whose keys are already sorted', () => {
  let seed = 7;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const build = (depth: number): unknown => {
    const pick = random();
    if (depth > 4 || pick < 0.3) return [1.25, 'text \u00e9 "q"', true, null][Math.floor(random() * 4)];
    if (pick < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => build(depth + 1));
    const keys = Array.from(
      { length: Math.floor(random() * 4) },
      (_, i) => `k${i}${random() < 0.5 ? 'x' : ''}`,
    );
    return Object.fromEntries([...new Set(keys)].sort().map((key) => [key, build(depth + 1)]));
  };
  for (let i = 0; i < 200; i++) {
    const body = build(0);
    assert.equal(canonicalJson(body), JSON.stringify(body));
  }
});

test('canonicalJson handles nesting far deeper than the call stack allows', () => {
  const depth = 200_000;
  const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  assert.equal(canonicalJson(JSON.parse(objects)), objects);
  const arrays = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;
  assert.equal(canonicalJson(arrays), `${'['.repeat(depth)}${']'.repeat(depth)}`);
});
