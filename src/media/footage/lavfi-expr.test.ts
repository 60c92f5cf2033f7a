import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  colormapChannelExpr,
  colormapFilter,
  ffColor,
  hashExpr,
  hexToRgb,
  loopPhase,
  num,
} from './lavfi-expr.ts';

describe('colours', () => {
  test('hexToRgb', () => {
    assert.deepEqual(hexToRgb('#ff8000'), [255, 128, 0]);
    assert.deepEqual(hexToRgb('#0A0b0C'), [10, 11, 12]);
    assert.throws(() => hexToRgb('red'), /not a #rrggbb colour/);
    assert.throws(() => hexToRgb('#fff'), /not a #rrggbb colour/);
  });
  test('ffColor', () => {
    assert.equal(ffColor('#A4286A'), '0xa4286a');
    assert.throws(() => ffColor('0xa4286a'));
  });
});

describe('num', () => {
  const cases: [number, number | undefined, string][] = [
    [1 / 3, undefined, '0.3333'],
    [2.5, undefined, '2.5'],
    [-0.00001, undefined, '0'],
    [Math.PI, 6, '3.141593'],
    [12, undefined, '12'],
  ];
  for (const [value, digits, expected] of cases)
    test(`${value} → ${expected}`, () => assert.equal(num(value, digits), expected));
});

describe('colour maps', () => {
  test('two stops are one straight line', () => {
    assert.equal(colormapChannelExpr([0, 255]), '0+1*val');
  });
  test('three stops switch segments half way', () => {
    assert.equal(
      colormapChannelExpr([0, 100, 255]),
      'if(lt(val,127.5),0+0.78431*val,100+1.21569*(val-127.5))',
    );
  });
  test('four stops nest', () => {
    assert.equal(
      colormapChannelExpr([10, 20, 30, 40]),
      'if(lt(val,85),10+0.11765*val,if(lt(val,170),20+0.11765*(val-85),30+0.11765*(val-170)))',
    );
  });
  test('needs two stops', () => assert.throws(() => colormapChannelExpr([1])));
  test('a lutrgb filter per channel', () => {
    assert.equal(colormapFilter(['#000000', '#ff0080']), "lutrgb=r='0+1*val':g='0+0*val':b='0+0.50196*val'");
  });
});

test('hashExpr is the sequenced shader hash', () => {
  assert.equal(
    hashExpr('ld(0)', 'ld(1)', 4),
    '(st(9,sin((ld(0))*12.9898+(ld(1))*78.233+4)*43758.5453);ld(9)-floor(ld(9)))',
  );
});

test('loopPhase completes whole turns over the period', () => {
  assert.equal(loopPhase(8), '(0.785398*T)');
  assert.equal(loopPhase(8, 2, 't'), '(1.570796*t)');
});
