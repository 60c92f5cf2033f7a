import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RenderedClip } from '../../media/clips/clip-pipeline.ts';
import { CALLER_VIDEO_POLICY } from '../../media/quality/gated-delivery.ts';
import { judgeQuality } from '../../media/quality/quality-gate.ts';
import { clipJobOutput } from './clip-output.ts';
import type { ClipRequest } from './clip-request.ts';

const WATCH = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';
const request: ClipRequest = {
  vidsite_url: WATCH,
  clip_count: 5,
  aspect_ratio: '9:16',
  captions: true,
  source_video: { vidsite_video_id: 'dQw4w9WgXcQ', title: null, url: WATCH },
};
const source = {
  path: '/w/source/source.mp4',
  title: 'A long talk',
  durationSec: 95,
  width: 640,
  height: 360,
};

/** A clip file's report as the gate judges a clean 20 s delivery. */
const quality = {
  ...judgeQuality(
    {
      loudness: { integratedLufs: -14.2, truePeakDb: -2, lra: 3 },
      black: [],
      frozen: [],
      videoStreamSec: 20,
      audioStreamSec: 20.01,
      narrationLagSec: 0,
      narrationCorrelation: 0.9,
      captionOffsets: null,
      captionBoxes: [],
      frame: { width: 1080, height: 1920 },
      measureSec: 1,
    },
    { plannedSec: 20, policy: CALLER_VIDEO_POLICY },
  ),
  attempts: 1,
};

function clip(index: number, viralScore: number, startSec: number): RenderedClip {
  return {
    index,
    path: `/w/clips/clip-${index}.mp4`,
    posterPath: `/w/clips/clip-${index}.jpg`,
    captionsPath: null,
    title: `Moment ${index}`,
    transcript: `Ninety percent of new businesses fail within five years because of cash, said speaker ${index}.`,
    startSec,
    endSec: startSec + 20,
    durationSec: 20,
    viralScore,
    scoreBreakdown: { hook: viralScore / 2 },
    width: 1080,
    height: 1920,
    framing: { mode: 'fit', reason: 'no motion to follow' },
    reframe: { method: 'fit', fallbackReason: 'no faces found' },
    quality,
    captionFont: null,
  };
}

void describe('clip job output', () => {
  void test('clips come best first, with one clip and one poster file each and the best poster as thumbnail', () => {
    const out = clipJobOutput({
      request,
      source,
      clips: [clip(0, 40, 10), clip(1, 90, 50), clip(2, 65, 30)],
      language: 'en',
      posterPath: '/w/poster.jpg',
      unitCents: 40,
    });
    const clips = out.artifacts.clips as Array<Record<string, unknown>>;
    assert.deepEqual(
      clips.map((c) => [c.index, c.title, c.viralScore]),
      [
        [0, 'Moment 1', 90],
        [1, 'Moment 2', 65],
        [2, 'Moment 0', 40],
      ],
    );
    assert.deepEqual(clips[0]!.reframe, { method: 'fit', fallbackReason: 'no faces found' });
    assert.deepEqual(
      out.files.map((f) => [f.role, f.index, f.path, f.contentType, f.name]),
      [
        ['thumbnail', undefined, '/w/poster.jpg', 'image/jpeg', 'poster.jpg'],
        ['clip', 0, '/w/clips/clip-1.mp4', 'video/mp4', 'clip-1.mp4'],
        ['clip_thumbnail', 0, '/w/clips/clip-1.jpg', 'image/jpeg', 'clip-1.jpg'],
        ['manifest', 0, '/w/clips/clip-1.provenance.json', 'application/json', 'clip-1.provenance.json'],
        ['clip', 1, '/w/clips/clip-2.mp4', 'video/mp4', 'clip-2.mp4'],
        ['clip_thumbnail', 1, '/w/clips/clip-2.jpg', 'image/jpeg', 'clip-2.jpg'],
        ['manifest', 1, '/w/clips/clip-2.provenance.json', 'application/json', 'clip-2.provenance.json'],
        ['clip', 2, '/w/clips/clip-0.mp4', 'video/mp4', 'clip-3.mp4'],
        ['clip_thumbnail', 2, '/w/clips/clip-0.jpg', 'image/jpeg', 'clip-3.jpg'],
        ['manifest', 2, '/w/clips/clip-0.provenance.json', 'application/json', 'clip-3.provenance.json'],
      ],
    );
    assert.equal(out.artifacts.title, 'Moment 1');
    assert.equal(out.artifacts.script, clips[0]!.transcript);
    assert.equal(out.artifacts.durationSec, 20);
    assert.match(out.artifacts.description as string, /#\w+/);
    assert.deepEqual(out.artifacts.source_video, {
      vidsite_video_id: 'dQw4w9WgXcQ',
      title: 'A long talk',
      url: WATCH,
      duration_sec: 95,
    });
    assert.equal(out.artifacts.requested_clip_count, 5);
    assert.equal(out.artifacts.delivered_clip_count, 3);
    // Each clip carries its quality report and its manifest: the stretch of the caller's video it shows.
    assert.equal((clips[0]!.quality as { passed: boolean }).passed, true);
    const manifest = clips[0]!.provenance as {
      items: { kind: string; source: unknown; placements: { source_range?: unknown }[] }[];
    };
    assert.deepEqual(manifest.items[0]!.source, { type: 'url', url: WATCH, field: 'vidsite_url' });
    assert.deepEqual(manifest.items[0]!.placements[0]!.source_range, { start: 50, end: 70 });
    assert.equal(manifest.items.length, 1, 'no captions, no font');
  });

  void test('each requested clip that was not delivered is refunded; a full delivery refunds nothing', () => {
    const partial = clipJobOutput({
      request,
      source,
      clips: [clip(0, 50, 0), clip(1, 60, 30)],
      language: 'en',
      posterPath: '/w/p.jpg',
      unitCents: 40,
    });
    assert.equal(partial.refundCents, 120);
    assert.equal(partial.refundReason, 'undelivered clips: 3 of 5 requested');
    assert.equal(partial.artifacts.refunded_usd_cents, 120);
    const full = clipJobOutput({
      request: { ...request, clip_count: 2 },
      source,
      clips: [clip(0, 50, 0), clip(1, 60, 30), clip(2, 10, 60)],
      language: 'en',
      posterPath: '/w/p.jpg',
      unitCents: 40,
    });
    assert.equal(full.refundCents, undefined);
    assert.equal((full.artifacts.clips as unknown[]).length, 2);
    assert.ok(!('refunded_usd_cents' in full.artifacts));
  });

  void test('a direct media source is described by its link; a silent clip has no post copy', () => {
    const out = clipJobOutput({
      request: {
        media_url: 'https://cdn.example.com/talk.mp4',
        clip_count: 1,
        aspect_ratio: '1:1',
        captions: false,
      },
      source: { ...source, title: null },
      clips: [{ ...clip(0, 10, 0), transcript: '' }],
      language: 'en',
      posterPath: '/w/p.png',
      unitCents: 40,
    });
    assert.deepEqual(out.artifacts.source_video, {
      url: 'https://cdn.example.com/talk.mp4',
      title: null,
      duration_sec: 95,
    });
    assert.equal(out.artifacts.description, '');
    assert.equal(out.files[0]!.contentType, 'image/png');
  });

  void test('no clips is a programming error, never an empty delivery', () => {
    assert.throws(() =>
      clipJobOutput({ request, source, clips: [], language: 'en', posterPath: '/w/p.jpg', unitCents: 40 }),
    );
  });
});
