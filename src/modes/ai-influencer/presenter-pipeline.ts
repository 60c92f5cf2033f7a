import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildAss } from '../../media/captions/build-ass.ts';
import { highlightPreset } from '../../media/captions/caption-presets.ts';
import type { CaptionStyle } from '../../media/captions/caption-style.ts';
import { captionFontsDir } from '../../media/fonts/caption-fonts-dir.ts';
import { findShippedFontFamily } from '../../media/fonts/font-catalogue.ts';
import { outputSize } from '../../media/clips/reframe.ts';
import { videoFileSource, type FilterSource } from '../../media/compose/filter-source.ts';
import type { AssetFacts } from '../../media/provenance/provenance.ts';
import type { QualityArtifact } from '../../media/quality/gated-render.ts';
import { FULL_POLICY } from '../../media/quality/quality-gate.ts';
import type { ComposeMusicBed, ComposeScene, ComposeSpec } from '../../media/compose/compose-spec.ts';
import { extractPoster } from '../../media/ffmpeg/measure.ts';
import { probeMedia } from '../../media/ffmpeg/probe.ts';
import { scriptArtifacts } from '../../media/script/writer.ts';
import { DEFAULT_NICHE, inferNiche, type Niche } from '../../media/footage/niches.ts';
import {
  presenterLayoutGeometry,
  type PresenterLayoutGeometry,
} from '../../media/layouts/presenter-layout.ts';
import { toSrt } from '../../media/subtitles/srt.ts';
import { prepareTalkingHead } from '../../media/talking-head/index.ts';
import { JobFailure } from '../../platform/errors.ts';
import type { JobContext, JobOutput } from '../../platform/modes/mode.ts';
import { loadPersonaForRender } from '../../presenters/personas/index.ts';
import type { ContentToCheck, ContentVerdict } from '../../presenters/safety/content-check.ts';
import {
  talkingPhotoJobFailure,
  TalkingPhotoError,
  type TalkingPhotoJob,
} from '../../providers/avatars/talking-photo.ts';
import type { AvatarProviders } from '../../providers/avatars/avatar-providers.ts';
import type { ImageModel } from '../../providers/image-models/image-model.ts';
import { STILL_PRICE_CENTS } from '../../platform/pricing/presenter-price.ts';
import type { Branding } from '../shared/kit-branding.ts';
import { videoLanguage } from '../shared/kit-branding.ts';
import { libraryClipFacts, renderHeldToGate, videoProvenance } from '../shared/quality-stage.ts';
import {
  downloadLogo,
  footageStage,
  scriptStage,
  sentenceScenes,
  voiceStage,
  type FootageStage,
  type NarrationFields,
  type ScriptStage,
  type StockEngineDeps,
  type VoiceStage,
} from '../shared/stock-engine.ts';
import {
  BrollGenerationError,
  brollTimeline,
  generateStills,
  placeEndToEnd,
  planBroll,
  stillShape,
  type BrollSentence,
  type GeneratedStillRecord,
  type PlacedScene,
} from './generated-broll.ts';
import { releaseIdleVision } from '../../media/vision/index.ts';
import { pricedStills, type PresenterLayout, type PresenterRequest } from './presenter-request.ts';

// A presenter video: the script (sent, or written hook-first from the topic and checked), the narration, the
// presenter (the local talking-head engine, a hosted talking-photo engine, or the logo host), B-roll per
// sentence for presenter_broll (library footage, AI stills moved by the local motion engine, or both in turn),
// then one compose per layout with captions, music, logo and outro. A layout that cannot render falls back
// creator → split → cutaway → talking head at the same price; B-roll that cannot be found or generated
// delivers the talking head with captions, music and logo (stills priced and not made are refunded).

/** The content-safety check with the service's moderation client (if any) bound in. */
export interface ContentChecker {
  check(input: ContentToCheck, signal?: AbortSignal): Promise<ContentVerdict>;
}

export interface PresenterDeps extends StockEngineDeps {
  avatarProviders: AvatarProviders;
  content: ContentChecker;
  /** The hosted image model of generated B-roll, when one is configured. */
  imageModel?: ImageModel;
}

