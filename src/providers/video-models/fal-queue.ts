// A client for fal's queue API (https://queue.fal.run), as documented by fal and used by its official clients:
// - submit: POST {base}/{model_id} with `Authorization: Key <FAL_KEY>` and the model input as the JSON body;
//   answers { request_id, status_url, response_url, cancel_url } (and queue_position).
// - status: GET status_url → { status: IN_QUEUE (queue_position) | IN_PROGRESS | COMPLETED }.
// - result: GET response_url once COMPLETED → the model output (video models: { video: { url, ... } }); a model
//   that failed answers here with an error status and { detail } instead: a list of typed errors for model
//   errors (a refused prompt or image is type `content_policy_violation`, HTTP 422), or a string with an
//   `error_type` for infrastructure errors.
// - cancel: PUT cancel_url (202 CANCELLATION_REQUESTED; 400 ALREADY_COMPLETED).
// The follow-up URLs use only the model's owner/app, not its endpoint path, so fal asks clients to use the ones
// it returns. They are used only when they point at the configured base's origin, since the key goes with them.

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

export const FAL_QUEUE_BASE_URL = 'https://queue.fal.run';
const LABEL = 'fal';
const CREDENTIAL = 'FAL_KEY';
/** fal app ids under these namespaces have one more leading segment (namespace/owner/app/...). */
const FAL_NAMESPACES = new Set(['workflows', 'comfy']);

export interface FalQueueSettings {
  key: string;
  /** Default https://queue.fal.run. */
  baseUrl?: string;
  timeoutMs?: number;
}

const submitSchema = z.object({
  request_id: z.string().min(1),
  status_url: z.string().optional(),
  response_url: z.string().optional(),
  cancel_url: z.string().optional(),
});

const statusSchema = z.object({
  status: z.string(),
  queue_position: z.number().nullable().optional(),
  error: z.string().nullable().optional(),
  error_type: z.string().nullable().optional(),
});

const resultSchema = z.object({ video: z.object({ url: z.string().min(1) }) });

const errorItemSchema = z.object({ type: z.string().optional(), msg: z.string().optional() });
const errorBodySchema = z.object({
  detail: z.union([z.string(), z.array(errorItemSchema)]),
  error_type: z.string().optional(),
});

interface FalFailure {
  message: string;
  refused: boolean;
}

/** fal's error body: the model's typed errors (refusals among them), or an infrastructure error string. */
function readFailure(json: unknown): FalFailure | null {
  const parsed = errorBodySchema.safeParse(json);
  if (!parsed.success) return null;
  const { detail, error_type } = parsed.data;
  if (typeof detail === 'string') {
    return { message: clip(error_type ? `${detail} (${error_type})` : detail), refused: false };
  }
  const refused = detail.some((item) => item.type === 'content_policy_violation');
  const message = detail
    .map((item) => item.msg ?? item.type ?? '')
    .filter(Boolean)
    .join('; ');
  return { message: clip(message || 'the model reported an error'), refused };
}

export class FalQueueProvider implements VideoModelProvider {
  readonly name = 'fal' as const;
  private readonly baseUrl: string;
  private readonly origin: string;

  constructor(
    private readonly guard: Pick<UrlGuard, 'request'>,
    private readonly settings: FalQueueSettings,
  ) {
    this.baseUrl = (settings.baseUrl ?? FAL_QUEUE_BASE_URL).replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
  }

  async submit(request: ShotRequest, signal?: AbortSignal): Promise<SubmittedShot> {
    const url = `${this.baseUrl}/${request.providerModel.replace(/^\/+/, '')}`;
    const response = await this.call('POST', url, signal, buildShotInput(request));
    if (response.status < 200 || response.status > 299) {
      const failure = readFailure(response.json);
      if (failure?.refused) {
        throw new VideoProviderError('refused', `fal refused the shot: ${failure.message}`, response.status);
      }
      throw statusError(LABEL, response, failure?.message, CREDENTIAL);
    }
    const parsed = submitSchema.safeParse(response.json);
    if (!parsed.success) {
      throw new VideoProviderError(
        'bad_response',
        'fal answered the submit without a request_id',
        response.status,
      );
    }
    const { request_id: requestId } = parsed.data;
    const built = this.requestUrls(request.providerModel, requestId);
    return {
      provider: 'fal',
      requestId,
      providerModel: request.providerModel,
      urls: {
        status: this.trusted(parsed.data.status_url) ?? built.status,
        result: this.trusted(parsed.data.response_url) ?? built.result,
        cancel: this.trusted(parsed.data.cancel_url) ?? built.cancel,
      },
    };
  }

