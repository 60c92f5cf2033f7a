// The real face photos with known identity found in the installed packages, for the descriptor benchmark.
//
// Only @vladmandic/human ships photos of people (assets/*.jpg; no other installed package has face photos,
// @vladmandic/face-api is not installed). Its demo data names the man who recurs in them: "vlado", the
// library's author (demo/facematch/faces.json lists him in group-4.jpg, the photo the face-detect screenshot
// shows; the face-id screenshot is his webcam). Identity is therefore known for:
// - four photos of him: the table thumbnail of samples.jpg, the first face of the face-detect screenshot
//   (group-4), the large "selected face" of the face-match screenshot and the face-id webcam picture, taken
//   years apart (labelled by eye as the same man, agreeing with the demo's own labels);
// - the four women of group-4 beside him: four different people, as they stand in one photo;
// - the face-match screenshot's grid of 108 face photos, labelled by eye: its first row is him in 18 other
//   photos (the demo sorts the grid by similarity to him), other men who are clearly not him, and women
//   (certainly not him). Whether two grid women, or two other grid men, are one person is not known, so such
//   pairs are not used. Four computer-rendered faces are left out.
import type { Region } from '../../test/support/sample-photos.ts';
import {
  FACE_DETECT_SCREENSHOT,
  FACE_MATCH_SCREENSHOT,
  FIVE_PEOPLE,
  MAN_AT_TABLE,
  SAMPLES,
} from '../../test/support/sample-photos.ts';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const FACE_ID_SCREENSHOT = join(
  dirname(require.resolve('@vladmandic/human')),
  '..',
  'assets',
  'screenshot-faceid.jpg',
);

export type Sex = 'female' | 'male';

export interface LabelledFace {
  id: string;
  file: string;
  region: Region;
  /** Scale the cut to this width (small thumbnails), as the tests do. */
  width?: number;
  sex: Sex;
  /** Known identity; undefined when only the sex (and `notPerson`) is known. */
  person?: string;
  /** A person this face is known not to be. */
  notPerson?: string;
  /** The original photo; two faces from one photo are never a same-person pair. */
  photo: string;
  /** How the identity is known. */
  labelled: 'package' | 'eye';
}

export const VLADO = 'vlado';

const CERTAIN: LabelledFace[] = [
  {
    id: 'vlado-table',
    file: SAMPLES,
    region: MAN_AT_TABLE,
    width: 844,
    sex: 'male',
    person: VLADO,
    photo: 'samples-table',
    labelled: 'eye',
  },
  {
    id: 'vlado-group4',
    file: FACE_DETECT_SCREENSHOT,
    region: FIVE_PEOPLE[0]!,
    sex: 'male',
    person: VLADO,
    photo: 'group-4',
    labelled: 'package',
  },
  {
    id: 'vlado-selected',
    file: FACE_MATCH_SCREENSHOT,
    region: { left: 0, top: 28, width: 172, height: 172 },
    sex: 'male',
    person: VLADO,
    photo: 'facematch-selected',
    labelled: 'eye',
  },
  {
    id: 'vlado-webcam',
    file: FACE_ID_SCREENSHOT,
    region: { left: 14, top: 142, width: 140, height: 140 },
    sex: 'male',
    person: VLADO,
    photo: 'faceid-webcam',
    labelled: 'eye',
  },
  ...FIVE_PEOPLE.slice(1).map((region, i): LabelledFace => ({
    id: `group4-woman-${i + 1}`,
    file: FACE_DETECT_SCREENSHOT,
    region,
    sex: 'female',
    person: `group4-woman-${i + 1}`,
    photo: 'group-4',
    labelled: 'package',
  })),
];

/**
 * The face-match grid, row by row, 18 tiles each: V him, M another man (not him), F a woman, C a rendered face
 * (left out), ? a man who may be him (sunglasses, blur or doubt; used only against women).
 */
const GRID = [
  'VVVVVVVVVVVVVVVVVV',
  '?????MFF?FFFF?F?MF',
  'MFFFMMM?FFFFMFFFFF',
  'FMFFMFFFFFFFFFFMFF',
  'CFFFFFFFMFFFMFFFFF',
  'FFCCFMMFFMFFCFFFFF',
];
/** Grid tiles that are the same photo as a face of the certain set. */
const GRID_PHOTOS: Record<string, string> = { '0-0': 'facematch-selected', '0-3': 'group-4' };
const GRID_TOP = 284;
const GRID_ROW = 111.6;
const GRID_COLUMN = 1920 / 18;

function gridFaces(): LabelledFace[] {
  const faces: LabelledFace[] = [];
  GRID.forEach((row, r) => {
    [...row].forEach((kind, c) => {
      if (kind === 'C') return;
      const left = Math.round(c * GRID_COLUMN);
      const top = Math.round(GRID_TOP + r * GRID_ROW);
      const region = {
        left,
        top,
        width: Math.round((c + 1) * GRID_COLUMN) - left,
        height: Math.min(Math.round(GRID_ROW), 954 - top),
      };
      const face: LabelledFace = {
        id: `grid-${r}-${c}`,
        file: FACE_MATCH_SCREENSHOT,
        region,
        sex: kind === 'F' ? 'female' : 'male',
        photo: GRID_PHOTOS[`${r}-${c}`] ?? `grid-${r}-${c}`,
        labelled: 'eye',
      };
      if (kind === 'V') face.person = VLADO;
      if (kind === 'M' || kind === 'F') face.notPerson = VLADO;
      faces.push(face);
    });
  });
  return faces;
}

export function faceSet(): LabelledFace[] {
  return [...CERTAIN, ...gridFaces()];
}

export type PairKind = 'same' | 'different-same-sex' | 'different-sex';

/** Whether two faces are known to be one person, known to be two, or not known (null). */
export function pairKind(a: LabelledFace, b: LabelledFace): PairKind | null {
  if (a.sex !== b.sex) return 'different-sex';
  if (a.person !== undefined && b.person !== undefined) {
    if (a.person !== b.person) return 'different-same-sex';
    return a.photo === b.photo ? null : 'same';
  }
  if (
    (a.person !== undefined && b.notPerson === a.person) ||
    (b.person !== undefined && a.notPerson === b.person)
  )
    return 'different-same-sex';
  return null;
}
