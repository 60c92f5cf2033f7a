import { StockLibrary } from '../media/library/stock-library.ts';
import { createScriptWriter } from '../media/script/writer.ts';
import { Narrator } from '../media/voice/narrator.ts';
import type { ModeFactoryDeps, ProductSetup } from '../platform/runtime.ts';
import { createPexelsClient } from '../providers/pexels.ts';
import { articleMode } from './article/article-mode.ts';
import { magicMode } from './magic/magic-mode.ts';
import { motivationalMode } from './motivational/motivational-mode.ts';
import { newsMode } from './news/news-mode.ts';
import { stockMode } from './stock/stock-mode.ts';

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
  );
  const writer = createScriptWriter(config.llm);
  const narrator = new Narrator(config.speech);
  const engine = {
    library,
    writer,
    narrator,
    renderPreset: config.renderPreset,
    llmConfigured: config.llm !== undefined,
  };
  return {
    modes: [
      stockMode(engine),
      magicMode(engine),
      motivationalMode(engine),
      articleMode(engine),
      newsMode(engine),
    ],
    catalogs: { voices: () => narrator.catalogue() },
    background: config.librarySeed === 'background' ? (signal) => library.seedAll(signal) : undefined,
  };
}
