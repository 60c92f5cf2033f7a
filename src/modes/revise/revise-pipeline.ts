// A scene-level revision (docs/revision.md): the source job's plan with the requested changes. Changed lines are
// narrated again and spliced into the narration; scenes whose line, footage or captions changed are rendered
// again as segments; the others are the source's segments as they are. The segments are joined by stream copy
// under the whole audio, remixed (narration, music, ducking, loudness) for the new timeline.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildAss } from '../../media/captions/build-ass.ts';
import { captionStyleFromRequest, type CaptionRequest } from '../../media/captions/caption-presets.ts';
import type { ComposeScene, ComposeSpec } from '../../media/compose/compose-spec.ts';
import { renderComposition } from '../../media/compose/render-composition.ts';
import { cutSegments, joinSegments, refitScene, windowAss } from '../../media/compose/scene-segments.ts';
import { extractPoster } from '../../media/ffmpeg/measure.ts';
import { probeMedia } from '../../media/ffmpeg/probe.ts';
import { runFfmpeg } from '../../media/ffmpeg/runner.ts';
import { captionFontsDir } from '../../media/fonts/caption-fonts-dir.ts';
import { findShippedFontFamily } from '../../media/fonts/font-catalogue.ts';
import type { Niche } from '../../media/footage/niches.ts';
import { FootageSelectionError, selectFootage } from '../../media/footage/select.ts';
import type { LibraryClipFile, MusicBedFile, StockLibrary } from '../../media/library/stock-library.ts';
import { toSrt } from '../../media/subtitles/srt.ts';
import type { WordTiming } from '../../media/types.ts';
import { applyTempo } from '../../media/voice/apply-tempo.ts';
import { fitToDuration, MAX_TEMPO } from '../../media/voice/fit-to-duration.ts';
import type { Narrator } from '../../media/voice/narrator.ts';
import { JobFailure } from '../../platform/errors.ts';
import type { JobContext, JobOutput } from '../../platform/modes/mode.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import { loopShortScenes } from '../../media/quality/gated-render.ts';
import { libraryClipFacts, renderHeldToGate, videoProvenance } from '../shared/quality-stage.ts';
import { composedVideoFiles, type FootageShotArtifact } from '../shared/stock-engine.ts';
import type { ReviseRequest, SceneChange } from './revise-request.ts';
import { localFile, readRevisionPlan, saveRevisionPlan, type RevisionPlan } from './revision-plan.ts';

export interface ReviseDeps {
  narrator: Narrator;
  library: StockLibrary;
}

const FONTS_DIR = '/usr/share/fonts/truetype';
/** The least and most pause kept after a new line before the next scene (the most: the engine's tail). */
const MIN_TRAILING_SEC = 0.15;
const MAX_TRAILING_SEC = 0.8;

/** One scene of the revised video. */
interface WorkingScene {
  text: string;
  /** The source's scene: where it was, for its narration and segment. */
  source: RevisionPlan['scenes'][number];
  frames: number;
  startFrame: number;
  pieces: ComposeScene[];
  clipIds: string[];
  /** Words relative to the scene's start. */
  words: WordTiming[];
  /** A new line's narration, placed `lead` seconds into the scene. */
  line?: { path: string; lead: number };
  shots?: FootageShotArtifact[];
  /** Why the scene's picture is rendered again; empty when the source's segment is reused. */
  reasons: string[];
}

const middle = (w: { start: number; end: number }) => (w.start + w.end) / 2;

function failure(code: string, message: string): JobFailure {
  return new JobFailure({ code, category: 'input', message, retryable: false });
}

/** Footage pieces playing `clip` from its start for `seconds`, looping it when it is shorter. */
function clipPieces(clip: Pick<LibraryClipFile, 'path' | 'durationSec'>, inPoint: number, seconds: number) {
  const pieces: ComposeScene[] = [];
  let remaining = seconds;
  let at = inPoint;
  while (remaining > 0.01) {
    const piece = Math.min(remaining, Math.max(0.1, clip.durationSec - at));
    pieces.push({ path: clip.path, inPoint: at, duration: piece });
    remaining -= piece;
    at = 0;
  }
  return pieces;
}

