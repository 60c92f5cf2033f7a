import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveComposeSpec } from './compose-spec.ts';
import { planInputs } from './compose-inputs.ts';
import { buildVideoGraph, coverFilter, logoBottomOffset } from './video-graph.ts';

describe('coverFilter', () => {
  const cases: [number, number, string][] = [
    [1080, 1920, 'crop=w=min(iw\\,ih*9/16):h=min(ih\\,iw*16/9),scale=1080:1920,format=yuv420p,setsar=1'],
    [1080, 1350, 'crop=w=min(iw\\,ih*4/5):h=min(ih\\,iw*5/4),scale=1080:1350,format=yuv420p,setsar=1'],
    [1920, 1080, 'crop=w=min(iw\\,ih*16/9):h=min(ih\\,iw*9/16),scale=1920:1080,format=yuv420p,setsar=1'],
  ];
  for (const [w, h, expected] of cases) {
    test(`${w}x${h}`, () => assert.equal(coverFilter(w, h), expected));
  }
});

describe('logoBottomOffset', () => {
  test('above the bottom UI and a two-line caption band', () => {
    const spec = resolveComposeSpec({
      outputPath: 'o.mp4',
      durationSec: 1,
      scenes: [{ path: 'a.mp4', inPoint: 0, duration: 1 }],
    });
    assert.equal(logoBottomOffset(spec, 43), 400 + 240 + 43);
  });
});

describe('moving scenes', () => {
  test('take consecutive frame ranges of the one motion feed; their sound still comes from the file', () => {
    const move = { kind: 'zoom', direction: 'in', speed: 'slow', strength: 0.35 } as const;
    const spec = resolveComposeSpec({
      outputPath: 'o.mp4',
      durationSec: 4,
      fps: 30,
      scenes: [
        { path: 'a.png', inPoint: 0, duration: 1, motion: { move } },
        { path: 'b.mp4', inPoint: 0, duration: 1 },
        { path: 'c.mp4', inPoint: 2, duration: 2, hasAudio: true, motion: { move } },
      ],
    });
    const inputs = planInputs(spec, 'video', '/tmp/feed.yuv');
    assert.deepEqual(inputs.scenes, [null, 0, 1]);
    assert.deepEqual(inputs.sceneVideo, [2, 0, 2]);
    assert.equal(inputs.motionFeed, 2);
    assert.deepEqual(inputs.args.slice(0, 10), [
      '-t',
      '1',
      '-i',
      'b.mp4',
      '-vn',
      '-ss',
      '2',
      '-t',
      '2',
      '-i',
    ]);
    assert.ok(
      inputs.args.join(' ').includes('-f rawvideo -pix_fmt yuv420p -video_size 1080x1920 -framerate 30'),
    );
    const graph = buildVideoGraph(spec, inputs).filters;
    assert.equal(graph[0], '[2:v]split=2[mf0][mf1]');
    assert.ok(graph.includes('[mf0]trim=start_frame=0:end_frame=30,setpts=PTS-STARTPTS,setsar=1[v0]'));
    assert.ok(graph.includes('[mf1]trim=start_frame=30:end_frame=90,setpts=PTS-STARTPTS,setsar=1[v2]'));
    assert.deepEqual(planInputs(spec, 'audio').scenes, [null, null, 0]);
    assert.throws(() => planInputs(spec, 'video'), /motion feed/);
  });
});
