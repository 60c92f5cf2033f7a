import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MOUTH_SHAPES, phoneViseme, phoneWeight, VISEMES } from './visemes.ts';

test('phones map to the mouth shape that makes them', () => {
  const cases: [string, string][] = [
    ['M', 'closed'],
    ['B', 'closed'],
    ['P', 'closed'],
    ['F', 'fv'],
    ['V', 'fv'],
    ['AA1', 'open'],
    ['AE2', 'open'],
    ['AH1', 'open'],
    ['AH0', 'slight'],
    ['IY1', 'wide'],
    ['EH0', 'wide'],
    ['UW1', 'round'],
    ['OW0', 'round'],
    ['W', 'round'],
    ['SH', 'round'],
    ['T', 'slight'],
    ['n', 'slight'],
    ['ZZ', 'slight'],
  ];
  for (const [phone, viseme] of cases) assert.equal(phoneViseme(phone), viseme, phone);
});

test('every viseme has a shape; open mouths open wider than slight ones, closed not at all', () => {
  assert.deepEqual(Object.keys(MOUTH_SHAPES).sort(), [...VISEMES].sort());
  assert.equal(MOUTH_SHAPES.closed.open, 0);
  assert.ok(MOUTH_SHAPES.open.open > MOUTH_SHAPES.wide.open);
  assert.ok(MOUTH_SHAPES.wide.open > MOUTH_SHAPES.slight.open);
  assert.ok(MOUTH_SHAPES.slight.open > MOUTH_SHAPES.rest.open);
  assert.ok(MOUTH_SHAPES.wide.widen > 0 && MOUTH_SHAPES.round.widen < 0);
});

test('phone weights: stressed vowels last longest, long vowels longer than short ones, consonants in between', () => {
  assert.ok(phoneWeight('IY1') > phoneWeight('IY0'));
  assert.ok(phoneWeight('IY0') > phoneWeight('IH0'));
  assert.ok(phoneWeight('AE1') > phoneWeight('AE0'));
  assert.equal(phoneWeight('T'), phoneWeight('S'));
  assert.ok(phoneWeight('T') > phoneWeight('AH0'));
  assert.ok(phoneWeight('T') < phoneWeight('AA1'));
});
