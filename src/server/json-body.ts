import type { FastifyInstance } from 'fastify';
import { errors } from '../platform/errors.ts';
import { unstorableTextProblem } from './storable-text.ts';

// The one parser of JSON request bodies, on every route. It bounds the body before anything walks it: the
// size (BODY_LIMIT_BYTES, enforced by Fastify while reading), the encoding (UTF-8 only, invalid bytes are
// refused instead of being replaced with U+FFFD), the nesting depth and the number of values, and it refuses
// text PostgreSQL cannot store. V8's JSON.parse is iterative, so parsing a deep body is safe; everything
// after it (request fingerprints, structuredClone, zod, JSON.stringify) recurses and relies on these bounds.

/** The deepest body the API takes is a batch item's brand keywords, 5 levels down. */
export const MAX_JSON_DEPTH = 32;
/** An import of 100 stock clips with 100 tags each is about 11,000 values. */
export const MAX_JSON_VALUES = 100_000;

const utf8 = new TextDecoder('utf-8', { fatal: true });

interface Visit {
  value: unknown;
  /** Containers enclosing the value (the body itself is at depth 0). */
  depth: number;
  parent: Visit | undefined;
  key: string | number | undefined;
}

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

function segment(key: string | number): string {
  if (typeof key === 'number') return `[${key}]`;
  return PLAIN_KEY.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** The field path of a value as error details name it (brand.keywords[0]); `(body)` for the body itself. */
function pathOf(visit: Visit, extraKey?: string): string {
  const parts: string[] = extraKey === undefined ? [] : [segment(extraKey)];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) parts.push(segment(at.key));
  const path = parts.reverse().join('').replace(/^\./, '');
  return path || '(body)';
}

/** Keys that could reach an object's prototype when code copies the body by assignment. */
function isPrototypeKey(key: string, value: unknown): boolean {
  return (
    key === '__proto__' ||
    (key === 'constructor' &&
      value !== null &&
      typeof value === 'object' &&
      Object.hasOwn(value, 'prototype'))
  );
}

/** Walks the parsed body without recursion and refuses it at the first value over a bound. */
export function checkJsonBody(body: unknown): void {
  const pending: Visit[] = [{ value: body, depth: 0, parent: undefined, key: undefined }];
  let values = 1;
  const admit = (count: number): void => {
    values += count;
    if (values > MAX_JSON_VALUES) throw errors.bodyTooManyValues(MAX_JSON_VALUES);
  };
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const { value, depth } = visit;
    if (typeof value === 'string') {
      const problem = unstorableTextProblem(value);
      if (problem) throw errors.textNotStorable(pathOf(visit), problem);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) throw errors.bodyTooDeep(MAX_JSON_DEPTH, pathOf(visit));
    if (Array.isArray(value)) {
      admit(value.length);
      for (let i = value.length - 1; i >= 0; i--)
        pending.push({ value: value[i], depth: depth + 1, parent: visit, key: i });
      continue;
    }
    const entries = Object.entries(value);
    admit(entries.length);
    for (const [key, child] of entries) {
      const problem = unstorableTextProblem(key);
      if (problem) throw errors.textNotStorable(pathOf(visit, key), `has a name that ${problem}`);
      if (isPrototypeKey(key, child)) throw errors.forbiddenField(pathOf(visit, key));
      pending.push({ value: child, depth: depth + 1, parent: visit, key });
    }
  }
}

/** Bytes of an application/json body to the parsed value, or an ApiError that says what to fix. */
export function parseJsonBody(bytes: Buffer): unknown {
  if (bytes.length === 0) throw errors.bodyEmpty();
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw errors.bodyNotUtf8();
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw errors.bodyNotJson((error as Error).message);
  }
  checkJsonBody(body);
  return body;
}

/**
 * Makes parseJsonBody the parser of application/json for the whole app, and drops the plain-text parser, so
 * every body a JSON route sees came through it (text/plain gets the "send JSON" 400 of an unknown type).
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, bytes, done) => {
    try {
      done(null, parseJsonBody(bytes as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
