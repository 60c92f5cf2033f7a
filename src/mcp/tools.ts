// The 24 MCP tools of spec 2 §4.5, each a front for one REST route (two for generate_ai_video). A tool's input
// is its route's own Zod schema (a mode's from the registry, the others from where their route parses them)
// plus the arguments a call has no header or path for; the route does all validation, pricing and charging.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { previewValidateSchema } from '../b2b/validate-request.ts';
import {
  brandIdSchema,
  createKitSchema,
  listKitsQuerySchema,
  updateKitSchema,
} from '../brand/kits/kit-input.ts';
import { libraryListQuerySchema, libraryVideoParamsSchema } from '../library/library-query.ts';
import { type ApiError, errors } from '../platform/errors.ts';
import type { ModeDefinition, ModeRegistry } from '../platform/modes/mode.ts';
import { displayUsd, PRICE_TABLE, type PricedOperation } from '../platform/pricing/price-table.ts';
import { AVATARS_PATH } from '../presenters/personas/index.ts';
import {
  addLookSchema,
  createPersonaSchema,
  listPersonasQuerySchema,
} from '../presenters/personas/persona-input.ts';
import { ARTICLES_PATH } from '../publishing/articles/index.ts';
import { articleRequestSchema } from '../publishing/articles/article-request.ts';
import { hookRequestSchema } from '../signals/hooks/hook-request.ts';
import { RADAR_PATH } from '../signals/radar/priced-reads.ts';
import { radarSchema } from '../signals/radar/radar-query.ts';
import { generationFields, idempotencyKeyField, pathIdField } from './tool-fields.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A REST route a tool calls; `{name}` segments of its path are filled from the tool's path arguments. */
export interface ToolRoute {
  method: HttpMethod;
  path: string;
  /** What the route validates its body (POST, PATCH) or query (GET) with; absent when it takes neither. */
  schema?: z.ZodType;
}

/**
 * `required`: a paid render; a live call without `idempotency_key` (and not a dry run) is refused by the tool
 * itself, before any HTTP call. `optional`: passed on as the Idempotency-Key header when given.
 */
export type IdempotencyRule = 'required' | 'optional' | 'none';

export interface McpTool {
  name: string;
  title: string;
  description: string;
  routes: [ToolRoute, ...ToolRoute[]];
  /** Which route a call goes to, for a tool fronting more than one (default: the first). */
  pick?(args: Record<string, unknown>): ToolRoute;
  /** Refuses arguments that would make the route do something else than the tool says (before any call). */
  precheck?(args: Record<string, unknown>): ApiError | undefined;
  /** Arguments placed in the path. */
  path?: Record<string, z.ZodType>;
  /** Body fields the route takes besides its schema (the platform fields of a Generate body). */
  extra?: Record<string, z.ZodType>;
  idempotency: IdempotencyRule;
  annotations: ToolAnnotations;
}

const API = '/api/v1';

const UNITS: Record<string, string> = {
  job: 'video',
  clip: 'requested clip',
  request: 'call',
  started_minute: 'started minute',
  started_4_minutes: 'started 4 minutes',
};

/** The price as the price table states it, for a description. */
function priceOf(operation: PricedOperation): string {
  const entry = PRICE_TABLE[operation];
  return entry.usdCents === null
    ? 'Priced per request (a dry run shows the exact price; get_usage explains the rule)'
    : `${displayUsd(entry.usdCents)} per ${UNITS[entry.unit] ?? entry.unit}`;
}

const RECEIPT =
  'Answers the receipt at once (job_id, poll_url); it never waits for the render: follow it with get_job_status.';
const KEY_RULE =
  'A live call needs idempotency_key (8-256 characters, unique per intended job; the same key and arguments replay the first answer and never charge twice); dry_run: true validates and prices for free without one.';

const read: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const render: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** A Generate route of a registered mode: its schema, and the platform fields that mode takes. */
function modeRoute(
  registry: ModeRegistry,
  endpoint: string,
): { route: ToolRoute; mode: ModeDefinition | undefined } {
  const mode = registry.forEndpoint(endpoint);
  return { route: { method: 'POST', path: `${API}/${endpoint}`, schema: mode?.schema }, mode };
}

