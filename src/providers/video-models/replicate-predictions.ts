// A client for Replicate's predictions API (https://api.replicate.com), as documented by Replicate:
// - create: POST {base}/v1/models/{owner}/{name}/predictions with { input } for an official model, or
//   POST {base}/v1/predictions with { version, input } for a pinned version ("owner/name:<version id>" in the
//   mapping); `Authorization: Bearer <token>`; answers 201 with the prediction object.
// - get: GET {base}/v1/predictions/{id} → { id, status: starting | processing | succeeded | failed | canceled,
//   output (video models: a URL string; some models a list of URLs), error, urls { get, cancel } }.
// - cancel: POST {base}/v1/predictions/{id}/cancel.
// A safety refusal is a failed prediction whose error says the input or output "was flagged as sensitive"
// (error code E005); 429 answers carry Retry-After. URLs are built from the configured base, never taken from
// the answer, so the token only ever goes to the configured host.

import { z } from 'zod';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import { clip, providerRequest, statusError, type ProviderResponse } from './provider-http.ts';
import { buildShotInput } from './shot-input.ts';
import {
  VideoProviderError,
  type ShotRequest,
  type ShotState,
  type SubmittedShot,
  type VideoModelProvider,
} from './video-model-provider.ts';

export const REPLICATE_BASE_URL = 'https://api.replicate.com';
const LABEL = 'Replicate';
const CREDENTIAL = 'REPLICATE_API_TOKEN';

/** Replicate's wording for a moderation refusal of the input or the output. */
const REFUSAL =
  /flagged as sensitive|\bE005\b|\bnsfw\b|content (policy|moderation)|safety (filter|checker|system)/i;
/** Failures Replicate documents as worth retrying: unknown error, timeout starting, interrupted run. */
const TRANSIENT = /\bE1000\b|\bE6716\b|code: PA\b/;

export interface ReplicateSettings {
  token: string;
  /** Default https://api.replicate.com. */
  baseUrl?: string;
  timeoutMs?: number;
}

const predictionSchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
});

type Prediction = z.infer<typeof predictionSchema>;

/** The video URL in an output: a URL string, a list of them (the first), or { url } / { video }. */
function outputUrl(output: unknown): string | undefined {
  if (typeof output === 'string') return output || undefined;
  if (Array.isArray(output)) return output.map(outputUrl).find((url) => url !== undefined);
  if (output && typeof output === 'object') {
    const record = output as Record<string, unknown>;
    return outputUrl(record.video) ?? outputUrl(record.url);
  }
  return undefined;
}

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const record = error as Record<string, unknown>;
    if (typeof record.detail === 'string') return record.detail;
    if (typeof record.message === 'string') return record.message;
  }
  return '';
}

/** Replicate's problem-details body ({ title, detail, status }). */
function problemDetail(json: unknown): string | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const text = errorText(json) || errorText((json as Record<string, unknown>).title);
  return text ? clip(text) : undefined;
}

export class ReplicatePredictionsProvider implements VideoModelProvider {
  readonly name = 'replicate' as const;
  private readonly baseUrl: string;

  constructor(
    private readonly guard: Pick<UrlGuard, 'request'>,
    private readonly settings: ReplicateSettings,
  ) {
    this.baseUrl = (settings.baseUrl ?? REPLICATE_BASE_URL).replace(/\/+$/, '');
  }

  async submit(request: ShotRequest, signal?: AbortSignal): Promise<SubmittedShot> {
    const input = buildShotInput(request);
    const [model, version] = request.providerModel.split(':', 2) as [string, string | undefined];
    const [owner, name, ...rest] = model.split('/');
    if (!owner || !name || rest.length > 0) {
      throw new VideoProviderError(
        'invalid_input',
        `Replicate model "${clip(request.providerModel, 80)}" is not "owner/name" or "owner/name:version"`,
      );
    }
    const response = version
      ? await this.call('POST', `${this.baseUrl}/v1/predictions`, signal, { version, input })
      : await this.call(
          'POST',
          `${this.baseUrl}/v1/models/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/predictions`,
          signal,
          { input },
        );
    if (response.status < 200 || response.status > 299) {
      const detail = problemDetail(response.json);
      if (detail && REFUSAL.test(detail)) {
        throw new VideoProviderError('refused', `Replicate refused the shot: ${detail}`, response.status);
      }
      throw statusError(LABEL, response, detail, CREDENTIAL);
    }
    const prediction = this.parse(response);
    return {
      provider: 'replicate',
      requestId: prediction.id,
      providerModel: request.providerModel,
      urls: {
        status: this.predictionUrl(prediction.id),
        cancel: `${this.predictionUrl(prediction.id)}/cancel`,
      },
    };
  }

  async status(shot: SubmittedShot, signal?: AbortSignal): Promise<ShotState> {
    const response = await this.call('GET', this.predictionUrl(shot.requestId), signal);
    if (response.status < 200 || response.status > 299) {
      throw statusError(LABEL, response, problemDetail(response.json), CREDENTIAL);
    }
    const prediction = this.parse(response);
    switch (prediction.status) {
      case 'starting':
        return { state: 'queued' };
      case 'processing':
        return { state: 'running' };
      case 'succeeded': {
        const videoUrl = outputUrl(prediction.output);
        if (!videoUrl) {
          return {
            state: 'failed',
            refused: false,
            retryable: false,
            message: 'Replicate succeeded without a video',
          };
        }
        return { state: 'completed', videoUrl };
      }
      case 'failed': {
        const message = clip(errorText(prediction.error) || 'the prediction failed');
        const refused = REFUSAL.test(message);
        return { state: 'failed', refused, retryable: !refused && TRANSIENT.test(message), message };
      }
      case 'canceled':
        return { state: 'failed', refused: false, retryable: false, message: 'the prediction was canceled' };
      default:
        throw new VideoProviderError(
          'bad_response',
          `Replicate answered an unknown status "${clip(prediction.status, 40)}"`,
        );
    }
  }

  async cancel(shot: SubmittedShot, signal?: AbortSignal): Promise<void> {
    const response = await this.call('POST', `${this.predictionUrl(shot.requestId)}/cancel`, signal);
    // A prediction that already finished or is gone has nothing left to cancel.
    if ((response.status >= 200 && response.status <= 299) || [404, 409, 422].includes(response.status))
      return;
    throw statusError(LABEL, response, problemDetail(response.json), CREDENTIAL);
  }

  private predictionUrl(id: string): string {
    return `${this.baseUrl}/v1/predictions/${encodeURIComponent(id)}`;
  }

  private parse(response: ProviderResponse): Prediction {
    const parsed = predictionSchema.safeParse(response.json);
    if (!parsed.success) {
      throw new VideoProviderError(
        'bad_response',
        'Replicate answered without a prediction object',
        response.status,
      );
    }
    return parsed.data;
  }

  private call(
    method: 'GET' | 'POST',
    url: string,
    signal: AbortSignal | undefined,
    body?: unknown,
  ): Promise<ProviderResponse> {
    return providerRequest(this.guard, LABEL, url, {
      method,
      headers: { authorization: `Bearer ${this.settings.token}` },
      body,
      timeoutMs: this.settings.timeoutMs ?? 30_000,
      signal,
    });
  }
}

export function createReplicateProvider(
  guard: Pick<UrlGuard, 'request'>,
  settings: ReplicateSettings,
): ReplicatePredictionsProvider {
  return new ReplicatePredictionsProvider(guard, settings);
}
