import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobRow } from '../../platform/db/schema.ts';
import { JobFailure } from '../../platform/errors.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import type {
  JobContext,
  ModeDefinition,
  OutputFile,
  Price,
  RenderEstimate,
} from '../../platform/modes/mode.ts';
import { PRICE_TABLE, unitPrice } from '../../platform/pricing/price-table.ts';
import { captionStyleById } from '../../media/captions/style-catalogue.ts';
import { runFfmpeg } from '../../media/ffmpeg/runner.ts';
import { isLocalRecognizer } from '../../media/speech/create-recognizer.ts';
import { diarize, type SpeakerSummary } from '../../media/speech/diarize.ts';
import {
  UnsupportedLanguageError,
  type SpeechRecognizer,
  type Transcript as Recognized,
} from '../../media/speech/recognizer.ts';
import { TranscriptionServiceError } from '../../providers/openai-transcription.ts';
import { jobSource, stageSource, type ProbedSource } from './source-media.ts';
import {
  DEFAULT_CAPTION_STYLE,
  transcribeRequestSchema,
  type SourceSummary,
  type TranscribeRequest,
} from './transcribe-request.ts';
import { buildTranscript, transcriptFile } from './transcript.ts';

/** Frame of the `ass` file when the source has no picture: the service's vertical video. */
const VERTICAL_FRAME = { width: 1080, height: 1920 };

/** Seconds one minute-long unit of the price covers (spec 2 §4.6: per 4 minutes, rounded up). */
const PRICE_UNIT_SEC = 240;

// Processing seconds per second of source, measured on two shared cores: pocketsphinx decodes about twice
// real time, diarization adds a few percent; a service is taken at the spec's "about 3 s per minute".
const LOCAL_SECONDS_PER_SECOND = 0.5;
const SERVICE_SECONDS_PER_SECOND = 0.05;
const DIARIZE_SECONDS_PER_SECOND = 0.03;
const STARTUP_SECONDS = 8;

export interface TranscribeModeDeps {
  recognizer: SpeechRecognizer;
}

function sourceOf(request: TranscribeRequest): SourceSummary {
  if (!request.source) throw new Error('a transcription request is priced only after its source was probed');
  return request.source;
}

export function summarize(probed: ProbedSource): SourceSummary {
  return {
    duration_sec: Math.round(probed.durationSec * 1000) / 1000,
    format: probed.format,
    size_bytes: probed.sizeBytes,
  };
}

/** Spec 2 §4.6 in the USD price table: per started 4 minutes of source, diarization +50 % (rounded up). */
export function transcriptionPrice(durationSec: number, diarization: boolean, engine: string): Price {
  const units = Math.max(1, Math.ceil(Math.round(durationSec * 1000) / (PRICE_UNIT_SEC * 1000)));
  const base = units * unitPrice('transcription');
  const extra = diarization ? Math.ceil(base / 2) : 0;
  return {
    usdCents: base + extra,
    breakdown: [
      { item: 'transcription', usd_cents: base, quantity: units, unit: PRICE_TABLE.transcription.unit },
      ...(diarization ? [{ item: 'diarization (+50 %)', usd_cents: extra }] : []),
    ],
    tool: 'transcribe',
    model: engine,
    tier: diarization ? 'diarization' : 'standard',
    engine: PRICE_TABLE.transcription.engine,
  };
}

export function transcriptionSeconds(
  durationSec: number,
  diarization: boolean,
  local: boolean,
): RenderEstimate {
  const perSecond =
    (local ? LOCAL_SECONDS_PER_SECOND : SERVICE_SECONDS_PER_SECOND) +
    (diarization ? DIARIZE_SECONDS_PER_SECOND : 0);
  const typical = STARTUP_SECONDS + durationSec * perSecond;
  return { min: Math.ceil(typical / 2), typical: Math.ceil(typical), max: Math.ceil(typical * 2.5) };
}

