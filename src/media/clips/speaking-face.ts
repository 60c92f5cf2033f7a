// Who is speaking, and where: faces are found on a few frames per second of the clip's stretch, followed from
// frame to frame, and the face whose mouth opens and closes with the audio's loudness is the speaker. The crop
// then holds the speaker's face, constant while the same person speaks and cut (never panned) to the next one.
import { open, rm } from 'node:fs/promises';
import { num } from '../ffmpeg/filter-escape.ts';
import { runFfmpeg, type FfmpegRunOptions } from '../ffmpeg/runner.ts';
import { blocksIn, type LoudnessBlock } from '../moments/loudness-track.ts';
import { detectFaces, faceDistance, SAME_PERSON_DISTANCE, type Box, type Face } from '../vision/index.ts';
import { cropGeometry, type CropSegment, type ReframePlan } from './reframe.ts';

/** Frames per second looked at: mouths are compared with speech over seconds, not syllables. */
export const FACE_SAMPLE_FPS = 2;
/** Short side of the pictures the faces are found on, px (the source is never enlarged). */
export const FACE_SAMPLE_SHORT_SIDE = 360;
/** Frames spread over the clip looked at first: without a face on any of them the clip is not tracked. */
export const PROBE_FRAMES = 3;
/** Faces analysed per frame at most (the largest), bounding the cost of a crowd. */
export const MAX_FACES = 6;
/** The speaker is decided per window of this length (s), the shortest stretch the crop stays on one face. */
export const WINDOW_SEC = 5;
/** Each window's correlation also counts this much (s) of the clip on either side, for enough samples. */
export const CONTEXT_SEC = 2.5;
/** A face speaks when its mouth and the loudness correlate at least this much (Pearson)… */
export const MIN_CORRELATION = 0.35;
/** …and at least this much more than any other face in the window. */
export const MIN_MARGIN = 0.15;
/** Samples a face needs inside a window's context to be judged there. */
export const MIN_SAMPLES = 8;
/** Loudness below this (LUFS) is silence; quieter blocks all count as this. */
const SILENCE_LUFS = -60;
/** Audio whose loudness varies less than this (LU, standard deviation) in a window says nothing about mouths. */
const MIN_LOUDNESS_SPREAD = 2;
/** A face in the next frame within this many face widths of a track's last position continues the track. */
const TRACK_REACH = 0.6;
/** Inner-lip landmark pairs (upper, lower) of the 468-point mesh: the middle and either side of it. */
const INNER_LIPS: readonly (readonly [number, number])[] = [
  [13, 14],
  [82, 87],
  [312, 317],
];

export interface SampleFace {
  box: Box;
  /** Gap between the inner lips over the face's height (0 closed). */
  mouthOpen: number;
  descriptor: Float32Array;
}

export interface FaceSample {
  /** Time in the clip, s. */
  t: number;
  faces: SampleFace[];
}

export interface FaceTrack {
  id: number;
  /** The track's face per sample index (absent where it was not seen). */
  faces: Map<number, SampleFace>;
}

export interface SpeakerSegment {
  startSec: number;
  endSec: number;
  /** The speaker's face box (median over the segment) in source pixels. */
  face: Box;
  /** Mouth-loudness correlation that elected the speaker (the best of its windows). */
  correlation: number;
}

export type SpeakingFaceResult =
  | {
      found: true;
      plan: Extract<ReframePlan, { mode: 'crop' }>;
      speakers: SpeakerSegment[];
      /** Faces followed through the clip (seen on at least MIN_SAMPLES frames). */
      faces: number;
      sampledFrames: number;
    }
  | { found: false; reason: string; sampledFrames: number };

/** The picture faces are looked for on: short side FACE_SAMPLE_SHORT_SIDE (or the source's), even sides. */
export function sampleSize(source: { width: number; height: number }): { width: number; height: number } {
  const k = Math.min(1, FACE_SAMPLE_SHORT_SIDE / Math.min(source.width, source.height));
  const even = (x: number) => Math.max(2, 2 * Math.round(x / 2));
  return { width: even(source.width * k), height: even(source.height * k) };
}

