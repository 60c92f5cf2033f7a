// The talking head rendered for real from a photo and a synthesized narration with a long pause, then measured
// on decoded frames: the mouth moves with the speech and rests in the pause, the eyes blink, the face stays in.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { frameRgb } from '../../../test/support/media-files.ts';
import { cutToFile, FACE_DETECT_SCREENSHOT, FIVE_PEOPLE } from '../../../test/support/sample-photos.ts';
import { runFfmpeg, runFfprobe } from '../ffmpeg/runner.ts';
import { seededRandom, shuffled } from '../script/seeded.ts';
import type { WordTiming } from '../types.ts';
import { detectFaces, segmentPerson, type Box, type Face } from '../vision/index.ts';
import { levelTrack } from '../voice/speech-activity.ts';
import { synthesize } from '../voice/synthesize.ts';
import { resolveVoice } from '../voice/voice-catalogue.ts';
import { parseWav } from '../voice/wav-file.ts';
import { planBlinks, prepareTalkingHead, renderTalkingHead, type FilterSource } from './index.ts';

const FPS = 30;
const WIDTH = 540;
const HEIGHT = 960;
const PAUSE_SEC = 2;
const SEED = 'talking-head-test';

let dir = '';
let photo = '';
let face: Face;
let narration: {
  audioPath: string;
  durationSec: number;
  words: WordTiming[];
  pause: { start: number; end: number };
};

/** Two sentences spoken apart, joined with a silent stretch between them. */
async function narrate(): Promise<typeof narration> {
  // The lip-sync margins below were measured on espeak-ng's voice, the English default when they were set.
  const voice = resolveVoice({ language: 'en', voiceId: 'espeak:en-us:male-1' });
  const first = await synthesize({
    text: 'Hello there, my name is Sam.',
    voice,
    outPath: join(dir, 'first.wav'),
  });
  const second = await synthesize({
    text: 'Today we look at how savings grow.',
    voice,
    outPath: join(dir, 'second.wav'),
  });
  const audioPath = join(dir, 'narration.wav');
  await runFfmpeg([
    '-y',
    '-i',
    first.audioPath,
    '-i',
    second.audioPath,
    '-filter_complex',
    `[0:a]apad=pad_dur=${PAUSE_SEC}[a];[a][1:a]concat=n=2:v=0:a=1`,
    '-c:a',
    'pcm_s16le',
    audioPath,
  ]);
  const offset = first.durationSec + PAUSE_SEC;
  const words = [
    ...first.words,
    ...second.words.map((w) => ({ ...w, start: w.start + offset, end: w.end + offset })),
  ];
  const lastOfFirst = first.words[first.words.length - 1]!;
  return {
    audioPath,
    durationSec: offset + second.durationSec,
    words,
    pause: { start: lastOfFirst.end, end: second.words[0]!.start + offset },
  };
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'talking-head-'));
  photo = await cutToFile(FACE_DETECT_SCREENSHOT, FIVE_PEOPLE[0]!, dir, 'presenter', { width: 600 });
  const faces = await detectFaces(photo);
  assert.equal(faces.length, 1);
  face = faces[0]!;
  narration = await narrate();
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function probe(
  video: string,
): Promise<{ width: number; height: number; fps: string; duration: number }> {
  const { stdout } = await runFfprobe([
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=width,height,r_frame_rate:format=duration',
    '-of',
    'json',
    video,
  ]);
  const info = JSON.parse(stdout) as {
    streams: { width: number; height: number; r_frame_rate: string }[];
    format: { duration: string };
  };
  const s = info.streams[0]!;
  return { width: s.width, height: s.height, fps: s.r_frame_rate, duration: Number(info.format.duration) };
}

