// The local talking-head engine (avatar_iii): one persona photo animated from a narration. The pictures that
// change (one mouth per viseme, half-closed and closed eyes) are rendered once, small, from the photo's own
// pixels; ffmpeg then sequences them over the framed photo from two playlists and adds the head motion.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_ENCODING } from '../compose/compose-spec.ts';
import { deliveryEncodeArgs } from '../ffmpeg/delivery-encode.ts';
import { num } from '../ffmpeg/filter-escape.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { loadCmuDict, type PronunciationDict } from '../speech/cmudict.ts';
import { DEBIAN_EN_US_MODEL } from '../speech/model.ts';
import { pronounceWords } from '../speech/pronounce.ts';
import { scriptWords } from '../speech/tokenize.ts';
import type { WordTiming } from '../types.ts';
import type { Face } from '../vision/faces.ts';
import { loadPhoto, renderBase, writePam } from './base-image.ts';
import { eyeRuns, planBlinks, type EyeState } from './blinks.ts';
import { eyesGeometry, renderEyes } from './eye-shapes.ts';
import { planFraming, type FrameRequest } from './framing.ts';
import type { FilterSource } from '../compose/filter-source.ts';
import { planHeadMotion, SUPERSAMPLE } from './head-motion.ts';
import { mapLandmarks } from './landmarks.ts';
import { mouthRuns } from './mouth-track.ts';
import { mouthGeometry, mouthTone, renderMouth } from './mouth-shapes.ts';
import { edgeBlur } from './pixels.ts';
import { ffconcatPlaylist, talkingHeadFilters } from './sequence.ts';
import { MOUTH_SHAPES, type Viseme } from './visemes.ts';

export interface TalkingHeadInput {
  photoPath: string;
  /** The photo's face as detectFaces found it (landmarks in the photo's pixels). */
  face: Face;
  /** The narration's words, timed on the narration's clock. */
  words: WordTiming[];
  durationSec: number;
  /** Directory for the rendered pictures and playlists; it must outlive the ffmpeg run. */
  workDir: string;
  /** Same seed, same blinks and head motion. */
  seed: string;
  /** PNG alpha mask of the person, same size as the photo: the output then carries alpha (a cut-out presenter). */
  personMask?: string;
  signal?: AbortSignal;
}

export type TalkingHeadFrame = FrameRequest;

/** The dictionary ships with pocketsphinx-en-us; without it every word goes to espeak-ng or spelling rules. */
async function pronouncingDictionary(): Promise<PronunciationDict> {
  try {
    return await loadCmuDict(DEBIAN_EN_US_MODEL.dictPath);
  } catch {
    return new Map();
  }
}

/** CMU phones of each timed word (its first pronunciation; punctuation stripped, compounds joined). */
async function wordPhones(words: readonly WordTiming[], signal?: AbortSignal): Promise<string[][]> {
  const tokens = words.map((w) => scriptWords(w.word));
  const pronunciations = await pronounceWords(tokens.flat(), await pronouncingDictionary(), { signal });
  let next = 0;
  return tokens.map((list) => list.flatMap(() => pronunciations[next++]![0]!));
}

function validate(input: TalkingHeadInput, frame: TalkingHeadFrame): void {
  const { width, height, fps } = frame;
  if (
    !Number.isInteger(width) ||
    !Number.isInteger(height) ||
    width < 16 ||
    height < 16 ||
    width % 2 ||
    height % 2
  ) {
    throw new RangeError(`frame size must be even integers of at least 16, got ${width}x${height}`);
  }
  if (!(fps > 0 && fps <= 120)) throw new RangeError(`fps must lie in (0, 120], got ${fps}`);
  if (!(input.durationSec > 0))
    throw new RangeError(`durationSec must be positive, got ${input.durationSec}`);
}

const EYE_CLOSURE: Record<Exclude<EyeState, 'open'>, number> = { half: 0.5, closed: 1 };