function renderTool(
  registry: ModeRegistry,
  endpoint: string,
  tool: Pick<McpTool, 'name' | 'title' | 'description'> & { openWorld?: boolean },
): McpTool {
  const { route, mode } = modeRoute(registry, endpoint);
  return {
    name: tool.name,
    title: tool.title,
    description: `${tool.description} ${RECEIPT} ${KEY_RULE}`,
    routes: [route],
    extra: { ...generationFields(mode), idempotency_key: idempotencyKeyField.optional() },
    idempotency: 'required',
    annotations: { ...render, openWorldHint: tool.openWorld ?? false },
  };
}

const brandId = { brand_id: brandIdSchema.describe('the brand kit id (brand_id)') };

/** The tools, in the order of spec 2 §4.5, built over this service's mode registry. */
export function mcpTools(registry: ModeRegistry): McpTool[] {
  const textToVideo = modeRoute(registry, 'videos/text-to-video');
  const imageToVideo = modeRoute(registry, 'videos/image-to-video');
  const fanout = registry.get('fanout');

  return [
    {
      name: 'get_usage',
      title: 'Balance and prices',
      description:
        'The account balance (USD cents), its ledger totals and the price table of every served operation. Free.',
      routes: [{ method: 'GET', path: `${API}/usage` }],
      idempotency: 'none',
      annotations: read,
    },
    renderTool(registry, 'generate-and-post', {
      name: 'generate_video_asset',
      title: 'Stock video from a topic or script',
      description: `Renders a 1080×1920 stock-footage video with narration, captions and music from a topic, prompt or script (POST /generate-and-post; renders only, never posts). ${priceOf('stock')}.`,
    }),
    {
      name: 'generate_and_post',
      title: 'Render a video, then post it',
      description: `A fan-out job (POST /jobs with platforms): renders a video with the mode named by operation (default stock; the other fields are that mode's body, as for generate_video_asset), then posts it to 1-5 connected platforms (shortsite, photosite, vidsite_shorts, facesite_reels, microsite); schedule_at holds it up to 30 days. Price: the video's plus ${displayUsd(PRICE_TABLE.post.usdCents)} per platform. ${RECEIPT} ${KEY_RULE}`,
      routes: [{ method: 'POST', path: `${API}/jobs`, schema: fanout?.schema }],
      // POST /jobs without platforms is a plain render job: not what this tool promises.
      precheck: (args) =>
        args.platforms === undefined
          ? errors.inputInvalid(
              'generate_and_post posts the video: send platforms (1-5 connected platforms). To render without posting, use generate_video_asset.',
              [{ field: 'platforms', message: 'is required' }],
            )
          : undefined,
      extra: { ...generationFields(fanout), idempotency_key: idempotencyKeyField.optional() },
      idempotency: 'required',
      annotations: { ...render, openWorldHint: true },
    },
    renderTool(registry, 'blog-to-video', {
      name: 'blog_to_video',
      title: 'Video from an article',
      description: `Turns an article (text, summary, title or URL, recorded not fetched) into a narrated stock video (POST /blog-to-video). ${priceOf('article')}, refunded on failure.`,
    }),
    {
      name: 'generate_article',
      title: 'SEO article',
      description: `Writes an SEO article (Markdown, HTML, JSON-LD, FAQ) about a topic or pillar and answers it when written (up to about 2 minutes), optionally published to WordPress and announced on Discord (POST /articles). ${priceOf('seo_article')}, charged only when the article passes its quality gates; no dry run. A call needs idempotency_key (8-256 characters; the same key replays the first answer).`,
      routes: [{ method: 'POST', path: ARTICLES_PATH, schema: articleRequestSchema }],
      extra: { idempotency_key: idempotencyKeyField.optional() },
      idempotency: 'required',
      annotations: { ...render, openWorldHint: true },
    },
    {
      name: 'generate_ai_video',
      title: 'AI video from a prompt or a photo',
      description: `AI video: a hosted video model (or the local motion engine) makes the shots a prompt describes, with optional narration, captions and music. With image_url it animates that photo (POST /videos/image-to-video), without it POST /videos/text-to-video. ${priceOf('text_to_video')}. ${RECEIPT} ${KEY_RULE}`,
      routes: [textToVideo.route, imageToVideo.route],
      pick: (args) => (args.image_url !== undefined ? imageToVideo.route : textToVideo.route),
      extra: {
        ...generationFields(textToVideo.mode ?? imageToVideo.mode),
        idempotency_key: idempotencyKeyField.optional(),
      },
      idempotency: 'required',
      annotations: render,
    },
    renderTool(registry, 'videos/ai-influencer', {
      name: 'generate_ai_influencer',
      title: 'Presenter video',
      description: `A presenter (a persona avatar_id, or a photo image_url) speaking a script, or a hook-first script written from a topic; talking head or presenter plus B-roll, up to five variations (POST /videos/ai-influencer). ${priceOf('ai_influencer')}.`,
    }),
    {
      name: 'create_avatar',
      title: 'Create a persona',
      description: `A persona (reusable presenter) from one public https photo of one person (POST /avatars): ready at once or processing (poll list_avatars). ${priceOf('avatar_creation')}, refunded when the photo is refused. ${KEY_RULE}`,
      routes: [{ method: 'POST', path: AVATARS_PATH, schema: createPersonaSchema }],
      extra: { idempotency_key: idempotencyKeyField.optional() },
      idempotency: 'required',
      annotations: render,
    },
    {
      name: 'create_avatar_look',
      title: 'Add a look to a persona',
      description:
        'Adds another photo of the same person to a persona (POST /avatars/{avatar_id}/looks). Free; idempotency_key optional.',
      routes: [{ method: 'POST', path: `${AVATARS_PATH}/{avatar_id}/looks`, schema: addLookSchema }],
      path: { avatar_id: pathIdField('the persona id (avatar_id)') },
      extra: { idempotency_key: idempotencyKeyField.optional() },
      idempotency: 'optional',
      annotations: { ...render, idempotentHint: false },
    },
    {
      name: 'list_avatars',
      title: 'List personas',
      description:
        "The account's personas, newest first, each with status and supported_engines (GET /avatars). Free.",
      routes: [{ method: 'GET', path: AVATARS_PATH, schema: listPersonasQuerySchema }],
      idempotency: 'none',
      annotations: read,
    },
    renderTool(registry, 'clipper/vidsite', {
      name: 'clip_youtube',
      title: 'Clips from a video-site video or channel',
      description: `The best moments of one video (vidsite_url) or of a channel's newest unclipped upload (channel_url) as captioned clips (POST /clipper/vidsite). ${priceOf('clip')}, charged up front; undelivered clips refunded.`,
      openWorld: true,
    }),
    {
      name: 'get_job_status',
      title: 'Job status and progress',
      description:
        'One job of this account (GET /jobs/{job_id}): status, progress, artifacts with signed links when completed, error when failed. Free; poll every 10-15 s.',
      routes: [{ method: 'GET', path: `${API}/jobs/{job_id}` }],
      path: { job_id: pathIdField('the job id (job_id) of a receipt') },
      idempotency: 'none',
      annotations: read,
    },
    {
      name: 'get_x_hooks',
      title: 'Opening hooks for a topic',
      description:
        'Ranked opening lines (hooks) for a topic and platform, best first (POST /hooks/generate). Free; idempotency_key optional (replays the first answer).',
      routes: [{ method: 'POST', path: `${API}/hooks/generate`, schema: hookRequestSchema }],
      extra: { idempotency_key: idempotencyKeyField.optional() },
      idempotency: 'optional',
      annotations: { ...read, openWorldHint: true },
    },
    {
      name: 'get_trending',
      title: 'Trending stories',
      description: `Trending stories clustered from news feeds and public sources, scored for virality, filtered by geo, category and window (GET /trends/radar). ${priceOf('trends_radar')} (${displayUsd(PRICE_TABLE.trends_radar_cached.usdCents)} from the 10-minute cache). Query values are text, as in a URL (limit: "20"). idempotency_key optional.`,
      routes: [{ method: 'GET', path: RADAR_PATH, schema: radarSchema }],
      extra: { idempotency_key: idempotencyKeyField.optional() },
      idempotency: 'optional',
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    {
      name: 'get_api_account',
      title: 'Business account and capabilities',
      description:
        "This account's identity and the business preview contract's capabilities, modes and blockers (GET /b2b/account). Free.",
      routes: [{ method: 'GET', path: `${API}/b2b/account` }],
      idempotency: 'none',
      annotations: read,
    },
    {
      name: 'get_generation_contracts',
      title: 'Business preview contracts',
      description:
        'The request and result schemas of the business preview contract, by mode (GET /b2b/contracts). Free.',
      routes: [{ method: 'GET', path: `${API}/b2b/contracts` }],
      idempotency: 'none',
      annotations: read,
    },
    {
      name: 'validate_generation_request',
      title: 'Validate a business preview request',
      description:
        'Validates a business preview request; creates no job, fetches no media, charges nothing (POST /b2b/validate).',
      routes: [{ method: 'POST', path: `${API}/b2b/validate`, schema: previewValidateSchema }],
      idempotency: 'none',
      annotations: read,
    },
    {
      name: 'list_generated_videos',
      title: 'List library videos',
      description:
        "The account's generated videos, newest first, by page (GET /b2b/library/videos; next_cursor for the next page). Free.",
      routes: [{ method: 'GET', path: `${API}/b2b/library/videos`, schema: libraryListQuerySchema }],
      idempotency: 'none',
      annotations: read,
    },
    {
      name: 'get_generated_video',
      title: 'One library video',
      description:
        'One generated video of this account, without media links (GET /b2b/library/videos/{video_id}). Free.',
      routes: [{ method: 'GET', path: `${API}/b2b/library/videos/{video_id}` }],
      path: {
        video_id: libraryVideoParamsSchema.shape.video_id.describe(
          'the library video id (24 hex characters)',
        ),
      },
      idempotency: 'none',
      annotations: read,
    },
    {
      name: 'create_brand',
      title: 'Create a brand kit',
      description:
        'Saves a brand kit (logo, colours, font, profile) by hand or built from a website (POST /b2b/brands); a kit for the same domain is reused unless refresh is true. Free; idempotency_key recommended.',
      routes: [{ method: 'POST', path: `${API}/b2b/brands`, schema: createKitSchema }],
      extra: { idempotency_key: idempotencyKeyField.optional() },
      idempotency: 'optional',
      annotations: { ...render, openWorldHint: true },
    },
    {
      name: 'list_brands',
      title: 'List brand kits',
      description: "The account's brand kits, newest first (GET /b2b/brands). Free.",
      routes: [{ method: 'GET', path: `${API}/b2b/brands`, schema: listKitsQuerySchema }],
      idempotency: 'none',
      annotations: read,
    },
    {
      name: 'get_brand',
      title: 'One brand kit',
      description: 'One brand kit of this account (GET /b2b/brands/{brand_id}). Free.',
      routes: [{ method: 'GET', path: `${API}/b2b/brands/{brand_id}` }],
      path: brandId,
      idempotency: 'none',
      annotations: read,
    },
    {
      name: 'update_brand',
      title: 'Update a brand kit',
      description:
        'Changes fields of a brand kit; null clears a field; refresh: true re-crawls its website (PATCH /b2b/brands/{brand_id}). Free; idempotency_key optional.',
      routes: [{ method: 'PATCH', path: `${API}/b2b/brands/{brand_id}`, schema: updateKitSchema }],
      path: brandId,
      extra: { idempotency_key: idempotencyKeyField.optional() },
      idempotency: 'optional',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    {
      name: 'delete_brand',
      title: 'Delete a brand kit',
      description: 'Deletes a brand kit of this account (DELETE /b2b/brands/{brand_id}). Free.',
      routes: [{ method: 'DELETE', path: `${API}/b2b/brands/{brand_id}` }],
      path: brandId,
      idempotency: 'none',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
  ];
}
