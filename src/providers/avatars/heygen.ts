// The avatar_iv engine: HeyGen's Avatar IV animating a photo to our narration, through HeyGen's v3 API
// (https://api.heygen.com; the v1/v2 routes, `POST /v2/video/generate` among them, were retired on 2026-10-31).
// The routes and fields used, as HeyGen documents them (developers.heygen.com; the request and response schemas
// that HeyGen's own CLI, heygen-com/heygen-cli, is generated from):
// - auth: `X-Api-Key: <key>` on every call.
// - upload: POST /v3/assets, multipart/form-data with the file under `file` (png, jpeg, mp3, wav…, at most 32 MB)
//   → { data: { asset_id, url, mime_type, size_bytes } }. Photo and narration are uploaded alike.
// - render: POST /v3/videos with { type: "image", image: { type: "asset_id", asset_id }, audio_asset_id,
//   aspect_ratio, resolution, fit, title } → { data: { video_id, status } }. A raw image renders on Avatar IV (the
//   default engine; Avatar III does not take raw images), lip-synced to the uploaded audio instead of HeyGen's TTS.
// - status: GET /v3/videos/{video_id} → { data: { id, status: pending | processing | completed | failed,
//   video_url (presigned), failure_code, failure_message } }.
// - cleanup: DELETE /v3/assets/{asset_id}.
// - errors: { error: { code, message, param?, doc_url } } with 400, 401, 402 (insufficient_credit), 403, 404,
//   429 (Retry-After) and 5xx. HeyGen documents failure_code/failure_message on failed videos but not the values a
//   moderation refusal carries, so a refusal is recognised by its wording, as on the other providers.

import { z } from 'zod';
import { clip, type ProviderAnswer, type ProviderSession } from './provider-session.ts';
import type { PreparedUpload } from './render-inputs.ts';
import {
  TalkingPhotoError,
  type TalkingPhotoClientOptions,
  type TalkingPhotoJob,
  type TalkingPhotoProvider,
  type TalkingPhotoRenderOptions,
  type TalkingPhotoResult,
} from './talking-photo.ts';
import {
  renderTalkingPhoto,
  type RenderProtocol,
  type RenderState,
  type UploadedFile,
} from './talking-photo-render.ts';

export const HEYGEN_BASE_URL = 'https://api.heygen.com';
const LABEL = 'HeyGen';

/** HeyGen's wording for a moderation refusal (error codes and failure reasons). */
const REFUSAL =
  /moderat|content[ _-]?polic|polic(y|ies)[ _-]?violat|inappropriate|blocked[ _-]?words|nsfw|unsafe[ _-]?content/i;

const errorSchema = z.object({
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }),
});
const assetSchema = z.object({ data: z.object({ asset_id: z.string().min(1), url: z.string() }) });
const createdSchema = z.object({ data: z.object({ video_id: z.string().min(1) }) });
const videoSchema = z.object({
  data: z.object({
    status: z.string(),
    video_url: z.string().nullish(),
    failure_code: z.string().nullish(),
    failure_message: z.string().nullish(),
  }),
});

function readError(answer: ProviderAnswer): { message?: string; refused: boolean } {
  const parsed = errorSchema.safeParse(answer.json);
  if (!parsed.success) return { refused: false };
  const { code, message } = parsed.data.error;
  const text = [message, code ? `(${code})` : ''].filter(Boolean).join(' ');
  return { ...(text ? { message: text } : {}), refused: REFUSAL.test(`${code ?? ''} ${message ?? ''}`) };
}

function parsed<T>(schema: z.ZodType<T>, answer: ProviderAnswer, what: string): T {
  const result = schema.safeParse(answer.json);
  if (!result.success) {
    throw new TalkingPhotoError(
      'bad_response',
      LABEL,
      `HeyGen answered ${what} without the documented fields`,
      {
        status: answer.status,
        retryable: false,
      },
    );
  }
  return result.data;
}

async function uploadAsset(
  session: ProviderSession,
  base: string,
  file: PreparedUpload,
): Promise<UploadedFile> {
  const answer = await session.upload(`${base}/v3/assets`, 'file', file);
  const { data } = parsed(assetSchema, answer, 'the upload');
  return { id: data.asset_id, url: data.url };
}

const protocol: RenderProtocol = {
  label: LABEL,
  credential: 'HEYGEN_API_KEY',
  defaultBaseUrl: HEYGEN_BASE_URL,
  authHeaders: (apiKey) => ({ 'x-api-key': apiKey }),
  readError,
  uploadPhoto: uploadAsset,
  uploadAudio: uploadAsset,

  async submit(session, base, inputs, job: TalkingPhotoJob) {
    const answer = await session.json('POST', `${base}/v3/videos`, 'rate_limit_only', {
      type: 'image',
      image: { type: 'asset_id', asset_id: inputs.photo.id },
      audio_asset_id: inputs.audio.id,
      aspect_ratio: job.aspectRatio,
      // The delivery frame; the photo was already cropped to the aspect ratio, so `cover` crops nothing more.
      resolution: '1080p',
      fit: 'cover',
      ...(job.title ? { title: job.title } : {}),
    });
    return parsed(createdSchema, answer, 'the video creation').data.video_id;
  },

  async status(session, base, renderId): Promise<RenderState> {
    const answer = await session.json('GET', `${base}/v3/videos/${encodeURIComponent(renderId)}`, 'safe');
    const { data } = parsed(videoSchema, answer, 'the video status');
    switch (data.status) {
      case 'waiting':
      case 'pending':
      case 'queued':
        return { state: 'queued' };
      case 'processing':
        return { state: 'rendering' };
      case 'completed':
        if (!data.video_url) {
          return {
            state: 'failed',
            refused: false,
            retryable: false,
            message: 'completed without a video_url',
          };
        }
        return { state: 'completed', videoUrl: data.video_url };
      case 'failed': {
        const reason = [data.failure_message, data.failure_code ? `(${data.failure_code})` : '']
          .filter(Boolean)
          .join(' ');
        return {
          state: 'failed',
          refused: REFUSAL.test(`${data.failure_code ?? ''} ${data.failure_message ?? ''}`),
          retryable: false,
          message: clip(reason || 'no reason given'),
        };
      }
      default:
        throw new TalkingPhotoError(
          'bad_response',
          LABEL,
          `HeyGen answered an unknown video status "${clip(data.status, 40)}"`,
          { providerJobId: renderId, retryable: false },
        );
    }
  },

  async deleteUpload(session, base, _kind, file) {
    await session.json('DELETE', `${base}/v3/assets/${encodeURIComponent(file.id)}`, 'safe');
  },
};

export class HeyGenTalkingPhoto implements TalkingPhotoProvider {
  readonly engine = 'avatar_iv' as const;
  readonly name = LABEL;

  constructor(private readonly options: TalkingPhotoClientOptions) {}

  render(job: TalkingPhotoJob, opts: TalkingPhotoRenderOptions): Promise<TalkingPhotoResult> {
    return renderTalkingPhoto(protocol, this.options, job, opts);
  }
}