/** ffmpeg arguments decoding the clip's stretch at `fps` into packed RGB frames of `size`. */
export function buildFaceFrameArgs(
  sourcePath: string,
  startSec: number,
  durationSec: number,
  size: { width: number; height: number },
  fps: number,
  outPath: string,
): string[] {
  return [
    '-y',
    '-ss',
    num(startSec, 3),
    '-t',
    num(durationSec, 3),
    '-i',
    sourcePath,
    '-map',
    '0:v:0',
    '-vf',
    `fps=${num(fps, 3)},scale=${size.width}:${size.height}:flags=area,format=rgb24`,
    '-f',
    'rawvideo',
    outPath,
  ];
}

/** How far the lips are apart, as a share of the face's height. */
export function mouthOpening(face: Pick<Face, 'box' | 'landmarks'>): number {
  if (face.landmarks.length < 468 || face.box.height <= 0) return 0;
  let gap = 0;
  for (const [upper, lower] of INNER_LIPS) gap += face.landmarks[lower]![1] - face.landmarks[upper]![1];
  return Math.max(0, gap / INNER_LIPS.length / face.box.height);
}

function centre(box: Box): [number, number] {
  return [box.x + box.width / 2, box.y + box.height / 2];
}

/**
 * Follows faces over the samples: each face joins the track whose last face lies nearest (within TRACK_REACH
 * face widths) or, after a cut or a gap, the one of the same person (descriptor distance); else starts a track.
 */
export function trackFaces(samples: readonly FaceSample[]): FaceTrack[] {
  const tracks: (FaceTrack & { last: SampleFace })[] = [];
  samples.forEach((sample, index) => {
    const pairs: { track: number; face: number; cost: number }[] = [];
    sample.faces.forEach((face, f) => {
      const [cx, cy] = centre(face.box);
      tracks.forEach((track, k) => {
        const [tx, ty] = centre(track.last.box);
        const reach = Math.hypot(cx - tx, cy - ty) / Math.max(face.box.width, track.last.box.width);
        const distance = faceDistance(face.descriptor, track.last.descriptor);
        if (reach <= TRACK_REACH) pairs.push({ track: k, face: f, cost: reach });
        else if (distance <= SAME_PERSON_DISTANCE) pairs.push({ track: k, face: f, cost: 1 + distance });
      });
    });
    pairs.sort((a, b) => a.cost - b.cost);
    const takenTracks = new Set<number>();
    const placed = new Set<number>();
    for (const p of pairs) {
      if (takenTracks.has(p.track) || placed.has(p.face)) continue;
      takenTracks.add(p.track);
      placed.add(p.face);
      const face = sample.faces[p.face]!;
      tracks[p.track]!.faces.set(index, face);
      tracks[p.track]!.last = face;
    }
    sample.faces.forEach((face, f) => {
      if (!placed.has(f)) tracks.push({ id: tracks.length, faces: new Map([[index, face]]), last: face });
    });
  });
  return tracks.map(({ id, faces }) => ({ id, faces }));
}

/** Loudness (LUFS, floored at silence) of the 400 ms block centred nearest each time of the clip. */
export function loudnessAt(
  loudness: readonly LoudnessBlock[],
  clipStartSec: number,
  times: readonly number[],
): number[] {
  const last = times.length > 0 ? times[times.length - 1]! : 0;
  const blocks = blocksIn(loudness, clipStartSec - 0.5, clipStartSec + last + 0.5);
  let i = 0;
  return times.map((t) => {
    const at = clipStartSec + t;
    const mid = (b: LoudnessBlock) => b.t - 0.2;
    while (i + 1 < blocks.length && Math.abs(mid(blocks[i + 1]!) - at) <= Math.abs(mid(blocks[i]!) - at)) i++;
    const block = blocks[i];
    return block ? Math.max(SILENCE_LUFS, block.momentaryLufs) : SILENCE_LUFS;
  });
}

export function pearson(a: readonly number[], b: readonly number[]): number | null {
  const n = a.length;
  if (n < 2 || b.length !== n) return null;
  const ma = a.reduce((s, v) => s + v, 0) / n;
  const mb = b.reduce((s, v) => s + v, 0) / n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : null;
}

function spread(values: readonly number[]): number {
  const m = values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);
  return Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / Math.max(1, values.length));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface WindowVerdict {
  startSec: number;
  endSec: number;
  /** The speaking track, or null when no face clearly speaks (silence, nobody's mouth follows). */
  track: number | null;
  correlation: number | null;
}