/** The narration ends this long before the timeline does. */
const TAIL_SEC = 0.6;
const FPS = 30;
/** The file fetchPhoto saves a photo-only presenter (image_url) as, in the staging folder that becomes workDir. */
const PRESENTER_PHOTO_FILE = 'source-photo';
const PROVIDER_RENDER_FILE = 'presenter-render.json';

const FALLBACK: Record<PresenterLayout, PresenterLayout | null> = {
  creator: 'split',
  split: 'cutaway',
  cutaway: 'talking_head',
  talking_head: null,
};

function narrationFields(request: PresenterRequest, branding: Branding, language: string): NarrationFields {
  return {
    brief: request.topic ?? request.script ?? '',
    ...(request.topic ? { topic: request.topic } : {}),
    ...(request.instructions ? { prompt: request.instructions } : {}),
    ...(request.script ? { script: request.script } : {}),
    ...(request.content_purpose ? { contentPurpose: request.content_purpose } : {}),
    ...(request.content_style ? { contentStyle: request.content_style } : {}),
    durationSec: request.duration_sec ?? Math.max(15, Math.round(request.speech_sec)),
    voiceSpeed: request.speed,
    includeHook: request.topic !== undefined,
    language,
    ...(request.voice_id ? { voiceId: request.voice_id } : {}),
    ...(request.voice_gender ? { voiceGender: request.voice_gender } : {}),
    platforms: [],
    ...(request.variant ? { take: { index: request.variant.index, count: request.variant.count } } : {}),
    ...(branding.brand ? { brand: branding.brand } : {}),
    ...(branding.brandContext ? { brandContext: branding.brandContext } : {}),
  };
}

/** Cut-away stretches on sentence boundaries covering about `coverage` of the time; the first sentence (the hook) stays on the presenter. */
export function cutawayIntervals(
  sentences: { start: number; end: number }[],
  videoSec: number,
  coverage: number,
): [number, number][] {
  const target = coverage * videoSec;
  const candidates = sentences.slice(1).filter((s) => s.end - s.start >= 1);
  // Every other sentence first (presenter and B-roll alternate), then the rest while under the target.
  const order = [...candidates.filter((_, i) => i % 2 === 0), ...candidates.filter((_, i) => i % 2 === 1)];
  const chosen: { start: number; end: number }[] = [];
  let covered = 0;
  for (const sentence of order) {
    if (covered >= target) break;
    chosen.push(sentence);
    covered += sentence.end - sentence.start;
  }
  chosen.sort((a, b) => a.start - b.start);
  const merged: [number, number][] = [];
  for (const { start, end } of chosen) {
    const last = merged.at(-1);
    if (last && start - last[1] < 0.05) last[1] = end;
    else merged.push([start, end]);
  }
  return merged;
}

/** The B-roll scene showing at each cut-away interval, cut to the interval's length. */
function cutawayScenes(placed: PlacedScene[], intervals: [number, number][]): ComposeScene[] {
  return intervals.map(([start, end]) => {
    const covering = placed.findLast((p) => p.start <= start + 1e-6) ?? placed[0]!;
    const inPoint = covering.scene.inPoint + (start - covering.start);
    return { ...covering.scene, inPoint, duration: end - start, hasAudio: false };
  });
}

function captionStyleFor(
  request: PresenterRequest,
  geometry: PresenterLayoutGeometry,
  branding: Branding,
): CaptionStyle {
  const accent = branding.brand?.accent_color ?? branding.brand?.primary_color;
  const base = highlightPreset(accent ? { highlight_color: accent } : {}, branding.captionFont);
  const onBand = { ...base, seamY: geometry.captions.centerY };
  if (request.caption_style === 'karaoke')
    return { ...onBand, animation: 'karaoke', chunking: { ...base.chunking, maxWords: 4, maxChars: 28 } };
  // Seam: short bold chunks on a box that straddles the seam between B-roll and presenter.
  return { ...onBand, border: 'box', outlineColor: '#000000', outlineOpacity: 0.75, shadowDepth: 0 };
}

/** Where the face sits in the presenter's box, by how the layout draws it. */
function faceFraming(geometry: PresenterLayoutGeometry): {
  faceCenter?: { x: number; y: number };
  faceHeight?: number;
} {
  if (geometry.style === 'cutout') return { faceCenter: { x: 0.5, y: 0.32 }, faceHeight: 0.3 };
  if (geometry.style === 'bubble') return { faceCenter: { x: 0.5, y: 0.46 }, faceHeight: 0.42 };
  return {};
}

