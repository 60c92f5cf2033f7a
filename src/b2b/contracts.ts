// GET /b2b/contracts (spec 2 §4.4): the preview contract in JSON Schemas made from the Zod schemas the service
// validates and answers with, so a contract cannot drift from the code. Layout and decisions: docs/library.md.
import { z } from 'zod';
import { libraryStatus } from '../library/library-presenter.ts';
import { libraryListQuerySchema } from '../library/library-query.ts';
import { operationsOf, LIBRARY_MODES } from '../library/library-modes.ts';
import { libraryVideoSchema, MEDIA_UNAVAILABLE_REASONS } from '../library/library-video.ts';
import { LINK_TTL_SECONDS } from '../platform/jobs/job-presenter.ts';
import { JOB_STATUSES } from '../platform/jobs/job-status.ts';
import type { ModeRegistry } from '../platform/modes/mode.ts';
import { jsonSchemaOf } from './json-schema.ts';
import { legacyYoutubeContract } from './legacy-youtube.ts';
import {
  CONTRACT_STAGE,
  PREVIEW_BLOCKERS,
  PREVIEW_CAPABILITIES,
  PREVIEW_LINKS,
  PREVIEW_SCHEMA_VERSION,
} from './preview-contract.ts';
import { operationPath, servedPreviewModes, VALIDATED_MODES } from './preview-modes.ts';
import { previewValidateSchema } from './validate-request.ts';

function modeContracts(registry: ModeRegistry) {
  return Object.fromEntries(
    servedPreviewModes(registry).map(({ mode, operations }) => [
      mode,
      {
        mode,
        generation_available: PREVIEW_CAPABILITIES.generation,
        // The body it takes is the contract's top-level request_schema.
        validation: VALIDATED_MODES.includes(mode) ? { method: 'POST', path: PREVIEW_LINKS.validate } : null,
        request_schema: jsonSchemaOf(operations[0]!.schema, 'input'),
        result_schema: jsonSchemaOf(libraryVideoSchema.extend({ mode: z.literal(mode) }), 'output'),
        operations: operations.map((operation) => ({
          operation: operation.name,
          title: operation.title,
          method: 'POST',
          path: operationPath(operation),
          request_schema: jsonSchemaOf(operation.schema, 'input'),
        })),
      },
    ]),
  );
}

/** Which job statuses read as which library status. */
function statusMapping(): Record<string, string[]> {
  const mapping: Record<string, string[]> = {};
  for (const status of JOB_STATUSES) (mapping[libraryStatus(status)] ??= []).push(status);
  return mapping;
}

function libraryContract() {
  return {
    list: {
      method: 'GET',
      path: PREVIEW_LINKS.library,
      query_schema: jsonSchemaOf(libraryListQuerySchema, 'input'),
      page_size: { min: 1, max: 100, default: 20 },
      order: 'newest first: highest video_id first',
      pagination:
        'keyset: send the next_cursor of a page as cursor; videos made between two page reads never shift a page',
      media_links: true,
    },
    read: {
      method: 'GET',
      path: `${PREVIEW_LINKS.library}/{video_id}`,
      media_links: false,
      not_found: '404 VIDEO_NOT_FOUND for a missing video and for another account’s video',
    },
    operations: Object.fromEntries(LIBRARY_MODES.map((mode) => [mode, operationsOf(mode)])),
    job_statuses: statusMapping(),
    clips: 'each delivered clip of a clip job is a library video of its own; clip 0 keeps the job’s video_id',
  };
}

function privateAccess() {
  return {
    private_cdn: PREVIEW_CAPABILITIES.private_cdn,
    signed_links: true,
    link_ttl_seconds: LINK_TTL_SECONDS,
    request: { delivery: { visibility: 'private' } },
    where: [
      `media_access of GET ${PREVIEW_LINKS.library} (completed videos)`,
      'artifacts of GET /api/v1/jobs/{job_id}',
    ],
    not_in: [
      `GET ${PREVIEW_LINKS.library}/{video_id} (issues no media links)`,
      'webhook bodies of private-delivery jobs (video_url is null)',
    ],
    unavailable_reasons: MEDIA_UNAVAILABLE_REASONS,
  };
}

const SEMANTICS = {
  money: 'USD, in integer cents',
  timestamps: 'ISO 8601, UTC',
  video_id:
    '24 hex characters, time-ordered (seconds, then microseconds, then random); each list read signs fresh links',
  validation:
    'POST /api/v1/b2b/validate checks a request against every rule of the contract: it creates no job, fetches no URL and charges nothing; no Idempotency-Key is needed',
  errors:
    'envelope { success: false, error: { code, message, retryable, details? }, meta }; 400 INPUT_INVALID lists each offending field in error.details.fields[]',
  status: 'library status follows the job: processing while it runs, then completed or failed',
  ownership: 'every record belongs to one account; another account’s id is a 404',
  key_mode: 'a live key reads live videos, a sandbox key the sandbox placeholder videos',
};

export function buildContracts(registry: ModeRegistry) {
  return {
    schema_version: PREVIEW_SCHEMA_VERSION,
    stage: CONTRACT_STAGE,
    generation_available: PREVIEW_CAPABILITIES.generation,
    modes: modeContracts(registry),
    request_schema: jsonSchemaOf(previewValidateSchema, 'input'),
    result_schema: jsonSchemaOf(libraryVideoSchema, 'output'),
    legacy_youtube: legacyYoutubeContract(registry),
    library: libraryContract(),
    private_access: privateAccess(),
    semantics: SEMANTICS,
    blockers: PREVIEW_BLOCKERS,
  };
}
