import type { PricedRead } from '../paid-read.ts';

// The paid reads of the trends routes: each price-table entry they charge at, with the route that serves it,
// so the catalogs (/tools, /usage) can list them beside the modes. Prices are in the price table only.

export const RADAR_PATH = '/api/v1/trends/radar';
export const BREAKING_PATH = '/api/v1/trends/breaking';

export const TREND_READS: readonly PricedRead[] = [
  {
    operation: 'trends_radar',
    method: 'GET',
    path: RADAR_PATH,
    title: 'Trends radar, fresh from the sources',
  },
  {
    operation: 'trends_radar_cached',
    method: 'GET',
    path: RADAR_PATH,
    title: 'Trends radar, answered from the 10-minute cache',
  },
  { operation: 'trends_breaking', method: 'GET', path: BREAKING_PATH, title: 'Breaking news' },
];
