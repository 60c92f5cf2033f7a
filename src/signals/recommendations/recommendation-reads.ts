// The paid reads of brand recommendations: each price-table entry with the route that serves it, for the
// catalogs (/tools, /usage) to list beside the modes and the trend reads. Prices are in the price table only.
import type { PricedRead } from '../paid-read.ts';

export const RECOMMEND_PATH = '/api/v1/news-broadcast/recommend';
export const PLAN_PATH = '/api/v1/brand/:brandId/recommendations';

export const RECOMMENDATION_READS: readonly PricedRead[] = [
  {
    operation: 'news_broadcast_recommend',
    method: 'POST',
    path: RECOMMEND_PATH,
    title: 'The live trends most relevant to a brand',
  },
  {
    operation: 'brand_recommendations',
    method: 'GET',
    path: '/api/v1/brand/{brand_id}/recommendations',
    title: "A brand's 7-day content plan from its profile and live trends",
  },
];