function nearestAspect(width: number, height: number): TalkingPhotoJob['aspectRatio'] {
  const ratio = width / height;
  if (ratio < 0.8) return '9:16';
  if (ratio > 1.25) return '16:9';
  return '1:1';
}

interface PresenterSource {
  source?: FilterSource;
  lookId?: string;
  providerJobId?: string;
}

async function hostedPresenter(
  ctx: JobContext<PresenterRequest>,
  deps: PresenterDeps,
  photoPath: string,
  faceBox: TalkingPhotoJob['faceBox'] | undefined,
  voice: VoiceStage,
  geometry: PresenterLayoutGeometry,
): Promise<PresenterSource> {
  const engine = ctx.request.engine as 'avatar_iv' | 'avatar_v';
  const provider = deps.avatarProviders[engine];
  if (!provider)
    throw new JobFailure({
      code: 'ENGINE_NOT_SUPPORTED',
      category: 'input',
      message: `${engine} is no longer configured on this service`,
      retryable: false,
    });
  const record = join(ctx.workDir, PROVIDER_RENDER_FILE);
  const resumeJobId = existsSync(record)
    ? (JSON.parse(await readFile(record, 'utf8')) as { providerJobId: string }).providerJobId
    : undefined;
  await ctx.progress('presenter', 35, `Rendering the presenter on ${provider.name}.`);
  const workDir = join(ctx.workDir, 'hosted-presenter');
  await mkdir(workDir, { recursive: true });
  let rendered;
  try {
    rendered = await provider.render(
      {
        photoPath,
        audioPath: voice.audioPath,
        aspectRatio: nearestAspect(geometry.presenter.width, geometry.presenter.height),
        ...(faceBox ? { faceBox } : {}),
      },
      {
        workDir,
        signal: ctx.signal,
        log: ctx.log,
        ...(resumeJobId ? { resumeJobId } : {}),
        onSubmitted: (providerJobId) => writeFile(record, JSON.stringify({ providerJobId })),
        onProgress: (fraction) =>
          void ctx.progress('presenter', 35 + Math.floor(fraction * 25), 'Rendering the presenter.'),
      },
    );
  } catch (error) {
    if (error instanceof TalkingPhotoError) throw talkingPhotoJobFailure(error);
    throw error;
  }
  const source = await videoFileSource(rendered.videoPath, {
    width: geometry.presenter.width,
    height: geometry.presenter.height,
    fps: FPS,
  });
  return { source, providerJobId: rendered.providerJobId };
}

async function presenterSource(
  ctx: JobContext<PresenterRequest>,
  deps: PresenterDeps,
  voice: VoiceStage,
  geometry: PresenterLayoutGeometry,
): Promise<PresenterSource> {
  const r = ctx.request;
  const { services } = ctx;
  if (!r.engine) return {};
  if (!r.avatar_id) {
    // A photo-only presenter renders on avatar_iv; the photo was fetched and checked while validating.
    const photo = r.photo_path ?? join(ctx.workDir, PRESENTER_PHOTO_FILE);
    return hostedPresenter(ctx, deps, photo, undefined, voice, geometry);
  }
  const persona = await loadPersonaForRender(services.db, services.store, ctx.job.accountId, r.avatar_id);
  if (r.engine !== 'avatar_iii') {
    const { x, y, width, height } = persona.face.box;
    const box = { left: x, top: y, width, height };
    return {
      lookId: persona.lookId,
      ...(await hostedPresenter(ctx, deps, persona.photoPath, box, voice, geometry)),
    };
  }
  await ctx.progress('presenter', 35, 'Animating the presenter.');
  const source = await prepareTalkingHead(
    {
      photoPath: persona.photoPath,
      face: persona.face,
      words: voice.words,
      durationSec: voice.videoSec,
      workDir: join(ctx.workDir, 'talking-head'),
      seed: ctx.job.id,
      signal: ctx.signal,
      ...(geometry.style === 'cutout' && persona.personMaskPath
        ? { personMask: persona.personMaskPath }
        : {}),
    },
    {
      width: geometry.presenter.width,
      height: geometry.presenter.height,
      fps: FPS,
      ...faceFraming(geometry),
    },
  );
  return { source, lookId: persona.lookId };
}

