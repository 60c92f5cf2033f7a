import type { FastifyInstance } from 'fastify';
import { ARTICLE_PRICED_ROUTES } from '../../publishing/articles/index.ts';
import { z } from 'zod';
import { successBody } from '../../platform/envelope.ts';
import { SHARED_ALIASES } from '../../platform/generation/parse-request.ts';
import { ledgerSummary } from '../../platform/ledger/ledger.ts';
import { displayUsd, PRICE_TABLE } from '../../platform/pricing/price-table.ts';
import { TREND_READS } from '../../signals/radar/priced-reads.ts';
import { RECOMMENDATION_READS } from '../../signals/recommendations/recommendation-reads.ts';
import { PERSONA_PRICED_ROUTES } from '../../presenters/personas/index.ts';
import { findAccount } from '../../platform/accounts/accounts.ts';
import { MAX_BATCH_JOBS, servedBatchEndpoints } from '../../platform/generation/batch.ts';
import type { ModeDefinition, ModeRegistry } from '../../platform/modes/mode.ts';
import type { AppContext } from '../app-context.ts';
import { callerOf } from '../http-types.ts';
import type { RouteDocs } from '../openapi/route-docs.ts';

export const CAPABILITIES_VERSION = '2026-10-08';
export const TOOLS_VERSION = '2026-10-06';
export const SERVICE_VERSION = '1.0.0';

const DOCS = {
  health: {
    summary: 'Health',
    description: 'Answers 200 while the service and its database are reachable.',
    tags: ['Catalogs'],
    response: z.object({ status: z.literal('ok'), version: z.string() }),
  },
  caps: {
    summary: 'Capability map',
    description: `Every served mode with its path, input schema and options; field aliases, job statuses, batch and limits (version ${CAPABILITIES_VERSION}).`,
    tags: ['Catalogs'],
  },
  tools: {
    summary: 'Tools and price table',
    description: `The served tools and paid reads with their prices, units and engines (version ${TOOLS_VERSION}).`,
    tags: ['Catalogs'],
  },
  usage: {
    summary: 'Balance and usage',
    description: 'The live balance, the ledger totals and the price table of this account.',
    tags: ['Catalogs'],
  },
  secret: {
    summary: 'Webhook signing secret',
    description: "The secret that signs this account's webhooks, and how signatures are written.",
    tags: ['Webhooks'],
  },
} satisfies Record<string, RouteDocs>;

function inputSchema(mode: ModeDefinition): unknown {
  try {
    return z.toJSONSchema(mode.schema, { io: 'input', unrepresentable: 'any' });
  } catch {
    return null;
  }
}

function describeMode(mode: ModeDefinition, batchEndpoints: string[]) {
  return {
    mode: mode.name,
    method: 'POST',
    path: `/api/v1/${mode.endpoint}`,
    title: mode.title,
    description: mode.description,
    receipt_status: mode.receiptStatus,
    heavy_render: mode.heavy,
    dry_run: mode.dryRun,
    webhooks: mode.webhooks,
    private_delivery: mode.privateDelivery,
    idempotency_key: mode.idempotencyKey,
    batch: batchEndpoints.includes(mode.endpoint),
    input_schema: inputSchema(mode),
  };
}

/** The price of every served mode, read from the price table through the registry: nothing unserved. */
function priceList(registry: ModeRegistry) {
  return registry.all().map((mode) => ({ mode, entry: registry.priceEntry(mode) }));
}

/** Why request-priced modes have no flat price (`pricing.variable`); empty when every served price is flat. */
function variablePricing(registry: ModeRegistry): Record<string, string> {
  return Object.fromEntries(
    priceList(registry).flatMap(({ mode, entry }) => (entry.variable ? [[mode.name, entry.variable]] : [])),
  );
}

/** Paid non-job routes (trends, brand recommendations, persona creation): priced from the same table. */
function readPrices() {
  return [...TREND_READS, ...RECOMMENDATION_READS, ...PERSONA_PRICED_ROUTES, ...ARTICLE_PRICED_ROUTES].map(
    (read) => ({
      read,
      entry: PRICE_TABLE[read.operation],
    }),
  );
}

/** Price sheets of the served request-priced modes (e.g. `ai_video`). */
function sheets(ctx: AppContext): Record<string, unknown> {
  return Object.fromEntries(Object.entries(ctx.pricingSheets).map(([name, build]) => [name, build()]));
}

