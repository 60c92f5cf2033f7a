import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../../platform/db/database.ts';
import { errors, JobFailure } from '../../platform/errors.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import { findAccountJob } from '../../platform/jobs/jobs-repo.ts';
import type { ModeDefinition, Price, RenderEstimate } from '../../platform/modes/mode.ts';
import { PRICE_TABLE, unitPrice } from '../../platform/pricing/price-table.ts';
import { buildAss } from '../../media/captions/build-ass.ts';
import { captionFontsDir } from '../../media/fonts/caption-fonts-dir.ts';
import { captionStyleById } from '../../media/captions/style-catalogue.ts';
import { extractPoster } from '../../media/ffmpeg/measure.ts';
import { probeMedia } from '../../media/ffmpeg/probe.ts';
import { runFfmpeg } from '../../media/ffmpeg/runner.ts';
import type { WordTiming } from '../../media/types.ts';
import { jobSource, stageSource } from '../transcribe/source-media.ts';
import { brandColors, summarize } from '../transcribe/transcribe-mode.ts';
import { transcriptTimings, type Transcript } from '../transcribe/transcript.ts';
import { callerVideoProvenance } from '../../media/provenance/caller-video.ts';
import { writeProvenance } from '../../media/provenance/provenance.ts';
import { correctiveAudioFilter } from '../../media/quality/gated-delivery.ts';
import { holdToGate } from '../shared/quality-stage.ts';
import { applyOverrides, audioHandling, burnCaptionsArgs } from './burn-captions.ts';
import { captionRenderRequestSchema, type CaptionRenderRequest } from './caption-render-request.ts';

// Encoding seconds per second of 1080p video with a fast x264 preset on two shared cores (measured), scaled
// by the frame area.
const SECONDS_PER_SECOND_1080P = 1.2;
const STARTUP_SECONDS = 5;

export interface CaptionRenderModeDeps {
  renderPreset: string;
}

function sourceOf(request: CaptionRenderRequest): NonNullable<CaptionRenderRequest['source']> {
  if (!request.source) throw new Error('a caption render is priced only after its video was probed');
  return request.source;
}

/** Per started minute of the output, whose length is the video's (spec 2 §4.6 in the USD price table). */
export function captionRenderPrice(durationSec: number): Price {
  const minutes = Math.max(1, Math.ceil(Math.round(durationSec * 1000) / 60_000));
  const cents = minutes * unitPrice('caption_render');
  return {
    usdCents: cents,
    breakdown: [
      { item: 'caption render', usd_cents: cents, quantity: minutes, unit: PRICE_TABLE.caption_render.unit },
    ],
    tool: 'captions/render',
    model: 'ass-burn-in',
    tier: 'standard',
    engine: PRICE_TABLE.caption_render.engine,
  };
}

export function captionRenderSeconds(durationSec: number, width: number, height: number): RenderEstimate {
  const typical =
    STARTUP_SECONDS + durationSec * SECONDS_PER_SECOND_1080P * ((width * height) / (1920 * 1080));
  return { min: Math.ceil(typical / 2), typical: Math.ceil(typical), max: Math.ceil(typical * 3) };
}

/** The transcript of a completed transcription job of this account; 404 / 400 (free) otherwise. */
export async function findTranscript(db: Db, accountId: string, jobId: string): Promise<Transcript> {
  const job = await findAccountJob(db, accountId, jobId);
  if (!job) throw errors.jobNotFound(jobId);
  const refuse = (message: string) => invalidInputError([{ field: 'transcript_job_id', message }]);
  if (job.mode !== 'transcription')
    throw refuse(`is a ${job.operation} job, not a transcription (POST /api/v1/transcribe)`);
  if (job.status !== 'completed')
    throw refuse(`is ${job.status}; captions can be rendered once the transcription has completed`);
  const transcript = (job.artifacts as { transcript?: Transcript }).transcript;
  if (!Array.isArray(transcript?.words)) throw refuse('has no transcript (sandbox jobs carry none)');
  return transcript;
}

