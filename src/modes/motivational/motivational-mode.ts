import type { ModeDefinition, Price } from '../../platform/modes/mode.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import { unitPrice } from '../../platform/pricing/price-table.ts';
import { countWords, estimateSeconds } from '../../media/script/budget.ts';
import { TEMPLATE_QUOTE_HINT } from '../../media/script/writer.ts';
import { runStockEngine, type StockEngineDeps } from '../shared/stock-engine.ts';
import { validateStockInput } from '../shared/stock-validation.ts';
import { nicheWarnings, stockRenderEstimate } from '../stock/stock-mode.ts';
import { THEMES } from './quote-library.ts';
import { motivationalNarration } from './quote-writer.ts';
import {
  MOTIVATIONAL_ALIASES,
  motivationalRequestSchema,
  narrationLanguage,
  prepareMotivationalBody,
  type MotivationalRequest,
} from './motivational-request.ts';

/** The shortest video the stock engine renders; a quote video lasts as long as its narration beyond that. */
const MIN_VIDEO_SEC = 15;
/** Words of a typical written quote with its hook, for estimates made before the quote exists. */
const TYPICAL_WRITTEN_WORDS = 40;

function motivationalPrice(): Price {
  return {
    usdCents: unitPrice('motivational'),
    breakdown: [
      { item: 'motivational quote video', usd_cents: unitPrice('motivational'), quantity: 1, unit: 'job' },
    ],
    tool: 'videos/motivational',
    model: 'motivational',
    tier: 'standard',
    engine: 'stock',
  };
}

function expectedSeconds(request: MotivationalRequest): number {
  const words = request.quote
    ? countWords(request.quote) + (request.includeHook ? 10 : 0)
    : TYPICAL_WRITTEN_WORDS;
  return Math.max(MIN_VIDEO_SEC, Math.ceil(estimateSeconds(words) + 1));
}

/** POST /videos/motivational (spec 1 §4.8): a quote said over motivational footage, 9:16. */
export function motivationalMode(
  deps: StockEngineDeps & { llmConfigured: boolean },
): ModeDefinition<MotivationalRequest> {
  return {
    name: 'motivational',
    endpoint: 'videos/motivational',
    title: 'Motivational quote video',
    description:
      'A quote (yours, or one the service writes) narrated over motivational footage with music and word-synced captions, optionally after a short hook. Output 1080×1920.',
    schema: motivationalRequestSchema,
    aliases: MOTIVATIONAL_ALIASES,
    prepare: prepareMotivationalBody,
    receiptStatus: 200,
    idempotencyKey: 'recommended',
    heavy: true,
    dryRun: true,
    webhooks: false,
    privateDelivery: false,
    identicalRequestProtection: false,
    async validate(request, services) {
      const language = narrationLanguage(request.voice_id);
      if (!request.quote && language !== 'en') {
        throw invalidInputError([
          {
            field: 'voice_id',
            message: `speaks "${language}", but quotes written by the service are English; send your own quote in ${language}, or choose an English voice`,
          },
        ]);
      }
      await validateStockInput(
        {
          script: request.quote,
          voice_id: request.voice_id,
          voice_speed: 1,
          language,
          captions: request.caption_style.preset !== 'none',
        },
        services,
        { llmConfigured: deps.llmConfigured, narrator: deps.narrator },
      );
    },
    price: motivationalPrice,
    estimate: (request) => {
      const language = narrationLanguage(request.voice_id);
      return {
        renderSeconds: stockRenderEstimate(expectedSeconds(request)),
        durationSec: expectedSeconds(request),
        script: request.quote
          ? { source: 'request' as const }
          : { source: 'template' as const, hint: TEMPLATE_QUOTE_HINT },
        warnings: [
          ...(request.quote
            ? []
            : ['No quote was sent: the service writes an original one when the job runs (artifacts.quote).']),
          ...(request.includeHook && language !== 'en'
            ? [`includeHook is skipped: hooks are English and the voice speaks "${language}".`]
            : []),
          ...nicheWarnings(request.clipType),
        ],
      };
    },
    async run(ctx) {
      const r = ctx.request;
      const language = narrationLanguage(r.voice_id);
      const narration = motivationalNarration({
        quote: r.quote,
        includeHook: r.includeHook && language === 'en',
        clipType: r.clipType,
        seed: ctx.job.id,
      });
      const output = await runStockEngine(
        ctx,
        {
          brief: narration.quote,
          script: narration.script,
          scriptSource: narration.quoteSource === 'sent' ? 'request' : 'template',
          contentStyle: 'inspirational',
          durationSec: MIN_VIDEO_SEC,
          voiceSpeed: 1,
          language,
          voiceId: r.voice_id,
          clipType: r.clipType,
          footageKeywords: narration.theme ? [THEMES[narration.theme].virtue] : [],
          excludeKeywords: [],
          assetUrls: [],
          captionStyle: r.caption_style,
          music: { enabled: r.includeMusic, volume: 0.35 },
          includeBranding: r.includeSvcBranding,
          progressBar: { enabled: false, position: 'bottom' },
          platforms: [],
        },
        deps,
      );
      return {
        ...output,
        artifacts: {
          ...output.artifacts,
          quote: narration.quote,
          quoteSource: narration.quoteSource,
          ...(narration.quoteSource === 'written' ? { script_hint: TEMPLATE_QUOTE_HINT } : {}),
          ...(narration.hook ? { hook: narration.hook } : {}),
          ...(narration.theme ? { theme: narration.theme } : {}),
        },
      };
    },
  };
}
