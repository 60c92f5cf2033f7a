import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { motionFilters, type HeadMotion } from './head-motion.ts';
import { ffconcatPlaylist, talkingHeadFilters } from './sequence.ts';

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'talking-head-sequence-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('ffconcatPlaylist: one entry per run, each told the frame rate and held for its frames', () => {
  const text = ffconcatPlaylist(
    [
      { state: 'closed', frames: 3 },
      { state: 'open', frames: 2 },
    ],
    { closed: 'mouth-closed.png', open: 'mouth-open.png' },
    30,
  );
  assert.equal(
    text,
    [
      'ffconcat version 1.0',
      'file mouth-closed.png',
      'option framerate 30',
      'duration 0.1',
      'file mouth-open.png',
      'option framerate 30',
      'duration 0.066666667',
      '',
    ].join('\n'),
  );
  assert.throws(
    () => ffconcatPlaylist([{ state: 'a', frames: 1 }], { a: "it's.png" }, 30),
    /plain file name/,
  );
});

const motion: HeadMotion = {
  x: [{ amplitude: 0.01, periodSec: 8, phase: 0 }],
  y: [{ amplitude: 0.01, periodSec: 6, phase: 1 }],
};

test('talkingHeadFilters: loop the base, overlay the patches, move it, deliver the frame', () => {
  const graph = {
    frame: { width: 540, height: 960, fps: 30 },
    frameCount: 90,
    mouthAt: { x: 400, y: 1200 },
    eyesAt: { x: 380, y: 700 },
    motion,
    hasAlpha: false,
  };
  const move = motionFilters(motion, graph.frame);
  assert.deepEqual(talkingHeadFilters(graph, [3, 4, 5], 'th'), [
    '[3:v]format=yuv420p,loop=loop=89:size=1,settb=1/30,setpts=N[th_base]',
    '[4:v]format=yuva420p[th_mouth]',
    '[5:v]format=yuva420p[th_eyes]',
    '[th_base][th_mouth]overlay=x=400:y=1200:eof_action=repeat[th_talking]',
    `[th_talking][th_eyes]overlay=x=380:y=700:eof_action=repeat,${move},setsar=1,format=yuv420p[th]`,
  ]);
  assert.equal(
    move,
    "crop=w=1080:h=1920:x='(iw-ow)/2+10.8*sin(0.026179939*n+0)':" +
      "y='(ih-oh)/2+19.2*sin(0.034906585*n+1)':exact=1,scale=540:960:flags=area",
  );
  const withAlpha = talkingHeadFilters({ ...graph, hasAlpha: true }, [0, 1, 2], 'p');
  assert.match(withAlpha[0]!, /^\[0:v\]format=yuva420p,/);
  assert.match(withAlpha[4]!, /format=yuva420p\[p\]$/);
  assert.throws(() => talkingHeadFilters(graph, [0, 1], 'x'), /3 inputs/);
});

test('ffmpeg shows each playlist picture on exactly its frames', async () => {
  const colours = { red: '#ff0000', green: '#00ff00', blue: '#0000ff' } as const;
  for (const [name, hex] of Object.entries(colours)) {
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      `color=${hex}:s=16x16`,
      '-frames:v',
      '1',
      join(dir, `${name}.png`),
    ]);
  }
  const runs = [
    { state: 'red' as const, frames: 2 },
    { state: 'green' as const, frames: 3 },
    { state: 'red' as const, frames: 1 },
    { state: 'blue' as const, frames: 4 },
  ];
  const playlist = join(dir, 'colours.ffconcat');
  await writeFile(
    playlist,
    ffconcatPlaylist(runs, { red: 'red.png', green: 'green.png', blue: 'blue.png' }, 30),
  );
  const raw = join(dir, 'colours.rgb');
  // Overlaid on a 30 fps stream, as the talking head does; the last picture is held to the end.
  await runFfmpeg([
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=black:s=16x16:r=30:d=0.4',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    playlist,
    '-filter_complex',
    '[0:v][1:v]overlay=eof_action=repeat,format=rgb24',
    '-f',
    'rawvideo',
    raw,
  ]);
  const data = await readFile(raw);
  const shown = Array.from({ length: data.length / (16 * 16 * 3) }, (_, k) => {
    const [r, g, b] = [0, 1, 2].map((c) => data[k * 16 * 16 * 3 + 8 * 16 * 3 + 8 * 3 + c]!);
    return r! > 128 ? 'red' : g! > 128 ? 'green' : b! > 128 ? 'blue' : 'black';
  });
  assert.deepEqual(shown, [
    'red',
    'red',
    'green',
    'green',
    'green',
    'red',
    'blue',
    'blue',
    'blue',
    'blue',
    'blue',
    'blue',
  ]);
});
