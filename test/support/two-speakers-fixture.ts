// A 16:9 video of two people side by side where only one speaks: two real face photos animated by the local
// talking-head engine, one mouth from the narration's words and the other from the same sentences moved into
// the narration's pauses, so both mouths move but only the speaker's moves with the sound.
import { join } from 'node:path';
import { runFfmpeg } from '../../src/media/ffmpeg/runner.ts';
import { prepareTalkingHead } from '../../src/media/talking-head/index.ts';
import type { WordTiming } from '../../src/media/types.ts';
import { detectFaces, type Face } from '../../src/media/vision/index.ts';
import { synthesize } from '../../src/media/voice/synthesize.ts';
import { resolveVoice } from '../../src/media/voice/voice-catalogue.ts';
import { cutToFile, FACE_DETECT_SCREENSHOT, FIVE_PEOPLE } from './sample-photos.ts';

export interface Person {
  photoPath: string;
  /** The person's face on the photo (its descriptor tells the person apart on rendered frames). */
  face: Face;
}

export interface TwoSpeakers {
  people: [Person, Person];
  narration: { audioPath: string; words: WordTiming[]; durationSec: number; sentenceStarts: number[] };
  /** The sentences again, each moved into the pause after it: what the silent person's mouth says. */
  otherWords: WordTiming[];
}

/** Each head is rendered small and set in the middle of its half: the talking head fills its frame with the face. */
const HEAD = { width: 320, height: 360, fps: 25 };
const HALF = { width: 640, height: 720 };

const shift = (words: readonly WordTiming[], by: number) =>
  words.map((w) => ({ ...w, start: w.start + by, end: w.end + by }));

/** Narration and photos, made once per test file: sentences each followed by a pause as long as it. */
export async function prepareTwoSpeakers(dir: string, sentences: readonly string[]): Promise<TwoSpeakers> {
  const voice = resolveVoice({ language: 'en' });
  const spoken = [];
  for (const [i, text] of sentences.entries()) {
    spoken.push(await synthesize({ text, voice, outPath: join(dir, `sentence-${i}.wav`) }));
  }
  const pause = Math.max(...spoken.map((s) => s.durationSec)) + 0.4;
  const words: WordTiming[] = [];
  const otherWords: WordTiming[] = [];
  const sentenceStarts: number[] = [];
  let at = 0;
  for (const s of spoken) {
    sentenceStarts.push(at);
    words.push(...shift(s.words, at));
    otherWords.push(...shift(s.words, at + s.durationSec + 0.2));
    at += s.durationSec + pause;
  }
  const audioPath = join(dir, 'narration.wav');
  await runFfmpeg([
    '-y',
    ...spoken.flatMap((s) => ['-i', s.audioPath]),
    '-filter_complex',
    spoken.map((s, i) => `[${i}:a]apad=whole_dur=${s.durationSec + pause}[a${i}]`).join(';') +
      `;${spoken.map((_, i) => `[a${i}]`).join('')}concat=n=${spoken.length}:v=0:a=1`,
    '-c:a',
    'pcm_s16le',
    audioPath,
  ]);
  const people: Person[] = [];
  for (const index of [0, 2]) {
    const photoPath = await cutToFile(FACE_DETECT_SCREENSHOT, FIVE_PEOPLE[index]!, dir, `person-${index}`, {
      width: 600,
    });
    const [face] = await detectFaces(photoPath);
    if (!face) throw new Error(`no face on ${photoPath}`);
    people.push({ photoPath, face });
  }
  return {
    people: people as [Person, Person],
    narration: { audioPath, words, durationSec: at, sentenceStarts },
    otherWords: otherWords.filter((w) => w.end < at),
  };
}

export type Speaker = 'left' | 'right' | 'left-then-right';

/** What one side's mouth says (side 0 left, 1 right). */
function mouthWords(fixture: TwoSpeakers, speaker: Speaker, side: 0 | 1): WordTiming[] {
  const { words, sentenceStarts } = fixture.narration;
  if (speaker === 'left-then-right') {
    const turn = sentenceStarts[Math.floor(sentenceStarts.length / 2)]!;
    return words.filter((w) => (side === 0 ? w.start < turn : w.start >= turn));
  }
  return (side === 0) === (speaker === 'left') ? words : fixture.otherWords;
}

/**
 * The 1280x720 video with the narration: the speaker's mouth on `speaker`'s side and the other's out of time;
 * for `left-then-right` the left person says the first half of the sentences, the right one the rest, each
 * still while the other speaks.
 */
export async function renderTwoSpeakers(
  fixture: TwoSpeakers,
  speaker: Speaker,
  dir: string,
): Promise<string> {
  const { people, narration } = fixture;
  const heads = [];
  for (const [i, person] of people.entries()) {
    heads.push(
      await prepareTalkingHead(
        {
          photoPath: person.photoPath,
          face: person.face,
          words: mouthWords(fixture, speaker, i === 0 ? 0 : 1),
          durationSec: narration.durationSec,
          workDir: join(dir, `${speaker}-head-${i}`),
          seed: `${speaker}-${i}`,
        },
        HEAD,
      ),
    );
  }
  const [left, right] = heads as [(typeof heads)[0], (typeof heads)[0]];
  const offset = left.inputs.length;
  const path = join(dir, `two-speakers-${speaker}.mp4`);
  await runFfmpeg([
    '-y',
    ...left.inputs.flat(),
    ...right.inputs.flat(),
    '-i',
    narration.audioPath,
    '-filter_complex',
    [
      ...left.filter(
        left.inputs.map((_, i) => i),
        'left',
      ),
      ...right.filter(
        right.inputs.map((_, i) => i + offset),
        'right',
      ),
      `[left]pad=${HALF.width}:${HALF.height}:(ow-iw)/2:(oh-ih)/2:color=0x404850[leftpad]`,
      `[right]pad=${HALF.width}:${HALF.height}:(ow-iw)/2:(oh-ih)/2:color=0x404850[rightpad]`,
      '[leftpad][rightpad]hstack=inputs=2,format=yuv420p[v]',
    ].join(';'),
    '-map',
    '[v]',
    '-map',
    `${offset + right.inputs.length}:a`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-c:a',
    'aac',
    '-t',
    String(narration.durationSec),
    path,
  ]);
  return path;
}
