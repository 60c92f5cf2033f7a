// What a finished stock-engine job keeps so that it can be revised scene by scene (docs/revision.md): the plan
// (scenes on whole frames with their footage, lines and words, narration, caption style, music, overlays) and
// one video segment per scene, in the media store beside the job's files under jobs/<job id>/revision/.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import type { CaptionRequest } from '../../media/captions/caption-presets.ts';
import type { ComposeProgressBar, ComposeScene } from '../../media/compose/compose-spec.ts';
import { cutSegments, type FramedScene } from '../../media/compose/scene-segments.ts';
import type { MusicBedFile } from '../../media/library/stock-library.ts';
import type { WordTiming } from '../../media/types.ts';
import { JobFailure } from '../../platform/errors.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';

export const PLAN_VERSION = 1;

export function revisionPrefix(jobId: string): string {
  return `jobs/${jobId}/revision`;
}

export function planKey(jobId: string): string {
  return `${revisionPrefix(jobId)}/plan.json`;
}

export interface PlanScene {
  /** The sentence narrated (and captioned) over this scene. */
  text: string;
  startFrame: number;
  frames: number;
  /** Footage in order; paths are files on this machine or `store:<key>` references. */
  pieces: ComposeScene[];
  /** Library clip ids (or `asset-<n>`) the pieces come from. */
  clipIds: string[];
  /** Store key of the scene's video segment (closed GOP, video only). */
  segment: string;
}

export interface RevisionPlan {
  version: number;
  fps: number;
  width: number;
  height: number;
  totalFrames: number;
  scenes: PlanScene[];
  /** Every narrated word on the output timeline. */
  words: WordTiming[];
  /** The narration track (tempo applied), a file or `store:<key>` reference. */
  narration: string;
  voice: { voiceId: string; language: string; speed: number; gender?: 'female' | 'male'; tempo: number };
  captions: { request: CaptionRequest; font?: string; fontsDir?: string };
  music: { enabled: boolean; volume: number; file?: MusicBedFile };
  niche: string;
  logo?: string;
  watermark?: string;
  progressBar?: ComposeProgressBar;
  renderPreset: string;
  /** Artifact fields carried over to a revision (title, description, hashtags, …). */
  artifacts: Record<string, unknown>;
}

const STORE_REF = 'store:';

/** Stores files of the job's work folder (they go with it) and answers what the plan should point at. */
class FileKeeper {
  private readonly kept = new Map<string, string>();
  constructor(
    private readonly store: MediaStore,
    private readonly workDir: string,
    private readonly prefix: string,
  ) {}

  async keep(path: string): Promise<string> {
    if (path.startsWith(STORE_REF)) return path;
    const inside = relative(this.workDir, path);
    if (inside.startsWith('..') || inside.startsWith(sep)) return path;
    const known = this.kept.get(path);
    if (known) return known;
    const key = `${this.prefix}/files/${this.kept.size}-${basename(path).replace(/[^A-Za-z0-9_.-]/g, '_')}`;
    await this.store.put(key, path);
    const ref = `${STORE_REF}${key}`;
    this.kept.set(path, ref);
    return ref;
  }
}

export interface PlanDraft extends Omit<RevisionPlan, 'version' | 'scenes' | 'narration'> {
  scenes: (Omit<PlanScene, 'segment'> & { segmentPath?: string })[];
  narrationPath: string;
}

/**
 * Saves the plan of a finished render and its scene segments: cut by stream copy from `videoPath` where a scene
 * has no segment file of its own (`segmentPath`). Work-folder files the plan names are stored too.
 */
export async function saveRevisionPlan(
  store: MediaStore,
  jobId: string,
  workDir: string,
  videoPath: string,
  draft: PlanDraft,
  signal?: AbortSignal,
): Promise<void> {
  const prefix = revisionPrefix(jobId);
  const keeper = new FileKeeper(store, workDir, prefix);
  const cutDir = join(workDir, 'revision-cut');
  await mkdir(cutDir, { recursive: true });
  const framed: Pick<FramedScene, 'startFrame'>[] = draft.scenes;
  const needCut = draft.scenes.some((s) => !s.segmentPath);
  const cut = needCut ? await cutSegments(videoPath, framed, cutDir, { signal }) : [];
  const scenes: PlanScene[] = [];
  for (const [i, scene] of draft.scenes.entries()) {
    const segment = `${prefix}/seg-${String(i).padStart(3, '0')}.mp4`;
    await store.put(segment, scene.segmentPath ?? cut[i]!);
    const pieces: ComposeScene[] = [];
    for (const piece of scene.pieces) pieces.push({ ...piece, path: await keeper.keep(piece.path) });
    scenes.push({
      text: scene.text,
      startFrame: scene.startFrame,
      frames: scene.frames,
      pieces,
      clipIds: scene.clipIds,
      segment,
    });
  }
  const file = draft.music.file;
  const plan: RevisionPlan = {
    version: PLAN_VERSION,
    fps: draft.fps,
    width: draft.width,
    height: draft.height,
    totalFrames: draft.totalFrames,
    scenes,
    words: draft.words,
    narration: await keeper.keep(draft.narrationPath),
    voice: draft.voice,
    captions: draft.captions,
    music: {
      ...draft.music,
      ...(file
        ? {
            file: {
              ...file,
              path: await keeper.keep(file.path),
              ...(file.bed
                ? {
                    bed: {
                      ...file.bed,
                      introPath: await keeper.keep(file.bed.introPath),
                      outroPath: await keeper.keep(file.bed.outroPath),
                    },
                  }
                : {}),
            },
          }
        : {}),
    },
    niche: draft.niche,
    ...(draft.logo ? { logo: await keeper.keep(draft.logo) } : {}),
    ...(draft.watermark ? { watermark: draft.watermark } : {}),
    ...(draft.progressBar ? { progressBar: draft.progressBar } : {}),
    renderPreset: draft.renderPreset,
    artifacts: draft.artifacts,
  };
  const planPath = join(cutDir, 'plan.json');
  await writeFile(planPath, JSON.stringify(plan));
  // Written last: a plan in the store means every file it names is there.
  await store.put(planKey(jobId), planPath);
}

/** The stored plan of a job, or undefined when the job kept none. */
export async function readRevisionPlan(
  store: MediaStore,
  jobId: string,
  signal?: AbortSignal,
): Promise<RevisionPlan | undefined> {
  const path = await store.fetchToLocal(planKey(jobId), signal);
  if (!path) return undefined;
  const plan = JSON.parse(await readFile(path, 'utf8')) as RevisionPlan;
  return plan.version === PLAN_VERSION ? plan : undefined;
}

/** A plan path as a file on this machine (a stored file is fetched). */
export async function localFile(store: MediaStore, ref: string, signal?: AbortSignal): Promise<string> {
  if (!ref.startsWith(STORE_REF)) return ref;
  const key = ref.slice(STORE_REF.length);
  const path = await store.fetchToLocal(key, signal);
  if (!path)
    throw new JobFailure({
      code: 'REVISION_SOURCE_GONE',
      category: 'input',
      message: `The source video's stored file ${key} is gone; it can no longer be revised.`,
      retryable: false,
    });
  return path;
}
