// SEO articles (spec 1 §4.11; docs/publishing.md): written, checked against quality gates, charged, then
// published to WordPress and announced on Discord when asked.
import type { PricedRead } from '../../signals/paid-read.ts';
import { ARTICLE_OPERATION, ARTICLES_PATH } from './article-service.ts';

export {
  ARTICLE_OPERATION,
  ARTICLES_PATH,
  ArticleService,
  type ArticleCall,
  type ArticleServiceDeps,
} from './article-service.ts';
export { QUALITY_THRESHOLDS } from './quality-gates.ts';

/** The paid route of articles, for the catalogs (/tools, /usage) to list beside the modes and paid reads. */
export const ARTICLE_PRICED_ROUTES: readonly PricedRead[] = [
  {
    operation: ARTICLE_OPERATION,
    method: 'POST',
    path: ARTICLES_PATH,
    title:
      'An SEO article (Markdown, HTML, JSON-LD), published to WordPress and announced on Discord on request',
  },
];
