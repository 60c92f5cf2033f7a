// The avatar_v engine: D-ID's talks API (its "V2 Avatars": a photo animated to an audio track), driven by our
// narration rather than D-ID's text-to-speech. The routes and fields used, as D-ID documents them
// (docs.d-id.com/reference, and the merged OpenAPI description of D-ID API 4.2.1):
// - auth: `Authorization: Basic <API key>`, the key sent exactly as D-ID's studio hands it out
//   ("API_USERNAME:API_PASSWORD").
// - upload: POST /images, multipart/form-data with the picture under `image` (image/jpeg or image/png), and
//   POST /audios with the sound under `audio` (audio/* or video/*, at most 6 MB) → 201 { id, url }; the url (an
//   s3:// address) is what a talk takes. Uploads are kept 24-48 h; DELETE /images/{id} and /audios/{id} → 204.
// - render: POST /talks with { source_url, script: { type: "audio", audio_url }, config: { stitch: true,
//   result_format: "mp4" }, name } → 201 { id, status: "created" }. `stitch` puts the animated face back into the
//   whole photo, so the video keeps the photo's frame, which was cropped to the requested aspect ratio.
// - status: GET /talks/{id} → { status: created | started | done | error | rejected, result_url (presigned https),
//   error: { kind, description } when it failed }. `rejected` is a moderation refusal.
// - errors: { kind, description, details? } with 400, 401, 402 InsufficientCreditsError, 403 PermissionError,
//   404, 415 UnsupportedMimeTypeError, and 451 for moderation (ImageModerationError, CelebrityRecognizedError,
//   TextModerationError, AudioModerationError); a 429 is waited out like on every provider.

import { z } from 'zod';
import { clip, type ProviderAnswer } from './provider-session.ts';
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

export const DID_BASE_URL = 'https://api.d-id.com';
const LABEL = 'D-ID';
/** D-ID's moderation refusals: HTTP 451 with one of these kinds. */
const MODERATION_KINDS = new Set([
  'ImageModerationError',
  'CelebrityRecognizedError',
  'TextModerationError',
  'AudioModerationError',
]);
/** Talk failures D-ID attributes to itself rather than to the photo or audio. */
const TRANSIENT_KINDS = new Set(['UnknownError', 'InternalServerError']);

const errorSchema = z.object({ kind: z.string().nullish(), description: z.string().nullish() });
const uploadSchema = z.object({ id: z.string().min(1), url: z.string().min(1) });
const createdSchema = z.object({ id: z.string().min(1) });
const talkSchema = z.object({
  status: z.string(),
  result_url: z.string().nullish(),
  error: errorSchema.nullish(),
});

function describe(error: z.infer<typeof errorSchema> | null | undefined): string {
  if (!error) return '';
  return [error.description, error.kind ? `(${error.kind})` : ''].filter(Boolean).join(' ');
}

function readError(answer: ProviderAnswer): { message?: string; refused: boolean } {
  const parsed = errorSchema.safeParse(answer.json);
  if (!parsed.success) return { refused: answer.status === 451 };
  const message = describe(parsed.data);
  return {
    ...(message ? { message } : {}),
    refused: answer.status === 451 || MODERATION_KINDS.has(parsed.data.kind ?? ''),
  };
}

function parsed<T>(schema: z.ZodType<T>, answer: ProviderAnswer, what: string): T {
  const result = schema.safeParse(answer.json);
  if (!result.success) {
    throw new TalkingPhotoError(
      'bad_response',
      LABEL,
      `D-ID answered ${what} without the documented fields`,
      {
        status: answer.status,
        retryable: false,
      },
    );
  }
  return result.data;
}

const protocol: RenderProtocol = {
  label: LABEL,
  credential: 'DID_API_KEY',
  defaultBaseUrl: DID_BASE_URL,
  authHeaders: (apiKey) => ({ authorization: `Basic ${apiKey}` }),
  readError,

  async uploadPhoto(session, base, photo): Promise<UploadedFile> {
    return parsed(uploadSchema, await session.upload(`${base}/images`, 'image', photo), 'the image upload');
  },

  async uploadAudio(session, base, audio): Promise<UploadedFile> {
    return parsed(uploadSchema, await session.upload(`${base}/audios`, 'audio', audio), 'the audio upload');
  },

  async submit(session, base, inputs, job: TalkingPhotoJob) {
    const answer = await session.json('POST', `${base}/talks`, 'rate_limit_only', {
      source_url: inputs.photo.url,
      script: { type: 'audio', audio_url: inputs.audio.url },
      config: { stitch: true, result_format: 'mp4' },
      ...(job.title ? { name: job.title } : {}),
    });
    return parsed(createdSchema, answer, 'the talk creation').id;
  },

  async status(session, base, renderId): Promise<RenderState> {
    const answer = await session.json('GET', `${base}/talks/${encodeURIComponent(renderId)}`, 'safe');
    const talk = parsed(talkSchema, answer, 'the talk');
    switch (talk.status) {
      case 'created':
        return { state: 'queued' };
      case 'started':
        return { state: 'rendering' };
      case 'done':
        if (!talk.result_url) {
          return { state: 'failed', refused: false, retryable: false, message: 'done without a result_url' };
        }
        return { state: 'completed', videoUrl: talk.result_url };
      case 'rejected':
        return {
          state: 'failed',
          refused: true,
          retryable: false,
          message: clip(describe(talk.error) || 'the talk was rejected by moderation'),
        };
      case 'error':
        return {
          state: 'failed',
          refused: MODERATION_KINDS.has(talk.error?.kind ?? ''),
          retryable: TRANSIENT_KINDS.has(talk.error?.kind ?? ''),
          message: clip(describe(talk.error) || 'no reason given'),
        };
      default:
        throw new TalkingPhotoError(
          'bad_response',
          LABEL,
          `D-ID answered an unknown talk status "${clip(talk.status, 40)}"`,
          { providerJobId: renderId, retryable: false },
        );
    }
  },

  async deleteUpload(session, base, kind, file) {
    const collection = kind === 'photo' ? 'images' : 'audios';
    await session.json('DELETE', `${base}/${collection}/${encodeURIComponent(file.id)}`, 'safe');
  },
};

export class DIdTalkingPhoto implements TalkingPhotoProvider {
  readonly engine = 'avatar_v' as const;
  readonly name = LABEL;

  constructor(private readonly options: TalkingPhotoClientOptions) {}

  render(job: TalkingPhotoJob, opts: TalkingPhotoRenderOptions): Promise<TalkingPhotoResult> {
    return renderTalkingPhoto(protocol, this.options, job, opts);
  }
}