/** The speaker of each WINDOW_SEC window: the track whose mouth follows the loudness clearly best. */
export function speakerWindows(
  samples: readonly FaceSample[],
  tracks: readonly FaceTrack[],
  loudness: readonly number[],
  durationSec: number,
): WindowVerdict[] {
  const count = Math.max(1, Math.round(durationSec / WINDOW_SEC));
  const length = durationSec / count;
  const verdicts: WindowVerdict[] = [];
  for (let w = 0; w < count; w++) {
    const startSec = w * length;
    const endSec = w === count - 1 ? durationSec : (w + 1) * length;
    const inContext = samples
      .map((s, i) => i)
      .filter((i) => samples[i]!.t >= startSec - CONTEXT_SEC && samples[i]!.t < endSec + CONTEXT_SEC);
    const scores: { track: number; r: number }[] = [];
    if (spread(inContext.map((i) => loudness[i]!)) >= MIN_LOUDNESS_SPREAD) {
      for (const track of tracks) {
        const seen = inContext.filter((i) => track.faces.has(i));
        if (seen.length < Math.max(MIN_SAMPLES, inContext.length / 2)) continue;
        const r = pearson(
          seen.map((i) => track.faces.get(i)!.mouthOpen),
          seen.map((i) => loudness[i]!),
        );
        if (r !== null) scores.push({ track: track.id, r });
      }
    }
    scores.sort((a, b) => b.r - a.r);
    const [best, second] = scores;
    const speaks = best && best.r >= MIN_CORRELATION && (!second || best.r - second.r >= MIN_MARGIN);
    verdicts.push({
      startSec,
      endSec,
      track: speaks ? best.track : null,
      correlation: best ? Math.round(best.r * 1000) / 1000 : null,
    });
  }
  return verdicts;
}

/**
 * The crop holding the speaker of each window, consecutive windows of one speaker merged: a still crop per
 * speaker, cuts between them. A window without a speaker keeps the nearest one (the one before first) when
 * that face is in the picture, else holds the face seen most there (a listener's close-up after a camera
 * cut), else keeps the nearest. Null when no window has a speaker.
 */
export function planSpeakerCrop(
  samples: readonly FaceSample[],
  tracks: readonly FaceTrack[],
  verdicts: readonly WindowVerdict[],
  source: { width: number; height: number },
  sampled: { width: number; height: number },
  target: { width: number; height: number },
): { plan: Extract<ReframePlan, { mode: 'crop' }>; speakers: SpeakerSegment[] } | null {
  const elected = verdicts.map((v) => v.track);
  if (elected.every((t) => t === null)) return null;
  const seen = (track: FaceTrack, v: WindowVerdict) =>
    [...track.faces.keys()].filter((i) => samples[i]!.t >= v.startSec && samples[i]!.t < v.endSec).length;
  const filled = elected.map((track, i) => {
    if (track !== null) return track;
    let nearest: number | null = null;
    for (let d = 0; nearest === null; d++) nearest = elected[i - d - 1] ?? elected[i + d + 1] ?? null;
    const verdict = verdicts[i]!;
    if (
      seen(
        tracks.find((t) => t.id === nearest)!,
        verdict,
      ) > 0
    )
      return nearest;
    const [visible] = tracks
      .map((t) => ({ id: t.id, count: seen(t, verdict) }))
      .filter((t) => t.count > 0)
      .sort((a, b) => b.count - a.count);
    return visible?.id ?? nearest;
  });
  const { axis, cropWidth, cropHeight } = cropGeometry(source, target);
  const kx = source.width / sampled.width;
  const ky = source.height / sampled.height;
  const speakers: SpeakerSegment[] = [];
  const segments: CropSegment[] = [];
  let runStart = 0;
  for (let w = 1; w <= filled.length; w++) {
    if (w < filled.length && filled[w] === filled[runStart]) continue;
    const track = tracks.find((t) => t.id === filled[runStart])!;
    const startSec = verdicts[runStart]!.startSec;
    const endSec = verdicts[w - 1]!.endSec;
    const inRun = [...track.faces].filter(([i]) => samples[i]!.t >= startSec && samples[i]!.t < endSec);
    const boxes = (inRun.length > 0 ? inRun : [...track.faces]).map(([, f]) => f.box);
    const face: Box = {
      x: median(boxes.map((b) => b.x)) * kx,
      y: median(boxes.map((b) => b.y)) * ky,
      width: median(boxes.map((b) => b.width)) * kx,
      height: median(boxes.map((b) => b.height)) * ky,
    };
    const correlations = verdicts
      .slice(runStart, w)
      .filter((v) => v.track === track.id)
      .map((v) => v.correlation!);
    speakers.push({
      startSec: Math.round(startSec * 1000) / 1000,
      endSec: Math.round(endSec * 1000) / 1000,
      face: {
        x: Math.round(face.x),
        y: Math.round(face.y),
        width: Math.round(face.width),
        height: Math.round(face.height),
      },
      correlation: correlations.length > 0 ? Math.max(...correlations) : 0,
    });
    const [cx, cy] = centre(face);
    const sourceLength = axis === 'x' ? source.width : source.height;
    const cropLength = axis === 'x' ? cropWidth : cropHeight;
    const at = axis === 'x' ? cx : cy;
    const offset = Math.min(
      sourceLength - cropLength,
      Math.max(0, 2 * Math.round((at - cropLength / 2) / 2)),
    );
    if (segments[segments.length - 1]?.offset !== offset) {
      segments.push({ startSec: segments.length === 0 ? 0 : startSec, offset });
    }
    runStart = w;
  }
  return { plan: { mode: 'crop', axis, cropWidth, cropHeight, segments }, speakers };
}

