// POST /b2b/validate (spec 2 §4.4): a preview request checked against every rule of the contract. It creates
// no job, fetches and resolves no URL, and charges nothing; the only read is the account's brand kit named by
// brand.brand_id (unknown: 404 BRAND_NOT_FOUND, as a generation call would answer). The equivalent
// /generate-and-post body is checked by that route's own dry run, which for this body fetches nothing either
// (it carries no asset or logo URL). Answer: docs/library.md.
import type { BrandKitService } from '../brand/kits/brand-kit-service.ts';
import { checkSentScript } from '../media/script/budget.ts';
import { ApiError, errors, type FieldIssue } from '../platform/errors.ts';
import { fieldIssues, invalidInputError, isPlainObject } from '../platform/generation/parse-request.ts';
import type { Caller, GenerationService } from '../platform/generation/submit.ts';
import type { ModeRegistry } from '../platform/modes/mode.ts';
import type { UrlGuard } from '../platform/net/url-guard.ts';
import { displayUsd, unitPrice } from '../platform/pricing/price-table.ts';
import { CONTRACT_STAGE, PREVIEW_SCHEMA_VERSION } from './preview-contract.ts';
import { operationPath } from './preview-modes.ts';
import { previewValidateSchema, type PreviewRequest } from './validate-request.ts';

export interface PreviewValidationDeps {
  urlGuard: UrlGuard;
  brandKits: BrandKitService;
  registry: ModeRegistry;
  generation: GenerationService;
}

/** The longest topic /generate-and-post takes as `topic`; a longer one is sent as `prompt` (up to 1000). */
const STOCK_TOPIC_MAX = 500;

/** The /generate-and-post body that renders this request today (the preview itself generates nothing). */
function stockBodyOf(request: PreviewRequest): Record<string, unknown> {
  const { input, brand, output } = request;
  const inline = brand && {
    ...(brand.name ? { name: brand.name } : {}),
    ...(brand.website_url ? { website_url: brand.website_url } : {}),
    ...(brand.tone ? { tone: brand.tone } : {}),
    ...(brand.primary_color ? { primary_color: brand.primary_color } : {}),
  };
  return {
    [input.topic.length <= STOCK_TOPIC_MAX ? 'topic' : 'prompt']: input.topic,
    ...(input.script ? { script: input.script } : {}),
    duration_sec: input.duration_seconds,
    ...(input.voice_id ? { voice_id: input.voice_id } : {}),
    ...(input.stock_keywords ? { footage_keywords: input.stock_keywords } : {}),
    content_purpose: request.content_purpose,
    aspect_ratio: output.aspect_ratio,
    captions: output.captions,
    // /generate-and-post takes ISO 639-1 codes: the language of a tag such as pt-BR.
    language: output.language.split('-')[0]!.toLowerCase(),
    cta: request.campaign.call_to_action.text,
    customer_id: request.customer.customer_id,
    ...(brand?.brand_id ? { brand_id: brand.brand_id } : {}),
    ...(inline && Object.keys(inline).length > 0 ? { brand: inline } : {}),
    delivery: { visibility: request.delivery.visibility },
  };
}

/** The field issues of a refusal: the ones it lists, else the whole body with the refusal's message. */
function issuesOf(error: ApiError): FieldIssue[] {
  const fields = (error.details as { fields?: FieldIssue[] } | undefined)?.fields;
  return fields ?? [{ field: '(body)', message: error.message }];
}

async function generationEquivalent(
  request: PreviewRequest,
  caller: Caller,
  requestId: string,
  deps: PreviewValidationDeps,
) {
  const stock = deps.registry.get('stock');
  if (!stock) return null;
  const body = stockBodyOf(request);
  let issues: FieldIssue[] = [];
  try {
    await deps.generation.dryRun(stock, body, caller, requestId);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    issues = issuesOf(error);
  }
  return { method: 'POST', path: operationPath(stock), body, accepted: issues.length === 0, issues };
}

function warningsOf(
  request: PreviewRequest,
  priceCents: number,
  equivalent: Awaited<ReturnType<typeof generationEquivalent>>,
): string[] {
  const warnings: string[] = [];
  if (priceCents > request.budget.max_cost_usd_cents)
    warnings.push(
      `budget.max_cost_usd_cents (${request.budget.max_cost_usd_cents}) is below the price of a stock video (${priceCents}).`,
    );
  if (request.input.script) {
    const check = checkSentScript(request.input.script);
    if (!check.ok)
      warnings.push(
        `input.script has ${check.words} words, about ${Math.round(check.estimatedSec)} s of speech; the longest video is 120 s (${check.maxWords} words).`,
      );
  }
  if (request.delivery.method === 'webhook' && !request.delivery.destination_id)
    warnings.push('delivery.method is webhook but no delivery.destination_id names where to deliver.');
  if (equivalent && !equivalent.accepted)
    warnings.push(
      `${equivalent.path} would refuse the equivalent body today: ${equivalent.issues.map((i) => `${i.field} ${i.message}`).join('; ')}.`,
    );
  return warnings;
}

export async function validatePreviewRequest(
  raw: unknown,
  caller: Caller,
  requestId: string,
  deps: PreviewValidationDeps,
) {
  if (!isPlainObject(raw))
    throw errors.inputInvalid('The request body must be a JSON object.', [
      { field: '(body)', message: 'must be a JSON object' },
    ]);
  const parsed = deps.urlGuard.validating(() => previewValidateSchema.safeParse(raw));
  if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error));
  const request = parsed.data;
  const brandId = request.brand?.brand_id;
  const kit =
    brandId === undefined
      ? undefined
      : await deps.brandKits.resolveForGeneration(caller.accountId, {
          brandId,
          customerId: request.customer.customer_id,
        });
  const priceCents = unitPrice('stock');
  const equivalent = await generationEquivalent(request, caller, requestId, deps);
  return {
    valid: true,
    schema_version: PREVIEW_SCHEMA_VERSION,
    stage: CONTRACT_STAGE,
    mode: request.mode,
    normalized_request: request,
    price_estimate: {
      currency: 'USD',
      usd_cents: priceCents,
      display: displayUsd(priceCents),
      basis: 'a stock video, flat for any length',
      within_budget: priceCents <= request.budget.max_cost_usd_cents,
    },
    ...(kit
      ? { brand_kit: { brand_id: kit.kit.brand_id, name: kit.kit.name, revision: kit.kit.revision } }
      : {}),
    generation_available: false,
    generation_equivalent: equivalent,
    warnings: warningsOf(request, priceCents, equivalent),
    job_created: false,
    charged: false,
  };
}
