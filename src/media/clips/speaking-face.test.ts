// The speaking-face reframe: its decisions on measured series, then on real renders of two people side by side
// where only one speaks (left, then right), checked by finding the faces on the delivered 9:16 frames.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { frameRgb } from '../../../test/support/media-files.ts';
import {
  prepareTwoSpeakers,
  renderTwoSpeakers,
  type TwoSpeakers,
} from '../../../test/support/two-speakers-fixture.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import type { LoudnessBlock } from '../moments/loudness-track.ts';
import { detectFaces, faceDistance, type Box, type Face } from '../vision/index.ts';
import { renderClip, type RenderClipResult } from './render-clip.ts';
import { extractSourceAudio } from './source-audio.ts';
import {
  loudnessAt,
  mouthOpening,
  planSpeakerCrop,
  speakerWindows,
  trackFaces,
  WINDOW_SEC,
  type FaceSample,
  type SampleFace,
} from './speaking-face.ts';

function descriptor(seed: number): Float32Array {
  const d = new Float32Array(8);
  d[seed % 8] = 1;
  return d;
}

function face(x: number, mouthOpen: number, person: number): SampleFace {
  return { box: { x, y: 100, width: 100, height: 120 }, mouthOpen, descriptor: descriptor(person) };
}

test('mouth opening is the inner-lip gap over the face height, never negative', () => {
  const landmarks = Array.from({ length: 478 }, (): [number, number, number] => [0, 50, 0]);
  for (const [upper, lower] of [
    [13, 14],
    [82, 87],
    [312, 317],
  ] as const) {
    landmarks[upper] = [0, 50, 0];
    landmarks[lower] = [0, 60, 0];
  }
  const box: Box = { x: 0, y: 0, width: 80, height: 100 };
  assert.equal(mouthOpening({ box, landmarks }), 0.1);
  landmarks[14] = [0, 20, 0];
  landmarks[87] = [0, 20, 0];
  landmarks[317] = [0, 20, 0];
  assert.equal(mouthOpening({ box, landmarks }), 0);
});

test('faces are followed by position, and by identity across a cut', () => {
  const samples: FaceSample[] = [
    { t: 0, faces: [face(100, 0, 1), face(600, 0, 2)] },
    // Listed in the other order: position, not order, decides.
    { t: 0.5, faces: [face(610, 0, 2), face(105, 0, 1)] },
    // A cut: person 2 now on the left, person 1 gone.
    { t: 1, faces: [face(300, 0, 2)] },
    { t: 1.5, faces: [face(900, 0, 3)] },
  ];
  const tracks = trackFaces(samples);
  assert.equal(tracks.length, 3);
  assert.deepEqual([...tracks[0]!.faces.keys()], [0, 1]);
  assert.deepEqual([...tracks[1]!.faces.keys()], [0, 1, 2]);
  assert.deepEqual([...tracks[2]!.faces.keys()], [3]);
});

test('loudness is read from the block centred nearest each sample, silence floored', () => {
  const blocks: LoudnessBlock[] = Array.from({ length: 60 }, (_, i) => ({
    t: 0.4 + i * 0.1,
    momentaryLufs: i < 30 ? -20 - i : -120,
    peakDb: -10,
  }));
  // Clip from 1 s: sample 0 → 1.0 s → the block ending 1.2 s (i = 8).
  assert.deepEqual(loudnessAt(blocks, 1, [0, 0.5, 5]), [-28, -33, -60]);
});

/** Samples every 0.5 s of a clip where person 1 (left) speaks when `loud(t)`, and person 2 in the pauses. */
function conversation(
  durationSec: number,
  loud: (t: number) => boolean,
  rightSpeaks = false,
): { samples: FaceSample[]; loudness: number[] } {
  const samples: FaceSample[] = [];
  const loudness: number[] = [];
  for (let i = 0; i * 0.5 < durationSec; i++) {
    const t = i * 0.5;
    const on = loud(t);
    // Mouths in speech open by a varying amount; shut in silence (a little noise from the mesh).
    const talking = 0.02 + 0.03 * ((i * 7) % 5) * 0.25;
    const left = on !== rightSpeaks ? talking : 0.002 * (i % 2);
    const right = on === rightSpeaks ? talking : 0.002 * ((i + 1) % 2);
    samples.push({ t, faces: [face(100, left, 1), face(1000, right, 2)] });
    loudness.push(on ? -20 - (i % 3) : -60);
  }
  return { samples, loudness };
}

const SOURCE = { width: 1280, height: 720 };
const TARGET = { width: 270, height: 480 };