/** ffmpeg arguments: the first audio track as 16 kHz mono FLAC, what recognizers and diarization read. */
export function speechTrackArgs(source: string, output: string): string[] {
  return ['-y', '-i', source, '-map', '0:a:0', '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'flac', output];
}

/** A stage's result kept in the work folder, so a retried attempt resumes after it. */
async function recoveryPoint<T>(workDir: string, name: string, run: () => Promise<T>): Promise<T> {
  const path = join(workDir, `${name}.json`);
  if (existsSync(path)) return JSON.parse(await readFile(path, 'utf8')) as T;
  const result = await run();
  await writeFile(path, JSON.stringify(result));
  return result;
}

/** Recognizer errors as the job's error: a service's own verdict on retrying is kept. */
function failRecognition(error: unknown): never {
  if (error instanceof TranscriptionServiceError) {
    throw new JobFailure({
      code: 'TRANSCRIPTION_FAILED',
      category: 'provider',
      message: `The transcription service failed: ${error.message}`,
      retryable: error.retryable,
    });
  }
  if (error instanceof UnsupportedLanguageError) {
    throw new JobFailure({
      code: 'LANGUAGE_NOT_SUPPORTED',
      category: 'input',
      message: error.message,
      retryable: false,
    });
  }
  throw error;
}

/** Spec 2 §4.6: the body of transcript.completed (and of our transcript.failed / transcript.cancelled). */
export function transcriptEventData(
  job: JobRow,
  artifacts: Record<string, unknown>,
): Record<string, unknown> {
  if (job.status !== 'completed') return { job_id: job.id, status: job.status, error: job.error ?? null };
  return {
    job_id: job.id,
    status: 'completed',
    transcript: artifacts.transcript,
    output_files: artifacts.output_files ?? [],
  };
}

/** The account brand's colours as branded caption presets take them. */
export function brandColors(brand: Record<string, unknown> | null): {
  primaryColor?: string;
  accentColor?: string;
} {
  const color = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { primaryColor: color(brand?.primary_color), accentColor: color(brand?.accent_color) };
}

/** POST /transcribe (spec 2 §4.6): speech to text with word timings, speakers and subtitle files. */
export function transcribeMode(deps: TranscribeModeDeps): ModeDefinition<TranscribeRequest> {
  const { recognizer } = deps;
  const local = isLocalRecognizer(recognizer);

  async function recognize(ctx: JobContext<TranscribeRequest>, speech: string): Promise<Recognized> {
    let reported = 0;
    try {
      return await recognizer.transcribe(speech, {
        languageHint: ctx.request.language_hint,
        signal: ctx.signal,
        onProgress: (fraction) => {
          const percent = 10 + Math.floor(fraction * 70);
          if (percent < reported + 5) return;
          reported = percent;
          void ctx.progress('transcribe', percent, 'Transcribing.');
        },
      });
    } catch (error) {
      ctx.signal.throwIfAborted();
      return failRecognition(error);
    }
  }

  return {
    name: 'transcription',
    endpoint: 'transcribe',
    title: 'Transcription',
    description:
      'Speech to text with word timestamps from an audio or video URL: optional speakers (diarization), profanity masking and json, srt, vtt, ass and txt files.',
    schema: transcribeRequestSchema,
    receiptStatus: 202,
    idempotencyKey: 'required',
    heavy: false,
    dryRun: true,
    webhooks: true,
    privateDelivery: false,
    identicalRequestProtection: false,
    webhookEvents: {
      completed: 'transcript.completed',
      failed: 'transcript.failed',
      cancelled: 'transcript.cancelled',
      data: transcriptEventData,
    },
    async validate(request, services) {
      const languages = recognizer.languages();
      if (request.language_hint && !languages.includes(request.language_hint)) {
        throw invalidInputError([
          {
            field: 'language_hint',
            message: `"${request.language_hint}" is not a language this server transcribes (engine ${recognizer.id}); supported: ${languages.join(', ')}`,
            valid_values: languages,
          },
        ]);
      }
      const probed = await stageSource(services, request.media_url, 'media_url');
      if (!probed.audio) throw invalidInputError([{ field: 'media_url', message: 'has no audio track' }]);
      return { ...request, source: summarize(probed) };
    },
    price: (request) =>
      transcriptionPrice(sourceOf(request).duration_sec, request.diarization, recognizer.id),
    estimate(request) {
      const source = sourceOf(request);
      const renderSeconds = transcriptionSeconds(source.duration_sec, request.diarization, local);
      const warnings: string[] = [];
      if (local && !request.language_hint)
        warnings.push(
          'The local engine recognizes English only, so the transcript is English; a transcription service (TRANSCRIBE_BASE_URL) detects the language.',
        );
      if (request.caption_style && !request.output_formats.includes('ass'))
        warnings.push('"caption_style" shapes the ass file only, and no ass file was requested.');
      return { renderSeconds, durationSec: source.duration_sec, warnings };
    },
    // A long source on the local engine outlasts JOB_MAX_LIFETIME_SECONDS: the job may run to its slowest estimate.
    lifetimeSeconds(request) {
      return transcriptionSeconds(sourceOf(request).duration_sec, request.diarization, local).max;
    },
    receiptExtras(request) {
      const source = sourceOf(request);
      return {
        estimated_completion_sec: transcriptionSeconds(source.duration_sec, request.diarization, local)
          .typical,
        source: { duration_sec: source.duration_sec, format: source.format },
      };
    },
    async run(ctx) {
      const r = ctx.request;
      const { workDir, signal } = ctx;
      await ctx.progress('source', 2, 'Reading the media.');
      const { path, probed } = await jobSource(ctx, r.media_url, 'media_url');
      const speech = join(workDir, 'speech.flac');
      if (!existsSync(speech)) {
        await ctx.progress('audio', 5, 'Extracting the audio track.');
        await runFfmpeg(speechTrackArgs(path, speech), { signal });
      }
      await ctx.progress('transcribe', 10, `Transcribing with ${recognizer.id}.`);
      const recognized = await recoveryPoint(workDir, 'recognized', () => recognize(ctx, speech));

      let words = recognized.words;
      let speakers: SpeakerSummary[] | undefined;
      if (r.diarization) {
        await ctx.progress('diarize', 82, 'Telling the speakers apart.');
        const diarized = await diarize(speech, words, { signal });
        words = diarized.words;
        speakers = diarized.speakers;
      }
      const transcript = buildTranscript({
        text: recognized.text,
        language: recognized.language,
        durationSec: probed.durationSec,
        words,
        speakers,
        filterProfanity: r.filter_profanity,
      });

      await ctx.progress('files', 94, 'Writing the transcript files.');
      const styleId = r.caption_style ?? DEFAULT_CAPTION_STYLE;
      // Branded presets take the account brand's colours.
      const brand = r.output_formats.includes('ass') ? await ctx.services.accountBrand() : null;
      const style = captionStyleById(styleId, brandColors(brand));
      if (!style) throw new Error(`caption style ${styleId} is not in the catalogue`);
      const files: OutputFile[] = [];
      for (const format of r.output_formats) {
        const file = transcriptFile(transcript, format, { style, frame: probed.video ?? VERTICAL_FRAME });
        const filePath = join(workDir, file.name);
        await writeFile(filePath, file.content);
        files.push({ role: file.role, path: filePath, contentType: file.contentType, name: file.name });
      }
      return {
        artifacts: {
          transcript,
          source: { duration_sec: transcript.duration_sec, format: probed.format },
          durationSec: transcript.duration_sec,
          engine: recognizer.id,
          ...(r.output_formats.includes('ass') ? { captionStyle: styleId } : {}),
        },
        files,
      };
    },
  };
}
