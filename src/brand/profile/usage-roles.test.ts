import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlOfPages } from './crawl-of-pages.ts';
import { siteDocuments } from './site-documents.ts';
import { isStateSelector, selectorRoles, UsageIndex } from './usage-roles.ts';

describe('usage roles', () => {
  test("a selector's own words give roles", () => {
    assert.deepEqual([...selectorRoles('.btn-primary')], ['cta']);
    assert.deepEqual([...selectorRoles('nav > a, .site-header')], ['link', 'header']);
    assert.deepEqual([...selectorRoles('h2.section-title')], ['heading']);
    assert.deepEqual([...selectorRoles('body')], ['page']);
    assert.deepEqual([...selectorRoles('.table td')], []);
  });

  test('state selectors are recognized only when every part is one', () => {
    assert.ok(isStateSelector('a:hover, a:focus-visible'));
    assert.ok(!isStateSelector('a, a:hover'));
  });

  test('selectors are matched on the pages, pseudo-classes ignored; roles come from the matched elements', () => {
    const crawl = crawlOfPages([
      {
        url: 'https://a.test/',
        html: `<header><a class="c-x9" href="/">Home</a></header><main><a class="c-y1" role="button" href="/go">Go</a>
          <h2 class="c-z2">Title</h2></main><footer><p class="c-f">f</p></footer>`,
      },
    ]);
    const index = new UsageIndex(siteDocuments(crawl));
    assert.deepEqual(index.usage('.c-x9:hover'), { matches: 1, roles: new Set(['link']) });
    assert.deepEqual(index.usage('.c-y1'), { matches: 1, roles: new Set(['cta']) });
    assert.deepEqual(index.usage('.c-z2::after'), { matches: 1, roles: new Set(['heading']) });
    assert.deepEqual(index.usage('.c-f'), { matches: 1, roles: new Set(['footer']) });
    assert.deepEqual(index.usage('.unused'), { matches: 0, roles: new Set() });
    assert.equal(index.usage('a:::weird('), undefined);
  });
});
