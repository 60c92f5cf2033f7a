import { readFileSync } from 'node:fs';
import type { Config } from '../../platform/config.ts';
import type { UrlGuard } from '../../platform/net/url-guard.ts';
import {
  chooseVideoProvider,
  createVideoModelProvider,
  DEFAULT_MODEL_MAPPING_PATH,
  parseModelMapping,
  type VideoProviderSettings,
} from '../../providers/video-models/model-mapping.ts';
import type {
  VideoModelProvider,
  VideoProviderName,
} from '../../providers/video-models/video-model-provider.ts';
import type { HostedModels } from './hosted-shots.ts';

// The hosted video-model providers of this build, from configuration: FAL_KEY and REPLICATE_API_TOKEN switch
// them on, the mapping file (VIDEO_MODEL_MAPPING_FILE, else the shipped default) says which provider model
// serves each neutral id. With neither key every model renders on the local motion engine.

export function hostedModels(config: Config, urlGuard: UrlGuard): HostedModels {
  const { videoModels } = config;
  const configured: VideoProviderSettings = {
    ...(videoModels.fal
      ? {
          fal: {
            key: videoModels.fal.apiKey,
            ...(videoModels.fal.baseUrl ? { baseUrl: videoModels.fal.baseUrl } : {}),
          },
        }
      : {}),
    ...(videoModels.replicate
      ? {
          replicate: {
            token: videoModels.replicate.apiToken,
            ...(videoModels.replicate.baseUrl ? { baseUrl: videoModels.replicate.baseUrl } : {}),
          },
        }
      : {}),
  };
  const path = videoModels.mappingFile ?? DEFAULT_MODEL_MAPPING_PATH;
  // Read once at start: a bad operator file stops the service with a message naming the file.
  const mapping = parseModelMapping(JSON.parse(readFileSync(path, 'utf8')), path);
  const clients = new Map<VideoProviderName, VideoModelProvider>();
  const client = (name: VideoProviderName) => {
    let found = clients.get(name);
    if (!found) clients.set(name, (found = createVideoModelProvider(name, urlGuard, configured)));
    return found;
  };
  const choose = (model: Parameters<HostedModels['route']>[0], kind: Parameters<HostedModels['route']>[1]) =>
    chooseVideoProvider(
      mapping,
      model,
      kind === 'text_to_video' ? 'text-to-video' : 'image-to-video',
      configured,
    );
  return {
    engineFor: (model, kind) => choose(model, kind)?.provider ?? 'local',
    route(model, kind) {
      const chosen = choose(model, kind);
      if (!chosen) throw new Error(`${model} has no hosted provider in this build`);
      return {
        provider: client(chosen.provider),
        providerModel: chosen.providerModel,
        ...(chosen.inputShape ? { inputShape: chosen.inputShape } : {}),
        ...(chosen.extraInput ? { extraInput: chosen.extraInput } : {}),
      };
    },
    pollIntervalMs: videoModels.pollSeconds * 1000,
    shotTimeoutMs: videoModels.shotTimeoutSeconds * 1000,
  };
}
