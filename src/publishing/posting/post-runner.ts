// Posts one finished video to the platforms of a publish job, one platform after another. Each platform's
// state is written as it changes (platform_posts), so the job record shows it live and a retried job skips
// the platforms already done: a platform never gets the video twice. A platform's refusal, an expired
// connection or a platform still failing after the client's own retries fails that platform only.
import { stat } from 'node:fs/promises';
import type { JobContext } from '../../platform/modes/mode.ts';
import { PlatformError } from '../platforms/platform.ts';
import type { Publishing } from '../publishing.ts';
import {
  markPostFailed,
  markPosted,
  markPosting,
  type PlatformPostState,
  platformPostRows,
  platformPostStates,
} from './platform-posts-repo.ts';
import type { PostCopy, PostTarget } from './post-targets.ts';

export interface VideoForPosting {
  filePath: string;
  durationSec: number;
  /** A signed link to the stored file, for platforms that fetch the video themselves (Instagram). */
  signedUrl: string;
}

/** The copy a platform gets: what the request sent, else the video's own title, description and hashtags. */
export interface SourceCopy {
  title?: string;
  description?: string;
  hashtags?: string[];
}

function hashtagsOf(copy: PostCopy, source: SourceCopy): string[] {
  return (copy.hashtags ?? source.hashtags ?? []).map((tag) => tag.replace(/^#/, ''));
}

export async function postToPlatforms(
  ctx: JobContext<unknown>,
  publishing: Publishing,
  video: VideoForPosting,
  targets: readonly PostTarget[],
  copy: PostCopy,
  source: SourceCopy,
  progress: { from: number; to: number },
): Promise<PlatformPostState[]> {
  const { db } = ctx.services;
  const jobId = ctx.job.id;
  const { size } = await stat(video.filePath);
  const rows = new Map((await platformPostRows(db, jobId)).map((row) => [row.platform, row]));
  const title = copy.title ?? source.title;
  const caption = copy.caption ?? source.description ?? source.title ?? '';
  const span = (progress.to - progress.from) / Math.max(1, targets.length);
  for (const [index, target] of targets.entries()) {
    if (rows.get(target.platform)?.status !== 'queued') continue;
    const name = publishing.clients[target.platform].name;
    const base = progress.from + index * span;
    await ctx.progress('posting', base, `Posting to ${name}.`);
    await markPosting(db, jobId, target.platform);
    const publish = async (forceRefresh: boolean) =>
      publishing.clients[target.platform].publish(
        await publishing.connections.accountFor(target.connection_id, { forceRefresh }),
        {
          filePath: video.filePath,
          sizeBytes: size,
          durationSec: video.durationSec,
          signedUrl: video.signedUrl,
          caption,
          ...(title ? { title } : {}),
          hashtags: hashtagsOf(copy, source),
          options: target.options,
        },
        { signal: ctx.signal },
      );
    try {
      let posted;
      try {
        posted = await publish(false);
      } catch (error) {
        // A token the platform refuses before its expiry is refreshed once; a refused refresh expires the
        // connection and fails this platform with PLATFORM_OAUTH_EXPIRED.
        if (!(error instanceof PlatformError) || error.code !== 'PLATFORM_OAUTH_EXPIRED') throw error;
        posted = await publish(true);
      }
      await markPosted(db, jobId, target.platform, posted);
      ctx.log.info({ platform: target.platform, externalId: posted.externalId }, 'posted');
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      await markPostFailed(db, jobId, target.platform, { code: error.code, message: error.message });
      ctx.log.warn({ platform: target.platform, code: error.code }, 'post failed');
    }
    await ctx.progress('posting', base + span, `Done with ${name}.`);
  }
  return platformPostStates(db, jobId);
}