async function hostLogo(
  ctx: JobContext<PresenterRequest>,
  logoPath: string | undefined,
): Promise<string | undefined> {
  const host = ctx.request.host;
  if (host.type === 'logo' && host.logo_url) return downloadLogo(ctx, host.logo_url);
  return logoPath;
}

/** The B-roll of a presenter_broll video: its timeline, its shots as artifacts list them, and its AI stills. */
interface BrollStage {
  niche: Niche;
  scenes: PlacedScene[];
  shots: Record<string, unknown>[];
  warnings: string[];
  /** AI stills on the timeline. */
  stills: number;
  /** Where each AI still's file came from, for the provenance manifest. */
  stillSources: { path: string; facts: AssetFacts }[];
}

async function brollStage(
  ctx: JobContext<PresenterRequest>,
  deps: PresenterDeps,
  branding: Branding,
  script: ScriptStage,
  voice: VoiceStage,
): Promise<BrollStage> {
  const r = ctx.request;
  const footageFor = () =>
    footageStage(
      ctx,
      {
        brief: r.topic ?? script.script,
        ...(branding.brand ? { brand: branding.brand } : {}),
        ...(r.broll.clip_type ? { clipType: r.broll.clip_type } : {}),
        assetUrls: [],
        footageKeywords: r.broll.footage_keywords,
        excludeKeywords: r.broll.exclude_keywords,
      },
      deps,
      script.sentences,
      voice,
    );
  if (r.broll.visuals === 'stock') {
    const footage = await footageFor();
    return {
      niche: footage.niche,
      scenes: placeEndToEnd(footage.scenes),
      shots: footage.shots.map((shot) => ({ ...shot, source: { kind: 'stock', clip_id: shot.clipId } })),
      warnings: footage.warnings,
      stills: 0,
      stillSources: [],
    };
  }
  const sentences = planBroll({
    scenes: sentenceScenes(script.sentences, voice.words, voice.videoSec),
    layout: r.layout,
    visuals: r.broll.visuals,
    cutaways:
      r.layout === 'cutaway'
        ? cutawayIntervals(sentenceSpans(script.sentences, voice), voice.videoSec, r.broll.coverage)
        : [],
    maxStills: pricedStills(r),
  });
  // Footage first: without it the video is a talking head, and no still need be paid for.
  const footage = sentences.some((s) => s.source === 'stock') ? await footageFor() : undefined;
  let stills: GeneratedStillRecord[] = [];
  if (sentences.some((s) => s.source === 'generated')) {
    if (!deps.imageModel)
      throw new BrollGenerationError('no image model is configured (IMAGE_MODEL_API_KEY)', 'unconfigured');
    const frame = outputSize(r.aspect_ratio);
    const region =
      presenterLayoutGeometry({ layout: r.layout, ...frame, presenter: 'opaque' }).broll ?? frame;
    stills = await generateStills(ctx, {
      model: deps.imageModel,
      sentences,
      ...(r.topic ? { topic: r.topic } : {}),
      script: script.script,
      ...(branding.brand ? { brand: branding.brand } : {}),
      shape: stillShape(region),
    });
  }
  const niche =
    footage?.niche ??
    r.broll.clip_type ??
    inferNiche({
      industry: branding.brand?.industry,
      keywords: branding.brand?.keywords,
      brief: `${r.topic ?? ''} ${script.script}`,
    }).niche;
  return {
    niche,
    scenes: brollTimeline({
      sentences,
      stills,
      footage: placeEndToEnd(footage?.scenes ?? []),
      seed: ctx.job.id,
    }),
    shots: brollShots(sentences, stills, footage?.shots ?? []),
    warnings: footage?.warnings ?? [],
    stills: stills.length,
    stillSources: stills.map((still) => ({
      path: still.path,
      facts: {
        id: `still-${still.sentence + 1}`,
        source: {
          type: 'provider',
          provider: still.provider,
          provider_id: still.requestId ?? '',
          url: null,
        },
        licence: `generated by ${still.provider} (${still.model}) under its terms`,
      },
    })),
  };
}

