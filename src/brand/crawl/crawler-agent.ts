/**
 * The crawler's User-Agent. robots.txt groups are matched on its product token, `Reelsmith` (the name the
 * URL guard sends by default), so a site that writes rules for Reelsmith gets them applied to the crawl.
 */
export const CRAWLER_USER_AGENT = 'Reelsmith/1.0 (brand analysis crawler)';
