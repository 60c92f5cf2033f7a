import { extname } from 'node:path';
import type { JobOutput, OutputFile } from '../../platform/modes/mode.ts';
import { writeTitleAndDescription } from '../../media/script/title-description.ts';
import type { RenderedClip } from '../../media/clips/clip-pipeline.ts';
import type { ClipRequest } from './clip-request.ts';
import type { ClipSource } from './clip-source.ts';

// A finished clip job's artifacts (spec 1 §2.3): clips highest score first, one 'clip' and one 'clip_thumbnail'
// file per clip with its position, the best clip's poster as the job's thumbnail, and the refund of every
// requested clip that was not delivered.

export interface ClipOutputInput {
  request: ClipRequest;
  source: ClipSource;
  clips: readonly RenderedClip[];
  language: string;
  /** A copy of the best clip's poster, stored as the job's thumbnail. */
  posterPath: string;
  /** Price of one requested clip, in cents. */
  unitCents: number;
}

function imageType(path: string): string {
  return extname(path).toLowerCase() === '.png' ? 'image/png' : 'image/jpeg';
}

/** Description and hashtags from what is said in the clip (nothing to say when nothing was recognized). */
function postCopy(transcript: string, request: ClipRequest, language: string) {
  if (transcript.trim() === '') return { description: '', hashtags: [] as string[] };
  const copy = writeTitleAndDescription({
    script: transcript,
    contentPurpose: request.content_purpose,
    language,
  });
  return { description: copy.description, hashtags: copy.hashtags };
}

/** Highest score first; equal scores in the order of the source. */
export function bestFirst(clips: readonly RenderedClip[]): RenderedClip[] {
  return [...clips].sort((a, b) => b.viralScore - a.viralScore || a.startSec - b.startSec);
}

export function clipJobOutput(input: ClipOutputInput): JobOutput {
  const { request, source, language } = input;
  const clips = bestFirst(input.clips).slice(0, request.clip_count);
  const best = clips[0];
  if (!best) throw new Error('clipJobOutput needs at least one clip');

  const files: OutputFile[] = [
    {
      role: 'thumbnail',
      path: input.posterPath,
      contentType: imageType(input.posterPath),
      name: `poster${extname(input.posterPath)}`,
    },
  ];
  const entries = clips.map((clip, index) => {
    files.push(
      { role: 'clip', path: clip.path, contentType: 'video/mp4', index, name: `clip-${index + 1}.mp4` },
      {
        role: 'clip_thumbnail',
        path: clip.posterPath,
        contentType: imageType(clip.posterPath),
        index,
        name: `clip-${index + 1}${extname(clip.posterPath) || '.jpg'}`,
      },
    );
    return {
      index,
      title: clip.title,
      transcript: clip.transcript,
      ...postCopy(clip.transcript, request, language),
      viralScore: clip.viralScore,
      scoreBreakdown: clip.scoreBreakdown,
      durationSec: clip.durationSec,
      startSec: clip.startSec,
      endSec: clip.endSec,
      width: clip.width,
      height: clip.height,
      framing: clip.framing.mode,
      reframe: clip.reframe,
    };
  });

  const undelivered = request.clip_count - clips.length;
  const refundCents = undelivered * input.unitCents;
  const bestCopy = entries[0]!;
  const sourceVideo = request.source_video
    ? { ...request.source_video, title: source.title ?? request.source_video.title }
    : { url: request.media_url ?? null, title: source.title };
  return {
    artifacts: {
      title: best.title,
      description: bestCopy.description,
      script: best.transcript,
      durationSec: best.durationSec,
      clips: entries,
      requested_clip_count: request.clip_count,
      delivered_clip_count: clips.length,
      aspect_ratio: request.aspect_ratio,
      captions: request.captions,
      language,
      source_video: { ...sourceVideo, duration_sec: source.durationSec },
      ...(refundCents > 0 ? { refunded_usd_cents: refundCents } : {}),
    },
    files,
    ...(refundCents > 0
      ? {
          refundCents,
          refundReason: `undelivered clips: ${undelivered} of ${request.clip_count} requested`,
        }
      : {}),
  };
}
