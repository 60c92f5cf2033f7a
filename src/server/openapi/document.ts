import type { ModeDefinition } from '../../platform/modes/mode.ts';
import { resolveError, statusOfCode, type ResolvedError } from './error-codes.ts';
import { GenerationBodies } from './generation-body.ts';
import { CHARGE_HEADERS, headerComponents, headerName, headerRef } from './headers.ts';
import { SchemaComponents, type JsonSchema } from './json-schema.ts';
import {
  dryRunSchema,
  errorEnvelopeSchema,
  legacyErrorSchema,
  legacySuccessSchema,
  metaSchema,
  receiptSchema,
} from './response-schemas.ts';
import type { CollectedRoute } from './route-collector.ts';
import type { RouteDocs } from './route-docs.ts';

// Builds the OpenAPI 3.1 document from the routes the app registered (route-collector.ts) and what each says
// about itself (config.docs, route-docs.ts). Every registered route is in it; a route without docs gets a
// summary derived from its path.

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  /** Where the API is served (PUBLIC_BASE_URL). */
  serverUrl: string;
}

type Json = Record<string, unknown>;
type Idempotency = NonNullable<RouteDocs['idempotency']>;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Fastify's /jobs/:jobId and /media/* as OpenAPI path templates: /jobs/{jobId}, /media/{path}. */
export function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}');
}

function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

function words(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).filter(Boolean);
}

function camel(parts: string[]): string {
  return parts.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1))).join('');
}

/** The path without /api/v1, for names and tags. */
function shortPath(path: string): string {
  return path.replace(/^\/api\/v1(?=\/|$)/, '');
}

function operationIdOf(method: string, path: string): string {
  const parts = shortPath(path)
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param ? ['by', ...words(param[1]!)] : words(segment);
    });
  return camel([method.toLowerCase(), ...parts]);
}

function defaultTag(path: string): string {
  const first = shortPath(path).split('/').find(Boolean) ?? 'api';
  return first[0]!.toUpperCase() + first.slice(1);
}

class DocumentBuilder {
  readonly components = new SchemaComponents();
  private readonly generation = new GenerationBodies(this.components);
  private readonly operationIds = new Set<string>();
  /** The shared answers, kept once in `components.schemas`. */
  private readonly refs = {
    meta: this.components.component('Meta', metaSchema, 'output'),
    error: this.components.component('ErrorEnvelope', errorEnvelopeSchema, 'output'),
    legacyError: this.components.component('LegacyError', legacyErrorSchema, 'output'),
    legacySuccess: this.components.component('LegacyClipAnswer', legacySuccessSchema, 'output'),
    receipt: this.components.component('Receipt', receiptSchema, 'output'),
    dryRun: this.components.component('DryRunResult', dryRunSchema, 'output'),
  };

