// Turns a neutral ShotRequest into one provider model's input JSON, following the spelling the operator's
// mapping file gives for that model (ShotInputShape). The defaults are the names most hosted video models
// share on both fal and Replicate (prompt, duration, aspect_ratio, resolution, image_url, generate_audio), so a
// mapping entry only lists what its model does differently.

import type { ShotInputField, ShotInputShape, ShotRequest } from './video-model-provider.ts';

export const DEFAULT_SHOT_FIELDS: Readonly<Record<ShotInputField, string | null>> = {
  prompt: 'prompt',
  duration: 'duration',
  aspectRatio: 'aspect_ratio',
  resolution: 'resolution',
  nativeAudio: 'generate_audio',
  imageUrl: 'image_url',
  // Few endpoints take style anchors and their names differ widely, so they are sent only where the mapping
  // names the field; sending an unknown field is rejected by some models and ignored by the rest.
  referenceImageUrls: null,
};

/**
 * The duration the model will be asked for: the shortest accepted one that covers the request (a shot may be
 * trimmed afterwards, never stretched), else the longest accepted.
 */
export function fitDuration(requested: number, accepted: ShotInputShape['durations']): number {
  const wanted = Math.max(1, Math.ceil(requested - 1e-9));
  if (!accepted) return wanted;
  if (!Array.isArray(accepted)) return Math.min(accepted.max, Math.max(accepted.min, wanted));
  const sorted = [...accepted].sort((a, b) => a - b);
  return sorted.find((d) => d >= wanted) ?? sorted[sorted.length - 1] ?? wanted;
}

function spellDuration(seconds: number, format: ShotInputShape['durationFormat']): number | string {
  if (format === 'string') return String(seconds);
  if (format === 'seconds') return `${seconds}s`;
  return seconds;
}

/** The provider input for one shot: mapped neutral fields, then the mapping's fixed extras on top. */
export function buildShotInput(request: ShotRequest): Record<string, unknown> {
  const shape = request.inputShape ?? {};
  const fields = { ...DEFAULT_SHOT_FIELDS, ...shape.fields };
  const input: Record<string, unknown> = {};
  const put = (field: ShotInputField, value: unknown): void => {
    const name = fields[field];
    if (name && value !== undefined) input[name] = value;
  };
  put('prompt', request.prompt);
  put('duration', spellDuration(fitDuration(request.durationSec, shape.durations), shape.durationFormat));
  put('aspectRatio', request.aspectRatio);
  put('resolution', shape.resolutionValues?.[request.resolution] ?? request.resolution);
  put('nativeAudio', request.nativeAudio);
  put('imageUrl', request.imageUrl);
  if (request.referenceImageUrls?.length) put('referenceImageUrls', request.referenceImageUrls);
  return { ...input, ...request.extraInput };
}
