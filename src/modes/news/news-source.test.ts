import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JobFailure } from '../../platform/errors.ts';
import { MAX_PAGE_DEPTH } from './html-extract.ts';
import { readPage } from './news-source.ts';

void describe('readPage', () => {
  void test('an article page gives its paragraphs', () => {
    const page = readPage(
      '<html><body><article><p>The harbour reopened on Monday after three days of storms along the coast.</p></article></body></html>',
    );
    assert.deepEqual(page.paragraphs, [
      'The harbour reopened on Monday after three days of storms along the coast.',
    ]);
  });

  void test('a page nested past the bound fails the job as input, with the reason', () => {
    const deep = `<html><body>${'<div>'.repeat(MAX_PAGE_DEPTH * 4)}<p>Text.</p></body></html>`;
    assert.throws(
      () => readPage(deep),
      (error: unknown) =>
        error instanceof JobFailure &&
        error.jobError.code === 'SOURCE_HAS_NO_TEXT' &&
        error.jobError.category === 'input' &&
        error.jobError.message.includes(`more than ${MAX_PAGE_DEPTH} deep`),
    );
  });
});