test('the face whose mouth follows the loudness is elected, and the crop holds it', () => {
  const durationSec = 12;
  const { samples, loudness } = conversation(durationSec, (t) => t % 3 < 1.5);
  const tracks = trackFaces(samples);
  const verdicts = speakerWindows(samples, tracks, loudness, durationSec);
  assert.ok(verdicts.length >= 2);
  for (const v of verdicts) assert.equal(v.track, 0, JSON.stringify(v));
  const crop = planSpeakerCrop(samples, tracks, verdicts, SOURCE, SOURCE, TARGET);
  assert.ok(crop);
  assert.equal(crop.plan.segments.length, 1);
  const { offset } = crop.plan.segments[0]!;
  // The left face (x 100–200) inside the crop.
  assert.ok(offset <= 100 && offset + crop.plan.cropWidth >= 200, JSON.stringify(crop.plan));
});

test('when the other person speaks the crop cuts to them; a window without a speaker keeps the last', () => {
  const first = conversation(10, (t) => t % 3 < 1.5);
  const second = conversation(10, (t) => t % 3 < 1.5, true);
  const silence = conversation(5, () => false);
  const samples = [
    ...first.samples,
    ...silence.samples.map((s) => ({ ...s, t: s.t + 10 })),
    ...second.samples.map((s) => ({ ...s, t: s.t + 15 })),
  ];
  const loudness = [...first.loudness, ...silence.loudness, ...second.loudness];
  const tracks = trackFaces(samples);
  assert.equal(tracks.length, 2);
  const verdicts = speakerWindows(samples, tracks, loudness, 25);
  assert.deepEqual(
    verdicts.map((v) => v.track),
    [0, 0, null, 1, 1],
  );
  const crop = planSpeakerCrop(samples, tracks, verdicts, SOURCE, SOURCE, TARGET);
  assert.ok(crop);
  assert.deepEqual(
    crop.speakers.map((s) => [s.startSec, s.endSec, s.face.x]),
    [
      [0, 15, 100],
      [15, 25, 1000],
    ],
  );
  // A cut at 15 s: two still crops, no pan between them.
  assert.equal(crop.plan.segments.length, 2);
  assert.equal(crop.plan.segments[1]!.startSec, 15);
  assert.ok(crop.plan.segments[1]!.offset > crop.plan.segments[0]!.offset);
});

test('after a cut to a listener alone, the crop holds the face in the picture', () => {
  const talk = (t: number) => t % 3 < 1.5;
  const first = conversation(10, talk);
  const samples = [...first.samples];
  const loudness = [...first.loudness];
  for (let i = 0; i < 10; i++) {
    const t = 10 + i * 0.5;
    samples.push({ t, faces: [face(600, 0.002 * (i % 2), 3)] });
    loudness.push(talk(t) ? -20 : -60);
  }
  const tracks = trackFaces(samples);
  assert.equal(tracks.length, 3);
  const verdicts = speakerWindows(samples, tracks, loudness, 15);
  assert.deepEqual(
    verdicts.map((v) => v.track),
    [0, 0, null],
  );
  const crop = planSpeakerCrop(samples, tracks, verdicts, SOURCE, SOURCE, TARGET);
  assert.deepEqual(
    crop?.speakers.map((s) => [s.startSec, s.endSec, s.face.x]),
    [
      [0, 10, 100],
      [10, 15, 600],
    ],
  );
});

test('no face is elected in silence or when no mouth follows the sound', () => {
  const silent = conversation(10, () => false);
  const tracks = trackFaces(silent.samples);
  const verdicts = speakerWindows(silent.samples, tracks, silent.loudness, 10);
  assert.ok(verdicts.every((v) => v.track === null));
  assert.equal(planSpeakerCrop(silent.samples, tracks, verdicts, SOURCE, SOURCE, TARGET), null);

  const still = conversation(10, (t) => t % 3 < 1.5);
  for (const s of still.samples) for (const f of s.faces) f.mouthOpen = 0.01;
  const stillTracks = trackFaces(still.samples);
  assert.ok(speakerWindows(still.samples, stillTracks, still.loudness, 10).every((v) => v.track === null));
});