export async function runRevision(ctx: JobContext<ReviseRequest>, deps: ReviseDeps): Promise<JobOutput> {
  const { request, workDir, signal, services } = ctx;
  const { store } = services;
  await ctx.progress('plan', 5, 'Reading the video to revise.');
  const plan = await readRevisionPlan(store, request.source_job_id, signal);
  if (!plan)
    throw failure('REVISION_SOURCE_GONE', `Job ${request.source_job_id} no longer has its scene segments.`);
  const { fps } = plan;
  const changes = new Map<number, SceneChange>(request.scenes.map((c) => [c.index, c]));
  const unknown = request.scenes.find((c) => c.index >= plan.scenes.length);
  if (unknown) throw failure('INPUT_INVALID', `The video has no scene ${unknown.index}.`);

  const scenes: WorkingScene[] = plan.scenes.map((source) => {
    const from = source.startFrame / fps;
    const to = (source.startFrame + source.frames) / fps;
    const words = plan.words
      .filter((w) => middle(w) >= from && middle(w) < to)
      .map((w) => ({ ...w, start: w.start - from, end: w.end - from }));
    return {
      text: source.text,
      source,
      frames: source.frames,
      startFrame: source.startFrame,
      pieces: source.pieces,
      clipIds: source.clipIds,
      words,
      reasons: [],
    };
  });

  await ctx.progress('voice', 15, 'Narrating the changed lines.');
  for (const [index, change] of changes) {
    if (change.script_line === undefined) continue;
    const scene = scenes[index]!;
    const speech = await deps.narrator.synthesize({
      text: change.script_line,
      voiceId: plan.voice.voiceId,
      ...(plan.voice.gender ? { gender: plan.voice.gender } : {}),
      language: plan.voice.language,
      speed: plan.voice.speed,
      outPath: join(workDir, `line-${index}.wav`),
      signal,
    });
    // The same tempo as the rest of the narration, so the new line sounds like its neighbours.
    const fitted = fitToDuration({
      targetSec: speech.durationSec / plan.voice.tempo,
      durationSec: speech.durationSec,
      words: speech.words,
      maxTempo: MAX_TEMPO,
    });
    const line = await applyTempo(speech, fitted, join(workDir, `line-${index}-tempo.wav`), signal);
    const lead = Math.max(0, scene.words[0]?.start ?? 0);
    const lastEnd = scene.words[scene.words.length - 1]?.end ?? lead;
    // The pause after the line as it was, but never the padding that made a short video its requested length.
    const trailing = Math.min(MAX_TRAILING_SEC, Math.max(MIN_TRAILING_SEC, scene.frames / fps - lastEnd));
    // A shorter line keeps the scene's length (a longer pause follows); a longer one lengthens the scene.
    const needed = Math.ceil((lead + line.durationSec + trailing) * fps - 1e-6);
    scene.frames = Math.max(scene.frames, needed);
    scene.text = change.script_line;
    scene.words = line.words.map((w) => ({ ...w, start: w.start + lead, end: w.end + lead }));
    scene.line = { path: line.audioPath, lead };
    scene.reasons.push('script_line');
  }

  await ctx.progress('footage', 30, 'Choosing the new footage.');
  const needsLibrary = request.scenes.some((c) => c.clip_id !== undefined || c.footage_keywords);
  const clips = needsLibrary ? await deps.library.readyClips() : [];
  for (const [index, scene] of scenes.entries()) {
    const change = changes.get(index);
    const seconds = scene.frames / fps;
    if (change?.clip_id !== undefined) {
      const clip = clips.find((c) => c.id === change.clip_id);
      if (!clip) throw failure('INPUT_INVALID', `scenes: clip ${change.clip_id} is not in the library.`);
      scene.pieces = clipPieces(clip, 0, seconds);
      scene.clipIds = [clip.id];
      scene.shots = [
        {
          start: 0,
          duration: seconds,
          clipId: clip.id,
          matched: [],
          sentence: scene.text,
          matched_terms: [],
          score: null,
        },
      ];
      scene.reasons.push('clip_id');
    } else if (change?.footage_keywords) {
      let selection;
      try {
        selection = selectFootage({
          scenes: [{ index: 0, text: scene.text, start: 0, end: seconds }],
          niche: plan.niche as Niche,
          footageKeywords: change.footage_keywords,
          excludeKeywords: [],
          clips,
          seed: `${ctx.job.id}:${index}`,
        });
      } catch (error) {
        if (!(error instanceof FootageSelectionError)) throw error;
        throw failure('FOOTAGE_UNAVAILABLE', error.message);
      }
      const byId = new Map(clips.map((c) => [c.id, c]));
      scene.pieces = selection.shots.flatMap((shot) =>
        clipPieces(byId.get(shot.clipId)!, shot.inPoint, shot.duration),
      );
      scene.clipIds = [...new Set(selection.shots.map((s) => s.clipId))];
      scene.shots = selection.shots.map((s) => ({
        start: s.start,
        duration: s.duration,
        clipId: s.clipId,
        matched: s.matched,
        sentence: s.sentence,
        matched_terms: s.matchedTerms,
        score: s.score,
      }));
      scene.reasons.push('footage_keywords');
    } else if (scene.frames !== scene.source.frames) {
      scene.pieces = refitScene(scene.source, scene.frames, fps);
    }
    if (scene.pieces.length === 0) throw failure('FOOTAGE_UNAVAILABLE', `Scene ${index} has no footage.`);
  }

  let at = 0;
  for (const scene of scenes) {
    scene.startFrame = at;
    at += scene.frames;
  }
  const totalFrames = at;
  const totalSec = totalFrames / fps;
  const words = scenes.flatMap((s) =>
    s.words.map((w) => ({ ...w, start: w.start + s.startFrame / fps, end: w.end + s.startFrame / fps })),
  );

  const captionRequest: CaptionRequest = { ...plan.captions.request };
  if (request.caption_style) {
    const { preset, ...rest } = request.caption_style;
    Object.assign(captionRequest, rest, preset ? { style: preset } : {});
  }
  const captionStyle = captionStyleFromRequest(captionRequest, plan.captions.font);
  const timingMoved = totalFrames !== plan.totalFrames;
  for (const scene of scenes) {
    if (request.caption_style) scene.reasons.push('caption_style');
    // The bar is drawn against the whole length: when that changes, every scene's bar moves.
    if (plan.progressBar && timingMoved && scene.reasons.length === 0) scene.reasons.push('progress_bar');
  }

  let assText: string | undefined;
  let fontsDir: string | undefined;
  if (captionStyle) {
    assText = buildAss(words, captionStyle, { width: plan.width, height: plan.height });
    fontsDir =
      plan.captions.fontsDir ??
      (findShippedFontFamily(captionStyle.fontFamily)
        ? await captionFontsDir(join(services.config.dataDir, 'cache'))
        : FONTS_DIR);
  }
  const logo = plan.logo ? await localFile(store, plan.logo, signal) : undefined;

  const rendered = scenes.filter((s) => s.reasons.length > 0);
  // Scenes drawn again side by side are drawn as one stretch (one render, a closed GOP at each scene start) and
  // cut into their segments, like the source render was.
  const stretches: number[][] = [];
  for (const [index, scene] of scenes.entries()) {
    if (scene.reasons.length === 0) continue;
    const last = stretches[stretches.length - 1];
    if (last && last[last.length - 1] === index - 1) last.push(index);
    else stretches.push([index]);
  }
  const segments: string[] = [];
  for (const [index, scene] of scenes.entries())
    if (scene.reasons.length === 0)
      segments[index] = await localFile(store, `store:${scene.source.segment}`, signal);
  let done = 0;
  for (const [n, stretch] of stretches.entries()) {
    await ctx.progress(
      'compose',
      40 + Math.floor((done / rendered.length) * 40),
      stretch.length === 1
        ? `Rendering scene ${stretch[0]! + 1} again.`
        : `Rendering scenes ${stretch[0]! + 1}–${stretch[stretch.length - 1]! + 1} again.`,
    );
    const own = stretch.map((i) => scenes[i]!);
    const first = own[0]!.startFrame;
    const from = first / fps;
    const seconds = own.reduce((sum, s) => sum + s.frames, 0) / fps;
    const pieces: ComposeScene[] = [];
    for (const piece of own.flatMap((s) => s.pieces))
      pieces.push({ ...piece, path: await localFile(store, piece.path, signal) });
    let ass: ComposeSpec['ass'];
    if (assText) {
      const path = join(workDir, `captions-${n}.ass`);
      await writeFile(path, windowAss(assText, from, from + seconds));
      ass = { path, ...(fontsDir ? { fontsDir } : {}) };
    }
    const starts = own.map((s) => ({ startFrame: s.startFrame - first }));
    const full = join(workDir, `stretch-${n}.mp4`);
    // A scene that grew past the end of its footage loops it rather than holding its last frame (a frozen
    // stretch the quality gate would refuse).
    const stretchSpec = await loopShortScenes(
      {
        outputPath: full,
        width: plan.width,
        height: plan.height,
        fps,
        durationSec: seconds,
        scenes: pieces,
        ...(ass ? { ass } : {}),
        ...(logo ? { logo: { path: logo } } : {}),
        ...(plan.watermark ? { watermark: { text: plan.watermark } } : {}),
        ...(plan.progressBar
          ? { progressBar: { ...plan.progressBar, timeline: { offsetSec: from, totalSec } } }
          : {}),
        encoding: { preset: plan.renderPreset, keyframeFrames: starts.slice(1).map((s) => s.startFrame) },
      },
      signal,
    );
    await renderComposition(stretchSpec, { signal });
    const dir = join(workDir, `stretch-${n}`);
    await mkdir(dir, { recursive: true });
    const cut = await cutSegments(full, starts, dir, { signal });
    stretch.forEach((index, k) => (segments[index] = cut[k]!));
    done += stretch.length;
  }

  await ctx.progress('audio', 82, 'Mixing the sound.');
  const narrationPath = await reviseNarration(plan, scenes, workDir, store, signal);
  const musicOptions = { enabled: plan.music.enabled, volume: plan.music.volume, ...request.music };
  let music: MusicBedFile | undefined;
  if (musicOptions.enabled) {
    music =
      (request.music && 'track' in request.music && request.music.track === 'new') || !plan.music.file
        ? await deps.library.musicFor(plan.niche as Niche, ctx.job.id, signal)
        : await localMusic(plan.music.file, store, signal);
  }
  const output = join(workDir, 'video.mp4');
  let assPath: string | undefined;
  if (assText) {
    assPath = join(workDir, 'captions.ass');
    await writeFile(assPath, assText);
  }
  const sound = {
    narration: { path: narrationPath },
    ...(music ? { music: { path: music.path, bed: music.bed, volume: musicOptions.volume } } : {}),
  };
  // The whole video as one composition: what the joined delivery is measured against, and what is rendered
  // in full (keyframes at the scene starts, so it is cut into segments again) when the delivery fails its gate.
  const whole: ComposeSpec = {
    outputPath: output,
    width: plan.width,
    height: plan.height,
    fps,
    durationSec: totalSec,
    scenes: scenes.flatMap((s) => s.pieces),
    ...sound,
    ...(assPath ? { ass: { path: assPath, ...(fontsDir ? { fontsDir } : {}) } } : {}),
    ...(logo ? { logo: { path: logo } } : {}),
    ...(plan.watermark ? { watermark: { text: plan.watermark } } : {}),
    ...(plan.progressBar ? { progressBar: plan.progressBar } : {}),
    encoding: {
      preset: plan.renderPreset,
      keyframeFrames: scenes.slice(1).map((s) => s.startFrame),
    },
  };
  const { quality } = await renderHeldToGate(ctx, {
    spec: whole,
    narrationWords: words,
    render: { signal },
    firstRender: async () => {
      await joinSegments(
        segments,
        {
          outputPath: output,
          width: plan.width,
          height: plan.height,
          fps,
          durationSec: totalSec,
          scenes: [{ path: segments[0]!, inPoint: 0, duration: totalSec }],
          ...sound,
          encoding: { preset: plan.renderPreset },
        },
        workDir,
        { signal },
      );
      return { outputPath: output, mixLoudness: null, gain: null };
    },
    rerenderSpec: async (spec) => {
      const pieces: ComposeScene[] = [];
      for (const piece of spec.scenes)
        pieces.push({ ...piece, path: await localFile(store, piece.path, signal) });
      return { ...spec, scenes: pieces };
    },
  });
  // A full re-render replaced the joined segments: the plan's segments are cut from it instead.
  const rerendered = quality.attempts > 1;
  const provenance = await videoProvenance(ctx, {
    spec: whole,
    scenes: await libraryClipFacts(
      deps.library,
      scenes.flatMap((s) => s.clipIds),
    ),
    ...(music ? { music } : {}),
    voiceId: plan.voice.voiceId,
    words,
    ...(captionStyle ? { captionFont: captionStyle.fontFamily } : {}),
    captionBox: quality.checks.safe_zone.caption_box,
  });

  await ctx.progress('poster', 92, 'Making the poster image.');
  const poster = join(workDir, 'poster.jpg');
  await extractPoster(output, poster, Math.min(1.5, totalSec / 3));
  const probed = await probeMedia(output);
  const srt = join(workDir, 'captions.srt');
  await writeFile(srt, toSrt(words));

  const artifacts = {
    ...plan.artifacts,
    script: scenes.map((s) => s.text).join(' '),
    durationSec: Math.round(probed.durationSec * 100) / 100,
    footage: {
      ...(plan.artifacts.footage as Record<string, unknown> | undefined),
      shots: footageShots(plan, scenes, fps),
    },
    ...(music ? { music: { id: music.id, title: music.title } } : {}),
    revision: {
      source_job_id: request.source_job_id,
      scenes: scenes.map((s, index) => ({
        index,
        text: s.text,
        start: Math.round((s.startFrame / fps) * 1000) / 1000,
        duration: Math.round((s.frames / fps) * 1000) / 1000,
        segment: s.reasons.length > 0 ? 'rendered' : 'reused',
        ...(s.reasons.length > 0 ? { reasons: s.reasons } : {}),
      })),
      rendered_scenes: rendered.length,
      reused_scenes: scenes.length - rendered.length,
      audio: 'remixed',
    },
  };
  if (!musicOptions.enabled) delete (artifacts as Record<string, unknown>).music;

  // This video can be revised in turn: its plan and segments are kept like any render's.
  await saveRevisionPlan(
    store,
    ctx.job.id,
    workDir,
    output,
    {
      fps,
      width: plan.width,
      height: plan.height,
      totalFrames,
      scenes: scenes.map((s, i) => ({
        text: s.text,
        startFrame: s.startFrame,
        frames: s.frames,
        pieces: s.pieces,
        clipIds: s.clipIds,
        ...(rerendered ? {} : { segmentPath: segments[i]! }),
      })),
      words,
      narrationPath,
      voice: plan.voice,
      captions: { ...plan.captions, request: captionRequest, ...(fontsDir ? { fontsDir } : {}) },
      music: {
        enabled: musicOptions.enabled,
        volume: musicOptions.volume,
        ...(music ? { file: music } : {}),
      },
      niche: plan.niche,
      ...(plan.logo ? { logo: plan.logo } : {}),
      ...(plan.watermark ? { watermark: plan.watermark } : {}),
      ...(plan.progressBar ? { progressBar: plan.progressBar } : {}),
      renderPreset: plan.renderPreset,
      artifacts: { ...artifacts, revision: undefined },
    },
    signal,
  );

  return {
    artifacts: { ...artifacts, quality, provenance: provenance.manifest },
    files: composedVideoFiles({ video: output, poster, srt, manifest: provenance.file, ass: assPath }),
  };
}

