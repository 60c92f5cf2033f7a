import type { ModeDefinition } from '../../platform/modes/mode.ts';
import { unitPrice } from '../../platform/pricing/price-table.ts';
import { closestNiches, type Niche } from '../../media/footage/niches.ts';
import { seedFootageRecipes } from '../../media/footage/procedural.ts';

import { brandKitHeaders, brandKitWarnings } from '../shared/brand-kit-selection.ts';
import {
  footageMatchWarnings,
  withFootageMatchCheck,
  type FootageMatchFields,
} from '../shared/footage-match-warnings.ts';
import { resolveKitForBrief, videoBranding, videoLanguage } from '../shared/kit-branding.ts';
import { expectedScriptSource, scriptProvenance } from '../../media/script/writer.ts';
import { runStockEngine, type StockEngineDeps } from '../shared/stock-engine.ts';
import { engineRequestOf } from '../shared/stock-fields.ts';
import { validateStockInput } from '../shared/stock-validation.ts';
import { prepareStockBody, STOCK_ALIASES, stockRequestSchema, type StockRequest } from './stock-request.ts';

/** Measured on this 2-core machine: about 0.6 s of render per second of video, plus script, voice and footage. */
export function stockRenderEstimate(durationSec: number): { min: number; typical: number; max: number } {
  return {
    min: Math.round(8 + durationSec * 0.4),
    typical: Math.round(12 + durationSec * 0.7),
    max: Math.round(90 + durationSec * 2),
  };
}

/** Warns, in a dry run, when no generated footage carries the requested niche (operator uploads may still). */
export function nicheWarnings(niche: Niche | undefined): string[] {
  if (!niche)
    return ['clip_type was not sent: it is inferred from brand.industry, brand.keywords and the brief.'];
  const tagged = new Set(seedFootageRecipes().flatMap((r) => r.niches));
  if (tagged.has(niche)) return [];
  const closest = closestNiches(niche).find((n) => tagged.has(n));
  return [
    `No built-in footage is tagged '${niche}'; unless footage you uploaded is, the closest tagged niche '${closest ?? 'abstract'}' is used.`,
  ];
}

/** What a dry run checks the library against: the sent script of a §4.2 request (docs/footage.md). */
export function stockFootageFields(
  request: Pick<StockRequest, 'script' | 'asset_urls' | 'footage_keywords' | 'exclude_keywords'>,
  language: string,
): FootageMatchFields {
  return {
    script: request.script,
    language,
    assetUrls: request.asset_urls,
    footageKeywords: request.footage_keywords,
    excludeKeywords: request.exclude_keywords,
  };
}

export function stockMode(deps: StockEngineDeps & { llmConfigured: boolean }): ModeDefinition<StockRequest> {
  return {
    name: 'stock',
    endpoint: 'generate-and-post',
    title: 'Stock video',
    description:
      'A narrated vertical video from a topic, prompt or script: written script, local voice, footage chosen per sentence, music, word-synced captions, brand logo.',
    schema: stockRequestSchema,
    aliases: STOCK_ALIASES,
    prepare: prepareStockBody,
    receiptStatus: 202,
    idempotencyKey: 'required',
    heavy: true,
    dryRun: true,
    webhooks: true,
    privateDelivery: true,
    identicalRequestProtection: true,
    async validate(request, services) {
      const kit = await resolveKitForBrief(request, services, {
        prompt: request.prompt,
        topic: request.topic,
        script: request.script,
        cta: request.cta,
      });
      const language = videoLanguage(request.language, kit);
      await validateStockInput(
        {
          ...request,
          language,
          captions: request.caption_style.preset !== 'none',
          logo_url: request.brand?.logo_url,
        },
        services,
        { llmConfigured: deps.llmConfigured, narrator: deps.narrator },
      );
      return withFootageMatchCheck(
        kit ? { ...request, brand_kit: kit } : request,
        stockFootageFields(request, language),
        services,
        deps.library,
      );
    },
    answerHeaders: (request) => brandKitHeaders(request.brand_kit),
    price: () => ({
      usdCents: unitPrice('stock'),
      breakdown: [
        {
          item: 'stock video (flat for any length)',
          usd_cents: unitPrice('stock'),
          quantity: 1,
          unit: 'job',
        },
      ],
      tool: 'generate-and-post',
      model: 'stock',
      tier: 'standard',
      engine: 'stock',
    }),
    estimate: (request) => ({
      renderSeconds: stockRenderEstimate(request.duration_sec),
      durationSec: request.duration_sec,
      script: scriptProvenance(expectedScriptSource(request.script, deps.llmConfigured)),
      warnings: [
        ...(request.asset_urls.length > 0 ? [] : nicheWarnings(request.clip_type)),
        ...(request.script
          ? ['A sent script is narrated word for word; cta and include_hook do not apply.']
          : []),
        ...footageMatchWarnings(request),
        ...brandKitWarnings(request),
      ],
    }),
    async run(ctx) {
      const r = ctx.request;
      // A kit or a brand sent with the request replaces the account brand (spec 2.7); a brand sent with a kit
      // overrides the kit field by field.
      const branding = await videoBranding(r, ctx);
      const output = await runStockEngine(ctx, engineRequestOf(r, branding), deps);
      return { ...output, artifacts: { ...output.artifacts, brand: branding.source } };
    },
  };
}
