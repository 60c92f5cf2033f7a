import type { Client, ClientPathsWithMethod, MethodResponse } from 'openapi-fetch';
import type { components, paths } from './openapi.ts';

// Names for the generated types (openapi.ts) that the helpers and their callers use. Where the document
// leaves an object open (additional properties), the fields spec 1 §2.2-2.3 names are added, never replaced.

type Api = Client<paths>;

/** The `data` of a GET route's success envelope, as openapi-fetch answers it. */
type SuccessData<P extends ClientPathsWithMethod<Api, 'get'>> = MethodResponse<Api, 'get', P>['data'];

/** Generate routes that answer a receipt (spec 1 §4), as written after `/api/v1/`. */
export type VideoEndpoint =
  | 'generate-and-post'
  | 'videos/magic'
  | 'videos/motivational'
  | 'videos/news'
  | 'blog-to-video'
  | 'videos/text-to-video'
  | 'videos/image-to-video'
  | 'videos/ai-influencer'
  | 'clipper/vidsite'
  | 'jobs';

/** The JSON body of a Generate route, e.g. GenerateBody<'videos/magic'>. */
export type GenerateBody<E extends VideoEndpoint> = paths[`/api/v1/${E}`]['post'] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export type Receipt = components['schemas']['Receipt'];
export type DryRunResult = components['schemas']['DryRunResult'];

export interface Artifacts {
  videoId?: string;
  /** The main MP4: signed, valid 24 h. */
  videoUrl?: string;
  videoUrls?: string[];
  thumbnailUrl?: string;
  title?: string;
  description?: string;
  script?: string;
  durationSec?: number;
  output_files?: { name: string; format: string; content_type: string; url: string }[];
  clips?: { videoUrl?: string; title?: string; durationSec?: number; [field: string]: unknown }[];
}

type JobRecord = SuccessData<'/api/v1/jobs/{jobId}'>['job'];

/** The job record of GET /api/v1/jobs/{jobId}. */
export type Job = JobRecord & {
  artifacts: Artifacts;
  price_usd_cents: number;
  sandbox: boolean;
  video_id: string;
};

/** GET /api/v1/usage. */
export interface Usage {
  account_id: string;
  account_name?: string;
  key_mode: 'live' | 'sandbox';
  balance_usd_cents: number;
  balance_display: string;
  ledger: {
    entries: number;
    topped_up_usd_cents: number;
    charged_usd_cents: number;
    refunded_usd_cents: number;
  };
  pricing: { currency: string; operations: Record<string, number | null>; [field: string]: unknown };
}

/** A page of GET /api/v1/b2b/library/videos: the account's videos, newest first. */
export type LibraryPage = SuccessData<'/api/v1/b2b/library/videos'>;
export type LibraryVideo = LibraryPage['items'][number];
