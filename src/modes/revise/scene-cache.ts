// The stock engine's side of scene-level revision (docs/revision.md): its scenes put on whole frames, with a
// closed GOP forced at each scene start, and after the render the plan and per-scene segments kept for a
// later POST /jobs/{id}/revise.
import type { CaptionRequest } from '../../media/captions/caption-presets.ts';
import type { ComposeScene, ComposeSpec } from '../../media/compose/compose-spec.ts';
import { frameScenes, type FramedScene } from '../../media/compose/scene-segments.ts';
import type { Scene } from '../../media/footage/select.ts';
import type { MusicBedFile } from '../../media/library/stock-library.ts';
import type { WordTiming } from '../../media/types.ts';
import type { JobContext } from '../../platform/modes/mode.ts';
import { saveRevisionPlan } from './revision-plan.ts';

export interface SceneTimeline {
  /** Sentences with their frames and footage. */
  scenes: (FramedScene & { text: string })[];
  /** Footage of the whole timeline, in order (the composition's scenes). */
  pieces: ComposeScene[];
  durationSec: number;
  /** Frames starting a scene after the first: each starts a closed GOP. */
  keyframeFrames: number[];
}

/** The sentences' scenes on whole frames with the footage chosen for them. */
export function sceneTimeline(
  sentences: readonly Scene[],
  pieces: readonly ComposeScene[],
  videoSec: number,
  fps: number,
): SceneTimeline {
  const framed = frameScenes(
    pieces,
    sentences.map((s) => s.start),
    videoSec,
    fps,
  );
  const scenes = framed.map((scene, i) => ({ ...scene, text: sentences[i]!.text }));
  const last = scenes[scenes.length - 1]!;
  return {
    scenes,
    pieces: scenes.flatMap((s) => s.pieces),
    durationSec: (last.startFrame + last.frames) / fps,
    keyframeFrames: scenes.slice(1).map((s) => s.startFrame),
  };
}

export interface KeptRender {
  spec: ComposeSpec;
  timeline: SceneTimeline;
  fps: number;
  /** Shots of artifacts.footage (their clip ids are kept per scene). */
  shots: readonly { start: number; duration: number; clipId: string }[];
  words: WordTiming[];
  narrationPath: string;
  voice: { voiceId: string; language: string; speed: number; gender?: 'female' | 'male'; tempo: number };
  captions: { request: CaptionRequest; font?: string };
  music: { enabled: boolean; volume: number; file?: MusicBedFile };
  niche: string;
  renderPreset: string;
  artifacts: Record<string, unknown>;
}

/** Keeps a finished render's plan and scene segments for a later revision. */
export async function keepForRevision(ctx: JobContext<unknown>, kept: KeptRender): Promise<void> {
  const { spec, timeline, fps } = kept;
  const clipIdsOf = (scene: FramedScene): string[] => {
    const from = scene.startFrame / fps;
    const to = (scene.startFrame + scene.frames) / fps;
    const ids = kept.shots
      .filter((shot) => {
        const middle = shot.start + shot.duration / 2;
        return middle >= from && middle < to;
      })
      .map((shot) => shot.clipId);
    return [...new Set(ids)];
  };
  await saveRevisionPlan(
    ctx.services.store,
    ctx.job.id,
    ctx.workDir,
    spec.outputPath,
    {
      fps,
      width: spec.width!,
      height: spec.height!,
      totalFrames: Math.round(timeline.durationSec * fps),
      scenes: timeline.scenes.map((scene) => ({
        text: scene.text,
        startFrame: scene.startFrame,
        frames: scene.frames,
        pieces: scene.pieces,
        clipIds: clipIdsOf(scene),
      })),
      words: kept.words,
      narrationPath: kept.narrationPath,
      voice: kept.voice,
      captions: {
        ...kept.captions,
        ...(spec.ass?.fontsDir ? { fontsDir: spec.ass.fontsDir } : {}),
      },
      music: kept.music,
      niche: kept.niche,
      ...(spec.logo ? { logo: spec.logo.path } : {}),
      ...(spec.watermark ? { watermark: spec.watermark.text } : {}),
      ...(spec.progressBar ? { progressBar: spec.progressBar } : {}),
      renderPreset: kept.renderPreset,
      artifacts: kept.artifacts,
    },
    ctx.signal,
  );
}