export function registerCatalogRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/v1/health', { config: { auth: false, docs: DOCS.health } }, async (request) => {
    await ctx.db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
    return successBody({ status: 'ok', version: SERVICE_VERSION }, { request_id: request.id });
  });

  app.get('/api/v1/capabilities', { config: { rateLimit: 'metadata', docs: DOCS.caps } }, async (request) => {
    const batchEndpoints = servedBatchEndpoints(ctx.registry);
    return successBody(
      {
        version: CAPABILITIES_VERSION,
        service_version: SERVICE_VERSION,
        modes: ctx.registry.all().map((mode) => describeMode(mode, batchEndpoints)),
        field_aliases: SHARED_ALIASES,
        ...Object.fromEntries(Object.entries(ctx.catalogs).map(([name, build]) => [name, build()])),
        jobs: {
          statuses: [
            'queued',
            'leased',
            'running',
            'uploading',
            'completed',
            'failed',
            'dead_lettered',
            'cancelled',
          ],
          poll: 'GET /api/v1/jobs/{job_id}',
          cancel: 'POST /api/v1/jobs/{job_id}/cancel',
          progress_stream: 'websocket_url of the receipt',
        },
        batch: { path: '/api/v1/batch', max_jobs: MAX_BATCH_JOBS, endpoints: batchEndpoints },
        limits: {
          job_reads_per_minute_per_key: ctx.config.limits.jobReadsPerMinute,
          metadata_reads_per_minute_per_key: ctx.config.limits.metadataReadsPerMinute,
          concurrent_heavy_renders_per_account: ctx.config.limits.heavyRendersPerAccount,
          idempotency_key_length: { min: 8, max: 256 },
        },
      },
      { request_id: request.id },
    );
  });

  app.get('/api/v1/tools', { config: { auth: false, docs: DOCS.tools } }, async (request) => {
    const prices = priceList(ctx.registry);
    const tools = prices.map(({ mode, entry }) => ({
      name: mode.name,
      path: `/api/v1/${mode.endpoint}`,
      title: mode.title,
      price_usd_cents: entry.usdCents,
      unit: entry.unit,
      engine: entry.engine,
    }));
    const reads = readPrices();
    return successBody(
      {
        version: TOOLS_VERSION,
        tools,
        reads: reads.map(({ read, entry }) => ({
          name: read.operation,
          method: read.method,
          path: read.path,
          title: read.title,
          price_usd_cents: entry.usdCents,
          unit: entry.unit,
          engine: entry.engine,
        })),
        pricing: {
          currency: 'USD',
          operations: prices.map(({ mode, entry }) => ({
            operation: mode.name,
            route: `/api/v1/${mode.endpoint}`,
            usd_cents: entry.usdCents,
            display: entry.usdCents === null ? null : displayUsd(entry.usdCents),
            unit: entry.unit,
            engine: entry.engine,
            notes: entry.notes,
          })),
          reads: reads.map(({ read, entry }) => ({
            operation: read.operation,
            method: read.method,
            route: read.path,
            usd_cents: entry.usdCents,
            display: displayUsd(entry.usdCents),
            unit: entry.unit,
            engine: entry.engine,
            notes: entry.notes,
          })),
          variable: variablePricing(ctx.registry),
          ...sheets(ctx),
          minimum_top_up_usd_cents: 1000,
        },
      },
      { request_id: request.id },
    );
  });

  app.get('/api/v1/usage', { config: { rateLimit: 'metadata', docs: DOCS.usage } }, async (request) => {
    const caller = callerOf(request);
    const summary = await ledgerSummary(ctx.db, caller.accountId);
    const account = await findAccount(ctx.db, caller.accountId);
    return successBody(
      {
        account_id: caller.accountId,
        account_name: account?.name,
        key_mode: caller.sandbox ? 'sandbox' : 'live',
        balance_usd_cents: summary.balance_cents,
        balance_display: displayUsd(summary.balance_cents),
        ledger: {
          entries: summary.entries,
          topped_up_usd_cents: summary.topped_up_cents,
          charged_usd_cents: summary.charged_cents,
          refunded_usd_cents: summary.refunded_cents,
        },
        pricing: {
          currency: 'USD',
          operations: Object.fromEntries(
            priceList(ctx.registry).map(({ mode, entry }) => [mode.name, entry.usdCents]),
          ),
          reads: Object.fromEntries(readPrices().map(({ read, entry }) => [read.operation, entry.usdCents])),
          variable: variablePricing(ctx.registry),
          ...sheets(ctx),
        },
      },
      { request_id: request.id },
    );
  });

  app.get(
    '/api/v1/webhook-secret',
    { config: { rateLimit: 'metadata', docs: DOCS.secret } },
    async (request) => {
      const account = await findAccount(ctx.db, callerOf(request).accountId);
      return successBody(
        {
          secret: account!.webhook_secret,
          signature_header: 'X-Service-Signature',
          signature_format: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">',
          event_type_header: 'X-Service-Event-Type',
          event_id_header: 'X-Service-Event-Id',
        },
        { request_id: request.id },
      );
    },
  );
}
