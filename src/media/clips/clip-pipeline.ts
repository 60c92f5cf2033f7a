// Clip mode's media engine: a long video in, its best short moments out as finished clips.
// probe → source audio (16 kHz WAV + loudness blocks, one pass) → transcribe → find moments → per clip:
// motion analysis + one render. Transcript and moments are kept in the work folder, and finished clips are
// not rendered again, so a retried job resumes where the last attempt stopped.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { probeMedia, type MediaInfo } from '../ffmpeg/probe.ts';
import { findMoments, type Moment } from '../moments/find-moments.ts';
import type { LoudnessBlock } from '../moments/loudness-track.ts';
import { ProcessError } from '../process/run-process.ts';
import { baseLanguage, type SpeechRecognizer, type Transcript } from '../speech/recognizer.ts';
import { runFfmpeg } from '../ffmpeg/runner.ts';
import { CALLER_VIDEO_POLICY, deliverGated } from '../quality/gated-delivery.ts';
import { QualityGateError, type QualityArtifact } from '../quality/gated-render.ts';
import { describeFailures, type QualityReport } from '../quality/quality-gate.ts';
import { clipBounds, type ClipBounds } from './clip-bounds.ts';
import { ClipSourceError } from './clip-errors.ts';
import { outputSize, type AspectRatio, type ReframePlan } from './reframe.ts';
import { renderClip, wordsOnClip, type ReframeReport, type RenderedClipFile } from './render-clip.ts';
import { extractSourceAudio } from './source-audio.ts';

export interface ClipPipelineInput {
  sourcePath: string;
  workDir: string;
  clipCount: number;
  aspectRatio: AspectRatio;
  captions: boolean;
  /** A brand's font for the captions (the fallback family when the font catalogue lacks it). */
  fontFamily?: string | null;
  /** The prepared fonts folder (src/media/fonts/caption-fonts-dir.ts); needed for a shipped web font. */
  fontsDir?: string;
  focus?: string;
  contentPurpose?: string;
  recognizer: SpeechRecognizer;
  languageHint?: string;
  signal?: AbortSignal;
  /** x264 preset, e.g. 'ultrafast' in tests. Default 'veryfast'. */
  preset?: string;
  /** Scales the output frame down (0 < scale ≤ 1), for tests: 0.25 gives 270×480 for 9:16. */
  outputScale?: number;
  onProgress?: (stage: string, percent: number, message: string) => void | Promise<void>;
}

export interface RenderedClip {
  /** Position in `clips` (0 = best). */
  index: number;
  path: string;
  posterPath: string;
  /** ASS captions burned into the clip (null without captions). */
  captionsPath: string | null;
  title: string;
  transcript: string;
  /** Where the clip was cut from the source, s. */
  startSec: number;
  endSec: number;
  /** Measured length of the clip file, s. */
  durationSec: number;
  viralScore: number;
  /** Points each signal contributed to viralScore (see docs/clip-scoring.md). */
  scoreBreakdown: Record<string, number>;
  width: number;
  height: number;
  /** How the picture was reframed: a crop following motion, the whole picture over a blurred copy, or a scale. */
  framing: ReframePlan;
  /** Which reframe ran and why (see docs/clips.md, "Reframing"). */
  reframe: ReframeReport;
  /** The clip file measured against the quality gate (docs/quality.md). */
  quality: QualityArtifact;
  /** The caption font drawn (null without captions). */
  captionFont: string | null;
}

/** A moment whose clip failed its quality gate twice: not delivered (and refunded like any undelivered clip). */
export interface DroppedClip {
  title: string;
  startSec: number;
  endSec: number;
  /** The failed checks with what was measured. */
  reason: string;
  report: QualityReport;
}

export interface ClipPipelineResult {
  /** Highest score first; fewer than clipCount when the source has fewer good moments, empty without speech. */
  clips: RenderedClip[];
  /** Moments whose clips failed their quality gate twice. */
  dropped: DroppedClip[];
  sourceDurationSec: number;
  language: string;
  /**
   * Wall seconds per stage: audio (decode + loudness), transcribe, moments (scoring), motion (reframe
   * analysis of all clips: speaking faces, and motion where they fall back), encode (all clip renders). Stages a retried job reused count 0.
   */
  stageSeconds: Record<'audio' | 'transcribe' | 'moments' | 'motion' | 'encode', number>;
}

const DEFAULT_PRESET = 'veryfast';
/** Share of the progress bar per stage: preparing audio, transcription, finding moments, rendering. */
const PROGRESS = { audio: 3, transcribe: 50, moments: 53, render: 100 } as const;

interface AnalysisRecord {
  key: string;
  transcript: Transcript;
  loudness: LoudnessBlock[];
}

type StageSeconds = ClipPipelineResult['stageSeconds'];

async function timeStage<T>(
  seconds: StageSeconds,
  stage: keyof StageSeconds,
  work: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    seconds[stage] += (performance.now() - started) / 1000;
  }
}

