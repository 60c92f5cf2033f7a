import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JobFailure } from '../../platform/errors.ts';
import type { JobContext, JobOutput } from '../../platform/modes/mode.ts';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';
import { buildAss } from '../../media/captions/build-ass.ts';
import { captionStyleFromRequest } from '../../media/captions/caption-presets.ts';
import { captionFontsDir } from '../../media/fonts/caption-fonts-dir.ts';
import { findShippedFontFamily } from '../../media/fonts/font-catalogue.ts';
import { outputSize, type AspectRatio } from '../../media/clips/reframe.ts';
import type { ComposeScene, ComposeSpec } from '../../media/compose/compose-spec.ts';
import { probeMedia } from '../../media/ffmpeg/probe.ts';
import { toSrt } from '../../media/subtitles/srt.ts';
import { unmatchedSentences } from '../../media/footage/match-score.ts';
import {
  eligibleClips,
  FootageSelectionError,
  selectFootage,
  type Scene,
} from '../../media/footage/select.ts';
import { inferNiche, type Niche } from '../../media/footage/niches.ts';
import type { MusicBedFile, StockLibrary } from '../../media/library/stock-library.ts';
import { splitSentences } from '../../media/script/sentences.ts';
import { writeTitleAndDescription } from '../../media/script/title-description.ts';
import type { ScriptBrandContext } from '../../media/script/brand-context.ts';
import {
  scriptArtifacts,
  ScriptPolicyError,
  type ScriptInput,
  type ScriptSource,
  type ScriptWriter,
  type WrittenScript,
} from '../../media/script/writer.ts';
import type { WordTiming } from '../../media/types.ts';
import { applyTempo } from '../../media/voice/apply-tempo.ts';
import { fitToDuration, MAX_TEMPO } from '../../media/voice/fit-to-duration.ts';
import type { Narrator } from '../../media/voice/narrator.ts';
import type { Brand, CaptionStyle, MusicOptions, ProgressBar } from './field-schemas.ts';
import type { ContentPurpose, ContentStyle } from './enums.ts';
import { renderGapWarning } from './footage-match-warnings.ts';
import { CALLER_FOOTAGE_POLICY } from '../../media/quality/quality-gate.ts';
import { renderHeldToGate, stockProvenance } from './quality-stage.ts';
import { keepForRevision, sceneTimeline } from '../revise/scene-cache.ts';

// The stock engine shared by generate-and-post, Magic, motivational, article-to-video and news:
// script → voice → footage → music → captions → brand → one compose (which also writes the poster). Each stage
// writes its result to the job's work folder, so a retried attempt resumes after the last finished stage.

export interface StockEngineRequest {
  /** Text the title, hashtags and niche are drawn from. */
  brief: string;
  prompt?: string;
  topic?: string;
  /** Narrated word for word when set. */
  script?: string;
  /** Where a set `script` came from (docs/scripts.md): the caller's ("request", the default) unless a mode says. */
  scriptSource?: ScriptSource;
  contentPurpose?: ContentPurpose;
  /** Absent: the writer takes the brand kit's tone, else the brand's, else professional. */
  contentStyle?: ContentStyle;
  durationSec: number;
  voiceSpeed: number;
  includeHook?: boolean;
  cta?: string;
  language: string;
  voiceId?: string;
  voiceGender?: 'female' | 'male';
  clipType?: Niche;
  footageKeywords: string[];
  excludeKeywords: string[];
  assetUrls: string[];
  captionStyle: CaptionStyle;
  music: MusicOptions;
  /** The caller's own music bed (already downloaded and checked), used instead of the library's. */
  musicBed?: MusicBedFile;
  includeBranding: boolean;
  progressBar: ProgressBar;
  /** The brand of this video (a brand kit, the request brand, or the account brand where the mode uses it). */
  brand?: Brand;
  /** The selected brand kit's profile: the writer's audience, tone, proof points, banned topics and cta. */
  brandContext?: ScriptBrandContext;
  /** A logo file already in the work folder (a brand kit's normalized logo), used instead of brand.logo_url. */
  logoPath?: string;
  /** The captions' font family (a brand kit's), drawn when the font catalogue has it. */
  captionFont?: string;
  platforms: string[];
  /** One of several takes on the same brief (a variations request): each take is worded differently. */
  take?: { index: number; count: number };
  /** Shape of the output frame; 9:16 (1080×1920) when absent. */
  aspectRatio?: AspectRatio;
}

