import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ComposeScene } from '../../media/compose/compose-spec.ts';
import { FootageSelectionError, selectFootage } from '../../media/footage/select.ts';
import type { Niche } from '../../media/footage/niches.ts';
import { chooseShotMove, parseCameraMove, type CameraMove } from '../../media/motion/camera-move.ts';
import { JobFailure } from '../../platform/errors.ts';
import type { JobContext } from '../../platform/modes/mode.ts';
import type { AiVideoRequest } from './ai-video-request.ts';
import type { AiVideoDeps } from './ai-video-pipeline.ts';
import { parallaxLayer } from './parallax.ts';
import type { ShotCut } from './shot-plan.ts';

// Shots of the local motion engine: real pixels, moved. Text-to-video takes, for each beat, the library clip
// whose words match it best and gives it a camera move; image-to-video moves the caller's photo as the motion
// prompt says (later shots of a longer video vary the move), with the person lifted off the background for
// parallax when the prompt asks for an orbit or a push-in on the subject and one is found.

export interface LocalShot {
  path: string;
  kind: 'image' | 'video';
  inPoint: number;
  move: CameraMove;
  foreground?: { path: string };
  /** Where the pixels come from, recorded with the shot and shown in artifacts.shots[]. */
  source: Record<string, unknown>;
}

/** The caller's photo, downloaded while the request is validated (a bad one is refused before billing). */
export const SOURCE_IMAGE_FILE = 'source-image';

function describeMove(move: CameraMove): Record<string, unknown> {
  return { kind: move.kind, direction: move.direction, speed: move.speed };
}

/**
 * Makes sure the library holds footage for the niche (and the stock-footage provider's for the beats, when one
 * is configured), generating or importing what is missing. Started while the narration is synthesized.
 */
export async function readyLibraryFootage(
  ctx: JobContext<AiVideoRequest>,
  input: { beats: string[]; niche: Niche; deps: AiVideoDeps },
): Promise<void> {
  const { library } = input.deps;
  await library.ensureFootage(input.niche, ctx.signal);
  await library.ensureProviderFootage({
    sceneTexts: input.beats,
    footageKeywords: [],
    urlGuard: ctx.services.urlGuard,
    signal: ctx.signal,
  });
}

export async function planLocalShots(
  ctx: JobContext<AiVideoRequest>,
  input: {
    beats: string[];
    cuts: ShotCut[];
    niche: Niche;
    deps: AiVideoDeps;
    /** readyLibraryFootage of these beats, when it was started earlier; text-to-video waits for it. */
    footage?: Promise<void>;
  },
): Promise<LocalShot[]> {
  const { request, workDir, signal } = ctx;

  if (request.kind === 'image_to_video') {
    const image = request.image?.path ?? join(workDir, SOURCE_IMAGE_FILE);
    if (!existsSync(image))
      throw new JobFailure({
        code: 'INPUT_FETCH_FAILED',
        category: 'input',
        message: 'The image fetched when the request was accepted is gone; send the request again.',
        retryable: false,
      });
    const asked = parseCameraMove(request.prompt);
    const moves = input.cuts.map((_, i) => (i === 0 ? asked : chooseShotMove(ctx.job.id, i)));
    const foreground = moves.some((m) => m.kind === 'orbit' || m.kind === 'parallax' || m.kind === 'push-in')
      ? await parallaxLayer(image, workDir, signal)
      : undefined;
    return moves.map((move) => {
      const layered =
        foreground && (move.kind === 'orbit' || move.kind === 'parallax' || move.kind === 'push-in');
      return {
        path: layered ? foreground.background : image,
        kind: 'image',
        inPoint: 0,
        move,
        ...(layered ? { foreground: { path: foreground.foreground } } : {}),
        source: {
          kind: 'image',
          image_url: request.image_url,
          move: describeMove(move),
          ...(layered ? { parallax: 'person cut out by segmentation' } : {}),
        },
      };
    });
  }

  const { library } = input.deps;
  await (input.footage ?? readyLibraryFootage(ctx, input));
  const clips = await library.readyClips();
  let selection;
  try {
    selection = selectFootage({
      scenes: input.cuts.map((cut, index) => ({
        index,
        text: input.beats[index]!,
        start: cut.start,
        end: cut.start + cut.duration,
      })),
      niche: input.niche,
      clips,
      seed: ctx.job.id,
      // One clip per shot: the shot list already cut the video where the beats change.
      maxShotSec: 120,
    });
  } catch (error) {
    if (!(error instanceof FootageSelectionError)) throw error;
    throw new JobFailure({
      code: 'FOOTAGE_UNAVAILABLE',
      category: 'input',
      message: error.message,
      retryable: false,
    });
  }
  const byId = new Map(clips.map((clip) => [clip.id, clip]));
  await library.localize([...new Set(selection.shots.map((s) => byId.get(s.clipId)!))], ctx.signal);
  await library.markUsed([...new Set(selection.shots.map((s) => s.clipId))]);
  return input.cuts.map((_, index) => {
    const shot = selection.shots.find((s) => s.sceneIndex === index) ?? selection.shots[index]!;
    const clip = byId.get(shot.clipId)!;
    const move = chooseShotMove(ctx.job.id, index, input.beats[index]);
    return {
      path: clip.path,
      kind: 'video',
      inPoint: shot.inPoint,
      move,
      source: {
        kind: 'library',
        clip_id: clip.id,
        clip_title: clip.title,
        clip_source: clip.source,
        in_point: shot.inPoint,
        matched: shot.matched,
        move: describeMove(move),
      },
    };
  });
}

/** The compose scenes of local shots: each one fed frame by frame through the motion engine. */
export function localShotScenes(shots: LocalShot[], cuts: ShotCut[]): ComposeScene[] {
  return shots.map((shot, index) => ({
    path: shot.path,
    kind: shot.kind,
    inPoint: shot.inPoint,
    duration: cuts[index]!.duration,
    motion: { move: shot.move, ...(shot.foreground ? { foreground: shot.foreground } : {}) },
  }));
}
