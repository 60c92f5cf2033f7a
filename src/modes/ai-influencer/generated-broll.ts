// Generated B-roll of a presenter video (spec 1 §4.5 broll.visuals generated and mixed): which sentences show
// B-roll and where each one's picture comes from, one AI still per generated sentence from the configured
// image model, and the B-roll timeline the compose reads, where a still moves under the local motion engine's
// camera (as image-to-video's shots do) and a stock sentence shows its slice of the library footage.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLimiter } from '../../brand/crawl/limiter.ts';
import type { ComposeScene } from '../../media/compose/compose-spec.ts';
import type { Scene } from '../../media/footage/select.ts';
import { chooseShotMove } from '../../media/motion/camera-move.ts';
import type { JobContext } from '../../platform/modes/mode.ts';
import {
  ImageModelError,
  type ImageModel,
  type StillShape,
} from '../../providers/image-models/image-model.ts';
import { localShotScenes, type LocalShot } from '../ai-video/local-shots.ts';
import type { PresenterLayout, PresenterRequest } from './presenter-request.ts';
import { stillPrompt } from './still-prompt.ts';

export type BrollSource = 'generated' | 'stock';

/** A sentence that shows B-roll, where on the timeline, and what it shows. */
export interface BrollSentence {
  index: number;
  text: string;
  start: number;
  end: number;
  source: BrollSource;
}

/** A compose scene and where it starts on the timeline. */
export interface PlacedScene {
  start: number;
  scene: ComposeScene;
}

/** One still the image model made, as recorded in the work folder and in artifacts.broll.shots[]. */
export interface GeneratedStillRecord {
  sentence: number;
  path: string;
  prompt: string;
  provider: string;
  model: string;
  size: string;
  requestId: string | null;
}

/** Generated B-roll that could not be made: the video falls back to the talking head (spec 1 §4.5). */
export class BrollGenerationError extends Error {
  constructor(
    message: string,
    readonly kind: string,
  ) {
    super(message);
    this.name = 'BrollGenerationError';
  }
}

const STILLS_RECORD = 'generated-broll.json';
/** Stills asked of the image model at once. */
const STILL_CONCURRENCY = 3;

/** Contiguous scenes (the footage stage's) placed end to end from 0. */
export function placeEndToEnd(scenes: ComposeScene[]): PlacedScene[] {
  let at = 0;
  return scenes.map((scene) => {
    const placed = { start: at, scene };
    at += scene.duration;
    return placed;
  });
}

/** The parts of a placed timeline inside [start, end), each cut to its share (a clip's in-point moves with it). */
export function sliceTimeline(placed: PlacedScene[], start: number, end: number): PlacedScene[] {
  const parts: PlacedScene[] = [];
  for (const { start: at, scene } of placed) {
    const from = Math.max(start, at);
    const to = Math.min(end, at + scene.duration);
    if (to - from < 0.01) continue;
    const offset = scene.kind === 'image' ? 0 : from - at;
    parts.push({ start: from, scene: { ...scene, inPoint: scene.inPoint + offset, duration: to - from } });
  }
  return parts;
}

/**
 * The sentences that show B-roll in the requested layout (all of them in creator and split; in cutaway the one
 * each cut-away interval opens on), each generated or stock: generated takes every one, mixed every other one
 * starting with a generated still; past `maxStills` the rest are stock.
 */
export function planBroll(input: {
  scenes: Scene[];
  layout: PresenterLayout;
  visuals: PresenterRequest['broll']['visuals'];
  cutaways: [number, number][];
  maxStills: number;
}): BrollSentence[] {
  const shown =
    input.layout === 'cutaway'
      ? [
          ...new Set(
            input.cutaways.map(
              ([start]) => (input.scenes.findLast((s) => s.start <= start + 1e-6) ?? input.scenes[0]!).index,
            ),
          ),
        ].map((index) => input.scenes.find((s) => s.index === index)!)
      : input.scenes;
  let stills = 0;
  return shown.map((scene, order) => {
    const wanted = input.visuals === 'generated' || (input.visuals === 'mixed' && order % 2 === 0);
    const source: BrollSource = wanted && stills < input.maxStills ? 'generated' : 'stock';
    if (source === 'generated') stills++;
    return { index: scene.index, text: scene.text, start: scene.start, end: scene.end, source };
  });
}

/** The still shape whose aspect ratio is nearest the B-roll region's. */
export function stillShape(region: { width: number; height: number }): StillShape {
  const ratio = region.width / region.height;
  const shapes: [StillShape, number][] = [
    ['portrait', 1024 / 1536],
    ['square', 1],
    ['landscape', 1536 / 1024],
  ];
  return shapes.reduce((best, shape) =>
    Math.abs(Math.log(ratio / shape[1])) < Math.abs(Math.log(ratio / best[1])) ? shape : best,
  )[0];
}

