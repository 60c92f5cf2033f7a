import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { composeProvenance, fontFacts, fontFileFacts, voiceFacts } from './provenance.ts';

describe('composeProvenance', () => {
  test('scenes tile the timeline (a looped clip is one stretch); sound has no region', async () => {
    const manifest = await composeProvenance({
      spec: {
        outputPath: '/tmp/out.mp4',
        width: 1080,
        height: 1920,
        durationSec: 10,
        scenes: [
          { path: '/lib/a.mp4', inPoint: 6, duration: 2 },
          { path: '/lib/a.mp4', inPoint: 0, duration: 2 },
          { path: '/lib/b.mp4', inPoint: 0, duration: 3 },
          { path: '/lib/a.mp4', inPoint: 2, duration: 2 },
        ],
      },
      scenes: new Map([
        ['/lib/a.mp4', { id: 'a', source: { type: 'generated', library_id: 'a' }, licence: 'CC0-1.0' }],
        ['/lib/b.mp4', { id: 'b', source: { type: 'upload', library_id: 'b' }, licence: 'x' }],
      ]),
      voice: { ...voiceFacts('flite:rms'), speechStart: 0.1, speechEnd: 9.1 },
    });
    const full = { x: 0, y: 0, width: 1080, height: 1920 };
    assert.deepEqual(manifest.video, { duration_sec: 10, width: 1080, height: 1920 });
    const [a, b, voice] = manifest.items;
    assert.deepEqual(a!.placements, [
      { start: 0, end: 4, region: full },
      { start: 7, end: 10, region: full },
    ]);
    assert.deepEqual(b!.placements, [{ start: 4, end: 7, region: full }]);
    assert.equal(voice!.kind, 'voice');
    assert.deepEqual(voice!.placements, [{ start: 0.1, end: 9.1, region: null }]);
    assert.match(voice!.licence, /flite/);
  });

  test('fonts carry their licence: a shipped web font from its package, a system font by its family', () => {
    assert.deepEqual(fontFacts('Inter'), {
      id: 'Inter',
      source: { type: 'package', package: '@fontsource/inter' },
      licence: 'OFL-1.1',
    });
    assert.equal(fontFacts('DejaVu Sans').licence, 'Bitstream-Vera');
    assert.equal(fontFacts('Liberation Sans').licence, 'OFL-1.1');
    assert.equal(
      fontFileFacts('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf').id,
      'DejaVuSans-Bold.ttf',
    );
  });
});