/** Each B-roll sentence's shots: its AI still, or the library clips its slice of the footage shows. */
function brollShots(
  sentences: BrollSentence[],
  stills: GeneratedStillRecord[],
  footage: FootageStage['shots'],
): Record<string, unknown>[] {
  const byIndex = new Map(stills.map((still) => [still.sentence, still]));
  return sentences.flatMap((sentence): Record<string, unknown>[] => {
    const still = byIndex.get(sentence.index);
    if (still)
      return [
        {
          start: sentence.start,
          duration: sentence.end - sentence.start,
          source: {
            kind: 'generated',
            provider: still.provider,
            model: still.model,
            prompt: still.prompt,
            size: still.size,
            provider_request_id: still.requestId,
          },
        },
      ];
    return footage.flatMap((shot) => {
      const from = Math.max(sentence.start, shot.start);
      const to = Math.min(sentence.end, shot.start + shot.duration);
      if (to - from < 0.01) return [];
      return [{ ...shot, start: from, duration: to - from, source: { kind: 'stock', clip_id: shot.clipId } }];
    });
  });
}

/** Where each B-roll file came from: library footage, or an image model's still. */
async function brollFacts(
  deps: PresenterDeps,
  broll: BrollStage | undefined,
): Promise<Map<string, AssetFacts>> {
  if (!broll) return new Map();
  const clipIds = broll.shots.flatMap((shot) => {
    const source = shot.source as { kind?: string; clip_id?: string } | undefined;
    return source?.kind === 'stock' && source.clip_id ? [source.clip_id] : [];
  });
  const facts = await libraryClipFacts(deps.library, clipIds);
  for (const still of broll.stillSources) facts.set(still.path, { kind: 'image', ...still.facts });
  return facts;
}

/** Who stands in the presenter's box: the brand's logo, a hosted engine's video, or the persona's photo. */
function presenterFacts(r: PresenterRequest, presenter: PresenterSource | undefined): AssetFacts {
  if (r.host.type === 'logo')
    return {
      id: 'logo_host',
      source: { type: 'customer_file', description: "the brand's logo" },
      licence: 'supplied by the caller',
    };
  if (presenter?.providerJobId)
    return {
      id: r.avatar_id ?? 'photo',
      source: { type: 'provider', provider: r.priced_as, provider_id: presenter.providerJobId, url: null },
      licence: `rendered by the ${r.priced_as} engine's provider under its terms from the caller's photo`,
    };
  return {
    id: r.avatar_id ?? 'photo',
    source: {
      type: 'customer_file',
      description: 'the persona photo, animated by the local talking-head engine',
    },
    licence: 'supplied by the caller',
  };
}

/** Why the B-roll could not be made, for a failure that delivers the talking head; other failures go on. */
function brollFailureReason(error: unknown): string {
  if (error instanceof BrollGenerationError) return error.message;
  if (error instanceof JobFailure && error.jobError.code === 'FOOTAGE_UNAVAILABLE')
    return error.jobError.message;
  throw error;
}

/** The AI stills priced against those the delivered video shows: the rest are refunded at completion. */
function stillsAccount(
  request: PresenterRequest,
  broll: BrollStage | undefined,
  layout: PresenterLayout,
  fallbacks: { reason: string }[],
) {
  const priced = pricedStills(request);
  if (priced === 0) return undefined;
  const delivered = broll && layout !== 'talking_head' ? broll.stills : 0;
  const refundCents = Math.max(0, priced - delivered) * STILL_PRICE_CENTS;
  const failure = delivered === 0 ? fallbacks.find((f) => f.reason.startsWith('no B-roll: ')) : undefined;
  return {
    refundCents,
    artifact: { priced, delivered, refunded_usd_cents: refundCents },
    warning: failure
      ? `The B-roll could not be made (${failure.reason.slice('no B-roll: '.length)}); the talking head was delivered with captions, music and logo, and the ${priced} AI still${priced === 1 ? '' : 's'} priced ${priced === 1 ? 'was' : 'were'} refunded.`
      : undefined,
  };
}

