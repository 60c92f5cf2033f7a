// The operator-editable mapping from each neutral AI-video model id to the hosted provider models that serve it
// (default-model-mapping.json, or the file VIDEO_MODEL_MAPPING_FILE names), and the choice of provider for one
// shot. Provider catalogues change faster than releases, so the ids and input spellings live in data an operator
// can fix without a new build; the file is validated strictly at load so a typo fails loudly at startup instead
// of silently sending shots to the local engine.

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import { AI_VIDEO_MODEL_IDS, type AiVideoModelId } from '../../platform/pricing/ai-video-models.ts';
import { createFalQueueProvider } from './fal-queue.ts';
import { createReplicateProvider } from './replicate-predictions.ts';
import type {
  ShotInputShape,
  VideoModelProvider,
  VideoProviderName,
  VideoResolution,
} from './video-model-provider.ts';

export const DEFAULT_MODEL_MAPPING_PATH = fileURLToPath(
  new URL('./default-model-mapping.json', import.meta.url),
);

/** Preference order when several providers are configured. */
export const PROVIDER_PREFERENCE: readonly VideoProviderName[] = ['fal', 'replicate'];

export type ShotMode = 'text-to-video' | 'image-to-video';

const comment = z.union([z.string(), z.array(z.string())]).optional();
const fieldName = z.string().min(1).nullable().optional();
const resolutions = ['480p', '720p', '1080p', '1440p', '2160p'] as const satisfies readonly VideoResolution[];
const seconds = z.number().int().positive();

const inputShapeSchema = z.strictObject({
  fields: z
    .strictObject({
      prompt: fieldName,
      duration: fieldName,
      aspectRatio: fieldName,
      resolution: fieldName,
      nativeAudio: fieldName,
      imageUrl: fieldName,
      referenceImageUrls: fieldName,
    })
    .optional(),
  durationFormat: z.enum(['number', 'string', 'seconds']).optional(),
  durations: z
    .union([
      z.array(seconds).min(1),
      z.strictObject({ min: seconds, max: seconds }).refine((r) => r.min <= r.max, 'min must not exceed max'),
    ])
    .optional(),
  resolutionValues: z.partialRecord(z.enum(resolutions), z.string().min(1)).optional(),
});

const providerEntrySchema = z
  .strictObject({
    _comment: comment,
    textToVideo: z.string().min(1).optional(),
    imageToVideo: z.string().min(1).optional(),
    input: inputShapeSchema.optional(),
    extraInput: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((e) => e.textToVideo !== undefined || e.imageToVideo !== undefined, {
    message: 'needs textToVideo or imageToVideo',
  });

const modelEntrySchema = z.strictObject({
  _comment: comment,
  fal: providerEntrySchema.optional(),
  replicate: providerEntrySchema.optional(),
});

const knownIds = new Set<string>(AI_VIDEO_MODEL_IDS);

const mappingSchema = z.strictObject({
  _comment: comment,
  models: z.record(z.string(), modelEntrySchema).superRefine((models, ctx) => {
    for (const id of Object.keys(models)) {
      if (!knownIds.has(id)) {
        ctx.addIssue({
          code: 'custom',
          path: [id],
          message: `unknown model id; known ids: ${AI_VIDEO_MODEL_IDS.join(', ')}`,
        });
      }
    }
  }),
});

export type ProviderModelEntry = z.infer<typeof providerEntrySchema>;
export interface ModelMapping {
  models: Partial<Record<AiVideoModelId, Partial<Record<VideoProviderName, ProviderModelEntry>>>>;
  /** Where the mapping was read from, for messages. */
  source: string;
}

export class ModelMappingError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ModelMappingError';
  }
}

/** Validates a parsed mapping document; `source` names it in errors. */
export function parseModelMapping(json: unknown, source: string): ModelMapping {
  const parsed = mappingSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 8)
      .map((issue) => `${issue.path.map(String).join('.') || '(top level)'}: ${issue.message}`)
      .join('; ');
    throw new ModelMappingError(`video model mapping ${source} is invalid: ${problems}`);
  }
  const models: ModelMapping['models'] = {};
  for (const [id, entry] of Object.entries(parsed.data.models)) {
    const providers: Partial<Record<VideoProviderName, ProviderModelEntry>> = {};
    if (entry.fal) providers.fal = entry.fal;
    if (entry.replicate) providers.replicate = entry.replicate;
    models[id as AiVideoModelId] = providers;
  }
  return { models, source };
}

/** Reads the operator's mapping file (VIDEO_MODEL_MAPPING_FILE), or the shipped default without a path. */
export async function loadModelMapping(path?: string): Promise<ModelMapping> {
  const file = path ?? DEFAULT_MODEL_MAPPING_PATH;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'read error';
    throw new ModelMappingError(`video model mapping ${file} cannot be read (${code})`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ModelMappingError(
      `video model mapping ${file} is not valid JSON: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  return parseModelMapping(json, file);
}

/** The hosted providers the operator configured (FAL_KEY, REPLICATE_API_TOKEN and their base URLs). */
export interface VideoProviderSettings {
  fal?: { key: string; baseUrl?: string };
  replicate?: { token: string; baseUrl?: string };
}

/** What a ShotRequest needs from the mapping: spread it into the request with the shot's own fields. */
export interface ChosenProviderModel {
  provider: VideoProviderName;
  providerModel: string;
  inputShape?: ShotInputShape;
  extraInput?: Record<string, unknown>;
}

/**
 * The provider (fal first, then Replicate) that serves `modelId` in `mode` among those configured, or null: no
 * configured provider serves it and the local engine renders the shot.
 */
export function chooseVideoProvider(
  mapping: ModelMapping,
  modelId: AiVideoModelId,
  mode: ShotMode,
  configured: VideoProviderSettings,
): ChosenProviderModel | null {
  const entries = mapping.models[modelId] ?? {};
  for (const provider of PROVIDER_PREFERENCE) {
    if (!configured[provider]) continue;
    const entry = entries[provider];
    const providerModel = mode === 'text-to-video' ? entry?.textToVideo : entry?.imageToVideo;
    if (!entry || !providerModel) continue;
    return {
      provider,
      providerModel,
      ...(entry.input ? { inputShape: entry.input } : {}),
      ...(entry.extraInput ? { extraInput: entry.extraInput } : {}),
    };
  }
  return null;
}

/** The client for a configured provider; throws when that provider has no settings. */
export function createVideoModelProvider(
  name: VideoProviderName,
  guard: Pick<UrlGuard, 'request'>,
  configured: VideoProviderSettings,
): VideoModelProvider {
  if (name === 'fal') {
    if (!configured.fal) throw new Error('fal is not configured (FAL_KEY)');
    return createFalQueueProvider(guard, configured.fal);
  }
  if (!configured.replicate) throw new Error('Replicate is not configured (REPLICATE_API_TOKEN)');
  return createReplicateProvider(guard, configured.replicate);
}