/** POST /captions/render (spec 2 §4.6): a transcription's words burned into a video as styled captions. */
export function captionRenderMode(deps: CaptionRenderModeDeps): ModeDefinition<CaptionRenderRequest> {
  return {
    name: 'caption_render',
    endpoint: 'captions/render',
    title: 'Caption render',
    description:
      'Burns the words of a completed transcription into a video in one of the caption presets; the video keeps its size and its sound.',
    schema: captionRenderRequestSchema,
    receiptStatus: 202,
    idempotencyKey: 'required',
    heavy: true,
    dryRun: true,
    webhooks: true,
    privateDelivery: false,
    identicalRequestProtection: false,
    async validate(request, services) {
      await findTranscript(services.db, services.accountId, request.transcript_job_id);
      const probed = await stageSource(services, request.video_url, 'video_url');
      if (!probed.video)
        throw invalidInputError([
          { field: 'video_url', message: 'has no video track (send the video, not audio)' },
        ]);
      return { ...request, source: { ...summarize(probed), ...probed.video } };
    },
    price: (request) => captionRenderPrice(sourceOf(request).duration_sec),
    estimate(request) {
      const source = sourceOf(request);
      return {
        renderSeconds: captionRenderSeconds(source.duration_sec, source.width, source.height),
        durationSec: source.duration_sec,
      };
    },
    receiptExtras(request) {
      const source = sourceOf(request);
      return {
        estimated_completion_sec: captionRenderSeconds(source.duration_sec, source.width, source.height)
          .typical,
        source: { duration_sec: source.duration_sec, format: source.format },
      };
    },
    async run(ctx) {
      const r = ctx.request;
      const { workDir, signal } = ctx;
      await ctx.progress('source', 2, 'Reading the video.');
      const { path, probed } = await jobSource(ctx, r.video_url, 'video_url');
      const frame = probed.video;
      if (!frame) throw new Error('video_url was validated to have a video track');
      let words: WordTiming[];
      try {
        words = transcriptTimings(
          await findTranscript(ctx.services.db, ctx.job.accountId, r.transcript_job_id),
        );
      } catch (error) {
        throw new JobFailure({
          code: 'TRANSCRIPT_UNAVAILABLE',
          category: 'input',
          message: `transcript_job_id: ${(error as Error).message}`,
          retryable: false,
        });
      }

      const preset = captionStyleById(r.caption_style, brandColors(await ctx.services.accountBrand()));
      if (!preset) throw new Error(`caption style ${r.caption_style} is not in the catalogue`);
      const style = applyOverrides(preset, {
        position: r.position,
        maxWordsPerLine: r.max_words_per_line,
        highlightActiveWord: r.highlight_active_word,
      });
      const assPath = join(workDir, 'captions.ass');
      await writeFile(assPath, buildAss(words, style, frame));

      await ctx.progress('render', 10, 'Burning in the captions.');
      const output = join(workDir, 'captioned.mp4');
      const fontsDir = await captionFontsDir(join(ctx.services.config.dataDir, 'cache'));
      let reported = 10;
      // The caller's sound is copied as it is; when the delivery fails its loudness or A/V gate, it is burned
      // again with the sound levelled to the target and cut or padded to the picture (docs/quality.md).
      const quality = await holdToGate(ctx, {
        hasSound: probed.audio !== undefined,
        measure: {
          videoPath: output,
          ...(probed.audio ? { narration: { path, words } } : {}),
          captions: { assPath, fontsDir },
          signal,
        },
        context: { plannedSec: probed.durationSec },
        render: async (previous) => {
          await runFfmpeg(
            burnCaptionsArgs({
              input: path,
              assPath,
              fontsDir,
              output,
              preset: deps.renderPreset,
              width: frame.width,
              height: frame.height,
              audio: audioHandling(probed.audio?.codec),
              ...(previous
                ? {
                    audioFilter: await correctiveAudioFilter(
                      path,
                      previous,
                      previous.checks.av_sync.video_sec,
                      signal,
                    ),
                  }
                : {}),
            }),
            {
              signal,
              onProgress: (seconds) => {
                const percent =
                  10 + Math.floor((Math.min(seconds, probed.durationSec) / probed.durationSec) * 80);
                if (percent < reported + 5) return;
                reported = percent;
                void ctx.progress('render', percent, 'Burning in the captions.');
              },
            },
          );
        },
      });
      await ctx.progress('poster', 92, 'Making the poster image.');
      const poster = join(workDir, 'poster.jpg');
      await extractPoster(output, poster, Math.min(1.5, probed.durationSec / 3));
      const rendered = await probeMedia(output, { signal });
      const width = rendered.video?.width ?? frame.width;
      const height = rendered.video?.height ?? frame.height;
      const manifest = callerVideoProvenance({
        source: { url: r.video_url, field: 'video_url' },
        sourceRange: { start: 0, end: rendered.durationSec },
        output: { durationSec: rendered.durationSec, width, height },
        ...(words.length > 0
          ? {
              captions: {
                fontFamily: style.fontFamily,
                start: words[0]!.start,
                end: words[words.length - 1]!.end,
                box: quality.checks.safe_zone.caption_box,
              },
            }
          : {}),
      });
      const provenancePath = join(workDir, 'provenance.json');
      await writeProvenance(provenancePath, manifest);
      return {
        artifacts: {
          durationSec: Math.round(rendered.durationSec * 100) / 100,
          width: rendered.video?.width,
          height: rendered.video?.height,
          transcriptJobId: r.transcript_job_id,
          captionStyle: r.caption_style,
          quality,
          provenance: manifest,
        },
        files: [
          { role: 'video', path: output, contentType: 'video/mp4', name: 'captioned.mp4' },
          { role: 'thumbnail', path: poster, contentType: 'image/jpeg', name: 'poster.jpg' },
          { role: 'subtitle', path: assPath, contentType: 'text/x-ssa', name: 'captions.ass' },
          {
            role: 'manifest',
            path: provenancePath,
            contentType: 'application/json',
            name: 'provenance.json',
          },
        ],
      };
    },
  };
}