export async function prepareTalkingHead(
  input: TalkingHeadInput,
  frame: TalkingHeadFrame,
): Promise<FilterSource> {
  validate(input, frame);
  const { workDir } = input;
  const { fps } = frame;
  await mkdir(workDir, { recursive: true });
  const [photo, phones] = await Promise.all([
    loadPhoto(input.photoPath, input.personMask),
    wordPhones(input.words, input.signal),
  ]);
  // The base is planned for the frame enlarged by SUPERSAMPLE; the motion's crop brings it back to the frame.
  const framing = planFraming(photo, input.face.box, {
    ...frame,
    width: frame.width * SUPERSAMPLE,
    height: frame.height * SUPERSAMPLE,
  });
  const base = await renderBase(photo, framing);
  const points = mapLandmarks(input.face, base.toBase);

  const frameCount = Math.ceil(input.durationSec * fps - 1e-9);
  const mouth = mouthRuns(input.words, phones, fps, frameCount);
  const eyes = eyeRuns(planBlinks(input.durationSec, fps, input.seed), frameCount);

  // Only the regions the patches are made from are read into memory; the base goes to its file from libvips.
  const mouthShape = mouthGeometry(points, base);
  const mouthSource = await base.read(mouthShape.source);
  const tone = mouthTone(mouthSource, mouthShape);
  const blur = edgeBlur(mouthSource, mouthShape.patch);
  const eyeShape = eyesGeometry(points, base, blur);

  const visemes = [...new Set(mouth.map((r) => r.state))];
  const mouthFiles = Object.fromEntries(visemes.map((v) => [v, `mouth-${v}.pam`])) as Record<Viseme, string>;
  const eyeFiles: Record<EyeState, string> = {
    open: 'eyes-open.pam',
    half: 'eyes-half.pam',
    closed: 'eyes-closed.pam',
  };
  const transparent = {
    data: new Uint8Array(eyeShape.patch.width * eyeShape.patch.height * 4),
    width: eyeShape.patch.width,
    height: eyeShape.patch.height,
  };
  await base.writePng(join(workDir, 'base.png'));
  // One patch in memory at a time: at 1080p a mouth patch can hold a few megapixels.
  for (const v of visemes) {
    await writePam(
      renderMouth(mouthSource, mouthShape, MOUTH_SHAPES[v], tone, blur),
      join(workDir, mouthFiles[v]),
    );
  }
  await writePam(transparent, join(workDir, eyeFiles.open));
  const eyeSource = await base.read(eyeShape.source);
  for (const state of ['half', 'closed'] as const) {
    await writePam(renderEyes(eyeSource, eyeShape, EYE_CLOSURE[state], blur), join(workDir, eyeFiles[state]));
  }
  await writeFile(join(workDir, 'mouth.ffconcat'), ffconcatPlaylist(mouth, mouthFiles, fps));
  await writeFile(join(workDir, 'eyes.ffconcat'), ffconcatPlaylist(eyes, eyeFiles, fps));

  const graph = {
    frame,
    frameCount,
    mouthAt: { x: mouthShape.patch.x, y: mouthShape.patch.y },
    eyesAt: { x: eyeShape.patch.x, y: eyeShape.patch.y },
    motion: planHeadMotion(input.seed),
    hasAlpha: photo.hasAlpha,
  };
  return {
    inputs: [
      // The picture's stream then carries the frame rate the looped frames are stamped at.
      ['-framerate', num(fps), '-i', join(workDir, 'base.png')],
      ['-f', 'concat', '-safe', '0', '-i', join(workDir, 'mouth.ffconcat')],
      ['-f', 'concat', '-safe', '0', '-i', join(workDir, 'eyes.ffconcat')],
    ],
    filter: (inputIndexes, out) => talkingHeadFilters(graph, inputIndexes, out),
    width: frame.width,
    height: frame.height,
    fps,
    durationSec: frameCount / fps,
    hasAlpha: photo.hasAlpha,
  };
}

/**
 * Encodes a talking head on its own as a deliverable MP4 (the project's H.264 settings), with the narration
 * when given. A cut-out presenter's alpha is dropped: MP4/H.264 has none.
 */
export async function renderTalkingHead(
  source: FilterSource,
  outputPath: string,
  audioPath?: string,
  options: { signal?: AbortSignal } = {},
): Promise<void> {
  const indexes = source.inputs.map((_, i) => i);
  const audio = audioPath ? ['-i', audioPath] : [];
  await runFfmpeg(
    [
      '-y',
      ...source.inputs.flat(),
      ...audio,
      '-filter_complex',
      source.filter(indexes, 'talking_head').join(';'),
      '-map',
      '[talking_head]',
      ...(audioPath ? ['-map', `${source.inputs.length}:a`] : ['-an']),
      ...deliveryEncodeArgs({
        preset: DEFAULT_ENCODING.preset,
        crf: DEFAULT_ENCODING.crf,
        threads: DEFAULT_ENCODING.threads,
        audioBitrateKbps: DEFAULT_ENCODING.audioBitrateKbps,
        fps: source.fps,
        durationSec: source.durationSec,
      }),
      outputPath,
    ],
    { signal: options.signal },
  );
}
