import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildAss } from '../../media/captions/build-ass.ts';
import { captionStyleFromRequest } from '../../media/captions/caption-presets.ts';
import { captionFontsDir } from '../../media/fonts/caption-fonts-dir.ts';
import { findShippedFontFamily } from '../../media/fonts/font-catalogue.ts';
import { outputSize } from '../../media/clips/reframe.ts';
import type { ComposeScene, ComposeSpec } from '../../media/compose/compose-spec.ts';
import { extractPoster } from '../../media/ffmpeg/measure.ts';
import { probeMedia } from '../../media/ffmpeg/probe.ts';
import { inferNiche } from '../../media/footage/niches.ts';
import { writeTitleAndDescription } from '../../media/script/title-description.ts';
import { scriptArtifacts } from '../../media/script/writer.ts';
import { toSrt } from '../../media/subtitles/srt.ts';
import type { Executor } from '../../platform/db/database.ts';
import { JobFailure } from '../../platform/errors.ts';
import type { JobContext, JobOutput } from '../../platform/modes/mode.ts';
import { AI_VIDEO_MODELS } from '../../platform/pricing/ai-video-models.ts';
import type { Branding } from '../shared/kit-branding.ts';
import { renderHeldToGate, videoProvenance } from '../shared/quality-stage.ts';
import {
  downloadLogo,
  scriptStage,
  voiceStage,
  type NarrationFields,
  type StockEngineDeps,
  type VoiceStage,
} from '../shared/stock-engine.ts';
import { priceOfRequest, type AiVideoRequest } from './ai-video-request.ts';
import { shotFacts } from './shot-provenance.ts';
import { generateHostedShots, type HostedModels } from './hosted-shots.ts';
import { localShotScenes, planLocalShots, readyLibraryFootage } from './local-shots.ts';
import { beatsForShots, cutShots, sentenceEnds, visualBeats } from './shot-plan.ts';
import { markCompleted, planShotRecords, readShots, type ShotRecord } from './shot-records.ts';

// An AI video: narration first (its sentence ends place the cuts), then one shot per visual beat from a hosted
// model or the local motion engine, each shot a durable record, then one compose with captions, the music
// bed (ducked under narration and native audio) and loudness at -14 LUFS, then the poster.

export interface AiVideoDeps extends StockEngineDeps {
  hosted: HostedModels;
}

/** The narration ends this long before the video does. */
const TAIL_SEC = 0.6;

/** The frame of a request: its aspect ratio at its resolution (1080p is 1080×1920 at 9:16). */
export function frameOf(request: Pick<AiVideoRequest, 'aspect_ratio' | 'resolution'>): {
  width: number;
  height: number;
} {
  return outputSize(request.aspect_ratio, Number.parseInt(request.resolution, 10) / 1080);
}

function narrationFields(request: AiVideoRequest, branding: Branding, videoSec: number): NarrationFields {
  return {
    brief: request.prompt,
    prompt: request.prompt,
    ...(request.script ? { script: request.script } : {}),
    ...(request.content_purpose ? { contentPurpose: request.content_purpose } : {}),
    durationSec: videoSec,
    voiceSpeed: 1,
    language: request.language ?? 'en',
    ...(request.voice_id ? { voiceId: request.voice_id } : {}),
    voiceGender: request.voice_gender,
    platforms: [],
    ...(branding.brand ? { brand: branding.brand } : {}),
    ...(branding.brandContext ? { brandContext: branding.brandContext } : {}),
  };
}

async function completeLocalShots(db: Executor, jobId: string, shots: ShotRecord[]): Promise<ShotRecord[]> {
  for (const shot of shots) await markCompleted(db, jobId, shot.index, null);
  return readShots(db, jobId);
}

