import type { ModeDefinition, Price } from '../../platform/modes/mode.ts';
import { invalidInputError } from '../../platform/generation/parse-request.ts';
import { UrlRejectedError } from '../../platform/net/url-guard.ts';
import { unitPrice } from '../../platform/pricing/price-table.ts';
import { expectedScriptSource, scriptProvenance } from '../../media/script/writer.ts';
import { runStockEngine, type StockEngineDeps } from '../shared/stock-engine.ts';
import { validateStockInput } from '../shared/stock-validation.ts';
import { engineRequestOf } from '../shared/stock-fields.ts';
import { nicheWarnings, stockFootageFields, stockRenderEstimate } from '../stock/stock-mode.ts';
import { footageMatchWarnings, withFootageMatchCheck } from '../shared/footage-match-warnings.ts';
import { accountBrand } from '../shared/account-brand.ts';
import { brandKitHeaders, brandKitWarnings } from '../shared/brand-kit-selection.ts';
import { resolveKitForBrief, videoBranding, videoLanguage } from '../shared/kit-branding.ts';
import { MAGIC_ALIASES, magicRequestSchema, prepareMagicBody, type MagicRequest } from './magic-request.ts';

function magicPrice(): Price {
  return {
    usdCents: unitPrice('magic'),
    breakdown: [
      {
        item: 'Magic video with the account brand (flat for any length)',
        usd_cents: unitPrice('magic'),
        quantity: 1,
        unit: 'job',
      },
    ],
    tool: 'videos/magic',
    model: 'magic',
    tier: 'standard',
    engine: 'stock',
  };
}

/** A saved logo the service may not fetch is reported before charging, so the job does not fail later. */
export async function checkSavedLogo(
  logoUrl: string | undefined,
  guard: { assertAllowed(url: string, o: { timeoutMs: number }): Promise<URL> },
): Promise<void> {
  if (!logoUrl) return;
  try {
    await guard.assertAllowed(logoUrl, { timeoutMs: 5000 });
  } catch (error) {
    if (!(error instanceof UrlRejectedError)) throw error;
    throw invalidInputError([
      {
        field: 'account_brand.logo_url',
        message: `of your saved account brand cannot be fetched: ${error.message}; update the saved brand`,
      },
    ]);
  }
}

/** POST /videos/magic (spec 1 §4.8): the stock engine with the account's saved brand. */
export function magicMode(deps: StockEngineDeps & { llmConfigured: boolean }): ModeDefinition<MagicRequest> {
  return {
    name: 'magic',
    endpoint: 'videos/magic',
    title: 'Magic video',
    description:
      'A narrated vertical video from a topic or prompt, styled with the account brand (logo, colours, tone) or the brand kit brand_id selects. Output is always 1080×1920 (9:16).',
    schema: magicRequestSchema,
    aliases: MAGIC_ALIASES,
    prepare: prepareMagicBody,
    receiptStatus: 200,
    idempotencyKey: 'recommended',
    heavy: true,
    dryRun: true,
    webhooks: false,
    privateDelivery: false,
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
        },
        services,
        { llmConfigured: deps.llmConfigured, narrator: deps.narrator },
      );
      if (!kit) await checkSavedLogo((await accountBrand(services))?.logo_url, services.urlGuard);
      return withFootageMatchCheck(
        kit ? { ...request, brand_kit: kit } : request,
        stockFootageFields(request, language),
        services,
        deps.library,
      );
    },
    answerHeaders: (request) => brandKitHeaders(request.brand_kit),
    price: magicPrice,
    estimate: (request) => ({
      renderSeconds: stockRenderEstimate(request.duration_sec),
      durationSec: request.duration_sec,
      script: scriptProvenance(expectedScriptSource(request.script, deps.llmConfigured)),
      warnings: [
        ...(request.aspect_ratio !== '9:16'
          ? [
              `aspect_ratio ${request.aspect_ratio} is accepted, but Magic videos are always rendered 9:16 (1080×1920).`,
            ]
          : []),
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
      // The account brand, or the kit's (a brand sent with the request is not this mode's).
      const branding = await videoBranding({ brand_kit: r.brand_kit }, ctx);
      const output = await runStockEngine(ctx, engineRequestOf(r, branding), deps);
      return {
        ...output,
        artifacts: { ...output.artifacts, aspectRatio: '9:16', brand: branding.source },
      };
    },
  };
}