export interface StockEngineDeps {
  library: StockLibrary;
  narrator: Narrator;
  writer: ScriptWriter;
  renderPreset: string;
  /** Whether `writer` is the configured LLM: estimates say `script_source: "llm"` rather than "template". */
  llmConfigured?: boolean;
}

const TAIL_SEC = 0.8;
const FPS = 30;
const MAX_VIDEO_SEC = 120;
const WATERMARK = 'Made with Reelsmith';
const FONTS_DIR = '/usr/share/fonts/truetype';

async function stage<T>(workDir: string, name: string, run: () => Promise<T>): Promise<T> {
  const path = join(workDir, `${name}.json`);
  if (existsSync(path)) return JSON.parse(await readFile(path, 'utf8')) as T;
  const result = await run();
  await writeFile(path, JSON.stringify(result));
  return result;
}

function whitespaceWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Places each sentence on the narration timeline from the timings of its own words. */
export function sentenceScenes(sentences: string[], words: WordTiming[], videoSec: number): Scene[] {
  const counts = sentences.map(whitespaceWords);
  const total = counts.reduce((a, b) => a + b, 0);
  const scale = total > 0 ? words.length / total : 0;
  const scenes: Scene[] = [];
  let consumed = 0;
  for (const [index, text] of sentences.entries()) {
    const first = Math.min(words.length - 1, Math.round(consumed * scale));
    consumed += counts[index]!;
    const last = Math.min(words.length - 1, Math.max(first, Math.round(consumed * scale) - 1));
    const start = index === 0 ? 0 : scenes[index - 1]!.end;
    const end = index === sentences.length - 1 ? videoSec : (words[last + 1]?.start ?? words[last]!.end);
    if (end > start) scenes.push({ index: scenes.length, text, start, end });
  }
  return scenes.length > 0 ? scenes : [{ index: 0, text: sentences.join(' '), start: 0, end: videoSec }];
}

function highlightColor(request: StockEngineRequest): string | undefined {
  return request.captionStyle.highlight_color ?? request.brand?.accent_color ?? request.brand?.primary_color;
}

export interface ScriptStage {
  script: string;
  sentences: string[];
  title: string;
  description: string;
  hashtags: string[];
  writer: string;
  source: ScriptSource;
}

export interface VoiceStage {
  audioPath: string;
  words: WordTiming[];
  narrationSec: number;
  videoSec: number;
  voiceId: string;
  tempo: number;
  timingSource: string;
}

/** One shot of artifacts.footage.shots[] (docs/footage.md). */
export interface FootageShotArtifact {
  start: number;
  duration: number;
  clipId: string;
  /** Sentence stems found in the clip's title or tags. */
  matched: string[];
  sentence: string;
  /** The sentence's words whose stems matched. */
  matched_terms: string[];
  /** 0–1 by the formula of docs/footage.md; null for the caller's own asset_urls, which are not matched. */
  score: number | null;
}

export interface FootageStage {
  niche: Niche;
  nicheReason: string;
  scenes: ComposeScene[];
  shots: FootageShotArtifact[];
  warnings: string[];
}