export async function runAiVideo(
  ctx: JobContext<AiVideoRequest>,
  branding: Branding,
  deps: AiVideoDeps,
): Promise<JobOutput> {
  const { request, workDir, services } = ctx;
  const model = AI_VIDEO_MODELS[request.model];
  const price = priceOfRequest(request);
  const { plan } = price;
  const videoSec = plan.videoSec;
  const frame = frameOf(request);
  const fields = narrationFields(request, branding, videoSec);

  const script = request.narrated ? await scriptStage(ctx, fields, deps) : undefined;
  const niche = inferNiche({
    industry: branding.brand?.industry,
    keywords: branding.brand?.keywords,
    brief: `${request.prompt} ${script?.script ?? ''}`,
  }).niche;
  // One beat per shot, cut on sentence ends when narrated; no cut asks more of a shot than it was made with.
  const beats = beatsForShots(visualBeats(request.prompt, request.language), plan.shots);

  // What does not depend on the narration is made ready while it is synthesized: the music bed (generated on
  // its first use) and the library's footage for the shots. Each is awaited where it is needed; a failure
  // of either surfaces there (a failed voice stage leaves them to finish unobserved).
  const musicBed = request.music ? deps.library.musicFor(niche, ctx.job.id, ctx.signal) : undefined;
  const footage =
    request.engine === 'local' && request.kind === 'text_to_video'
      ? readyLibraryFootage(ctx, { beats, niche, deps })
      : undefined;
  for (const pending of [musicBed, footage]) pending?.catch(() => undefined);

  const voice: VoiceStage | undefined = script
    ? await voiceStage(ctx, script.script, fields, deps, () => ({
        targetSec: Math.max(1, videoSec - TAIL_SEC),
        videoSec: () => videoSec,
      }))
    : undefined;

  const maxShotSec = plan.shots === 1 ? videoSec : plan.shotSec;
  const cuts = cutShots(
    videoSec,
    plan.shots,
    maxShotSec,
    script && voice ? sentenceEnds(script.sentences, voice.words) : [],
  );
  const shareOf = (seconds: number) =>
    Math.round(((price.usdCents * seconds) / plan.generatedSec) * 1000) / 1000;

  await ctx.progress('shots', 25, `Making ${plan.shots} shot${plan.shots === 1 ? '' : 's'}.`);

  let scenes: ComposeScene[];
  let shots: ShotRecord[];
  if (request.engine === 'local') {
    const local = await planLocalShots(ctx, { beats, cuts, niche, deps, footage });
    shots = await planShotRecords(
      services.db,
      ctx.job.id,
      local.map((shot, index) => ({
        index,
        engine: 'local' as const,
        providerModel: null,
        prompt: beats[index]!,
        seconds: cuts[index]!.duration,
        costUsdCents: shareOf(cuts[index]!.duration),
        source: shot.source,
      })),
    );
    scenes = localShotScenes(local, cuts);
  } else {
    const generated = await generateHostedShots(ctx, {
      hosted: deps.hosted,
      model,
      plan,
      beats,
      shareOf,
      nativeAudio: request.native_audio,
    });
    shots = generated.records;
    scenes = cuts.map((cut, index) => ({
      path: generated.files[index]!.path,
      inPoint: 0,
      duration: cut.duration,
      hasAudio: request.native_audio && generated.files[index]!.hasAudio,
    }));
  }

  await ctx.progress('music', 60, 'Adding music and captions.');
  const music = await musicBed;

  let captions: ComposeSpec['ass'];
  let captionFont: string | undefined;
  if (request.captions && voice) {
    const style = captionStyleFromRequest(
      {
        style: 'highlight',
        text_color: '#FFFFFF',
        highlight_color: branding.brand?.accent_color ?? branding.brand?.primary_color,
        position: 'lower_third',
        font_size: 'large',
      },
      branding.captionFont,
    );
    if (style) {
      captionFont = style.fontFamily;
      const assPath = join(workDir, 'captions.ass');
      await writeFile(assPath, buildAss(voice.words, style, frame));
      const fontsDir = findShippedFontFamily(style.fontFamily)
        ? await captionFontsDir(join(services.config.dataDir, 'cache'))
        : '/usr/share/fonts/truetype';
      captions = { path: assPath, fontsDir };
    }
  }
  const logoPath =
    branding.logoPath && existsSync(branding.logoPath)
      ? branding.logoPath
      : branding.brand?.logo_url
        ? await downloadLogo(ctx, branding.brand.logo_url)
        : undefined;

  const output = join(workDir, 'video.mp4');
  let lastReported = 0;
  const spec: ComposeSpec = {
    outputPath: output,
    ...frame,
    fps: 30,
    durationSec: videoSec,
    scenes,
    ...(voice ? { narration: { path: voice.audioPath } } : {}),
    ...(music ? { music: { path: music.path, bed: music.bed, volume: voice ? 0.3 : 0.6 } } : {}),
    ...(captions ? { ass: captions } : {}),
    ...(logoPath ? { logo: { path: logoPath } } : {}),
    encoding: { preset: deps.renderPreset },
  };
  const { quality } = await renderHeldToGate(ctx, {
    spec,
    ...(voice ? { narrationWords: voice.words } : {}),
    render: {
      signal: ctx.signal,
      onProgress: (fraction) => {
        const percent = 65 + Math.floor(fraction * 25);
        if (percent >= lastReported + 5) {
          lastReported = percent;
          void ctx.progress('compose', percent, 'Rendering the video.');
        }
      },
    },
  });
  await ctx.progress('poster', 92, 'Making the poster image.');
  const poster = join(workDir, 'poster.jpg');
  const [probed, finished] = await Promise.all([
    probeMedia(output),
    // Local shots are drawn inside the compose: they are done when it is.
    request.engine === 'local' ? completeLocalShots(services.db, ctx.job.id, shots) : shots,
    extractPoster(output, poster, Math.min(1.5, videoSec / 3)),
  ]);
  shots = finished;
  const provenance = await videoProvenance(ctx, {
    spec,
    scenes: await shotFacts(
      deps.library,
      shots,
      scenes.map((scene) => scene.path),
    ),
    ...(music ? { music } : {}),
    ...(voice ? { voiceId: voice.voiceId } : {}),
    words: voice?.words ?? [],
    ...(captions && captionFont ? { captionFont } : {}),
    captionBox: quality.checks.safe_zone.caption_box,
    ...(logoPath && logoPath !== branding.logoPath && branding.brand?.logo_url
      ? { logoUrl: branding.brand.logo_url }
      : {}),
  });
  if (!probed.video || probed.durationSec <= 0)
    throw new JobFailure({
      code: 'RENDER_FAILED',
      category: 'render',
      message: 'The assembled video could not be read back.',
      retryable: true,
    });

  const copy = script ?? {
    ...writeTitleAndDescription({
      brief: request.prompt,
      script: request.prompt,
      platforms: [],
      language: request.language ?? 'en',
      brand: branding.brand && {
        name: branding.brand.name,
        websiteUrl: branding.brand.website_url,
        industry: branding.brand.industry,
        keywords: branding.brand.keywords,
      },
    }),
    script: '',
  };
  const files: JobOutput['files'] = [
    { role: 'video', path: output, contentType: 'video/mp4', name: 'video.mp4' },
    { role: 'thumbnail', path: poster, contentType: 'image/jpeg', name: 'poster.jpg' },
    provenance.file,
  ];
  if (voice) {
    const srt = join(workDir, 'captions.srt');
    await writeFile(srt, toSrt(voice.words));
    files.push({ role: 'subtitle', path: srt, contentType: 'application/x-subrip', name: 'captions.srt' });
  }
  return {
    artifacts: {
      title: copy.title,
      description: copy.description,
      hashtags: copy.hashtags,
      script: script?.script ?? null,
      ...(script ? scriptArtifacts(script.source) : {}),
      durationSec: Math.round(probed.durationSec * 100) / 100,
      model: request.model,
      tier: request.tier,
      engine: request.engine,
      resolution: request.resolution,
      aspectRatio: request.aspect_ratio,
      nativeAudio: request.native_audio,
      shots: shots.map((shot) => ({
        index: shot.index,
        model: request.model,
        provider: shot.engine,
        provider_model: shot.providerModel,
        provider_request_id: shot.providerRequestId,
        prompt: shot.prompt,
        seconds: shot.seconds,
        cost_usd_cents: shot.costUsdCents,
        source: shot.source,
      })),
      ...(voice
        ? { voiceId: voice.voiceId, narration: { tempo: voice.tempo, timing: voice.timingSource } }
        : {}),
      ...(music ? { music: { id: music.id, title: music.title } } : {}),
      brand: branding.source,
      quality,
      provenance: provenance.manifest,
    },
    files,
  };
}
