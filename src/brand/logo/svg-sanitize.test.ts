import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DomUtils, parseDocument } from 'htmlparser2';
import { ApiError } from '../../platform/errors.ts';
import { sanitizeSvg } from './svg-sanitize.ts';

const parse = (text: string) => parseDocument(text, { xmlMode: true });
const elements = (text: string) => DomUtils.findAll(() => true, parse(text).children);

void describe('sanitizeSvg', () => {
  const hostile = `<?xml version="1.0"?><?xml-stylesheet href="https://evil.example/a.css"?><!-- note -->
    <svg viewBox="0 0 10 10" onload="alert(1)" xml:base="https://evil.example/">
      <script>alert(1)</script><svg:script xmlns:svg="http://www.w3.org/2000/svg">x</svg:script>
      <style><![CDATA[@import url(https://evil.example/x.css); .a > b { fill: red; background: url(file:///etc/passwd) }]]></style>
      <image href="https://evil.example/a.png"/><image xlink:href="file:///etc/passwd"/>
      <image href="data:image/png;base64,iVBORw0KGgo="/><image href="data:image/svg+xml;base64,PHN2Zz4="/>
      <use href="#mark"/><use href="other.svg#mark"/>
      <rect id="mark" fill="url(#grad)" stroke="url(https://evil.example/#p)" style="fill: blue; mask: url(//evil.example/m)" ONCLICK="x"/>
      <animate attributeName="href" to="https://evil.example"/><set attributeName="href" to="https://evil.example"/>
      <foreignObject><iframe src="https://evil.example"/></foreignObject>
    </svg>`;

  void test('drops script, handlers, animation, foreign content and every outside reference', () => {
    const out = sanitizeSvg(hostile);
    const names = elements(out).map((e) => e.name);
    for (const gone of ['script', 'svg:script', 'animate', 'set', 'foreignObject', 'iframe'])
      assert.ok(!names.includes(gone), `${gone} removed`);
    for (const element of elements(out)) {
      for (const [name, value] of Object.entries(element.attribs)) {
        assert.ok(!name.toLowerCase().startsWith('on'), `handler ${name} removed`);
        assert.notEqual(name, 'xml:base');
        if (!name.startsWith('xmlns'))
          assert.ok(!/evil|file:|other\.svg/.test(value), `${name}="${value}" removed`);
      }
    }
    const hrefs = elements(out).flatMap((e) => [e.attribs.href, e.attribs['xlink:href']].filter(Boolean));
    assert.deepEqual(hrefs.sort(), ['#mark', 'data:image/png;base64,iVBORw0KGgo=']);
    const rect = elements(out).find((e) => e.attribs.id === 'mark')!;
    assert.equal(rect.attribs.fill, 'url(#grad)', 'in-document references stay');
    assert.equal(rect.attribs.stroke, undefined);
    assert.equal(rect.attribs.style, 'fill:blue');
    const css = DomUtils.textContent(elements(out).find((e) => e.name === 'style')!);
    assert.ok(!css.includes('import') && !css.includes('passwd'), css);
    assert.ok(css.includes('fill:red'), 'harmless CSS stays');
    const doc = parse(out);
    assert.equal(doc.children.length, 1, 'comments and processing instructions are gone');
  });

  void test('adds the namespaces an SVG copied out of HTML lacks, and restores viewBox case', () => {
    const out = sanitizeSvg('<svg viewbox="0 0 4 2"><rect width="4" height="2"/></svg>');
    const root = elements(out)[0]!;
    assert.equal(root.attribs.xmlns, 'http://www.w3.org/2000/svg');
    assert.equal(root.attribs.viewBox, '0 0 4 2');
  });

  void test('refuses declarations, sizeless and non-SVG documents', () => {
    for (const [text, message] of [
      [
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg viewBox="0 0 1 1"/>',
        /DOCTYPE/,
      ],
      ['<svg viewBox="0 0 1 1"><!ENTITY x "y"></svg>', /ENTITY/],
      ['<svg width="100%" height="100%"/>', /viewBox/],
      ['<html><svg viewBox="0 0 1 1"/></html>', /not an SVG/],
    ] as const) {
      assert.throws(
        () => sanitizeSvg(text),
        (err: unknown) =>
          err instanceof ApiError && err.code === 'LOGO_UNREADABLE' && message.test(err.message),
        text,
      );
    }
  });
});
