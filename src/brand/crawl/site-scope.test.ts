import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UrlGuard } from '../../platform/net/url-guard.ts';
import { CrawlError } from './crawl-error.ts';
import { normalizeSiteUrl, SiteScope } from './site-scope.ts';

const strict = new UrlGuard({ allowLoopback: false });
const loopback = new UrlGuard({ allowLoopback: true });

void test('a site is its registrable domain, private suffixes included', () => {
  const scope = SiteScope.of(new URL('https://www.acme.co.uk/'));
  assert.equal(scope.domain, 'acme.co.uk');
  assert.ok(scope.contains(new URL('https://shop.acme.co.uk/x')));
  assert.ok(scope.contains(new URL('http://acme.co.uk/')));
  assert.ok(!scope.contains(new URL('https://acme.com/')));
  assert.ok(!scope.contains(new URL('https://notacme.co.uk/')));
  const pages = SiteScope.of(new URL('https://acme.github.io/'));
  assert.equal(pages.domain, 'acme.github.io');
  assert.ok(!pages.contains(new URL('https://evil.github.io/')));
});

void test('an IP or localhost site is that host and port only', () => {
  const scope = SiteScope.of(new URL('http://127.0.0.1:8080/'));
  assert.ok(scope.contains(new URL('http://127.0.0.1:8080/about')));
  assert.ok(!scope.contains(new URL('http://127.0.0.1:8081/')));
  assert.ok(!scope.contains(new URL('http://localhost:8080/')));
});

void test('website addresses are normalized to what the guard fetches', () => {
  assert.equal(normalizeSiteUrl('acme.co.uk', strict).href, 'https://acme.co.uk/');
  assert.equal(normalizeSiteUrl('  Acme.co.uk/en/#top ', strict).href, 'https://acme.co.uk/en/');
  assert.equal(normalizeSiteUrl('http://acme.co.uk:8443/x', strict).href, 'https://acme.co.uk:8443/x');
  assert.equal(normalizeSiteUrl('http://127.0.0.1:9000', loopback).href, 'http://127.0.0.1:9000/');
  for (const bad of ['ftp://acme.co.uk/', 'http://127.0.0.1:9000', 'https://10.0.0.1/', 'intranet', '']) {
    assert.throws(
      () => normalizeSiteUrl(bad, strict),
      (err) => err instanceof CrawlError && err.reason === 'url_refused',
      bad,
    );
  }
});
