// The errors of the trends radar (spec 2 §4.1; docs/signals.md). Free: nothing is charged when they answer.
import { ApiError } from '../../platform/errors.ts';
import type { SourceName } from '../sources/source-item.ts';

export const radarErrors = {
  /** Every source that covers the query failed (or none covers it): nothing to build trends from. */
  signalsUnavailable: (geo: string, category: string | undefined, failed: readonly SourceName[]) =>
    new ApiError(
      503,
      'SIGNALS_UNAVAILABLE',
      failed.length > 0
        ? `No trend source answered for geo ${geo}${category ? `, category ${category}` : ''} (${failed.join(', ')} failed). Nothing was charged; retry in a minute.`
        : `No trend source covers geo ${geo}${category ? `, category ${category}` : ''}. Nothing was charged.`,
      failed.length > 0
        ? { retryable: true, headers: { 'retry-after': '60' }, details: { failed_sources: failed } }
        : { retryable: false, details: { failed_sources: [] } },
    ),
};