export async function runStockEngine(
  ctx: JobContext<unknown>,
  request: StockEngineRequest,
  deps: StockEngineDeps,
): Promise<JobOutput> {
  const { workDir, signal, services } = ctx;
  // Footage is cover-cropped, and captions, safe zones, logo and watermark are laid out, for this frame.
  const frame = outputSize(request.aspectRatio ?? '9:16');

  const script = await scriptStage(ctx, request, deps);
  const voice = await voiceStage(ctx, script.script, request, deps, (speechSec) => {
    // Generated scripts aim at duration_sec; a sent script is never cut and may make the video longer.
    const longest = MAX_VIDEO_SEC - TAIL_SEC;
    const target = request.script
      ? Math.min(longest, Math.max(request.durationSec - TAIL_SEC, speechSec))
      : Math.min(longest, request.durationSec - TAIL_SEC);
    // The video lasts what was asked and priced; a short template script leaves footage and music after it.
    return {
      targetSec: target,
      videoSec: (narrationSec) =>
        Math.min(MAX_VIDEO_SEC, Math.max(request.durationSec, narrationSec + TAIL_SEC)),
    };
  });

  const footage = await footageStage(ctx, request, deps, script.sentences, voice);

  await ctx.progress('music', 40, 'Adding music and captions.');
  const music = request.music.enabled
    ? (request.musicBed ?? (await deps.library.musicFor(footage.niche, ctx.job.id, signal)))
    : undefined;

  const captionRequest = {
    style: request.captionStyle.preset,
    text_color: request.captionStyle.text_color,
    highlight_color: highlightColor(request),
    position: request.captionStyle.position,
    font_size: request.captionStyle.font_size,
  };
  const captionStyle = captionStyleFromRequest(captionRequest, request.captionFont);
  let captions: ComposeSpec['ass'];
  if (captionStyle) {
    const assPath = join(workDir, 'captions.ass');
    await writeFile(assPath, buildAss(voice.words, captionStyle, frame));
    // libass draws a shipped web font (a brand kit's) only from the prepared fonts folder.
    const fontsDir = findShippedFontFamily(captionStyle.fontFamily)
      ? await captionFontsDir(join(services.config.dataDir, 'cache'))
      : FONTS_DIR;
    captions = { path: assPath, fontsDir };
  }
  const logoPath =
    request.logoPath ??
    (request.brand?.logo_url ? await downloadLogo(ctx, request.brand.logo_url) : undefined);

  const output = join(workDir, 'video.mp4');
  // Sentences start on whole frames and closed GOPs, so a revision can reuse each scene's segment as it is.
  const timeline = sceneTimeline(
    sentenceScenes(script.sentences, voice.words, voice.videoSec),
    footage.scenes,
    voice.videoSec,
    FPS,
  );
  const spec: ComposeSpec = {
    outputPath: output,
    ...frame,
    fps: FPS,
    durationSec: timeline.durationSec,
    scenes: timeline.pieces,
    narration: { path: voice.audioPath },
    ...(music ? { music: { path: music.path, bed: music.bed, volume: request.music.volume } } : {}),
    ...(captions ? { ass: captions } : {}),
    ...(logoPath ? { logo: { path: logoPath } } : {}),
    ...(request.includeBranding ? { watermark: { text: WATERMARK } } : {}),
    ...(request.progressBar.enabled
      ? {
          progressBar: {
            position: request.progressBar.position,
            color: request.progressBar.color ?? request.brand?.accent_color ?? '#FFFFFF',
            heightPx: 8,
          },
        }
      : {}),
    encoding: { preset: deps.renderPreset, keyframeFrames: timeline.keyframeFrames },
  };
  let lastReported = 45;
  await ctx.progress('compose', lastReported, 'Rendering the video.');
  // The render writes the poster from its own frames (the spec kept for revisions does not name it).
  const poster = join(workDir, 'poster.jpg');
  const { quality } = await renderHeldToGate(ctx, {
    spec: { ...spec, poster: { path: poster, atSec: Math.min(1.5, voice.videoSec / 3) } },
    narrationWords: voice.words,
    context: {
      requestedSec: request.durationSec,
      ...(request.assetUrls.length > 0 ? { policy: CALLER_FOOTAGE_POLICY } : {}),
    },
    render: {
      signal,
      onProgress: (fraction) => {
        const percent = 45 + Math.floor(fraction * 45);
        if (percent >= lastReported + 5) {
          lastReported = percent;
          void ctx.progress('compose', percent, 'Rendering the video.');
        }
      },
    },
  });
  const provenance = await stockProvenance(ctx, {
    spec,
    library: deps.library,
    clipIds: footage.shots.map((s) => s.clipId),
    assetUrls: request.assetUrls,
    ...(music ? { music } : {}),
    voiceId: voice.voiceId,
    words: voice.words,
    ...(captionStyle ? { captionFont: captionStyle.fontFamily } : {}),
    captionBox: quality.checks.safe_zone.caption_box,
    ...(!request.logoPath && request.brand?.logo_url ? { logoUrl: request.brand.logo_url } : {}),
  });
  await ctx.progress('poster', 92, 'Writing the captions and the manifest.');
  const probed = await probeMedia(output);
  const srt = join(workDir, 'captions.srt');
  await writeFile(srt, toSrt(voice.words));

  const hashtags = script.hashtags;
  const artifacts = {
    title: script.title,
    description: script.description,
    hashtags,
    script: script.script,
    ...scriptArtifacts(script.source),
    durationSec: Math.round(probed.durationSec * 100) / 100,
    clipType: footage.niche,
    voiceId: voice.voiceId,
    narration: { tempo: voice.tempo, timing: voice.timingSource, writer: script.writer },
    footage: { niche_reason: footage.nicheReason, shots: footage.shots, warnings: footage.warnings },
    ...(music ? { music: { id: music.id, title: music.title } } : {}),
  };
  await keepForRevision(ctx, {
    spec,
    timeline,
    fps: FPS,
    shots: footage.shots,
    words: voice.words,
    narrationPath: voice.audioPath,
    voice: {
      voiceId: voice.voiceId,
      language: request.language,
      speed: request.voiceSpeed,
      ...(request.voiceGender ? { gender: request.voiceGender } : {}),
      tempo: voice.tempo,
    },
    captions: { request: captionRequest, ...(request.captionFont ? { font: request.captionFont } : {}) },
    music: { ...request.music, ...(music ? { file: music } : {}) },
    niche: footage.niche,
    renderPreset: deps.renderPreset,
    artifacts,
  });
  return {
    artifacts: { ...artifacts, quality, provenance: provenance.manifest },
    files: composedVideoFiles({ video: output, poster, srt, manifest: provenance.file, ass: captions?.path }),
  };
}