function analysisKey(input: ClipPipelineInput, info: MediaInfo): string {
  return JSON.stringify([
    input.sourcePath,
    info.sizeBytes,
    info.durationSec,
    input.recognizer.id,
    input.languageHint ?? '',
  ]);
}

/**
 * Reports progress in order. Callbacks that cannot wait (the recognizer's, ffmpeg's) `queue` behind earlier
 * reports; a failure of the caller's callback surfaces at the next awaited `report`.
 */
function progressReporter(input: ClipPipelineInput) {
  let chain: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | null = null;
  let last = '';
  const queue = (stage: string, percent: number, message: string): void => {
    const rounded = Math.round(percent);
    const onProgress = input.onProgress;
    // Byte-level ffmpeg progress repeats the same whole percent many times; only changes are reported.
    const key = `${stage}|${rounded}|${message}`;
    if (!onProgress || key === last) return;
    last = key;
    chain = chain
      .then(() => onProgress(stage, rounded, message))
      .catch((error: unknown) => {
        failure ??= { error };
      });
  };
  return {
    queue,
    async report(stage: string, percent: number, message: string): Promise<void> {
      queue(stage, percent, message);
      await chain;
      if (failure) throw failure.error;
    },
  };
}

async function probeSource(sourcePath: string, signal?: AbortSignal): Promise<MediaInfo> {
  try {
    return await probeMedia(sourcePath, { signal });
  } catch (error) {
    if (error instanceof ProcessError && error.reason === 'exit') {
      throw new ClipSourceError('UNREADABLE_SOURCE', 'The source file is not a video ffprobe can read.');
    }
    throw error;
  }
}

async function analyse(
  input: ClipPipelineInput,
  info: MediaInfo,
  progress: ReturnType<typeof progressReporter>,
  seconds: StageSeconds,
): Promise<AnalysisRecord> {
  const recordPath = join(input.workDir, 'clip-analysis.json');
  const key = analysisKey(input, info);
  if (existsSync(recordPath)) {
    const kept = JSON.parse(await readFile(recordPath, 'utf8')) as AnalysisRecord;
    if (kept.key === key) return kept;
  }
  if (!info.audio) {
    return {
      key,
      transcript: {
        language: baseLanguage(input.languageHint ?? 'en'),
        durationSec: info.durationSec,
        words: [],
        text: '',
      },
      loudness: [],
    };
  }
  const wavPath = join(input.workDir, 'source-speech.wav');
  try {
    await progress.report('transcribe', 1, 'Reading the audio.');
    const audio = await timeStage(seconds, 'audio', () =>
      extractSourceAudio(input.sourcePath, wavPath, { signal: input.signal }),
    );
    await progress.report('transcribe', PROGRESS.audio, 'Recognizing the speech.');
    const span = PROGRESS.transcribe - PROGRESS.audio;
    const transcript = await timeStage(seconds, 'transcribe', () =>
      input.recognizer.transcribe(wavPath, {
        languageHint: input.languageHint,
        signal: input.signal,
        onProgress: (fraction) =>
          progress.queue('transcribe', PROGRESS.audio + fraction * span, 'Recognizing the speech.'),
      }),
    );
    const record: AnalysisRecord = { key, transcript, loudness: audio.loudness };
    await writeFile(recordPath, JSON.stringify(record));
    return record;
  } finally {
    await rm(wavPath, { force: true });
  }
}

/**
 * The clip gate's decision for a job: clips that failed their gate twice are dropped (the others are
 * delivered); when every clip failed, the job fails with the best moment's report (QualityGateError).
 */
export function keepGatedClips(clips: readonly unknown[], dropped: readonly DroppedClip[]): void {
  if (clips.length === 0 && dropped[0]) throw new QualityGateError(dropped[0].report, 2);
}

/** The source's sound over the clip's stretch (mono 16 kHz): where the clip's words are found in its mix. */
async function clipSpeech(input: ClipPipelineInput, bounds: ClipBounds, path: string): Promise<string> {
  await runFfmpeg(
    [
      '-y',
      '-ss',
      bounds.startSec.toFixed(3),
      '-t',
      bounds.durationSec.toFixed(3),
      '-i',
      input.sourcePath,
      '-map',
      '0:a:0',
      '-ac',
      '1',
      '-ar',
      '16000',
      path,
    ],
    { signal: input.signal },
  );
  return path;
}