  operation(route: CollectedRoute, path: string): Json {
    const docs = route.docs;
    const modes = docs?.generation?.modes ?? [];
    const paid = docs?.paid ?? modes.length > 0;
    const idempotency = docs?.idempotency ?? idempotencyOfModes(modes);
    const operationId = this.uniqueOperationId(operationIdOf(route.method, path));
    const parameters = [
      ...this.pathParameters(path, docs),
      ...this.queryParameters(docs),
      ...headerParameters(idempotency, modes),
    ];
    const requestBody = this.requestBody(route, docs);
    return {
      operationId,
      summary: docs?.summary ?? `${route.method} ${path}`,
      ...(docs?.description ? { description: docs.description } : {}),
      tags: docs?.tags.length ? docs.tags : [defaultTag(path)],
      ...(docs?.deprecated || docs?.retired ? { deprecated: true } : {}),
      ...(route.auth ? {} : { security: [] }),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        ...this.successResponses(route, docs, modes, paid, idempotency),
        ...this.errorResponses(route, docs, modes, paid, idempotency, requestBody !== undefined),
      },
    };
  }

  private uniqueOperationId(id: string): string {
    let unique = id;
    for (let n = 2; this.operationIds.has(unique); n++) unique = `${id}${n}`;
    this.operationIds.add(unique);
    return unique;
  }

  private pathParameters(path: string, docs: RouteDocs | undefined): Json[] {
    const schema = docs?.params ? this.components.convert(docs.params, 'input') : {};
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    return pathParams(path).map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: properties[name] ?? { type: 'string' },
      ...(name === 'path' && !properties[name] ? { description: 'The rest of the path (may hold /).' } : {}),
    }));
  }

  private queryParameters(docs: RouteDocs | undefined): Json[] {
    if (!docs?.query) return [];
    const schema = this.components.convert(docs.query, 'input');
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    return Object.entries(properties).map(([name, property]) => {
      const { description, deprecated, ...rest } = property;
      return {
        name,
        in: 'query',
        required: required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        ...(deprecated === true ? { deprecated: true } : {}),
        schema: rest,
      };
    });
  }

  private requestBody(route: CollectedRoute, docs: RouteDocs | undefined): Json | undefined {
    const required = docs?.bodyRequired ?? true;
    if (docs?.consumes) {
      return {
        required,
        content: Object.fromEntries(
          docs.consumes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
        ),
      };
    }
    const schema = this.bodySchema(docs);
    if (schema) return { required, content: { 'application/json': { schema } } };
    if (!docs && BODY_METHODS.has(route.method)) {
      return { required: false, content: { 'application/json': { schema: {} } } };
    }
    return undefined;
  }

  private bodySchema(docs: RouteDocs | undefined): JsonSchema | undefined {
    const generation = docs?.generation;
    if (generation) {
      const { modes, selector } = generation;
      if (!selector) {
        const refs = modes.map((mode) => this.generation.ref(mode));
        return refs.length === 1 ? refs[0] : { anyOf: refs };
      }
      return {
        anyOf: modes.map((mode) =>
          mode.ownRoute
            ? this.generation.ref(mode)
            : this.generation.withSelector(mode, selector.field, mode.name === selector.default),
        ),
      };
    }
    return docs?.body ? this.components.convert(docs.body, 'input') : undefined;
  }

  private successResponses(
    route: CollectedRoute,
    docs: RouteDocs | undefined,
    modes: readonly ModeDefinition[],
    paid: boolean,
    idempotency: Idempotency,
  ): Json {
    if (docs?.retired) return {};
    if (route.websocket) {
      return {
        '101': {
          description:
            'Switching Protocols: a WebSocket. Each message is a JSON object { type: "progress", job_id, progress (0-100), status, stage, message, url, at }; history is replayed first; the socket closes when the job ends (4401: bad or expired token, 4404: unknown job).',
        },
      };
    }
    const headers: Json = {
      'X-Request-Id': headerRef('X-Request-Id'),
      ...(modes.length > 0 ? { 'X-Job-Id': headerRef('X-Job-Id') } : {}),
      ...(paid ? Object.fromEntries(CHARGE_HEADERS.map((name) => [name, headerRef(name)])) : {}),
      ...(idempotency !== 'none'
        ? {
            'X-Idempotent-Replay': headerRef('X-Idempotent-Replay'),
            'X-Idempotent-Replay-Match': headerRef('X-Idempotent-Replay-Match'),
          }
        : {}),
      ...Object.fromEntries(
        Object.entries(docs?.headers ?? {}).map(([name, description]) => [
          headerName(name.toLowerCase()),
          { description, schema: { type: 'string' } },
        ]),
      ),
    };
    if (docs?.produces) {
      return {
        [String(docs.successStatus ?? 200)]: {
          description: docs.summary,
          headers,
          content: Object.fromEntries(docs.produces.map((type) => [type, { schema: mediaSchema(type) }])),
        },
      };
    }
    if (docs?.legacy) {
      return {
        [String(docs.successStatus ?? 200)]: {
          description: 'Accepted: the job id as taskId.',
          headers,
          content: { 'application/json': { schema: this.refs.legacySuccess } },
        },
      };
    }
    if (modes.length > 0) return this.generationResponses(docs, modes, headers);
    const content = {
      'application/json': {
        schema: this.envelope(docs?.response ? this.components.convert(docs.response, 'output') : {}),
      },
    };
    return {
      [String(docs?.successStatus ?? 200)]: { description: docs?.summary ?? 'Success.', headers, content },
      ...Object.fromEntries(
        Object.entries(docs?.otherStatuses ?? {}).map(([status, description]) => [
          status,
          { description, headers, content },
        ]),
      ),
    };
  }

  /** A receipt (spec 1 §2.1) at the mode's status, and a dry-run result (§2.5) at 200 where dry runs exist. */
  private generationResponses(
    docs: RouteDocs | undefined,
    modes: readonly ModeDefinition[],
    headers: Json,
  ): Json {
    const receiptStatuses = new Set(modes.map((mode) => docs?.successStatus ?? mode.receiptStatus));
    const dryRuns = modes.some((mode) => mode.dryRun);
    const responses: Json = {};
    for (const status of receiptStatuses) {
      const schemas = [this.receiptEnvelope()];
      if (dryRuns && status === 200) schemas.push(this.envelope(this.refs.dryRun));
      responses[String(status)] = {
        description:
          dryRuns && status === 200
            ? 'A receipt of the accepted job, or a dry-run result.'
            : 'A receipt of the accepted job.',
        headers,
        content: { 'application/json': { schema: schemas.length === 1 ? schemas[0] : { anyOf: schemas } } },
      };
    }
    if (dryRuns && !receiptStatuses.has(200)) {
      responses['200'] = {
        description: 'A dry-run result: validated and priced, nothing created or charged.',
        headers: { 'X-Request-Id': headerRef('X-Request-Id') },
        content: { 'application/json': { schema: this.envelope(this.refs.dryRun) } },
      };
    }
    return responses;
  }

  private receiptEnvelope(): JsonSchema {
    const envelope = this.envelope(this.refs.receipt);
    const properties = envelope.properties as Json;
    properties.jobId = { type: 'string', deprecated: true, description: 'Deprecated alias of data.job_id.' };
    properties.videoId = {
      type: 'string',
      deprecated: true,
      description: 'Deprecated alias of data.video_id.',
    };
    return envelope;
  }

  private envelope(data: JsonSchema): JsonSchema {
    return {
      type: 'object',
      required: ['success', 'data', 'meta'],
      properties: { success: { const: true }, data, meta: this.refs.meta },
    };
  }

  private errorResponses(
    route: CollectedRoute,
    docs: RouteDocs | undefined,
    modes: readonly ModeDefinition[],
    paid: boolean,
    idempotency: Idempotency,
    hasBody: boolean,
  ): Json {
    const codes: ResolvedError[] = [];
    const add = (code: string) => codes.push({ code, status: statusOfCode(code) });
    if (docs?.retired) add('MODE_NOT_AVAILABLE');
    else {
      add('INPUT_INVALID');
      if (route.auth) ['AUTH_REQUIRED', 'AUTH_INVALID_API_KEY'].forEach(add);
      if (hasBody) add('PAYLOAD_TOO_LARGE');
      if (route.rateLimited) add('RATE_LIMIT_EXCEEDED');
      if (paid) add('INSUFFICIENT_API_CREDITS');
      if (idempotency === 'required') add('IDEMPOTENCY_KEY_REQUIRED');
      if (idempotency !== 'none') ['RESOURCE_ALREADY_EXISTS', 'REQUEST_IN_PROGRESS'].forEach(add);
      if (modes.some((mode) => mode.heavy)) add('RENDER_CONCURRENCY_LIMIT_EXCEEDED');
      if (modes.some((mode) => !mode.dryRun)) add('DRY_RUN_NOT_SUPPORTED');
      if (modes.some((mode) => !mode.privateDelivery)) add('PRIVATE_DELIVERY_UNAVAILABLE');
      codes.push(...(docs?.errors ?? []).map(resolveError));
    }
    add('INTERNAL_ERROR');

    const byStatus = new Map<string, Set<string>>();
    const legacy = docs?.legacy;
    for (const { code, status } of codes) {
      const key = status === undefined ? 'default' : String(legacy ? legacy.errorStatus(status) : status);
      byStatus.set(key, (byStatus.get(key) ?? new Set()).add(code));
    }
    const schema = legacy ? this.refs.legacyError : this.refs.error;
    const responses: Json = {};
    for (const [status, set] of [...byStatus].sort(([a], [b]) => a.localeCompare(b))) {
      const list = [...set];
      const retryAfter =
        status === '429' || list.includes('REQUEST_IN_PROGRESS') || list.includes('AVATAR_NOT_READY');
      responses[status] = {
        description: `${status === 'default' ? 'Other errors' : 'Error'}: ${list.join(', ')}.`,
        headers: {
          'X-Request-Id': headerRef('X-Request-Id'),
          ...(retryAfter ? { 'Retry-After': headerRef('Retry-After') } : {}),
        },
        content: { 'application/json': { schema } },
      };
    }
    return responses;
  }
}

