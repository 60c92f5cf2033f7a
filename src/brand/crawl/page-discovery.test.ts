import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as cheerio from 'cheerio';
import { blogPostLinks, homePostLinks, pageLinks, rankRoleLinks } from './page-discovery.ts';
import { SiteScope } from './site-scope.ts';

const home = new URL('https://www.acme.co.uk/en/');
const scope = SiteScope.of(home);

void test('links resolve against <base href>, lose fragments and non-http schemes, keep order', () => {
  const $ = cheerio.load(`<base href="https://www.acme.co.uk/"><a href="about#team">About</a>
    <a href="mailto:hi@acme.co.uk">Mail</a><a href="javascript:void 0">x</a><a href="/about">dup</a>
    <a href="/pricing"><img alt="Plans"></a><a href="/x" aria-label="  Our   Story ">›</a>`);
  assert.deepEqual(
    pageLinks($, home).map((l) => [l.url.href, l.text]),
    [
      ['https://www.acme.co.uk/about', 'about'],
      ['https://www.acme.co.uk/pricing', 'plans'],
      ['https://www.acme.co.uk/x', '›'],
    ],
  );
});

void test('roles are ranked by path and text; one weak hint is not enough', () => {
  const $ = cheerio.load(`
    <a href="https://www.linkedin.com/company/acme">LinkedIn</a>
    <a href="/en/company/">Company</a>
    <a href="/en/team/about">About us</a>
    <a href="/en/engineering/">Read our engineering blog</a>
    <a href="https://shop.acme.co.uk/plans">Plans &amp; Pricing</a>
    <a href="/en/pricing.html">See prices</a>`);
  const links = pageLinks($, home);
  // Equal scores keep document order; LinkedIn's /company/… is one weak hint only.
  assert.deepEqual(
    rankRoleLinks(links, 'about').map((l) => l.url.pathname),
    ['/en/company/', '/en/team/about'],
  );
  assert.deepEqual(rankRoleLinks(links, 'blog'), []);
  assert.deepEqual(
    rankRoleLinks(links, 'pricing').map((l) => l.url.href),
    ['https://shop.acme.co.uk/plans', 'https://www.acme.co.uk/en/pricing.html'],
  );
});

void test('the first post of a blog index, never nav, pagination or tag lists', () => {
  const index = new URL('https://www.acme.co.uk/blog');
  const $ = cheerio.load(`
    <nav><a href="/blog/featured-in-nav">Featured</a></nav>
    <a href="/blog/tag/tax">Tax</a><a href="/blog/page/2">Older</a>
    <a href="/about">About</a>
    <article><h2><a href="/blog/first-post">First</a></h2></article>
    <a href="/blog/loose-link">Loose</a>
    <article><h2><a href="/2024/05/elsewhere">Elsewhere</a></h2></article>
    <a href="https://medium.com/blog/x">Medium</a>`);
  assert.deepEqual(
    blogPostLinks($, index, scope).map((u) => u.pathname),
    ['/blog/first-post', '/blog/loose-link', '/2024/05/elsewhere'],
  );
});

void test('post links on the home page when there is no blog index', () => {
  const $ = cheerio.load(`<a href="/blog/">Blog</a><a href="/news/launch-day">Launch</a>
    <a href="/blog/category/x">Cat</a><a href="https://other.example.com/blog/y">Y</a>`);
  assert.deepEqual(
    homePostLinks(pageLinks($, home), scope).map((u) => u.pathname),
    ['/news/launch-day'],
  );
});