export async function cutClips(input: ClipPipelineInput): Promise<ClipPipelineResult> {
  if (!Number.isInteger(input.clipCount) || input.clipCount < 1) {
    throw new RangeError('clipCount must be a positive integer');
  }
  if (input.outputScale !== undefined && !(input.outputScale > 0 && input.outputScale <= 1)) {
    throw new RangeError('outputScale must be in (0, 1]');
  }
  await mkdir(input.workDir, { recursive: true });
  const progress = progressReporter(input);
  const info = await probeSource(input.sourcePath, input.signal);
  if (!info.video) {
    throw new ClipSourceError(
      'NO_VIDEO_STREAM',
      'The source has no video stream: clips need a picture to cut.',
    );
  }
  const video = info.video;

  const seconds: StageSeconds = { audio: 0, transcribe: 0, moments: 0, motion: 0, encode: 0 };
  const analysis = await analyse(input, info, progress, seconds);
  await progress.report('transcribe', PROGRESS.transcribe, 'Speech recognized.');
  input.signal?.throwIfAborted();
  const durationSec = info.durationSec > 0 ? info.durationSec : analysis.transcript.durationSec;
  const momentsStarted = performance.now();
  const moments: Moment[] = findMoments({
    words: analysis.transcript.words,
    durationSec,
    loudness: analysis.loudness,
    clipCount: input.clipCount,
    focus: input.focus,
    contentPurpose: input.contentPurpose,
  });
  seconds.moments = (performance.now() - momentsStarted) / 1000;
  await progress.report(
    'moments',
    PROGRESS.moments,
    moments.length > 0
      ? `Found ${moments.length} moment${moments.length === 1 ? '' : 's'} worth clipping.`
      : 'No moment worth clipping.',
  );

  const size = outputSize(input.aspectRatio, input.outputScale ?? 1);
  const clips: RenderedClip[] = [];
  const dropped: DroppedClip[] = [];
  const renderSpan = (PROGRESS.render - PROGRESS.moments) / Math.max(1, moments.length);
  for (const [index, moment] of moments.entries()) {
    input.signal?.throwIfAborted();
    const bounds = clipBounds(moment, durationSec);
    const base = PROGRESS.moments + index * renderSpan;
    const message = `Rendering clip ${index + 1} of ${moments.length}.`;
    await progress.report('render', base, message);
    const basePath = join(input.workDir, `clip-${index + 1}`);
    const speechPath = info.audio ? await clipSpeech(input, bounds, `${basePath}.speech.wav`) : null;
    let file: RenderedClipFile | undefined;
    let quality: QualityArtifact;
    try {
      quality = await deliverGated({
        hasSound: info.audio !== undefined,
        measure: {
          videoPath: `${basePath}.mp4`,
          ...(speechPath
            ? { narration: { path: speechPath, words: wordsOnClip(moment.words, bounds) } }
            : {}),
          ...(input.captions
            ? {
                captions: {
                  assPath: `${basePath}.ass`,
                  ...(input.fontsDir ? { fontsDir: input.fontsDir } : {}),
                },
              }
            : {}),
          ...(input.signal ? { signal: input.signal } : {}),
        },
        context: { plannedSec: bounds.durationSec, policy: CALLER_VIDEO_POLICY },
        render: async (previous) => {
          const { clip, seconds: spent } = await renderClip({
            sourcePath: input.sourcePath,
            source: { width: video.width, height: video.height, fps: video.fps },
            bounds,
            words: moment.words,
            loudness: analysis.loudness,
            width: size.width,
            height: size.height,
            captions: input.captions,
            fontFamily: input.fontFamily,
            fontsDir: input.fontsDir,
            preset: input.preset ?? DEFAULT_PRESET,
            basePath,
            signal: input.signal,
            onProgress: (fraction) => progress.queue('render', base + fraction * renderSpan, message),
            ...(previous ? { correction: previous } : {}),
          });
          file = clip;
          seconds.motion += spent.motion;
          seconds.encode += spent.encode;
        },
        onRerender: (report) =>
          progress.report(
            'render',
            base,
            `Clip ${index + 1} failed its quality gate (${describeFailures(report)}); rendering it once more.`,
          ),
      });
    } catch (error) {
      if (!(error instanceof QualityGateError)) throw error;
      dropped.push({
        title: moment.title,
        startSec: bounds.startSec,
        endSec: bounds.endSec,
        reason: describeFailures(error.report),
        report: error.report,
      });
      continue;
    } finally {
      if (speechPath) await rm(speechPath, { force: true });
    }
    if (!file) throw new Error('the clip render made no clip');
    clips.push({
      index,
      path: file.path,
      posterPath: file.posterPath,
      captionsPath: file.captionsPath,
      title: moment.title,
      transcript: moment.transcript,
      startSec: bounds.startSec,
      endSec: bounds.endSec,
      durationSec: file.durationSec,
      viralScore: moment.viralScore,
      scoreBreakdown: moment.scoreBreakdown,
      width: file.width,
      height: file.height,
      framing: file.framing,
      reframe: file.reframe,
      quality,
      captionFont: file.captionFont ?? null,
    });
  }
  keepGatedClips(clips, dropped);
  await progress.report(
    'render',
    PROGRESS.render,
    `${clips.length} clip${clips.length === 1 ? '' : 's'} ready.`,
  );
  return {
    clips,
    dropped,
    sourceDurationSec: durationSec,
    language: analysis.transcript.language,
    stageSeconds: seconds,
  };
}