type StillsRecord = { stills: GeneratedStillRecord[] } | { failed: { kind: string; message: string } };

/**
 * One still per generated sentence, at most STILL_CONCURRENCY at a time. The outcome is kept in the work
 * folder, so a retried job neither pays for the stills again nor asks again for what was refused.
 */
export async function generateStills(
  ctx: JobContext<PresenterRequest>,
  input: {
    model: ImageModel;
    sentences: BrollSentence[];
    topic?: string;
    script: string;
    brand?: { name?: string; website_url?: string };
    shape: StillShape;
  },
): Promise<GeneratedStillRecord[]> {
  const recordPath = join(ctx.workDir, STILLS_RECORD);
  const saved = existsSync(recordPath)
    ? (JSON.parse(await readFile(recordPath, 'utf8')) as StillsRecord)
    : undefined;
  const known =
    saved && 'stills' in saved && !saved.stills.every((s) => existsSync(s.path)) ? undefined : saved;
  const record = known ?? (await askForStills(ctx, input));
  if (!known) await writeFile(recordPath, JSON.stringify(record));
  if ('failed' in record) throw new BrollGenerationError(record.failed.message, record.failed.kind);
  return record.stills;
}

async function askForStills(
  ctx: JobContext<PresenterRequest>,
  input: Parameters<typeof generateStills>[1],
): Promise<StillsRecord> {
  const wanted = input.sentences.filter((s) => s.source === 'generated');
  const dir = join(ctx.workDir, 'generated-broll');
  await mkdir(dir, { recursive: true });
  await ctx.progress(
    'broll',
    28,
    `Generating ${wanted.length} B-roll still${wanted.length === 1 ? '' : 's'}.`,
  );
  // The first failure stops the stills still waiting or being made: the B-roll is given up as a whole.
  const stop = new AbortController();
  const signal = AbortSignal.any([ctx.signal, stop.signal]);
  const limit = createLimiter(STILL_CONCURRENCY);
  let done = 0;
  try {
    const stills = await Promise.all(
      wanted.map((sentence) =>
        limit(async (): Promise<GeneratedStillRecord> => {
          signal.throwIfAborted();
          const prompt = stillPrompt({
            sentence: sentence.text,
            ...(input.topic ? { topic: input.topic } : {}),
            script: input.script,
            ...(input.brand ? { brand: input.brand } : {}),
            shape: input.shape,
          });
          try {
            const still = await input.model.generate({
              prompt,
              shape: input.shape,
              outPath: join(dir, `still-${sentence.index}.png`),
              signal,
            });
            done++;
            void ctx.progress('broll', 28, `Generated ${done} of ${wanted.length} B-roll stills.`);
            return {
              sentence: sentence.index,
              path: still.path,
              prompt,
              provider: input.model.provider,
              model: input.model.model,
              size: still.size,
              requestId: still.requestId,
            };
          } catch (error) {
            stop.abort(error);
            throw error;
          }
        }),
      ),
    );
    return { stills };
  } catch (error) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const cause = stop.signal.aborted ? (stop.signal.reason as unknown) : error;
    if (!(cause instanceof ImageModelError)) throw cause;
    ctx.log.warn({ kind: cause.kind, status: cause.status }, 'generated B-roll failed');
    const what = cause.kind === 'refused' ? 'a B-roll still was refused' : 'a B-roll still could not be made';
    return { failed: { kind: cause.kind, message: `${what}: ${cause.message}` } };
  }
}

/**
 * The B-roll timeline: each generated sentence its still moving under a camera move picked per shot (as the
 * AI-video local engine moves a photo), each stock sentence its slice of the footage timeline.
 */
export function brollTimeline(input: {
  sentences: BrollSentence[];
  stills: GeneratedStillRecord[];
  footage: PlacedScene[];
  seed: string;
}): PlacedScene[] {
  const byIndex = new Map(input.stills.map((s) => [s.sentence, s]));
  return input.sentences.flatMap((sentence) => {
    const still = byIndex.get(sentence.index);
    if (!still) return sliceTimeline(input.footage, sentence.start, sentence.end);
    const move = chooseShotMove(input.seed, sentence.index, sentence.text);
    const shot: LocalShot = {
      path: still.path,
      kind: 'image',
      inPoint: 0,
      move,
      source: { kind: 'generated', prompt: still.prompt },
    };
    const cut = { start: sentence.start, duration: sentence.end - sentence.start };
    return localShotScenes([shot], [cut]).map((scene) => ({ start: sentence.start, scene }));
  });
}