describe('speaking face on rendered clips', () => {
  let dir = '';
  let fixture: TwoSpeakers;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'speaking-face-'));
    fixture = await prepareTwoSpeakers(dir, [
      'Hello there, my name is Sam.',
      'Today we look at how savings grow.',
    ]);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function clipOf(sourcePath: string, name: string, durationSec: number): Promise<RenderClipResult> {
    const audio = await extractSourceAudio(sourcePath, join(dir, `${name}.wav`));
    return renderClip({
      sourcePath,
      source: { width: 1280, height: 720, fps: 25 },
      bounds: { startSec: 0, endSec: durationSec, durationSec },
      words: [],
      loudness: audio.loudness,
      width: TARGET.width,
      height: TARGET.height,
      captions: false,
      preset: 'ultrafast',
      basePath: join(dir, name),
    });
  }

  /** Faces found on frames of the delivered clip, across its length. */
  async function facesOnClip(path: string, durationSec: number): Promise<Face[][]> {
    const frames: Face[][] = [];
    for (const at of [0.2, 0.35, 0.5, 0.65, 0.8].map((k) => k * durationSec)) {
      const data = new Uint8Array(await frameRgb(path, at));
      frames.push(await detectFaces({ data, ...TARGET }));
    }
    return frames;
  }

  for (const speaker of ['left', 'right'] as const) {
    test(`the ${speaker} person speaks: the 9:16 clip shows them, not the other`, async () => {
      const source = await renderTwoSpeakers(fixture, speaker, dir);
      const { durationSec } = fixture.narration;
      const { clip } = await clipOf(source, `clip-${speaker}`, durationSec);
      assert.equal(clip.reframe.method, 'speaking_face', JSON.stringify(clip.reframe));
      assert.equal(clip.reframe.faces, 2);
      // One speaker throughout: one still crop, no pan.
      assert.equal(clip.framing.mode === 'crop' && clip.framing.segments.length, 1);
      const speakerFace = clip.reframe.speakers![0]!.face;
      const centre = speakerFace.x + speakerFace.width / 2;
      assert.ok(speaker === 'left' ? centre < 640 : centre > 640, JSON.stringify(clip.reframe));

      const [speaking, silent] = speaker === 'left' ? fixture.people : [fixture.people[1], fixture.people[0]];
      const frames = await facesOnClip(clip.path, clip.durationSec);
      for (const [i, faces] of frames.entries()) {
        assert.equal(faces.length, 1, `frame ${i}: ${faces.length} faces`);
        const seen = faces[0]!;
        const toSpeaker = faceDistance(seen.descriptor, speaking.face.descriptor);
        const toOther = faceDistance(seen.descriptor, silent.face.descriptor);
        assert.ok(toSpeaker < toOther, `frame ${i}: speaker ${toSpeaker}, other ${toOther}`);
        // Whole face inside the frame.
        assert.ok(seen.box.x >= 0 && seen.box.x + seen.box.width <= TARGET.width, JSON.stringify(seen.box));
      }
    });
  }

  test('when the speaker changes the crop cuts from one face to the other', async () => {
    const turnsDir = join(dir, 'turns');
    await mkdir(turnsDir);
    const turns = await prepareTwoSpeakers(turnsDir, [
      'Hello there, my name is Sam.',
      'Today we look at how savings grow.',
      'Thank you Sam, that sounds useful.',
      'Tell me more about the interest.',
    ]);
    const source = await renderTwoSpeakers(turns, 'left-then-right', turnsDir);
    const { durationSec, sentenceStarts } = turns.narration;
    const turn = sentenceStarts[2]!;
    const { clip } = await clipOf(source, 'clip-turns', durationSec);
    assert.equal(clip.reframe.method, 'speaking_face', JSON.stringify(clip.reframe));
    const speakers = clip.reframe.speakers!;
    assert.deepEqual(
      speakers.map((s) => (s.face.x + s.face.width / 2 < 640 ? 'left' : 'right')),
      ['left', 'right'],
      JSON.stringify(speakers),
    );
    // The change is found within a window of the turn, and the crop cuts there: two still crops.
    assert.ok(Math.abs(speakers[1]!.startSec - turn) <= WINDOW_SEC, `${speakers[1]!.startSec} vs ${turn}`);
    assert.equal(clip.framing.mode === 'crop' && clip.framing.segments.length, 2);

    const [left, right] = turns.people;
    for (const [at, person] of [
      [1, left],
      [clip.durationSec - 1, right],
    ] as const) {
      const faces = await detectFaces({ data: new Uint8Array(await frameRgb(clip.path, at)), ...TARGET });
      assert.equal(faces.length, 1, `at ${at} s`);
      const other = person === left ? right : left;
      assert.ok(
        faceDistance(faces[0]!.descriptor, person.face.descriptor) <
          faceDistance(faces[0]!.descriptor, other.face.descriptor),
        `at ${at} s`,
      );
    }
  });

  test('without a face the motion reframe runs, and the report says why', async () => {
    const source = join(dir, 'no-faces.mp4');
    await runFfmpeg([
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1280x720:rate=25:duration=4',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=4',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      source,
    ]);
    const { clip } = await clipOf(source, 'clip-no-faces', 4);
    assert.ok(clip.reframe.method === 'motion' || clip.reframe.method === 'fit');
    assert.equal(clip.reframe.method, clip.framing.mode === 'crop' ? 'motion' : clip.framing.mode);
    assert.equal(clip.reframe.fallbackReason, 'no faces found');
    assert.equal(clip.reframe.speakers, undefined);
  });
});
