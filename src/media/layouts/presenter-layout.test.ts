import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  defaultCaptionStyle,
  presenterLayoutGeometry,
  type PresenterLayoutName,
  type PresenterLayoutOptions,
  type Rect,
} from './presenter-layout.ts';

function inside(inner: Rect, outer: Rect): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

describe('presenterLayoutGeometry at 1080×1920', () => {
  const W = 1080;
  const H = 1920;
  const at = (o: Omit<PresenterLayoutOptions, 'width' | 'height'>) =>
    presenterLayoutGeometry({ width: W, height: H, ...o });

  test('creator, cut out: a wide box standing on the bottom edge, left or centred', () => {
    const left = at({ layout: 'creator', presenter: 'alpha' });
    assert.deepEqual(left.presenter, { x: 0, y: 960, width: 670, height: 960 });
    assert.equal(left.style, 'cutout');
    assert.deepEqual(left.broll, { x: 0, y: 0, width: W, height: H });
    assert.equal(left.seamY, 960);
    const centre = at({ layout: 'creator', presenter: 'alpha', placement: 'bottom_center' });
    assert.equal(centre.presenter.x, 206);
  });

  test('creator, bubble: above the bottom UI, inside the side margin, with a thin border', () => {
    const circle = at({ layout: 'creator', presenter: 'opaque' });
    assert.deepEqual(circle.presenter, { x: 90, y: 1920 - 400 - 454, width: 454, height: 454 });
    assert.deepEqual(circle.bubble, { shape: 'circle', radius: 227, borderPx: 6 });
    const rounded = at({
      layout: 'creator',
      presenter: 'opaque',
      bubble: 'rounded',
      placement: 'bottom_center',
    });
    assert.deepEqual(rounded.presenter, { x: 324, y: 1920 - 400 - 576, width: 432, height: 576 });
    assert.deepEqual(rounded.bubble, { shape: 'rounded', radius: 52, borderPx: 6 });
  });

  test('creator, logo host: a square with the URL line under it, above the bottom UI', () => {
    const g = at({ layout: 'creator', presenter: 'host', hostUrl: true });
    assert.equal(g.style, 'host');
    assert.deepEqual(g.host, {
      box: { x: 90, y: 944, width: 496, height: 496 },
      url: { x: 90, y: 1440, width: 496, height: 80 },
    });
    assert.equal(g.host.url.y + g.host.url.height, 1920 - 400);
  });

  test('split: B-roll above the seam at half height, the presenter below', () => {
    const g = at({ layout: 'split', presenter: 'opaque' });
    assert.equal(g.seamY, 960);
    assert.deepEqual(g.broll, { x: 0, y: 0, width: W, height: 960 });
    assert.deepEqual(g.presenter, { x: 0, y: 960, width: W, height: 960 });
    assert.deepEqual(g.captions, { top: 840, bottom: 1080, centerY: 960 });
    assert.equal(g.captionStyle, 'seam');
  });

  test('creator captions rest just above the presenter', () => {
    const g = at({ layout: 'creator', presenter: 'opaque' });
    assert.equal(g.captions.bottom, g.presenter.y - 24);
    assert.equal(g.captions.bottom - g.captions.top, 240);
  });

  test('the logo goes top-right under the header', () => {
    assert.equal(at({ layout: 'split', presenter: 'opaque' }).logoTop, 250 + 43);
  });
});

describe('presenterLayoutGeometry on landscape and square frames', () => {
  test('cutaway: presenter and cutaways full frame, captions in the lower band', () => {
    const g = presenterLayoutGeometry({ layout: 'cutaway', width: 1920, height: 1080, presenter: 'opaque' });
    assert.deepEqual(g.presenter, { x: 0, y: 0, width: 1920, height: 1080 });
    assert.deepEqual(g.broll, g.presenter);
    assert.equal(g.seamY, null);
    assert.deepEqual(g.captions, { top: 1080 - 108 - 240, bottom: 1080 - 108, centerY: 1080 - 108 - 120 });
    assert.equal(g.captionStyle, 'karaoke');
  });

  test('talking head (1:1): no B-roll', () => {
    const g = presenterLayoutGeometry({
      layout: 'talking_head',
      width: 1080,
      height: 1080,
      presenter: 'opaque',
    });
    assert.equal(g.broll, null);
    assert.equal(g.style, 'full');
  });

  test('creator and split need a portrait frame', () => {
    for (const layout of ['creator', 'split'] as const) {
      assert.throws(
        () => presenterLayoutGeometry({ layout, width: 1920, height: 1080, presenter: 'opaque' }),
        /portrait/,
      );
    }
  });
});

describe('every layout fits its frame', () => {
  const frames = [
    [1080, 1920],
    [720, 1280],
    [360, 640],
    [1920, 1080],
    [1080, 1080],
  ] as const;
  const layouts: PresenterLayoutName[] = ['talking_head', 'creator', 'split', 'cutaway'];
  for (const [width, height] of frames)
    for (const layout of layouts)
      for (const presenter of ['alpha', 'opaque', 'host'] as const)
        for (const placement of ['bottom_left', 'bottom_center'] as const) {
          if ((layout === 'creator' || layout === 'split') && width >= height) continue;
          if (placement === 'bottom_center' && layout !== 'creator') continue;
          test(`${layout} ${presenter} ${placement} ${width}×${height}`, () => {
            const g = presenterLayoutGeometry({
              layout,
              width,
              height,
              presenter,
              hostUrl: true,
              ...(layout === 'creator' ? { placement } : {}),
            });
            const frame = { x: 0, y: 0, width, height };
            for (const r of [g.presenter, g.broll, g.host?.box, g.host?.url]) {
              if (!r) continue;
              assert.ok(inside(r, frame), `${JSON.stringify(r)} inside the frame`);
              assert.ok(r.width % 2 === 0 && r.height % 2 === 0, `${JSON.stringify(r)} has even sides`);
            }
            if (g.host)
              assert.ok(inside(g.host.box, g.presenter), 'the host box is inside the presenter region');
            assert.ok(g.captions.top >= 0 && g.captions.bottom <= height, 'captions on the frame');
            assert.equal(g.captionStyle, defaultCaptionStyle(layout));
          });
        }
});
