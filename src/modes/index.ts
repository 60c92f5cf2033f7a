import { StockLibrary } from '../media/library/stock-library.ts';
import { createScriptWriter } from '../media/script/writer.ts';
import { createRecognizer } from '../media/speech/create-recognizer.ts';
import { Narrator } from '../media/voice/narrator.ts';
import type { ModeFactoryDeps, ProductSetup } from '../platform/runtime.ts';
import { createBrandRefiner } from '../providers/openai-brand-refiner.ts';
import { createPexelsClient } from '../providers/pexels.ts';
import { createVideoSiteFetcher } from '../providers/video-site/create-video-site-fetcher.ts';
import { StoryFinder } from '../signals/stories/story-finder.ts';
import { createAvatarProviders } from '../providers/avatars/avatar-providers.ts';
import { OpenAiModerationClient } from '../providers/openai-moderation.ts';
import { createImageModel } from '../providers/image-models/openai-images.ts';
import { checkContent } from '../presenters/safety/content-check.ts';
import { presenterPriceSheet } from '../platform/pricing/presenter-price.ts';
import { presenterMode } from './ai-influencer/presenter-mode.ts';
import { aiVideoMode } from './ai-video/ai-video-mode.ts';
import { hostedModels } from './ai-video/hosted-models.ts';
import { aiVideoPriceSheet } from './ai-video/price-sheet.ts';
import { articleMode } from './article/article-mode.ts';
import { brandAnalyzeMode } from './brand-analyze/brand-analyze-mode.ts';
import { captionRenderMode } from './caption-render/caption-render-mode.ts';
import { clipMode } from './clipper/clip-mode.ts';
import { magicMode } from './magic/magic-mode.ts';
import { motivationalMode } from './motivational/motivational-mode.ts';
import { newsMode } from './news/news-mode.ts';
import { stockMode } from './stock/stock-mode.ts';
import { transcribeMode } from './transcribe/transcribe-mode.ts';
import { fanoutMode } from '../publishing/posting/fanout-mode.ts';
import { reviseMode } from './revise/revise-mode.ts';
import { postMode } from '../publishing/posting/post-mode.ts';

/**
 * The generation modes this build serves (each in its own folder under src/modes/), and the work that runs
 * beside the worker: generating the whole stock library once, when LIBRARY_SEED=background.
 */
export function productModes(deps: ModeFactoryDeps): ProductSetup {
  const { config } = deps;
  const library = new StockLibrary(
    deps.db,
    config.libraryDir,
    deps.log,
    config.pexels && createPexelsClient(config.pexels),
    undefined,
    deps.store,
  );
  const writer = createScriptWriter(config.llm);
  const recognizer = createRecognizer(config);
  const narrator = new Narrator(config.speech, recognizer);
  const engine = {
    library,
    writer,
    narrator,
    renderPreset: config.renderPreset,
    llmConfigured: config.llm !== undefined,
  };
  const hosted = hostedModels(config, deps.urlGuard);
  const aiVideo = { ...engine, hosted };
  const avatarProviders = createAvatarProviders(config.avatars, deps.urlGuard);
  const moderation = config.moderation && new OpenAiModerationClient(config.moderation);
  const content = {
    check: (input: Parameters<typeof checkContent>[0], signal?: AbortSignal) =>
      checkContent(input, { ...(moderation ? { moderation } : {}), ...(signal ? { signal } : {}) }),
  };
  const generationModes = [
    stockMode(engine),
    magicMode(engine),
    motivationalMode(engine),
    articleMode(engine),
    newsMode({ ...engine, stories: deps.radar && new StoryFinder({ trends: deps.radar, db: deps.db }) }),
    clipMode({
      fetcher: createVideoSiteFetcher(config),
      recognizer: () => recognizer,
      renderPreset: config.renderPreset,
    }),
    transcribeMode({ recognizer }),
    captionRenderMode({ renderPreset: config.renderPreset }),
    aiVideoMode('text_to_video', aiVideo),
    aiVideoMode('image_to_video', aiVideo),
    presenterMode({
      ...engine,
      avatarProviders,
      content,
      imageModel: createImageModel(config.imageModel, deps.urlGuard),
    }),
    brandAnalyzeMode({
      refiner: createBrandRefiner(config.llm),
      analyzer: config.llm ? `llm:${config.llm.model}` : 'local',
    }),
  ];
  const publishing = deps.publishing && [
    postMode(deps.publishing),
    fanoutMode({
      modes: new Map(generationModes.map((mode) => [mode.name, mode])),
      publishing: deps.publishing,
      config,
    }),
  ];
  return {
    modes: [...generationModes, reviseMode({ narrator, library }), ...(publishing ?? [])],
    catalogs: { voices: () => narrator.catalogue() },
    pricing: {
      ai_video: () => aiVideoPriceSheet(hosted.engineFor),
      ai_influencer: () => presenterPriceSheet(),
    },
    background:
      config.librarySeed === 'background'
        ? (signal, renders) => library.seedAll(signal, { foreground: renders })
        : undefined,
  };
}