/** The schema of a non-envelope answer: a JSON document, text, or a file. */
function mediaSchema(type: string): JsonSchema {
  if (type === 'application/json') return { type: 'object' };
  return type.startsWith('text/') ? { type: 'string' } : { type: 'string', format: 'binary' };
}

function idempotencyOfModes(modes: readonly ModeDefinition[]): Idempotency {
  if (modes.length === 0) return 'none';
  return modes.some((mode) => mode.idempotencyKey === 'required') ? 'required' : 'recommended';
}

function headerParameters(idempotency: Idempotency, modes: readonly ModeDefinition[]): Json[] {
  const parameters: Json[] = [];
  if (idempotency !== 'none') {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        idempotency === 'required'
          ? 'Unique per intended call (8-256 characters). Required on paid live calls (400 IDEMPOTENCY_KEY_REQUIRED without it); dry runs and sandbox keys need none. The same key and body replay the stored answer for 24 h.'
          : 'Recommended: unique per intended call (8-256 characters). The same key and body replay the stored answer for 24 h.',
      schema: { type: 'string', minLength: 8, maxLength: 256 },
    });
  }
  if (modes.some((mode) => mode.identicalRequestProtection)) {
    parameters.push({
      name: 'X-Repeat-Token',
      in: 'header',
      required: false,
      description:
        'An identical body within 5 minutes answers the first request again; send a new token to make a second job on purpose.',
      schema: { type: 'string', maxLength: 128 },
    });
  }
  return parameters;
}

export function buildOpenApiDocument(routes: readonly CollectedRoute[], info: DocumentInfo): Json {
  const builder = new DocumentBuilder();
  const paths: Record<string, Json> = {};
  const ordered = [...routes].sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  for (const route of ordered) {
    const path = openApiPath(route.url);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = builder.operation(route, path);
  }
  const tags = [
    ...new Set(
      Object.values(paths).flatMap((item) =>
        Object.values(item).flatMap((op) => (op as { tags: string[] }).tags),
      ),
    ),
  ].sort();
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: info.serverUrl }],
    security: [{ bearerAuth: [] }, { apiKeyAuth: [] }],
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: builder.components.schemas,
      headers: headerComponents(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer <API key> (live svc_…, sandbox svc_test_…).',
        },
        apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'X-API-Key: <API key>.' },
      },
    },
  };
}
