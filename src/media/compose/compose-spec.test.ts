import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bedSections, bedTiming } from '../music/timing.ts';
import { resolveComposeSpec, sceneKindOf, type ComposeSpec } from './compose-spec.ts';

const SECTIONS = bedSections(bedTiming({ bpm: 120, chordCount: 4, barsPerChord: 1 }));

const BASE: ComposeSpec = {
  outputPath: 'o.mp4',
  durationSec: 5,
  scenes: [{ path: 'a.mp4', inPoint: 0, duration: 5 }],
};

describe('sceneKindOf', () => {
  const cases: [string, string][] = [
    ['clip.mp4', 'video'],
    ['photo.JPG', 'image'],
    ['still.png', 'image'],
    ['anim.gif', 'video'],
    ['/dir.png/file', 'video'],
    ['noext', 'video'],
    ['x.webp', 'image'],
  ];
  for (const [path, kind] of cases) {
    test(path, () => assert.equal(sceneKindOf(path), kind));
  }
});

describe('resolveComposeSpec', () => {
  test('defaults', () => {
    const r = resolveComposeSpec(BASE);
    assert.equal(r.width, 1080);
    assert.equal(r.height, 1920);
    assert.equal(r.fps, 30);
    assert.deepEqual(r.loudness, { integratedLufs: -14, truePeakDb: -1.5, gain: null });
    assert.deepEqual(r.encoding, { preset: 'veryfast', crf: 22, audioBitrateKbps: 160, threads: 0 });
    assert.deepEqual(r.scenes, [{ path: 'a.mp4', kind: 'video', inPoint: 0, duration: 5, hasAudio: false }]);
  });

  test('the last scene holds until the end; image in-points are ignored', () => {
    const r = resolveComposeSpec({
      ...BASE,
      durationSec: 8,
      scenes: [
        { path: 'a.mp4', inPoint: 2, duration: 3 },
        { path: 'b.png', inPoint: 7, duration: 2 },
      ],
    });
    assert.deepEqual(
      r.scenes.map((s) => [s.kind, s.inPoint, s.duration]),
      [
        ['video', 2, 3],
        ['image', 0, 5],
      ],
    );
  });

  test('music fades never exceed half the video', () => {
    const r = resolveComposeSpec({
      ...BASE,
      durationSec: 3,
      music: { path: 'm.mp3', volume: 0.2, fadeOutSec: 5 },
    });
    assert.deepEqual(r.music, { path: 'm.mp3', bed: null, volume: 0.2, fadeInSec: 1, fadeOutSec: 1.5 });
  });

  test('a library bed is not faded unless asked: its intro swells in and its outro ends it', () => {
    const bed = { introPath: 'i.m4a', outroPath: 'o.m4a', sections: SECTIONS };
    const r = resolveComposeSpec({ ...BASE, durationSec: 30, music: { path: 'l.m4a', bed, volume: 0.3 } });
    assert.deepEqual(r.music, { path: 'l.m4a', bed, volume: 0.3, fadeInSec: 0, fadeOutSec: 0 });
    const faded = resolveComposeSpec({
      ...BASE,
      durationSec: 30,
      music: { path: 'l.m4a', bed, volume: 0.3, fadeInSec: 0.5, fadeOutSec: 3 },
    });
    assert.equal(faded.music?.fadeInSec, 0.5);
    assert.equal(faded.music?.fadeOutSec, 3);
  });

  test('logo and watermark defaults', () => {
    const r = resolveComposeSpec({ ...BASE, logo: { path: 'l.png' }, watermark: { text: 'x' } });
    assert.deepEqual(r.logo, { path: 'l.png', widthFraction: 0.18, margin: 43 });
    assert.deepEqual(r.watermark, {
      text: 'x',
      fontFile: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
    });
  });

  const invalid: [string, Partial<ComposeSpec>, RegExp][] = [
    ['odd width', { width: 271 }, /width/],
    ['zero duration', { durationSec: 0 }, /durationSec/],
    ['no scenes', { scenes: [] }, /at least one scene/],
    ['negative in-point', { scenes: [{ path: 'a.mp4', inPoint: -1, duration: 5 }] }, /inPoint/],
    ['image with audio', { scenes: [{ path: 'a.png', inPoint: 0, duration: 5, hasAudio: true }] }, /image/],
    ['tempo too high', { narration: { path: 'n.wav', tempo: 1.5 } }, /tempo/],
    ['tempo below 1', { narration: { path: 'n.wav', tempo: 0.9 } }, /tempo/],
    ['music too loud', { music: { path: 'm.mp3', volume: 1.2 } }, /music.volume/],
    ['bad bar colour', { progressBar: { position: 'top', color: 'red' } }, /#RRGGBB/],
    [
      'bar taller than frame',
      { progressBar: { position: 'top', color: '#FFFFFF', heightPx: 5000 } },
      /heightPx/,
    ],
    ['crf out of range', { encoding: { crf: 60 } }, /crf/],
    ['positive loudness target', { loudness: { integratedLufs: 3 } }, /integratedLufs/],
  ];
  for (const [name, patch, message] of invalid) {
    test(`rejects ${name}`, () => assert.throws(() => resolveComposeSpec({ ...BASE, ...patch }), message));
  }
});