export async function runPresenter(
  ctx: JobContext<PresenterRequest>,
  branding: Branding,
  deps: PresenterDeps,
): Promise<JobOutput> {
  // The persona was analysed beforehand, maybe in this process a moment ago: its models' memory goes now.
  releaseIdleVision();
  const r = ctx.request;
  const { workDir, services, signal } = ctx;
  const frame = outputSize(r.aspect_ratio);
  const language = videoLanguage(undefined, r.brand_kit);
  const fields = narrationFields(r, branding, language);

  const script = await scriptStage(ctx, fields, deps);
  if (!r.script) {
    const verdict = await deps.content.check({ text: script.script }, signal);
    if (!verdict.allowed)
      throw new JobFailure({
        code: 'CONTENT_BLOCKED',
        category: 'input',
        message: `${verdict.message} (the script was written for this topic: try another topic).`,
        retryable: false,
      });
  }
  const voice = await voiceStage(ctx, script.script, fields, deps, (speechSec) => ({
    // A sent script is spoken as it is; a written one is fitted to duration_sec.
    targetSec: r.script ? speechSec : Math.max(5, (r.duration_sec ?? 30) - TAIL_SEC),
    videoSec: (narrationSec) => narrationSec + TAIL_SEC,
  }));

  let layout: PresenterLayout = r.layout;
  const fallbacks: { from: PresenterLayout; reason: string }[] = [];
  let broll: BrollStage | undefined;
  if (layout !== 'talking_head') {
    try {
      broll = await brollStage(ctx, deps, branding, script, voice);
    } catch (error) {
      fallbacks.push({ from: layout, reason: `no B-roll: ${brollFailureReason(error)}` });
      layout = 'talking_head';
    }
  }
  // A logo host stands in the creator layout only; a fallback from it keeps the host in the presenter's place.
  const hostKind = r.host.type === 'logo' ? 'host' : undefined;

  const logoPath =
    branding.logoPath ??
    (branding.brand?.logo_url ? await downloadLogo(ctx, branding.brand.logo_url) : undefined);
  const hostLogoPath = hostKind ? await hostLogo(ctx, logoPath) : undefined;
  await ctx.progress('music', 30, 'Choosing the music.');
  const music = r.music
    ? await deps.library.musicFor(broll?.niche ?? r.broll.clip_type ?? DEFAULT_NICHE, ctx.job.id, signal)
    : undefined;
  const fontsDir = findShippedFontFamily(branding.captionFont ?? '')
    ? await captionFontsDir(join(services.config.dataDir, 'cache'))
    : '/usr/share/fonts/truetype';
  const sentenceTimes = broll ? sentenceSpans(script.sentences, voice) : [];

  let presenter: PresenterSource | undefined;
  const output = join(workDir, 'video.mp4');
  let rendered:
    | {
        layout: PresenterLayout;
        geometry: PresenterLayoutGeometry;
        quality: QualityArtifact;
        spec: ComposeSpec;
      }
    | undefined;
  for (let attempt: PresenterLayout | null = layout; attempt; attempt = FALLBACK[attempt]) {
    if (attempt !== 'talking_head' && !broll) continue;
    if ((attempt === 'creator' || attempt === 'split') && r.aspect_ratio !== '9:16') continue;
    const geometry = presenterLayoutGeometry({
      layout: attempt,
      ...frame,
      presenter: hostKind ?? (r.engine === 'avatar_iii' && attempt === 'creator' ? 'alpha' : 'opaque'),
      placement: r.presenter_placement,
      hostUrl: hostKind !== undefined && r.host.type === 'logo' && r.host.show_url,
    });
    try {
      // The presenter is made for its box: a new layout with another box renders it again.
      presenter = hostKind ? {} : await presenterSource(ctx, deps, voice, geometry);
      const composed = await composeLayout(ctx, {
        attempt,
        geometry,
        branding,
        voice,
        broll: broll?.scenes,
        presenter,
        hostLogoPath,
        logoPath,
        music,
        fontsDir,
        sentenceTimes,
        output,
        preset: deps.renderPreset,
      });
      rendered = { layout: attempt, geometry, ...composed };
      break;
    } catch (error) {
      if (signal.aborted || error instanceof JobFailure || FALLBACK[attempt] === null) throw error;
      ctx.log.warn({ err: error, layout: attempt }, 'presenter layout failed; falling back');
      fallbacks.push({ from: attempt, reason: (error as Error).message.slice(0, 300) });
    }
  }
  if (!rendered) throw new Error('no presenter layout could be rendered');
  const provenance = await videoProvenance(ctx, {
    spec: rendered.spec,
    scenes: await brollFacts(deps, broll),
    presenter: presenterFacts(r, presenter),
    ...(music ? { music } : {}),
    voiceId: voice.voiceId,
    words: voice.words,
    ...(rendered.spec.ass ? { captionFont: captionStyleFor(r, rendered.geometry, branding).fontFamily } : {}),
    captionBox: rendered.quality.checks.safe_zone.caption_box,
    ...(!branding.logoPath && branding.brand?.logo_url ? { logoUrl: branding.brand.logo_url } : {}),
  });

  await ctx.progress('poster', 94, 'Making the poster image.');
  const poster = join(workDir, 'poster.jpg');
  await extractPoster(output, poster, Math.min(1.5, voice.videoSec / 3));
  const probed = await probeMedia(output);
  const srt = join(workDir, 'captions.srt');
  await writeFile(srt, toSrt(voice.words));
  const ass = join(workDir, 'captions.ass');
  const stills = stillsAccount(r, broll, rendered.layout, fallbacks);
  return {
    ...(stills?.refundCents
      ? { refundCents: stills.refundCents, refundReason: 'generated_stills_not_made' }
      : {}),
    artifacts: {
      title: script.title,
      description: script.description,
      hashtags: script.hashtags,
      script: script.script,
      ...scriptArtifacts(script.source),
      durationSec: Math.round(probed.durationSec * 100) / 100,
      format: r.format,
      layout: rendered.layout,
      ...(fallbacks.length > 0 ? { layout_fallbacks: fallbacks } : {}),
      caption_style: r.captions ? r.caption_style : null,
      presenter: {
        engine: r.priced_as,
        ...(r.avatar_id ? { avatar_id: r.avatar_id } : {}),
        ...(presenter?.lookId ? { look_id: presenter.lookId } : {}),
        ...(presenter?.providerJobId ? { provider_job_id: presenter.providerJobId } : {}),
      },
      voiceId: voice.voiceId,
      narration: { tempo: voice.tempo, timing: voice.timingSource, writer: script.writer },
      ...(broll && rendered.layout !== 'talking_head'
        ? {
            broll: {
              niche: broll.niche,
              visuals: r.broll.visuals,
              shots: broll.shots,
              warnings: broll.warnings,
            },
          }
        : {}),
      ...(stills ? { generated_stills: stills.artifact } : {}),
      ...(stills?.warning ? { warnings: [stills.warning] } : {}),
      ...(music ? { music: { id: music.id, title: music.title } } : {}),
      brand: branding.source,
      quality: rendered.quality,
      provenance: provenance.manifest,
    },
    files: [
      { role: 'video', path: output, contentType: 'video/mp4', name: 'video.mp4' },
      { role: 'thumbnail', path: poster, contentType: 'image/jpeg', name: 'poster.jpg' },
      { role: 'subtitle', path: srt, contentType: 'application/x-subrip', name: 'captions.srt' },
      provenance.file,
      ...(r.captions && existsSync(ass)
        ? [{ role: 'subtitle' as const, path: ass, contentType: 'text/x-ssa', name: 'captions.ass' }]
        : []),
    ],
  };
}