/** Every frame's pixels inside `box` (grey), decoded by ffmpeg. */
async function regionFrames(video: string, box: Box): Promise<Uint8Array[]> {
  const out = join(dir, `region-${Math.round(box.x)}-${Math.round(box.y)}.gray`);
  await runFfmpeg([
    '-y',
    '-i',
    video,
    '-vf',
    `crop=${box.width}:${box.height}:${box.x}:${box.y},format=gray`,
    '-f',
    'rawvideo',
    out,
  ]);
  const data = await readFile(out);
  const size = box.width * box.height;
  return Array.from({ length: Math.floor(data.length / size) }, (_, i) =>
    data.subarray(i * size, (i + 1) * size),
  );
}

/** Mean absolute change of each frame from the one before (frame 0: 0). */
function changes(frames: Uint8Array[]): number[] {
  return frames.map((f, i) => {
    if (i === 0) return 0;
    const prev = frames[i - 1]!;
    let sum = 0;
    for (let p = 0; p < f.length; p++) sum += Math.abs(f[p]! - prev[p]!);
    return sum / f.length;
  });
}

function pearson(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  const ma = a.slice(0, n).reduce((s, v) => s + v, 0) / n;
  const mb = b.slice(0, n).reduce((s, v) => s + v, 0) / n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

function mean(values: readonly number[]): number {
  return values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);
}

/** Moving average over `2 * half + 1` values. */
function smoothed(values: readonly number[], half = 2): number[] {
  return values.map((_, i) => mean(values.slice(Math.max(0, i - half), i + half + 1)));
}

/** A box grown by `pad` pixels on each side, made even and kept inside the frame. */
function around(box: Box, pad: number): Box {
  const x = Math.max(0, Math.floor((box.x - pad) / 2) * 2);
  const y = Math.max(0, Math.floor((box.y - pad) / 2) * 2);
  return {
    x,
    y,
    width: Math.min(WIDTH - x, Math.ceil((box.width + 2 * pad) / 2) * 2),
    height: Math.min(HEIGHT - y, Math.ceil((box.height + 2 * pad) / 2) * 2),
  };
}

async function facesAt(video: string, seconds: number, width: number, height: number): Promise<Face[]> {
  return detectFaces({ data: new Uint8Array(await frameRgb(video, seconds)), width, height });
}

function inside(box: Box, width: number, height: number): boolean {
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height;
}

