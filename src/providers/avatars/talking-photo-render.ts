// The course of one talking-photo render, the same for every provider; each client only says how its API spells
// the steps (RenderProtocol):
// prepare the photo and narration → upload both → submit the render → report its id → poll it within the time
// budget → download the result through the URL guard and check it is a playable video → delete the uploads.
// Uploads are deleted only once no provider render can still need them (it finished, failed, or never started);
// a render that timed out or was aborted keeps them, since the provider may still be working from them and an
// aborted job may resume it.

import { join } from 'node:path';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';
import { downloadShot, ShotDownloadError } from '../video-models/follow-shot.ts';
import { ProviderSession, sleep, type ErrorReader } from './provider-session.ts';
import { prepareAudio, preparePhoto, type PreparedUpload } from './render-inputs.ts';
import {
  TalkingPhotoError,
  type TalkingPhotoClientOptions,
  type TalkingPhotoJob,
  type TalkingPhotoRenderOptions,
  type TalkingPhotoResult,
} from './talking-photo.ts';

export interface UploadedFile {
  id: string;
  url: string;
}

export type RenderState =
  | { state: 'queued' }
  | { state: 'rendering' }
  | { state: 'completed'; videoUrl: string }
  | { state: 'failed'; refused: boolean; retryable: boolean; message: string };

/** How one provider's API spells each step. */
export interface RenderProtocol {
  readonly label: string;
  /** The setting holding the key, named when the key is refused. */
  readonly credential: string;
  readonly defaultBaseUrl: string;
  authHeaders(apiKey: string): Record<string, string>;
  readError: ErrorReader;
  uploadPhoto(session: ProviderSession, base: string, photo: PreparedUpload): Promise<UploadedFile>;
  uploadAudio(session: ProviderSession, base: string, audio: PreparedUpload): Promise<UploadedFile>;
  /** Starts the paid render; answers its id. */
  submit(
    session: ProviderSession,
    base: string,
    inputs: { photo: UploadedFile; audio: UploadedFile },
    job: TalkingPhotoJob,
  ): Promise<string>;
  status(session: ProviderSession, base: string, renderId: string): Promise<RenderState>;
  deleteUpload(
    session: ProviderSession,
    base: string,
    kind: 'photo' | 'audio',
    file: UploadedFile,
  ): Promise<void>;
}

/** The time the uploads' deletion may take after a finished render. */
const CLEANUP_BUDGET_MS = 15_000;
/** Fractions reported at each stage reached. */
const PROGRESS = { prepared: 0.05, photo: 0.12, audio: 0.2, submitted: 0.25, rendering: 0.5, rendered: 0.9 };

