import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
} from 'fastify';
import websocket from '@fastify/websocket';
import { errorBody } from '../platform/envelope.ts';
import { ApiError, errors } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import type { AppContext } from './app-context.ts';
import './http-types.ts';
import { registerJsonBodyParser } from './json-body.ts';
import { collectRoutes } from './openapi/route-collector.ts';
import { registerRoutes } from './routes/index.ts';
import { assertStorableFields } from './storable-text.ts';
import { drainUnreadBody } from './unread-body.ts';

function readApiKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const auth = headers.authorization;
  if (typeof auth === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (match) return match[1]!.trim();
  }
  const key = headers['x-api-key'];
  return typeof key === 'string' && key.trim() ? key.trim() : undefined;
}

/** Maps anything thrown while handling a request to the spec's error envelope; 500s never show internals. */
function toApiError(error: FastifyError | Error, bodyLimit: number): ApiError {
  if (error instanceof ApiError) return error;
  const status = (error as FastifyError).statusCode;
  const code = (error as FastifyError).code;
  if (status === 413 || code === 'FST_ERR_CTP_BODY_TOO_LARGE') return errors.payloadTooLarge(bodyLimit);
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return errors.inputInvalid('Send the body as JSON with "Content-Type: application/json".');
  }
  if (status === 400) return errors.inputInvalid(`The request could not be read: ${error.message}`);
  if (status !== undefined && status >= 400 && status < 500)
    return new ApiError(status, 'INPUT_INVALID', error.message);
  return errors.internal();
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  // Typed as Fastify's logger so the app keeps Fastify's default instance type.
  const logger: FastifyBaseLogger = ctx.log;
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: ctx.config.bodyLimitBytes,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{8,128}$/.test(given) ? given : newId.request();
    },
    // One log line per request is written by the onResponse hook below, without headers or query strings.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    trustProxy: false,
    // A path whose percent-escapes are not UTF-8 is refused by the router before any hook runs.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const apiError =
        error.code === 'FST_ERR_BAD_URL' ? errors.badUrl() : toApiError(error, ctx.config.bodyLimitBytes);
      void reply
        .status(apiError.status)
        .header('x-request-id', request.id)
        .send(errorBody(apiError, { request_id: request.id }));
    },
  });
  registerJsonBodyParser(app);
  await app.register(websocket);
  app.decorateRequest('caller', undefined);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Body text is checked by the JSON parser; path parameters and query values here, before any handler.
  app.addHook('preValidation', async (request) => {
    assertStorableFields(request.params);
    assertStorableFields(request.query);
  });

  // An answer to a request whose body was never read waits until the client has sent it (unread-body.ts).
  app.addHook('onSend', async (request) => {
    await drainUnreadBody(request.raw);
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    ctx.metrics.httpDuration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    request.log[reply.statusCode >= 500 ? 'error' : 'info'](
      { method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });

  app.addHook('preHandler', async (request) => {
    const config = request.routeOptions.config;
    if (config.auth === false || request.is404) return;
    const key = readApiKey(request.headers);
    if (!key) throw errors.authRequired();
    const caller = await ctx.keys.authenticate(key);
    if (!caller) throw errors.authInvalid();
    request.caller = caller;
    request.log = request.log.child({ accountId: caller.accountId });
    if (config.rateLimit === 'job_reads') {
      await ctx.rateLimiter.hit(
        `jobs:${caller.keyId}`,
        ctx.config.limits.jobReadsPerMinute,
        'job reads (limit per key per minute)',
      );
    } else if (config.rateLimit === 'metadata') {
      await ctx.rateLimiter.hit(
        `meta:${caller.keyId}`,
        ctx.config.limits.metadataReadsPerMinute,
        'metadata reads (limit per key per minute)',
      );
    }
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, ctx.config.bodyLimitBytes);
    if (apiError.status >= 500) request.log.error({ err: error }, 'unhandled error');
    else request.log.info({ code: apiError.code, status: apiError.status }, 'request refused');
    void reply
      .status(apiError.status)
      .headers(apiError.headers)
      .send(errorBody(apiError, { request_id: request.id }));
  });

  app.setNotFoundHandler((request, reply) => {
    const error = errors.routeNotFound(request.method, request.url.split('?')[0]!);
    void reply.status(404).send(errorBody(error, { request_id: request.id }));
  });

  // Every route registered from here on is in the OpenAPI document (GET /api/v1/openapi.json).
  collectRoutes(app);
  await registerRoutes(app, ctx);
  return app;
}
