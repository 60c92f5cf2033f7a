import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contrastRatio, deltaE2000 } from './contrast.ts';

void describe('contrastRatio (WCAG 2)', () => {
  void test('matches the reference values', () => {
    assert.equal(contrastRatio('#000000', '#FFFFFF'), 21);
    assert.equal(contrastRatio('#FFFFFF', '#FFFFFF'), 1);
    // #767676 is the lightest grey that passes 4.5:1 on white; #777777 just fails.
    assert.ok(contrastRatio('#767676', '#FFFFFF') >= 4.5);
    assert.ok(contrastRatio('#777777', '#FFFFFF') < 4.5);
    assert.equal(contrastRatio('#1E6FD9', '#FFFFFF'), contrastRatio('#FFFFFF', '#1E6FD9'));
  });

  void test('refuses what is not a colour', () => {
    assert.throws(() => contrastRatio('blue-ish', '#FFFFFF'), RangeError);
  });
});

void describe('deltaE2000', () => {
  void test('is 0 for one colour, 100 from black to white, small for a near miss, large across hues', () => {
    assert.equal(deltaE2000('#1E6FD9', '#1e6fd9'), 0);
    assert.ok(Math.abs(deltaE2000('#000000', '#FFFFFF') - 100) < 1e-6);
    assert.ok(deltaE2000('#1E6FD9', '#1F70DA') < 1);
    assert.ok(deltaE2000('#1E6FD9', '#E4572E') > 40);
    assert.equal(deltaE2000('#1E6FD9', '#E4572E'), deltaE2000('#E4572E', '#1E6FD9'));
  });
});
