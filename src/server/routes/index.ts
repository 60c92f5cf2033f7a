import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { registerBrandKitRoutes } from './b2b-brands.ts';
import { registerBatchRoute } from './batch.ts';
import { registerBrandRoutes } from './brand.ts';
import { registerCaptionStyleRoutes } from './caption-styles.ts';
import { registerCatalogRoutes } from './catalogs.ts';
import { registerClipVideoRoute } from './clip-video.ts';
import { registerGenerateRoute } from './generate.ts';
import { registerHookRoutes } from './hooks.ts';
import { registerJobStreamRoute } from './job-stream.ts';
import { registerJobRoutes } from './jobs.ts';
import { registerMediaRoute } from './media.ts';
import { registerOperationalRoutes } from './operations.ts';
import { registerRecommendationRoutes } from './recommendations.ts';
import { registerStockClipRoutes } from './stock-clips.ts';
import { registerTranscribeLanguagesRoute } from './transcribe-languages.ts';
import { registerTrendRoutes } from './trends.ts';
import { registerWebhookDeliveryRoutes } from './webhook-deliveries.ts';

export async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerCatalogRoutes(app, ctx);
  registerCaptionStyleRoutes(app, ctx);
  registerJobRoutes(app, ctx);
  registerJobStreamRoute(app, ctx);
  registerBatchRoute(app, ctx);
  registerMediaRoute(app, ctx);
  registerOperationalRoutes(app, ctx);
  registerStockClipRoutes(app, ctx);
  registerTranscribeLanguagesRoute(app, ctx);
  registerClipVideoRoute(app, ctx);
  registerWebhookDeliveryRoutes(app, ctx);
  registerBrandKitRoutes(app, ctx);
  registerBrandRoutes(app, ctx);
  registerHookRoutes(app, ctx);
  registerTrendRoutes(app, ctx);
  registerRecommendationRoutes(app, ctx);
  for (const mode of ctx.registry.all()) registerGenerateRoute(app, ctx, mode);
}
