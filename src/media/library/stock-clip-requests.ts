// The bodies and query strings of the /api/stock-clips routes (documented in docs/stock-clips.md).
// Unknown fields are refused so a misspelt field never silently does nothing.

import { z } from 'zod';
import { NICHES } from '../footage/niches.ts';
import { MAX_TAG_LENGTH, MAX_TAGS, normalizeTag, normalizeTags, resolveNiche } from './clip-metadata.ts';

export const CLIP_SOURCES = ['generated', 'uploaded', 'imported', 'provider'] as const;
export const CLIP_STATUSES = ['ready', 'pending'] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
export const MAX_IMPORT_RECORDS = 100;
export const MAX_UPLOAD_BYTES = 500 * 1024 * 1024;

/** "a, b" (a query string or a CSV field) or ["a", "b"]. */
function listOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

const nicheValue = z.preprocess((v) => (typeof v === 'string' ? (resolveNiche(v) ?? v) : v), z.enum(NICHES));

const nichesField = z.preprocess(listOf, z.array(nicheValue).max(10));

const tagsField = z.preprocess(listOf, z.array(z.string().max(200)).max(100)).transform((raw, ctx) => {
  const tags = normalizeTags(raw);
  if (tags.length > MAX_TAGS) ctx.addIssue({ code: 'custom', message: `must hold at most ${MAX_TAGS} tags` });
  for (const tag of tags) {
    if (tag.length > MAX_TAG_LENGTH) {
      ctx.addIssue({ code: 'custom', message: `"${tag}" is longer than ${MAX_TAG_LENGTH} characters` });
    }
  }
  return tags;
});

const title = z.string().trim().min(1).max(200);
const description = z.string().trim().max(2000);
const attribution = z.string().trim().max(300);
const filename = z.string().trim().min(1).max(255);
const clipId = z.string().trim().min(1).max(100);
const libraryName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/, 'must be 1-40 letters, digits, ".", "_" or "-"')
  .transform((v) => v.toLowerCase());
const uploadType = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(video\/[a-z0-9.+-]+|application\/octet-stream)$/,
    'must be a video/* type or application/octet-stream',
  );

/** Returns why a URL may not be fetched, or undefined (a syntax check: DNS is checked when it is fetched). */
export type UrlCheck = (raw: string) => string | undefined;

function urlField(checkUrl: UrlCheck) {
  return z
    .string()
    .max(2048)
    .superRefine((value, ctx) => {
      const problem = checkUrl(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}

const METADATA_FIELDS = [
  'title',
  'description',
  'tags',
  'niches',
  'attribution',
  'filename',
  'size_bytes',
] as const;

export function stockClipSchemas(checkUrl: UrlCheck) {
  const url = urlField(checkUrl);

  /** One clip of an external library (import), or the metadata to preview (map-metadata). */
  const externalRecord = z.strictObject({
    external_id: z
      .union([z.string().trim().min(1).max(200), z.number().int().nonnegative()])
      .transform(String),
    title,
    description: description.optional(),
    tags: tagsField.default([]),
    niches: nichesField.default([]),
    url: url.optional(),
    duration_sec: z.number().positive().max(36_000).optional(),
    width: z.number().int().positive().max(16_384).optional(),
    height: z.number().int().positive().max(16_384).optional(),
    attribution: attribution.optional(),
  });

  const uploadMetadata = {
    title: title.optional(),
    filename: filename.optional(),
    description: description.optional(),
    tags: tagsField.default([]),
    niches: nichesField.default([]),
    attribution: attribution.optional(),
  };

  const needsTitle = (value: { title?: string; filename?: string }, ctx: z.RefinementCtx) => {
    if (value.title === undefined && value.filename === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['title'],
        message: 'is required (or send filename to derive it)',
      });
    }
  };

  return {
    externalRecord,
    presignedUrl: z
      .strictObject({
        clip_id: clipId.optional(),
        content_type: uploadType.optional(),
        size_bytes: z.number().int().positive().max(MAX_UPLOAD_BYTES).optional(),
        ...uploadMetadata,
        tags: tagsField.optional(),
        niches: nichesField.optional(),
      })
      .superRefine((value, ctx) => {
        if (value.clip_id === undefined) {
          needsTitle(value, ctx);
          return;
        }
        for (const field of METADATA_FIELDS) {
          if (field !== 'size_bytes' && field !== 'filename' && value[field] !== undefined) {
            ctx.addIssue({
              code: 'custom',
              path: [field],
              message:
                'cannot be combined with clip_id; change an existing clip with PATCH /api/stock-clips/{id}',
            });
          }
        }
      }),
    directUploadQuery: z.strictObject(uploadMetadata).superRefine(needsTitle),
    confirmUpload: z.strictObject({ clip_id: clipId, url: url.optional() }),
    extlibImport: z.strictObject({
      library: libraryName.default('external'),
      clips: z.array(externalRecord).min(1).max(MAX_IMPORT_RECORDS),
    }),
    extlibSingle: externalRecord.extend({ library: libraryName.default('external') }),
    mapMetadata: z.union([
      z.strictObject({ clips: z.array(z.unknown()).min(1).max(MAX_IMPORT_RECORDS) }),
      z.record(z.string(), z.unknown()),
    ]),
    mapRecord: externalRecord.extend({
      external_id: externalRecord.shape.external_id.optional(),
      title: title.optional(),
    }),
    patch: z
      .strictObject({
        title: title.optional(),
        description: description.nullable().optional(),
        tags: tagsField.optional(),
        add_tags: tagsField.optional(),
        remove_tags: tagsField.optional(),
        niches: nichesField.optional(),
        attribution: attribution.nullable().optional(),
        url: url.nullable().optional(),
      })
      .superRefine((value, ctx) => {
        if (Object.values(value).every((v) => v === undefined)) {
          ctx.addIssue({ code: 'custom', message: 'send at least one field to change' });
        }
        if (value.tags !== undefined && (value.add_tags !== undefined || value.remove_tags !== undefined)) {
          ctx.addIssue({
            code: 'custom',
            path: ['tags'],
            message: 'replaces all tags; do not combine it with add_tags or remove_tags',
          });
        }
      }),
    incrementUsage: z.strictObject({ by: z.number().int().min(1).max(1000).default(1) }),
    listQuery: z.strictObject({
      q: z.string().trim().max(200).optional(),
      niche: nicheValue.optional(),
      tag: z.string().max(200).transform(normalizeTag).optional(),
      source: z.enum(CLIP_SOURCES).optional(),
      status: z.enum(CLIP_STATUSES).optional(),
      limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
      cursor: z.string().max(500).optional(),
    }),
    pendingQuery: z.strictObject({
      source: z.enum(CLIP_SOURCES).optional(),
      limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
      cursor: z.string().max(500).optional(),
    }),
  };
}

export type StockClipSchemas = ReturnType<typeof stockClipSchemas>;
export type ExternalRecord = z.infer<StockClipSchemas['externalRecord']>;
export type PresignedUrlRequest = z.infer<StockClipSchemas['presignedUrl']>;
export type DirectUploadQuery = z.infer<StockClipSchemas['directUploadQuery']>;
export type PatchRequest = z.infer<StockClipSchemas['patch']>;
export type ListQuery = z.infer<StockClipSchemas['listQuery']>;
export type PendingQuery = z.infer<StockClipSchemas['pendingQuery']>;
export type MapRecord = z.infer<StockClipSchemas['mapRecord']>;
