import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  buildClipArgs,
  buildClipGraph,
  outputFps,
  reframeFilters,
  segmentExpression,
  type ClipRenderSpec,
} from './clip-command.ts';
import type { ReframePlan } from './reframe.ts';

const SPEC: ClipRenderSpec = {
  sourcePath: '/in/source.mp4',
  startSec: 12.345,
  durationSec: 20.5,
  sourceFps: 25,
  width: 1080,
  height: 1920,
  plan: {
    mode: 'crop',
    axis: 'x',
    cropWidth: 608,
    cropHeight: 1080,
    segments: [{ startSec: 0, offset: 100 }],
  },
  assPath: '/work/clip 1.ass',
  fontsDir: '/usr/share/fonts/truetype',
  gain: { gainDb: 6.5, limiter: false },
  loudness: { integratedLufs: -14, truePeakDb: -1 },
  preset: 'veryfast',
  crf: 21,
  audioBitrateKbps: 160,
  outputPath: '/work/clip-1.part.mp4',
  posterPath: '/work/clip-1.jpg',
  posterAtSec: 1.5,
};

describe('segmentExpression', () => {
  for (const [segments, expected] of [
    [[], '0'],
    [[{ startSec: 0, offset: 100 }], '100'],
    [
      [
        { startSec: 0, offset: 100 },
        { startSec: 4.25, offset: 640 },
        { startSec: 9, offset: 20 },
      ],
      'if(lt(t\\,4.25)\\,100\\,if(lt(t\\,9)\\,640\\,20))',
    ],
  ] as const) {
    test(expected, () => assert.equal(segmentExpression(segments), expected));
  }
});

describe('reframeFilters', () => {
  test('crop: full height, offset per shot, scaled to the frame', () => {
    assert.deepEqual(reframeFilters(SPEC), [
      '[0:v]crop=w=608:h=1080:x=100:y=0,scale=1080:1920:flags=bicubic,format=yuv420p,setsar=1[framed]',
    ]);
  });
  test('crop along the height for portrait sources, and 60 fps halved', () => {
    const plan: ReframePlan = {
      mode: 'crop',
      axis: 'y',
      cropWidth: 1080,
      cropHeight: 608,
      segments: [{ startSec: 0, offset: 300 }],
    };
    assert.deepEqual(reframeFilters({ ...SPEC, plan, width: 1920, height: 1080, sourceFps: 60 }), [
      '[0:v]fps=30,crop=w=1080:h=608:x=0:y=300,scale=1920:1080:flags=bicubic,format=yuv420p,setsar=1[framed]',
    ]);
  });
  test('fit: whole picture over a small blurred copy', () => {
    assert.deepEqual(reframeFilters({ ...SPEC, plan: { mode: 'fit', reason: 'still' } }), [
      '[0:v]split=2[fitfg][fitbg]',
      '[fitbg]scale=136:240:force_original_aspect_ratio=increase,crop=136:240,boxblur=10:2,eq=brightness=-0.08:saturation=0.85,scale=1080:1920,setsar=1[bgblur]',
      '[fitfg]scale=1080:1920:force_original_aspect_ratio=decrease:force_divisible_by=2,setsar=1[fgfit]',
      '[bgblur][fgfit]overlay=x=(W-w)/2:y=(H-h)/2,format=yuv420p[framed]',
    ]);
  });
  test('fit at test sizes keeps the blur within what boxblur accepts', () => {
    const [, background] = reframeFilters({
      ...SPEC,
      plan: { mode: 'fit', reason: 'still' },
      width: 270,
      height: 480,
    });
    assert.match(background!, /scale=34:60:.*boxblur=7:2/);
  });
  test('scale: same aspect, cover crop of rounding only', () => {
    assert.deepEqual(reframeFilters({ ...SPEC, plan: { mode: 'scale' } }), [
      '[0:v]crop=w=min(iw\\,ih*9/16):h=min(ih\\,iw*16/9),scale=1080:1920,format=yuv420p,setsar=1[framed]',
    ]);
  });
});

test('the graph burns captions, splits off the poster, and normalizes the audio', () => {
  assert.equal(
    buildClipGraph(SPEC),
    [
      '[0:v]crop=w=608:h=1080:x=100:y=0,scale=1080:1920:flags=bicubic,format=yuv420p,setsar=1[framed]',
      '[framed]subtitles=filename=/work/clip\\\\\\ 1.ass:fontsdir=/usr/share/fonts/truetype[captioned]',
      '[captioned]split=2[vout][posterin]',
      "[posterin]select='gte(t\\,1.5)'[poster]",
      '[0:a:0]aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo,volume=6.5dB,afade=t=in:d=0.03,afade=t=out:st=20.47:d=0.03[aout]',
    ].join(';'),
  );
  const quiet = buildClipGraph({ ...SPEC, assPath: null, gain: { gainDb: 9, limiter: true } });
  assert.doesNotMatch(quiet, /subtitles/);
  assert.match(quiet, /\[framed\]split=2\[vout\]\[posterin\]/);
  assert.match(quiet, /volume=9dB,alimiter=limit=0\.7943:attack=5:release=50:level=false:latency=true/);
  assert.doesNotMatch(buildClipGraph({ ...SPEC, gain: null }), /volume=/);
});

test('one command: cut input, H.264/AAC with faststart, and the poster as a second output', () => {
  const args = buildClipArgs(SPEC);
  assert.deepEqual(args.slice(0, 7), ['-y', '-ss', '12.345', '-t', '20.5', '-i', '/in/source.mp4']);
  const join = args.join(' ');
  for (const part of [
    '-map [vout] -map [aout] -c:v libx264 -preset veryfast -crf 21 -profile:v high -pix_fmt yuv420p -g 50',
    '-c:a aac -b:a 160k -ar 48000 -ac 2 -t 20.5 -movflags +faststart /work/clip-1.part.mp4',
    '-map [poster] -frames:v 1 -q:v 3 -update 1 /work/clip-1.jpg',
  ]) {
    assert.ok(join.includes(part), part);
  }
});

test('output frame rate: the source up to 30, else 30', () => {
  assert.equal(outputFps(25), 25);
  assert.equal(outputFps(29.97), 29.97);
  assert.equal(outputFps(60), 30);
  assert.equal(outputFps(0), 30);
});