describe('talking head from a photo and a narration', () => {
  let source: FilterSource;
  let video = '';
  let prepareMs = 0;

  before(async () => {
    const started = performance.now();
    source = await prepareTalkingHead(
      {
        photoPath: photo,
        face,
        words: narration.words,
        durationSec: narration.durationSec,
        workDir: join(dir, 'work'),
        seed: SEED,
      },
      { width: WIDTH, height: HEIGHT, fps: FPS },
    );
    prepareMs = performance.now() - started;
    video = join(dir, 'talking-head.mp4');
    await renderTalkingHead(source, video, narration.audioPath);
  });

  test('the video has the frame size, rate and the narration length', async () => {
    assert.ok(prepareMs < 10_000, `prepared in ${Math.round(prepareMs)} ms`);
    assert.deepEqual(
      { width: source.width, height: source.height, fps: source.fps, hasAlpha: source.hasAlpha },
      { width: WIDTH, height: HEIGHT, fps: FPS, hasAlpha: false },
    );
    const info = await probe(video);
    assert.equal(info.width, WIDTH);
    assert.equal(info.height, HEIGHT);
    assert.equal(info.fps, '30/1');
    assert.ok(Math.abs(info.duration - narration.durationSec) < 0.1, `${info.duration} s`);
  });

  test('the mouth moves with the speech, far beyond chance, and rests in the pause', async () => {
    const [first] = await facesAt(video, narration.pause.start + 0.5, WIDTH, HEIGHT);
    assert.ok(first, 'a face in the pause');
    // The mouth box and a patch of forehead of the same size (same head motion, no speech) to compare with.
    const mouth = around(first.mouth, Math.round(first.mouth.width * 0.35));
    const forehead = { ...mouth, y: Math.max(0, Math.round(first.box.y / 2) * 2) };
    const mouthChange = changes(await regionFrames(video, mouth));
    const foreheadChange = changes(await regionFrames(video, forehead));

    const audio = parseWav(await readFile(narration.audioPath));
    const loudness = [...levelTrack(audio.samples, audio.sampleRate, 1 / FPS).levels];
    const n = Math.min(mouthChange.length, loudness.length);
    const frames = Array.from({ length: n - 1 }, (_, i) => i + 1);
    const m = frames.map((k) => mouthChange[k]!);
    const l = frames.map((k) => loudness[k]!);

    // Shapes change every few frames while speaking, the loudness moves smoothly: both are compared as
    // activity over 5 frames (a sixth of a second).
    const r = pearson(smoothed(m), smoothed(l));
    const random = seededRandom('shuffle');
    const shuffledR = Array.from({ length: 20 }, () => pearson(smoothed(m), smoothed(shuffled(l, random))));
    const foreheadR = pearson(smoothed(frames.map((k) => foreheadChange[k]!)), smoothed(l));
    assert.ok(r > 0.6, `mouth change vs loudness r=${r.toFixed(3)}`);
    assert.ok(
      r > Math.max(...shuffledR) + 0.4,
      `shuffled envelopes up to ${Math.max(...shuffledR).toFixed(3)}`,
    );
    assert.ok(r > foreheadR + 0.4, `forehead change vs loudness r=${foreheadR.toFixed(3)}`);

    // Inside the pause (a quarter second in from each end) the mouth only moves as much as the forehead does.
    const inPause = frames.filter(
      (k) => k / FPS > narration.pause.start + 0.25 && k / FPS < narration.pause.end - 0.25,
    );
    const speaking = frames.filter((k) => narration.words.some((w) => k / FPS >= w.start && k / FPS < w.end));
    const pauseMouth = mean(inPause.map((k) => mouthChange[k]!));
    const pauseForehead = mean(inPause.map((k) => foreheadChange[k]!));
    const speakingMouth = mean(speaking.map((k) => mouthChange[k]!));
    assert.ok(inPause.length > 30, `${inPause.length} frames of pause`);
    assert.ok(
      pauseMouth < speakingMouth / 4,
      `mouth change ${pauseMouth} in the pause, ${speakingMouth} speaking`,
    );
    assert.ok(
      pauseMouth < pauseForehead * 1.5 + 0.3,
      `pause: mouth ${pauseMouth}, forehead ${pauseForehead}`,
    );
  });

  test('the eyes blink: short spikes of change in the eye region every few seconds, nowhere else', async () => {
    const [first] = await facesAt(video, 0.2, WIDTH, HEIGHT);
    assert.ok(first);
    const eyes = around(
      {
        x: first.leftEye.x,
        y: Math.min(first.leftEye.y, first.rightEye.y),
        width: first.rightEye.x + first.rightEye.width - first.leftEye.x,
        height: Math.max(first.leftEye.height, first.rightEye.height),
      },
      Math.round(first.leftEye.height * 1.5),
    );
    const change = changes(await regionFrames(video, eyes));
    const sorted = [...change].sort((a, b) => a - b);
    const threshold = Math.max(1, sorted[Math.floor(sorted.length / 2)]! * 6);
    // Spikes grouped into events (frames within 3 of each other are one blink).
    const events: number[] = [];
    change.forEach((c, k) => {
      if (c <= threshold) return;
      if (events.length > 0 && k - events[events.length - 1]! <= 3) return;
      events.push(k);
    });
    const planned = planBlinks(narration.durationSec, FPS, SEED);
    assert.ok(planned.length >= 2, `${planned.length} blinks planned`);
    assert.equal(events.length, planned.length, `events at frames ${events.join(', ')}`);
    planned.forEach((blink, i) =>
      assert.ok(Math.abs(events[i]! - blink.frame) <= 2, `blink ${i} at ${events[i]}`),
    );
    for (let i = 1; i < events.length; i++) {
      const gap = (events[i]! - events[i - 1]!) / FPS;
      assert.ok(gap >= 1.9 && gap <= 6.2, `${gap.toFixed(2)} s between blinks`);
    }
  });

  test('one face, inside the frame, on frames across the video, and the head moves a little', async () => {
    const centres: { x: number; y: number }[] = [];
    for (const seconds of [
      0.3,
      narration.durationSec * 0.35,
      narration.durationSec * 0.65,
      narration.durationSec - 0.3,
    ]) {
      const faces = await facesAt(video, seconds, WIDTH, HEIGHT);
      assert.equal(faces.length, 1, `faces at ${seconds} s`);
      const box = faces[0]!.box;
      assert.ok(inside(box, WIDTH, HEIGHT), `face ${JSON.stringify(box)} at ${seconds} s`);
      centres.push({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
    }
    const travel = Math.max(...centres.map((c) => Math.hypot(c.x - centres[0]!.x, c.y - centres[0]!.y)));
    assert.ok(travel > 2 && travel < 0.08 * WIDTH, `face centre travels ${travel.toFixed(1)} px`);
  });
});

test('1080x1920: the same photo framed full size, face inside the frame', async () => {
  const source = await prepareTalkingHead(
    {
      photoPath: photo,
      face,
      words: narration.words.filter((w) => w.end < 2),
      durationSec: 2,
      workDir: join(dir, 'work-1080'),
      seed: SEED,
    },
    { width: 1080, height: 1920, fps: FPS },
  );
  const video = join(dir, 'talking-head-1080.mp4');
  await renderTalkingHead(source, video);
  const info = await probe(video);
  assert.deepEqual([info.width, info.height, info.fps], [1080, 1920, '30/1']);
  assert.ok(info.duration >= 2 && info.duration < 2.1, `${info.duration} s`);
  const faces = await facesAt(video, 1, 1080, 1920);
  assert.equal(faces.length, 1);
  assert.ok(inside(faces[0]!.box, 1080, 1920));
});

test('with a person mask the stream carries alpha: the person opaque, the background transparent', async () => {
  const segmented = await segmentPerson(photo);
  assert.ok(segmented, 'a person in the photo');
  const mask = join(dir, 'mask.png');
  await sharp(segmented.mask, { raw: { width: segmented.width, height: segmented.height, channels: 1 } })
    .png()
    .toFile(mask);
  const width = 270;
  const height = 480;
  const source = await prepareTalkingHead(
    {
      photoPath: photo,
      face,
      words: narration.words.filter((w) => w.end < 1),
      durationSec: 1,
      workDir: join(dir, 'work-alpha'),
      seed: SEED,
      personMask: mask,
    },
    { width, height, fps: FPS },
  );
  assert.equal(source.hasAlpha, true);
  const raw = join(dir, 'alpha.rgba');
  await runFfmpeg([
    '-y',
    ...source.inputs.flat(),
    '-filter_complex',
    [...source.filter([0, 1, 2], 'presenter'), '[presenter]format=rgba[rgba]'].join(';'),
    '-map',
    '[rgba]',
    '-frames:v',
    '1',
    '-f',
    'rawvideo',
    raw,
  ]);
  const frame = await readFile(raw);
  assert.equal(frame.length, width * height * 4);
  const alphaAt = (x: number, y: number) => frame[(y * width + x) * 4 + 3]!;
  // The face sits at its default place (middle, 40 % down); the photo ends below the frame's top in this framing.
  assert.equal(alphaAt(width / 2, Math.round(height * 0.4)), 255);
  assert.ok(
    alphaAt(4, 4) < 16 && alphaAt(width - 5, 4) < 16,
    `top corners ${alphaAt(4, 4)} ${alphaAt(width - 5, 4)}`,
  );
});
