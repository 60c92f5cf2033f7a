import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KIT_STYLES } from './kit-input.ts';
import { logoPolicy, resolveStyle } from './kit-style.ts';

test('an explicit style is kept; auto picks one variant per brand_id, the same every time', () => {
  assert.deepEqual(resolveStyle('acme', 'split'), { style: 'split', style_source: 'explicit' });
  const auto = resolveStyle('acme', 'auto');
  assert.equal(auto.style_source, 'hash');
  assert.deepEqual(resolveStyle('acme', 'auto'), auto);
  assert.deepEqual(resolveStyle('acme', undefined), { style: auto.style, style_source: 'default' });
});

test('auto spreads brands over every variant', () => {
  const seen = new Set(Array.from({ length: 200 }, (_, i) => resolveStyle(`brand-${i}`, 'auto').style));
  assert.deepEqual([...seen].sort(), [...KIT_STYLES].sort());
});

test('the logo opens and closes a video, never stays on screen', () => {
  assert.deepEqual(logoPolicy(true), { show_at: ['intro', 'outro'], persistent: false });
  assert.deepEqual(logoPolicy(false), { show_at: [], persistent: false });
});