export async function renderTalkingPhoto(
  protocol: RenderProtocol,
  client: TalkingPhotoClientOptions,
  job: TalkingPhotoJob,
  opts: TalkingPhotoRenderOptions,
): Promise<TalkingPhotoResult> {
  const base = (client.baseUrl ?? protocol.defaultBaseUrl).replace(/\/+$/, '');
  const { signal } = opts;
  const session = newSession(protocol, client, signal, Date.now() + client.timeoutMs);
  let reported = 0;
  const progress = (fraction: number) => {
    if (fraction <= reported) return;
    reported = fraction;
    opts.onProgress?.(fraction);
  };

  const uploads: { photo?: UploadedFile; audio?: UploadedFile } = {};
  let renderId = opts.resumeJobId;
  if (!renderId) {
    let submitting = false;
    try {
      const [photo, audio] = await Promise.all([
        preparePhoto(job.photoPath, job.aspectRatio, opts.workDir, job.faceBox),
        prepareAudio(job.audioPath, opts.workDir, signal),
      ]);
      progress(PROGRESS.prepared);
      uploads.photo = await protocol.uploadPhoto(session, base, photo);
      progress(PROGRESS.photo);
      uploads.audio = await protocol.uploadAudio(session, base, audio);
      progress(PROGRESS.audio);
      submitting = true;
      renderId = await protocol.submit(session, base, { photo: uploads.photo, audio: uploads.audio }, job);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      // A submit whose answer was lost may have started a render that still reads the uploads.
      const outcomeUnknown =
        submitting &&
        error instanceof TalkingPhotoError &&
        (error.kind === 'unavailable' || error.kind === 'bad_response');
      if (!session.timedOut && !outcomeUnknown) {
        await deleteUploads(protocol, client, base, uploads, opts.log);
      }
      throw error;
    }
    await opts.onSubmitted?.(renderId);
  }
  session.renderId = renderId;
  progress(PROGRESS.submitted);

  const finished = await follow(protocol, session, base, renderId, client.pollIntervalMs, signal, progress);
  if (finished.state === 'failed') {
    await deleteUploads(protocol, client, base, uploads, opts.log);
    throw new TalkingPhotoError(
      finished.refused ? 'refused' : 'failed',
      protocol.label,
      finished.refused
        ? `${protocol.label} refused the content: ${finished.message}`
        : `the ${protocol.label} render ${renderId} failed: ${finished.message}`,
      { providerJobId: renderId, retryable: !finished.refused && finished.retryable },
    );
  }
  progress(PROGRESS.rendered);

  const videoPath = join(opts.workDir, `talking-photo-${renderId.replace(/[^\w.-]+/g, '_')}.mp4`);
  try {
    await downloadShot(client.urlGuard, finished.videoUrl, videoPath, { signal });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof ShotDownloadError || error instanceof UrlRejectedError) {
      throw new TalkingPhotoError('bad_result', protocol.label, error.message, {
        providerJobId: renderId,
        retryable: false,
        cause: error,
      });
    }
    throw error;
  } finally {
    await deleteUploads(protocol, client, base, uploads, opts.log);
  }
  progress(1);
  return { videoPath, providerJobId: renderId };
}

/** Polls until the render completes or fails, within the session's budget. */
async function follow(
  protocol: RenderProtocol,
  session: ProviderSession,
  base: string,
  renderId: string,
  pollIntervalMs: number,
  signal: AbortSignal,
  progress: (fraction: number) => void,
): Promise<Extract<RenderState, { state: 'completed' | 'failed' }>> {
  for (;;) {
    const state = await protocol.status(session, base, renderId);
    if (state.state === 'completed' || state.state === 'failed') return state;
    if (state.state === 'rendering') progress(PROGRESS.rendering);
    const remaining = session.deadlineRemainingMs();
    if (remaining <= 0) throw session.timeoutError();
    await sleep(Math.min(pollIntervalMs, remaining), signal);
  }
}

function newSession(
  protocol: RenderProtocol,
  client: TalkingPhotoClientOptions,
  signal: AbortSignal,
  deadline: number,
): ProviderSession {
  return new ProviderSession({
    guard: client.urlGuard,
    label: protocol.label,
    credential: protocol.credential,
    authHeaders: protocol.authHeaders(client.apiKey),
    signal,
    deadline,
    backoffMs: client.pollIntervalMs,
    readError: protocol.readError,
  });
}

/**
 * Best effort: the render's outcome is already decided, and a provider that fails to delete a temporary upload
 * must not turn a delivered video into a failed job. The uploads expire at the provider anyway.
 */
async function deleteUploads(
  protocol: RenderProtocol,
  client: TalkingPhotoClientOptions,
  base: string,
  uploads: { photo?: UploadedFile; audio?: UploadedFile },
  log: TalkingPhotoRenderOptions['log'],
): Promise<void> {
  const session = newSession(
    protocol,
    client,
    AbortSignal.timeout(CLEANUP_BUDGET_MS),
    Date.now() + CLEANUP_BUDGET_MS,
  );
  const deletions = (['photo', 'audio'] as const).map(async (kind) => {
    const file = uploads[kind];
    if (file) await protocol.deleteUpload(session, base, kind, file);
  });
  for (const outcome of await Promise.allSettled(deletions)) {
    if (outcome.status === 'rejected') {
      log?.warn(
        { err: outcome.reason as unknown },
        `${protocol.label}: a temporary upload could not be deleted`,
      );
    }
  }
}
