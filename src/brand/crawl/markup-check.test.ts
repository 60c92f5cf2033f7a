import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_ATTRIBUTES_PER_ELEMENT, MAX_NESTING_DEPTH } from './crawl-limits.ts';
import { markupProblem } from './markup-check.ts';

void test('ordinary pages, sloppy markup included, pass', () => {
  assert.equal(
    markupProblem('<!doctype html><html><head><title>x</title></head><body><p>Hi</body></html>'),
    null,
  );
  const sloppy =
    '<ul>' +
    '<li>item'.repeat(5000) +
    '</ul>' +
    '<table>' +
    '<tr><td>a<td>b'.repeat(3000) +
    '</table>' +
    '<p>para'.repeat(3000) +
    '<div><p>text<div>block</div></div>'.repeat(1000) +
    '<br><img src=x><input>'.repeat(2000) +
    '<script>' +
    '<div>'.repeat(2000) +
    '</script>' +
    '<svg><path d="M0"/><circle r="1"/></svg>'.repeat(1000);
  assert.equal(markupProblem(sloppy), null);
});

void test('nesting past the limit is refused', () => {
  const at = '<div>'.repeat(MAX_NESTING_DEPTH - 3);
  assert.equal(markupProblem(`<html><body>${at}</body></html>`), null);
  assert.match(markupProblem(`<html><body>${at}<div><div></body></html>`) ?? '', /more than 512 deep/);
  assert.match(markupProblem('<span>'.repeat(400_000)) ?? '', /deep/);
});

void test('an element with too many attributes is refused', () => {
  const attrs = (n: number): string => Array.from({ length: n }, (_, i) => `a${i}=1`).join(' ');
  assert.equal(markupProblem(`<div ${attrs(MAX_ATTRIBUTES_PER_ELEMENT)}>x</div>`), null);
  assert.match(markupProblem(`<div ${attrs(MAX_ATTRIBUTES_PER_ELEMENT + 1)}>x</div>`) ?? '', /attributes/);
});