/** The files a composed video delivers: the MP4, its poster, SRT captions, the provenance manifest, the ASS. */
export function composedVideoFiles(files: {
  video: string;
  poster: string;
  srt: string;
  manifest: JobOutput['files'][number];
  ass: string | undefined;
}): JobOutput['files'] {
  return [
    { role: 'video', path: files.video, contentType: 'video/mp4', name: 'video.mp4' },
    { role: 'thumbnail', path: files.poster, contentType: 'image/jpeg', name: 'poster.jpg' },
    { role: 'subtitle', path: files.srt, contentType: 'application/x-subrip', name: 'captions.srt' },
    files.manifest,
    ...(files.ass
      ? [{ role: 'subtitle' as const, path: files.ass, contentType: 'text/x-ssa', name: 'captions.ass' }]
      : []),
  ];
}

/** The fields of a stock-engine request the footage stage reads. */
export type FootageFields = Pick<
  StockEngineRequest,
  'brief' | 'brand' | 'clipType' | 'assetUrls' | 'footageKeywords' | 'excludeKeywords'
>;

/** Footage for each sentence of the narration: the caller's assets, else library (and provider) clips. */
export async function footageStage(
  ctx: JobContext<unknown>,
  request: FootageFields,
  deps: Pick<StockEngineDeps, 'library'>,
  sentences: string[],
  voice: Pick<VoiceStage, 'words' | 'videoSec'>,
): Promise<FootageStage> {
  return stage<FootageStage>(ctx.workDir, 'footage', async () => {
    await ctx.progress('footage', 30, 'Choosing footage for each sentence.');
    const inferred = inferNiche({
      industry: request.brand?.industry,
      keywords: request.brand?.keywords,
      brief: `${request.brief} ${sentences.join(' ')}`,
    });
    const niche = request.clipType ?? inferred.niche;
    const nicheReason = request.clipType ? 'requested clip_type' : inferred.reason;
    const scenes = sentenceScenes(sentences, voice.words, voice.videoSec);
    if (request.assetUrls.length > 0)
      return { niche, nicheReason, ...(await assetFootage(ctx, request.assetUrls, scenes)) };
    await deps.library.ensureFootage(niche, ctx.signal);
    // With a stock-footage provider configured, candidates for these sentences are imported first.
    const provider = await deps.library.ensureProviderFootage({
      sceneTexts: scenes.map((s) => s.text),
      footageKeywords: request.footageKeywords,
      urlGuard: ctx.services.urlGuard,
      signal: ctx.signal,
    });
    const clips = await deps.library.readyClips();
    let selection;
    try {
      selection = selectFootage({
        scenes,
        niche,
        footageKeywords: request.footageKeywords,
        excludeKeywords: request.excludeKeywords,
        clips,
        seed: ctx.job.id,
      });
    } catch (error) {
      if (!(error instanceof FootageSelectionError)) throw error;
      throw new JobFailure({
        code: 'FOOTAGE_UNAVAILABLE',
        category: 'input',
        message: `${error.message} Loosen exclude_keywords or send asset_urls.`,
        retryable: false,
      });
    }
    const paths = new Map(clips.map((c) => [c.id, c]));
    await deps.library.localize([...new Set(selection.shots.map((s) => paths.get(s.clipId)!))], ctx.signal);
    const composeScenes: ComposeScene[] = [];
    for (const shot of selection.shots) {
      const clip = paths.get(shot.clipId)!;
      // A shot longer than its clip loops the clip from the start.
      let remaining = shot.duration;
      let inPoint = shot.inPoint;
      while (remaining > 0.01) {
        const piece = Math.min(remaining, Math.max(0.1, clip.durationSec - inPoint));
        composeScenes.push({ path: clip.path, inPoint, duration: piece });
        remaining -= piece;
        inPoint = 0;
      }
    }
    await deps.library.markUsed([...new Set(selection.shots.map((s) => s.clipId))]);
    const gaps = unmatchedSentences(sentences, eligibleClips(clips, request.excludeKeywords).eligible);
    return {
      niche,
      nicheReason,
      scenes: composeScenes,
      shots: selection.shots.map((s) => ({
        start: s.start,
        duration: s.duration,
        clipId: s.clipId,
        matched: s.matched,
        sentence: s.sentence,
        matched_terms: s.matchedTerms,
        score: s.score,
      })),
      warnings: [...selection.warnings, ...gaps.map((gap) => renderGapWarning(gap, provider !== undefined))],
    };
  });
}