/** Each sentence's span on the narration timeline, from the timings of its own words. */
function sentenceSpans(sentences: string[], voice: VoiceStage): { start: number; end: number }[] {
  const counts = sentences.map((s) => s.split(/\s+/).filter(Boolean).length);
  const spans: { start: number; end: number }[] = [];
  let next = 0;
  for (const count of counts) {
    const words = voice.words.slice(next, next + count);
    next += count;
    if (words.length > 0) spans.push({ start: words[0]!.start, end: words.at(-1)!.end });
  }
  return spans;
}

interface ComposeInputs {
  attempt: PresenterLayout;
  geometry: PresenterLayoutGeometry;
  branding: Branding;
  voice: VoiceStage;
  /** The B-roll timeline; undefined without B-roll. */
  broll: PlacedScene[] | undefined;
  presenter: PresenterSource;
  hostLogoPath: string | undefined;
  logoPath: string | undefined;
  music: { path: string; bed?: ComposeMusicBed } | undefined;
  fontsDir: string;
  sentenceTimes: { start: number; end: number }[];
  output: string;
  preset: string;
}

async function composeLayout(
  ctx: JobContext<PresenterRequest>,
  inputs: ComposeInputs,
): Promise<{ quality: QualityArtifact; spec: ComposeSpec }> {
  const r = ctx.request;
  const { attempt, geometry, branding, voice, broll } = inputs;
  let scenes: ComposeScene[] = [];
  let intervals: [number, number][] | undefined;
  if (attempt === 'cutaway' && broll) {
    intervals = cutawayIntervals(inputs.sentenceTimes, voice.videoSec, r.broll.coverage);
    scenes = cutawayScenes(broll, intervals);
  } else if (attempt !== 'talking_head' && broll) {
    scenes = broll.map((placed) => placed.scene);
  }

  let ass: ComposeSpec['ass'];
  if (r.captions) {
    const path = join(ctx.workDir, 'captions.ass');
    await writeFile(path, buildAss(voice.words, captionStyleFor(r, geometry, branding), geometry.frame));
    ass = { path, fontsDir: inputs.fontsDir };
  }
  const creator = attempt === 'creator';
  const outroOn = creator && (r.outro ?? (inputs.logoPath !== undefined || r.outro_cta !== undefined));
  const host = r.host.type === 'logo' ? r.host : undefined;
  const spec: ComposeSpec = {
    outputPath: inputs.output,
    width: geometry.frame.width,
    height: geometry.frame.height,
    fps: FPS,
    durationSec: voice.videoSec,
    scenes,
    narration: { path: voice.audioPath },
    ...(inputs.music ? { music: { path: inputs.music.path, bed: inputs.music.bed, volume: 0.3 } } : {}),
    ...(ass ? { ass } : {}),
    ...(inputs.logoPath && !host ? { logo: { path: inputs.logoPath } } : {}),
    presenter: {
      layout: attempt,
      ...(host && inputs.hostLogoPath
        ? {
            host: {
              logoPath: inputs.hostLogoPath,
              style: host.style,
              ...(host.show_url
                ? { urlText: host.url_text ?? hostName(branding.brand?.website_url) ?? undefined }
                : {}),
              ...(branding.brand?.accent_color ? { glowColor: branding.brand.accent_color } : {}),
            },
          }
        : { source: inputs.presenter.source! }),
      ...(creator ? { placement: r.presenter_placement } : {}),
      ...(branding.brand?.accent_color ? { borderColor: branding.brand.accent_color } : {}),
      ...(intervals ? { cutawayIntervals: intervals } : {}),
    },
    ...(outroOn
      ? {
          outro: {
            ...(inputs.logoPath ? { logoPath: inputs.logoPath } : {}),
            ...(r.outro_cta ? { cta: r.outro_cta } : {}),
            ...(branding.brand?.website_url ? { url: hostName(branding.brand.website_url) } : {}),
            ...(branding.brand?.primary_color ? { backgroundColor: branding.brand.primary_color } : {}),
            ...(branding.brand?.accent_color ? { accentColor: branding.brand.accent_color } : {}),
          },
        }
      : {}),
    ...(r.progress_bar?.enabled && attempt !== 'talking_head'
      ? {
          progressBar: {
            position: r.progress_bar.position,
            color: r.progress_bar.color ?? branding.brand?.accent_color ?? '#FFFFFF',
            heightPx: 8,
          },
        }
      : {}),
    encoding: { preset: inputs.preset },
  };
  let lastReported = 0;
  const { quality } = await renderHeldToGate(ctx, {
    spec,
    narrationWords: voice.words,
    context: {
      // The presenter falls silent over the last picture after the last word: a closing hold, not a stall.
      stillFrom: voice.narrationSec,
      // A hosted engine's presenter may hold still between sentences (a talking photo): reported, not gated.
      ...(inputs.presenter.providerJobId ? { policy: { ...FULL_POLICY, frozen: false } } : {}),
    },
    render: {
      signal: ctx.signal,
      onProgress: (fraction) => {
        const percent = 60 + Math.floor(fraction * 32);
        if (percent >= lastReported + 4) {
          lastReported = percent;
          void ctx.progress('compose', percent, 'Rendering the video.');
        }
      },
    },
  });
  return { quality, spec };
}

/** The host name of a website URL, as shown under a logo ("acme.com"). */
function hostName(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return undefined;
  }
}