  async status(shot: SubmittedShot, signal?: AbortSignal): Promise<ShotState> {
    const urls = this.urlsOf(shot);
    const response = await this.call('GET', urls.status, signal);
    if (response.status < 200 || response.status > 299) {
      throw statusError(LABEL, response, readFailure(response.json)?.message, CREDENTIAL);
    }
    const parsed = statusSchema.safeParse(response.json);
    if (!parsed.success) {
      throw new VideoProviderError(
        'bad_response',
        'fal answered the status without a status',
        response.status,
      );
    }
    const { status, queue_position: position, error, error_type: errorType } = parsed.data;
    if (status === 'IN_QUEUE') return { state: 'queued', ...(position != null ? { position } : {}) };
    if (status === 'IN_PROGRESS') return { state: 'running' };
    if (status !== 'COMPLETED') {
      throw new VideoProviderError('bad_response', `fal answered an unknown status "${clip(status, 40)}"`);
    }
    if (error) {
      const refused = errorType === 'content_policy_violation';
      return { state: 'failed', refused, retryable: false, message: clip(error) };
    }
    return this.result(urls.result, signal);
  }

  async cancel(shot: SubmittedShot, signal?: AbortSignal): Promise<void> {
    const response = await this.call('PUT', this.urlsOf(shot).cancel, signal);
    // 400 ALREADY_COMPLETED and 404: nothing is left running to cancel.
    if ((response.status >= 200 && response.status <= 299) || [400, 404, 409].includes(response.status))
      return;
    throw statusError(LABEL, response, readFailure(response.json)?.message, CREDENTIAL);
  }

  private async result(url: string, signal: AbortSignal | undefined): Promise<ShotState> {
    const response = await this.call('GET', url, signal);
    if (response.status >= 200 && response.status <= 299) {
      const parsed = resultSchema.safeParse(response.json);
      if (!parsed.success) {
        return {
          state: 'failed',
          refused: false,
          retryable: false,
          message: 'fal completed without a video',
        };
      }
      return { state: 'completed', videoUrl: parsed.data.video.url };
    }
    const failure = readFailure(response.json);
    // Auth, rate limits and a gateway hiccup without fal's error body say nothing about the shot itself.
    if (response.status === 401 || response.status === 403 || response.status === 429 || !failure) {
      throw statusError(LABEL, response, failure?.message, CREDENTIAL);
    }
    return {
      state: 'failed',
      refused: failure.refused,
      retryable: !failure.refused && response.status >= 500,
      message: failure.message,
    };
  }

  private call(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    signal: AbortSignal | undefined,
    body?: unknown,
  ): Promise<ProviderResponse> {
    return providerRequest(this.guard, LABEL, url, {
      method,
      headers: { authorization: `Key ${this.settings.key}` },
      body,
      timeoutMs: this.settings.timeoutMs ?? 30_000,
      signal,
    });
  }

  private trusted(url: string | undefined): string | undefined {
    if (!url) return undefined;
    try {
      return new URL(url).origin === this.origin ? url : undefined;
    } catch {
      return undefined;
    }
  }

  /** The documented URL scheme: {base}/{owner}/{app}/requests/{id}[/status|/cancel], endpoint path dropped. */
  private requestUrls(model: string, requestId: string): { status: string; result: string; cancel: string } {
    const parts = model.split('/').filter(Boolean);
    const appLength = FAL_NAMESPACES.has(parts[0] ?? '') ? 3 : 2;
    const app = parts.slice(0, appLength).join('/');
    const result = `${this.baseUrl}/${app}/requests/${encodeURIComponent(requestId)}`;
    return { status: `${result}/status`, result, cancel: `${result}/cancel` };
  }

  private urlsOf(shot: SubmittedShot): { status: string; result: string; cancel: string } {
    const built = this.requestUrls(shot.providerModel, shot.requestId);
    return {
      status: this.trusted(shot.urls?.status) ?? built.status,
      result: this.trusted(shot.urls?.result) ?? built.result,
      cancel: this.trusted(shot.urls?.cancel) ?? built.cancel,
    };
  }
}

export function createFalQueueProvider(
  guard: Pick<UrlGuard, 'request'>,
  settings: FalQueueSettings,
): FalQueueProvider {
  return new FalQueueProvider(guard, settings);
}
