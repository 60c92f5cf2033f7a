import { extname } from 'node:path';
import type { JobOutput, OutputFile } from '../../platform/modes/mode.ts';
import { writeTitleAndDescription } from '../../media/script/title-description.ts';
import type { DroppedClip, RenderedClip } from '../../media/clips/clip-pipeline.ts';
import { callerVideoProvenance } from '../../media/provenance/caller-video.ts';
import type { ProvenanceManifest } from '../../media/provenance/provenance.ts';
import type { ClipRequest } from './clip-request.ts';
import type { ClipSource } from './clip-source.ts';

// A finished clip job's artifacts (spec 1 §2.3): clips highest score first, one 'clip' and one 'clip_thumbnail'
// file per clip with its position, the best clip's poster as the job's thumbnail, and the refund of every
// requested clip that was not delivered.

export interface ClipOutputInput {
  request: ClipRequest;
  source: ClipSource;
  clips: readonly RenderedClip[];
  /** Moments whose clips failed their quality gate twice (not delivered, refunded). */
  dropped?: readonly DroppedClip[];
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

/** Where a clip's provenance manifest is written, next to the clip. */
export function clipProvenancePath(clip: Pick<RenderedClip, 'path'>): string {
  return clip.path.replace(/\.mp4$/, '') + '.provenance.json';
}

/** A clip's manifest: the caller's video (the stretch taken from it) and the caption font. */
export function clipProvenance(request: ClipRequest, clip: RenderedClip): ProvenanceManifest {
  const source = request.source_video
    ? { url: request.source_video.url, field: request.channel_url ? 'channel_url' : 'vidsite_url' }
    : { url: request.media_url ?? '', field: 'media_url' };
  return callerVideoProvenance({
    source,
    sourceRange: { start: clip.startSec, end: clip.endSec },
    output: { durationSec: clip.durationSec, width: clip.width, height: clip.height },
    // The captions run the clip's length (its words were chosen to fill it).
    ...(clip.captionFont && clip.captionsPath
      ? {
          captions: {
            fontFamily: clip.captionFont,
            start: 0,
            end: clip.durationSec,
            box: clip.quality.checks.safe_zone.caption_box,
          },
        }
      : {}),
  });
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
      {
        role: 'manifest',
        path: clipProvenancePath(clip),
        contentType: 'application/json',
        index,
        name: `clip-${index + 1}.provenance.json`,
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
      quality: clip.quality,
      provenance: clipProvenance(request, clip),
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
      ...(input.dropped && input.dropped.length > 0
        ? {
            dropped_clips: input.dropped.map((d) => ({
              title: d.title,
              startSec: d.startSec,
              endSec: d.endSec,
              reason: `failed its quality gate twice: ${d.reason}`,
            })),
          }
        : {}),
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
