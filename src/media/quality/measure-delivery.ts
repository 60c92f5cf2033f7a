// Measures a delivered video: one ffmpeg pass (measure-command.ts) and one ffprobe of the stream lengths.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEbur128Summary } from '../ffmpeg/measure.ts';
import { runFfmpeg, runFfprobe } from '../ffmpeg/runner.ts';
import type { WordTiming } from '../types.ts';
import { captionOffsets, captionOnsets } from './caption-timing.ts';
import {
  buildMeasureCommand,
  emptyPassLog,
  ENVELOPE_SAMPLE_RATE,
  frozenRuns,
  joinRuns,
  readPassLine,
  type MeasureCaptions,
  type PassLog,
} from './measure-command.ts';
import { findNarrationLag, logEnvelope } from './narration-lag.ts';
import type { DeliveryMeasurement } from './quality-gate.ts';

export interface MeasureDeliveryInput {
  videoPath: string;
  /** The narration file as mixed, and its words on the output timeline; absent for unnarrated videos. */
  narration?: { path: string; tempo?: number; words: readonly WordTiming[] };
  /** The ASS script burned into the video. */
  captions?: MeasureCaptions;
  /**
   * What black and freeze detection printed when it ran on the render's own frames (videoDetectFilter as the
   * compose's tap): the pass then leaves the picture alone.
   */
  videoLog?: PassLog;
  signal?: AbortSignal;
}

interface StreamFacts {
  width: number;
  height: number;
  videoSec: number;
  audioSec: number | null;
}

interface ProbeStreams {
  streams?: { codec_type?: string; width?: number; height?: number; duration?: string }[];
}

/** Each stream's own length (the container's is the longer of them, which hides a short one). */
export function parseStreamFacts(json: string): StreamFacts {
  const streams = (JSON.parse(json) as ProbeStreams).streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!video) throw new Error('the delivered file has no video stream');
  return {
    width: video.width ?? 0,
    height: video.height ?? 0,
    videoSec: Number(video.duration ?? 0),
    audioSec: audio ? Number(audio.duration ?? 0) : null,
  };
}

async function readFloats(path: string): Promise<Float32Array> {
  const bytes = await readFile(path);
  return new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4));
}

export async function measureDelivery(input: MeasureDeliveryInput): Promise<DeliveryMeasurement> {
  const started = performance.now();
  const { stdout } = await runFfprobe(
    [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,width,height,duration',
      '-of',
      'json',
      input.videoPath,
    ],
    { signal: input.signal },
  );
  const facts = parseStreamFacts(stdout);
  const dir = await mkdtemp(join(tmpdir(), 'rs-quality-'));
  try {
    const hasAudio = facts.audioSec !== null;
    const narrate = hasAudio && input.narration !== undefined;
    const mixRawPath = join(dir, 'mix.f32');
    const narrationRawPath = join(dir, 'narration.f32');
    const command = buildMeasureCommand({
      videoPath: input.videoPath,
      durationSec: facts.videoSec,
      width: facts.width,
      height: facts.height,
      hasAudio,
      ...(hasAudio ? { mixRawPath } : {}),
      ...(narrate
        ? {
            narrationPath: input.narration!.path,
            narrationTempo: input.narration!.tempo ?? 1,
            narrationRawPath,
          }
        : {}),
      ...(input.captions ? { captions: input.captions } : {}),
      ...(input.videoLog ? { videoMeasured: true } : {}),
    });
    const log = input.videoLog ?? emptyPassLog();
    const pass = hasAudio || input.captions !== undefined || !input.videoLog;
    const { stderrTail } = pass
      ? await runFfmpeg(command.args, {
          signal: input.signal,
          onStderrLine: (line) => readPassLine(log, line),
        })
      : { stderrTail: '' };
    let lag: ReturnType<typeof findNarrationLag> | null = null;
    if (narrate) {
      lag = findNarrationLag(
        logEnvelope(await readFloats(narrationRawPath), ENVELOPE_SAMPLE_RATE),
        logEnvelope(await readFloats(mixRawPath), ENVELOPE_SAMPLE_RATE),
      );
    }
    let offsets = null;
    if (input.captions && input.narration) {
      offsets = captionOffsets(
        captionOnsets(await readFile(input.captions.assPath, 'utf8')),
        input.narration.words,
        lag?.lagSec ?? 0,
      );
    }
    return {
      loudness: hasAudio ? parseEbur128Summary(stderrTail) : null,
      black: joinRuns(log.black),
      frozen: frozenRuns(log, facts.videoSec),
      videoStreamSec: facts.videoSec,
      audioStreamSec: facts.audioSec,
      narrationLagSec: lag?.lagSec ?? null,
      narrationCorrelation: lag ? Math.round(lag.correlation * 1000) / 1000 : null,
      captionOffsets: offsets,
      captionBoxes: log.captionBoxes,
      frame: { width: facts.width, height: facts.height },
      measureSec: (performance.now() - started) / 1000,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