async function localMusic(file: MusicBedFile, store: MediaStore, signal: AbortSignal): Promise<MusicBedFile> {
  return {
    ...file,
    path: await localFile(store, file.path, signal),
    ...(file.bed
      ? {
          bed: {
            ...file.bed,
            introPath: await localFile(store, file.bed.introPath, signal),
            outroPath: await localFile(store, file.bed.outroPath, signal),
          },
        }
      : {}),
  };
}

/**
 * The narration of the new timeline: each scene's stretch of the source narration, or its new line after the
 * scene's lead-in, padded to the scene's length. The source's track itself when no scene moved or changed.
 */
async function reviseNarration(
  plan: RevisionPlan,
  scenes: readonly WorkingScene[],
  workDir: string,
  store: MediaStore,
  signal: AbortSignal,
): Promise<string> {
  const source = await localFile(store, plan.narration, signal);
  if (scenes.every((s) => !s.line && s.frames === s.source.frames)) return source;
  const { fps } = plan;
  const inputs = ['-i', source];
  const format = 'aresample=48000,aformat=sample_fmts=s16:channel_layouts=mono';
  const filters = scenes.map((scene, i) => {
    const seconds = (scene.frames / fps).toFixed(6);
    const pad = `apad=whole_dur=${seconds},atrim=duration=${seconds}`;
    if (scene.line) {
      inputs.push('-i', scene.line.path);
      const input = inputs.filter((a) => a === '-i').length - 1;
      const delay = Math.round(scene.line.lead * 1000);
      return `[${input}:a]${format},adelay=delays=${delay}:all=1,${pad}[n${i}]`;
    }
    const from = (scene.source.startFrame / fps).toFixed(6);
    const to = ((scene.source.startFrame + scene.source.frames) / fps).toFixed(6);
    return `[0:a]atrim=start=${from}:end=${to},asetpts=PTS-STARTPTS,${format},${pad}[n${i}]`;
  });
  const labels = scenes.map((_, i) => `[n${i}]`).join('');
  filters.push(`${labels}concat=n=${scenes.length}:v=0:a=1[narration]`);
  const out = join(workDir, 'narration-revised.wav');
  await runFfmpeg(
    ['-y', ...inputs, '-filter_complex', filters.join(';'), '-map', '[narration]', '-c:a', 'pcm_s16le', out],
    { signal },
  );
  return out;
}

/** artifacts.footage.shots of the revised video: new shots where the footage changed, the source's elsewhere. */
function footageShots(
  plan: RevisionPlan,
  scenes: readonly WorkingScene[],
  fps: number,
): FootageShotArtifact[] {
  const sourceShots = (plan.artifacts.footage as { shots?: FootageShotArtifact[] } | undefined)?.shots ?? [];
  return scenes.flatMap((scene) => {
    const start = scene.startFrame / fps;
    const seconds = scene.frames / fps;
    if (scene.shots) return scene.shots.map((s) => ({ ...s, start: s.start + start }));
    const from = scene.source.startFrame / fps;
    const to = (scene.source.startFrame + scene.source.frames) / fps;
    const scale = seconds / (to - from);
    return sourceShots
      .filter(
        (s) =>
          middle({ start: s.start, end: s.start + s.duration }) >= from &&
          middle({ start: s.start, end: s.start + s.duration }) < to,
      )
      .map((s) => ({
        ...s,
        start: Math.round((start + (s.start - from) * scale) * 100) / 100,
        duration: Math.round(s.duration * scale * 100) / 100,
        sentence: scene.text,
      }));
  });
}
