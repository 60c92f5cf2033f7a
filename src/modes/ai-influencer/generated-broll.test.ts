import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Scene } from '../../media/footage/select.ts';
import { brollTimeline, placeEndToEnd, planBroll, sliceTimeline, stillShape } from './generated-broll.ts';

const scenes: Scene[] = [
  { index: 0, text: 'Hook.', start: 0, end: 2 },
  { index: 1, text: 'One.', start: 2, end: 5 },
  { index: 2, text: 'Two.', start: 5, end: 7 },
  { index: 3, text: 'Three.', start: 7, end: 10 },
  { index: 4, text: 'Four.', start: 10, end: 12.5 },
];

const sources = (plan: ReturnType<typeof planBroll>) => plan.map((s) => `${s.index}:${s.source}`);

describe('generated B-roll plan', () => {
  it('generated: a still for every sentence of creator and split, up to the priced count', () => {
    const plan = planBroll({ scenes, layout: 'split', visuals: 'generated', cutaways: [], maxStills: 5 });
    assert.deepEqual(sources(plan), [
      '0:generated',
      '1:generated',
      '2:generated',
      '3:generated',
      '4:generated',
    ]);
    assert.deepEqual(plan[1], { index: 1, text: 'One.', start: 2, end: 5, source: 'generated' });
    const capped = planBroll({ scenes, layout: 'creator', visuals: 'generated', cutaways: [], maxStills: 3 });
    assert.deepEqual(sources(capped), ['0:generated', '1:generated', '2:generated', '3:stock', '4:stock']);
  });

  it('mixed: generated and stock in turn, starting with a still', () => {
    const plan = planBroll({ scenes, layout: 'split', visuals: 'mixed', cutaways: [], maxStills: 3 });
    assert.deepEqual(sources(plan), ['0:generated', '1:stock', '2:generated', '3:stock', '4:generated']);
  });

  it('cutaway: only the sentences the cut-aways open on, alternating among them', () => {
    const cutaways: [number, number][] = [
      [2, 5],
      [7, 12.5],
    ];
    const plan = planBroll({ scenes, layout: 'cutaway', visuals: 'mixed', cutaways, maxStills: 2 });
    assert.deepEqual(sources(plan), ['1:generated', '3:stock']);
    const stock = planBroll({ scenes, layout: 'cutaway', visuals: 'stock', cutaways, maxStills: 0 });
    assert.deepEqual(sources(stock), ['1:stock', '3:stock']);
  });

  it('the still shape nearest each B-roll region', () => {
    assert.equal(stillShape({ width: 1080, height: 1920 }), 'portrait');
    assert.equal(stillShape({ width: 1080, height: 960 }), 'square');
    assert.equal(stillShape({ width: 1920, height: 1080 }), 'landscape');
    assert.equal(stillShape({ width: 1080, height: 1080 }), 'square');
  });
});

describe('B-roll timeline', () => {
  const footage = placeEndToEnd([
    { path: '/clips/a.mp4', inPoint: 1, duration: 4 },
    { path: '/clips/b.mp4', inPoint: 0, duration: 8.5 },
  ]);

  it('places contiguous scenes end to end', () => {
    assert.deepEqual(
      footage.map((p) => p.start),
      [0, 4],
    );
  });

  it('slices a timeline, moving each clip in-point with the cut', () => {
    assert.deepEqual(sliceTimeline(footage, 2, 5), [
      { start: 2, scene: { path: '/clips/a.mp4', inPoint: 3, duration: 2 } },
      { start: 4, scene: { path: '/clips/b.mp4', inPoint: 0, duration: 1 } },
    ]);
    assert.deepEqual(sliceTimeline(footage, 12.5, 13), []);
  });

  it('a still moves under a camera move for its sentence; a stock sentence shows its footage slice', () => {
    const plan = planBroll({ scenes, layout: 'split', visuals: 'mixed', cutaways: [], maxStills: 3 });
    const stills = [0, 2, 4].map((sentence) => ({
      sentence,
      path: `/work/still-${sentence}.png`,
      prompt: `prompt ${sentence}`,
      provider: 'openai-images',
      model: 'gpt-image-1',
      size: '1024x1024',
      requestId: null,
    }));
    const timeline = brollTimeline({ sentences: plan, stills, footage, seed: 'job_1' });
    // Contiguous from 0 to the end of the last sentence, so the creator and split layouts can show it.
    let at = 0;
    for (const placed of timeline) {
      assert.ok(Math.abs(placed.start - at) < 1e-9, `a gap at ${at}`);
      at += placed.scene.duration;
    }
    assert.ok(Math.abs(at - 12.5) < 1e-9);
    const first = timeline[0]!;
    assert.equal(first.scene.path, '/work/still-0.png');
    assert.equal(first.scene.kind, 'image');
    assert.equal(first.scene.duration, 2);
    assert.ok(first.scene.motion && first.scene.motion.move.strength > 0, 'the still moves');
    const stockParts = timeline.filter((p) => p.start >= 2 && p.start < 5);
    assert.deepEqual(
      stockParts.map((p) => [p.scene.path, p.scene.inPoint, p.scene.duration]),
      [
        ['/clips/a.mp4', 3, 2],
        ['/clips/b.mp4', 0, 1],
      ],
    );
    assert.equal(timeline.at(-1)!.scene.path, '/work/still-4.png');
  });
});