/** The fields of a stock-engine request the script and voice stages read. */
export type NarrationFields = Pick<
  StockEngineRequest,
  | 'brief'
  | 'prompt'
  | 'topic'
  | 'script'
  | 'scriptSource'
  | 'contentPurpose'
  | 'contentStyle'
  | 'durationSec'
  | 'voiceSpeed'
  | 'includeHook'
  | 'cta'
  | 'language'
  | 'voiceId'
  | 'voiceGender'
  | 'platforms'
  | 'brand'
  | 'brandContext'
  | 'take'
>;

/** The script stage: a sent script as it is (with copy written around it), or the writer's. Resumable. */
export async function scriptStage(
  ctx: JobContext<unknown>,
  request: NarrationFields,
  deps: Pick<StockEngineDeps, 'writer'>,
): Promise<ScriptStage> {
  return stage<ScriptStage>(ctx.workDir, 'script', async () => {
    await ctx.progress('script', 5, request.script ? 'Preparing your script.' : 'Writing the script.');
    if (request.script) {
      const copy = writeTitleAndDescription({
        brief: request.brief,
        script: request.script,
        contentPurpose: request.contentPurpose,
        platforms: request.platforms,
        language: request.language,
        brand: request.brand && {
          name: request.brand.name,
          websiteUrl: request.brand.website_url,
          industry: request.brand.industry,
          keywords: request.brand.keywords,
        },
      });
      return {
        script: request.script,
        sentences: splitSentences(request.script, request.language),
        ...copy,
        writer: 'sent',
        source: request.scriptSource ?? 'request',
      };
    }
    const written = await writeScript(deps.writer, {
      prompt: request.prompt,
      topic: request.topic,
      contentPurpose: request.contentPurpose,
      contentStyle: request.contentStyle,
      durationSec: request.durationSec,
      voiceSpeed: request.voiceSpeed,
      includeHook: request.includeHook,
      cta: request.cta,
      language: request.language,
      platforms: request.platforms,
      seed: ctx.job.id,
      ...(request.take ? { take: request.take } : {}),
      brand: request.brand && {
        name: request.brand.name,
        websiteUrl: request.brand.website_url,
        tone: request.brand.tone,
        industry: request.brand.industry,
        keywords: request.brand.keywords,
      },
      ...(request.brandContext ? { brandContext: request.brandContext } : {}),
    });
    return {
      script: written.script,
      sentences: written.sentences,
      title: written.title,
      description: written.description,
      hashtags: written.hashtags,
      writer: written.writer,
      source: written.source,
    };
  });
}

/** How long the narration may run (it is sped up to fit, at most MAX_TEMPO) and the video it makes. */
export type NarrationFit = (speechSec: number) => {
  targetSec: number;
  videoSec: (narrationSec: number) => number;
};

