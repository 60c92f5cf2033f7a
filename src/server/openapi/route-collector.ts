import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { RouteDocs } from './route-docs.ts';

/** One registered route as the OpenAPI document sees it. */
export interface CollectedRoute {
  method: string;
  /** Fastify's path, e.g. /api/v1/jobs/:jobId or /media/*. */
  url: string;
  docs: RouteDocs | undefined;
  /** False for routes that need no API key (`config.auth === false`). */
  auth: boolean;
  rateLimited: boolean;
  websocket: boolean;
}

const catalogs = new WeakMap<FastifyInstance, CollectedRoute[]>();

/**
 * Records every route registered on `app` from now on, in this scope and the scopes inside it. Call it before
 * any route is registered, so that the document never misses one.
 */
export function collectRoutes(app: FastifyInstance): void {
  const routes: CollectedRoute[] = [];
  catalogs.set(app, routes);
  app.addHook('onRoute', (options) => {
    const methods: HTTPMethods[] = Array.isArray(options.method) ? options.method : [options.method];
    const config = options.config ?? {};
    for (const method of methods) {
      routes.push({
        method: method.toUpperCase(),
        url: options.url,
        docs: config.docs,
        auth: config.auth !== false,
        rateLimited: config.rateLimit !== undefined,
        websocket: (options as { websocket?: boolean }).websocket === true,
      });
    }
  });
}

/**
 * The routes `app` registered, without the HEAD twins Fastify adds to every GET route. Read it once the app is
 * ready: routes of plugins are registered while it loads.
 */
export function collectedRoutes(app: FastifyInstance): CollectedRoute[] {
  const routes = catalogs.get(app);
  if (!routes) throw new Error('collectRoutes(app) was not called before the routes were registered');
  const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.url));
  return routes.filter((r) => !(r.method === 'HEAD' && gets.has(r.url)));
}
