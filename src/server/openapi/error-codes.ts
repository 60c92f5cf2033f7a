import { analysisErrors } from '../../brand/analysis/analysis-errors.ts';
import { kitErrors } from '../../brand/kits/kit-errors.ts';
import { logoErrors } from '../../brand/logo/logo-errors.ts';
import { stockClipErrors } from '../../media/library/stock-clip-store.ts';
import { ApiError, errors } from '../../platform/errors.ts';
import { articleErrors } from '../../publishing/articles/article-errors.ts';
import { scheduleErrors } from '../../publishing/schedules/schedule-errors.ts';
import { radarErrors } from '../../signals/radar/radar-errors.ts';
import { recommendationErrors } from '../../signals/recommendations/recommendation-errors.ts';
import { storyErrors } from '../../signals/stories/story-errors.ts';
import type { ErrorDoc } from './route-docs.ts';

// The HTTP status of each error code, read from the error factories themselves: each is pure, so called with
// placeholder arguments it only builds its error. src/platform/errors.ts comes first and wins a clash.

const FACTORY_SETS: readonly object[] = [
  errors,
  analysisErrors,
  kitErrors,
  logoErrors,
  stockClipErrors,
  articleErrors,
  scheduleErrors,
  radarErrors,
  recommendationErrors,
  storyErrors,
];

const PLACEHOLDER_ARGUMENTS: readonly unknown[][] = [
  [0, 0, 0],
  ['', '', ''],
  [[], [], []],
];

function errorOf(factory: unknown): ApiError | undefined {
  if (typeof factory !== 'function') return undefined;
  for (const args of PLACEHOLDER_ARGUMENTS) {
    try {
      const made: unknown = (factory as (...a: unknown[]) => unknown)(...args);
      if (made instanceof ApiError) return made;
    } catch {
      // These arguments do not suit this factory; try the next ones.
    }
  }
  return undefined;
}

const STATUS_OF_CODE: ReadonlyMap<string, number> = (() => {
  const statuses = new Map<string, number>();
  for (const set of FACTORY_SETS) {
    for (const factory of Object.values(set)) {
      const error = errorOf(factory);
      if (error && !statuses.has(error.code)) statuses.set(error.code, error.status);
    }
  }
  return statuses;
})();

export interface ResolvedError {
  code: string;
  /** Undefined for a code named without its status that no factory makes. */
  status: number | undefined;
}

export function resolveError(error: ErrorDoc): ResolvedError {
  if (typeof error !== 'string') return { code: error.code, status: error.status };
  return { code: error, status: STATUS_OF_CODE.get(error) };
}

/** The status of a code the document adds by itself (authentication, limits, idempotency…). */
export function statusOfCode(code: string): number {
  const status = STATUS_OF_CODE.get(code);
  if (status === undefined) throw new Error(`${code} is not made by any error factory`);
  return status;
}