/** The voice stage: the script spoken, fitted to its length, with exact word timings. Resumable. */
export async function voiceStage(
  ctx: JobContext<unknown>,
  text: string,
  request: NarrationFields,
  deps: Pick<StockEngineDeps, 'narrator'>,
  fit: NarrationFit,
): Promise<VoiceStage> {
  return stage<VoiceStage>(ctx.workDir, 'voice', async () => {
    await ctx.progress('voice', 15, 'Recording the narration.');
    const speech = await deps.narrator.synthesize({
      text,
      voiceId: request.voiceId,
      gender: request.voiceGender,
      language: request.language,
      speed: request.voiceSpeed,
      outPath: join(ctx.workDir, 'speech.wav'),
      signal: ctx.signal,
    });
    const plan = fit(speech.durationSec);
    const fitted = fitToDuration({
      targetSec: plan.targetSec,
      durationSec: speech.durationSec,
      words: speech.words,
      maxTempo: MAX_TEMPO,
    });
    const narration = await applyTempo(speech, fitted, join(ctx.workDir, 'narration.wav'), ctx.signal);
    return {
      audioPath: narration.audioPath,
      words: narration.words,
      narrationSec: narration.durationSec,
      videoSec: plan.videoSec(narration.durationSec),
      voiceId: narration.voiceId,
      tempo: narration.tempo,
      timingSource: speech.timingSource,
    };
  });
}

/**
 * The writer's script. A script of which nothing is left once the sentences breaking the brand kit's rules are
 * dropped is the brief's fault, not the service's: the job fails without a retry (and is refunded).
 */
export async function writeScript(writer: ScriptWriter, input: ScriptInput): Promise<WrittenScript> {
  try {
    return await writer.write(input);
  } catch (error) {
    if (!(error instanceof ScriptPolicyError)) throw error;
    throw new JobFailure({
      code: 'BRAND_RULES_UNSATISFIABLE',
      category: 'input',
      message: error.message,
      retryable: false,
    });
  }
}

function guardFailure(field: string, error: unknown): never {
  if (error instanceof UrlRejectedError) {
    throw new JobFailure({
      code: 'INPUT_FETCH_FAILED',
      category: 'input',
      message: `${field}: ${error.message}`,
      retryable: false,
    });
  }
  throw error;
}

export async function downloadLogo(ctx: JobContext<unknown>, url: string): Promise<string> {
  const raw = join(ctx.workDir, 'logo-source');
  try {
    await ctx.services.urlGuard.download(url, raw, {
      maxBytes: 10 * 1024 * 1024,
      timeoutMs: 30_000,
      signal: ctx.signal,
    });
  } catch (error) {
    guardFailure('brand.logo_url', error);
  }
  const info = await probeMedia(raw).catch(() => undefined);
  const codec = info?.video?.codec;
  if (!codec || !['png', 'mjpeg', 'webp'].includes(codec)) {
    throw new JobFailure({
      code: 'INPUT_INVALID_MEDIA',
      category: 'input',
      message: 'brand.logo_url is not a PNG or JPG image.',
      retryable: false,
    });
  }
  return raw;
}

/** The caller's own clips as background, in order, one per scene, cycling when there are more scenes. */
async function assetFootage(
  ctx: JobContext<unknown>,
  urls: string[],
  scenes: Scene[],
): Promise<Omit<FootageStage, 'niche' | 'nicheReason'>> {
  const assets: { path: string; durationSec: number }[] = [];
  for (const [i, url] of urls.entries()) {
    const path = join(ctx.workDir, `asset-${i}`);
    try {
      await ctx.services.urlGuard.download(url, path, {
        maxBytes: 500 * 1024 * 1024,
        timeoutMs: 10 * 60_000,
        signal: ctx.signal,
      });
    } catch (error) {
      guardFailure(`asset_urls[${i}]`, error);
    }
    const info = await probeMedia(path).catch(() => undefined);
    if (!info?.video || info.durationSec <= 0) {
      throw new JobFailure({
        code: 'INPUT_INVALID_MEDIA',
        category: 'input',
        message: `asset_urls[${i}] is not a playable video.`,
        retryable: false,
      });
    }
    assets.push({ path, durationSec: info.durationSec });
  }
  const composeScenes: ComposeScene[] = [];
  const shots: FootageStage['shots'] = [];
  for (const scene of scenes) {
    const asset = assets[scene.index % assets.length]!;
    let remaining = scene.end - scene.start;
    shots.push({
      start: scene.start,
      duration: remaining,
      clipId: `asset-${scene.index % assets.length}`,
      matched: [],
      sentence: scene.text,
      matched_terms: [],
      score: null,
    });
    while (remaining > 0.01) {
      const piece = Math.min(remaining, asset.durationSec);
      composeScenes.push({ path: asset.path, inPoint: 0, duration: piece });
      remaining -= piece;
    }
  }
  return { scenes: composeScenes, shots, warnings: [] };
}