export interface SpeakingFaceInput {
  sourcePath: string;
  source: { width: number; height: number };
  target: { width: number; height: number };
  startSec: number;
  durationSec: number;
  /** ebur128 blocks of the whole source audio. */
  loudness: readonly LoudnessBlock[];
  /** Scratch file for the decoded frames (removed afterwards). */
  framesPath: string;
  run?: FfmpegRunOptions;
}

async function facesOn(data: Uint8Array, size: { width: number; height: number }): Promise<SampleFace[]> {
  const faces = await detectFaces({ data, ...size }, { maxFaces: MAX_FACES });
  return faces.map((f) => ({ box: f.box, mouthOpen: mouthOpening(f), descriptor: f.descriptor }));
}

/**
 * Finds the speaking face of the clip's stretch and the crop that keeps it in frame, or says why not (no face,
 * no face whose mouth follows the audio). Vision errors, such as missing model weights, are thrown.
 */
export async function findSpeakingFace(input: SpeakingFaceInput): Promise<SpeakingFaceResult> {
  const size = sampleSize(input.source);
  const frameBytes = size.width * size.height * 3;
  await runFfmpeg(
    buildFaceFrameArgs(
      input.sourcePath,
      input.startSec,
      input.durationSec,
      size,
      FACE_SAMPLE_FPS,
      input.framesPath,
    ),
    input.run,
  );
  const file = await open(input.framesPath, 'r');
  try {
    const { size: bytes } = await file.stat();
    const count = Math.floor(bytes / frameBytes);
    const frame = new Uint8Array(frameBytes);
    const read = async (i: number) => {
      await file.read(frame, 0, frameBytes, i * frameBytes);
      input.run?.signal?.throwIfAborted();
      return facesOn(frame, size);
    };
    const probes = [
      ...new Set(
        Array.from({ length: PROBE_FRAMES }, (_, k) => Math.floor(((k + 0.5) * count) / PROBE_FRAMES)),
      ),
    ];
    const probed = new Map<number, SampleFace[]>();
    for (const i of probes.filter((i) => i < count)) probed.set(i, await read(i));
    if ([...probed.values()].every((faces) => faces.length === 0)) {
      return { found: false, reason: 'no faces found', sampledFrames: probed.size };
    }
    const samples: FaceSample[] = [];
    for (let i = 0; i < count; i++) {
      samples.push({ t: i / FACE_SAMPLE_FPS, faces: probed.get(i) ?? (await read(i)) });
    }
    const tracks = trackFaces(samples);
    const loudness = loudnessAt(
      input.loudness,
      input.startSec,
      samples.map((s) => s.t),
    );
    const verdicts = speakerWindows(samples, tracks, loudness, input.durationSec);
    const crop = planSpeakerCrop(samples, tracks, verdicts, input.source, size, input.target);
    if (!crop) return { found: false, reason: 'no face speaks with the audio', sampledFrames: count };
    const faces = tracks.filter((t) => t.faces.size >= MIN_SAMPLES).length;
    return { found: true, ...crop, faces, sampledFrames: count };
  } finally {
    await file.close();
    await rm(input.framesPath, { force: true });
  }
}
