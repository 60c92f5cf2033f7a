import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import sharp from 'sharp';
import { ApiError } from '../../platform/errors.ts';
import { decodeRgba } from '../../../test/fixtures/logos/draw-logo.ts';
import { deltaE2000 } from '../colors/contrast.ts';
import { normalizeLogo } from './normalize-logo.ts';

// Counts every request that reaches it: an SVG being rasterized must never cause one.
let requests = 0;
const server = createServer((_req, res) => {
  requests += 1;
  res.writeHead(200, { 'content-type': 'image/png' }).end();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
after(() => new Promise((resolve) => server.close(resolve)));

const svg = (text: string) => Buffer.from(text, 'utf8');

async function unreadable(work: Promise<unknown>, message: RegExp): Promise<void> {
  const err = await work.then(
    () => assert.fail('expected LOGO_UNREADABLE'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ApiError);
  assert.equal(err.code, 'LOGO_UNREADABLE');
  assert.match(err.message, message);
}

void describe('SVG logos', () => {
  void test('a viewBox-only SVG is rasterized large, trimmed and measured', async () => {
    const logo = await normalizeLogo(
      svg(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 60">
        <rect x="10" y="10" width="100" height="40" rx="6" fill="#7B2CBF"/>
        <circle cx="30" cy="30" r="10" fill="#FFFFFF"/>
      </svg>`),
      { contentType: 'image/svg+xml' },
    );
    const m = logo.measurements;
    assert.equal(m.source_format, 'svg');
    assert.equal(m.background, 'transparent');
    assert.equal(m.trimmed, true);
    assert.ok(Math.max(m.width, m.height) >= 512, `rasterized at ${m.width}×${m.height}`);
    assert.ok(Math.abs(m.aspect_ratio - 2.5) < 0.05);
    assert.ok(deltaE2000(logo.colors[0]!, '#7B2CBF') <= 5);
    const out = await decodeRgba(logo.png);
    assert.equal(out.at(0, 0)[3] < 255, true, 'rounded corner is see-through');
    const dot = out.at(Math.round(out.width * 0.2), Math.round(out.height / 2));
    assert.deepEqual(dot, [255, 255, 255, 255], 'the white dot inside the badge stays');
  });

  void test('an SVG copied out of an HTML page (no xmlns) on a white rect: the white box is removed', async () => {
    const logo = await normalizeLogo(
      svg(`<svg width="200" height="100" viewBox="0 0 200 100"><rect width="200" height="100" fill="white"/>
        <path d="M20 20h160v60H20z" fill="#0F9D58"/></svg>`),
    );
    assert.equal(logo.measurements.background, 'white_removed');
    assert.ok(Math.abs(logo.measurements.aspect_ratio - 160 / 60) < 0.05);
    assert.ok(deltaE2000(logo.colors[0]!, '#0F9D58') <= 5);
  });

  void test('an SVG declaring an external entity is refused, whether or not the entity is used', async () => {
    await unreadable(
      normalizeLogo(
        svg(`<?xml version="1.0"?>
          <!DOCTYPE svg [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
          <svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><text y="20">&xxe;</text></svg>`),
      ),
      /DOCTYPE.*ENTITY/,
    );
    await unreadable(
      normalizeLogo(
        svg(`<!DOCTYPE svg [ <!ENTITY a "aaaaaaaaaa"> <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"> ]>
          <svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200"/></svg>`),
      ),
      /DOCTYPE/,
    );
  });

  void test('script, handlers and external references are dropped and nothing is fetched', async () => {
    requests = 0;
    const red = (
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#FF0000' } })
        .png()
        .toBuffer()
    ).toString('base64');
    const hostile = svg(`<?xml version="1.0"?>
      <?xml-stylesheet href="${base}/sheet.css" type="text/css"?>
      <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="300" height="150"
           onload="fetch('${base}/onload')">
        <style>@import url(${base}/import.css); .mark { fill: #1E6FD9 } .bg { filter: url(${base}/f.svg#f) }</style>
        <script>fetch('${base}/script')</script>
        <script xlink:href="${base}/script.js"/>
        <image href="${base}/image.png" x="0" y="0" width="300" height="150"/>
        <image xlink:href="${base}/xlink.png" x="0" y="0" width="300" height="150"/>
        <use href="${base}/sprite.svg#logo"/>
        <feImage href="${base}/fe.png"/>
        <rect class="mark" x="20" y="20" width="160" height="110" onclick="fetch('${base}/click')"
              style="stroke: url(${base}/stroke.svg#p)" mask="url(${base}/mask.svg#m)"/>
        <image href="data:image/png;base64,${red}" x="200" y="20" width="80" height="110"/>
        <set attributeName="href" to="${base}/set.png"/>
        <foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="${base}/frame"/></foreignObject>
      </svg>`);
    const logo = await normalizeLogo(hostile);
    await sleep(200);
    assert.equal(requests, 0, 'the loopback server saw no request');
    // What was drawn is the document's own content: the blue rect and the inline red image.
    assert.equal(logo.measurements.source_format, 'svg');
    assert.ok(deltaE2000(logo.colors[0]!, '#1E6FD9') <= 5, `colours ${logo.colors.join(' ')}`);
    assert.ok(
      logo.colors.some((c) => deltaE2000(c, '#FF0000') <= 5),
      'the inline data: image was drawn',
    );
    assert.equal(logo.measurements.monochrome, false);
  });

  void test('hostile structure fails fast: deep nesting, element floods, malformed XML', async () => {
    const deep = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">${'<g>'.repeat(5000)}<rect width="100" height="100"/>${'</g>'.repeat(5000)}</svg>`;
    await unreadable(normalizeLogo(svg(deep)), /deeper than 200 levels/);
    const flood = `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">${'<rect width="1" height="1"/>'.repeat(60_000)}</svg>`;
    await unreadable(normalizeLogo(svg(flood)), /more than 50000 elements/);
    await unreadable(
      normalizeLogo(svg('<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"/></svg>')),
      /viewBox/,
    );
    await unreadable(
      normalizeLogo(svg('<svg-not xmlns="http://www.w3.org/2000/svg"/>')),
      /root is <svg-not>/,
    );
  });
});
