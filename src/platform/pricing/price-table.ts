// The one price table. Dry runs, charges, /tools, /usage and the X-Api-Credits-* headers all read it.

export type PriceUnit = 'job' | 'clip' | 'started_4_minutes' | 'started_minute' | 'persona' | 'post';

export interface PriceEntry {
  operation: string;
  route: string;
  /** Flat price per unit in US cents; null when the price depends on the request (see `variable`). */
  usdCents: number | null;
  unit: PriceUnit;
  engine: string;
  notes: string;
}

export const PRICE_TABLE = {
  stock: {
    operation: 'stock',
    route: '/api/v1/generate-and-post',
    usdCents: 60,
    unit: 'job',
    engine: 'stock',
    notes: 'Flat for any length up to 120 s.',
  },
  article: {
    operation: 'article',
    route: '/api/v1/blog-to-video',
    usdCents: 50,
    unit: 'job',
    engine: 'stock',
    notes: 'Refunded on failure.',
  },
  magic: {
    operation: 'magic',
    route: '/api/v1/videos/magic',
    usdCents: 60,
    unit: 'job',
    engine: 'stock',
    notes: 'Stock engine with the account brand.',
  },
  motivational: {
    operation: 'motivational',
    route: '/api/v1/videos/motivational',
    usdCents: 60,
    unit: 'job',
    engine: 'stock',
    notes: 'Quote video over motivational footage.',
  },
  news: {
    operation: 'news',
    route: '/api/v1/videos/news',
    usdCents: 60,
    unit: 'job',
    engine: 'stock',
    notes: 'Source article summarized and narrated.',
  },
  clips: {
    operation: 'clips',
    route: '/api/v1/clipper/vidsite',
    usdCents: 40,
    unit: 'clip',
    engine: 'clipper',
    notes: 'Per requested clip, charged up front; undelivered clips refunded at completion.',
  },
  transcription: {
    operation: 'transcription',
    route: '/api/v1/transcribe',
    usdCents: 5,
    unit: 'started_4_minutes',
    engine: 'speech',
    notes: 'Per started 4 minutes of source; diarization adds 50 %.',
  },
  caption_render: {
    operation: 'caption_render',
    route: '/api/v1/captions/render',
    usdCents: 25,
    unit: 'started_minute',
    engine: 'captions',
    notes: 'Per started minute of output.',
  },
  post: {
    operation: 'post',
    route: '/api/v1/post',
    usdCents: 5,
    unit: 'post',
    engine: 'post',
    notes: 'Publishing a finished video.',
  },
  persona: {
    operation: 'persona',
    route: '/api/v1/avatars',
    usdCents: 265,
    unit: 'persona',
    engine: 'persona',
    notes: 'Once per persona; refunded if creation fails.',
  },
  ai_video: {
    operation: 'ai_video',
    route: '/api/v1/videos/text-to-video',
    usdCents: null,
    unit: 'job',
    engine: 'ai_video',
    notes: 'Priced per request.',
  },
  ai_influencer: {
    operation: 'ai_influencer',
    route: '/api/v1/videos/ai-influencer',
    usdCents: null,
    unit: 'job',
    engine: 'ai_influencer',
    notes: 'Priced per request.',
  },
} as const satisfies Record<string, PriceEntry>;

export type PricedOperation = keyof typeof PRICE_TABLE;

/** Why some tools have no flat price (the `pricing.variable` of /usage). */
export const VARIABLE_PRICING: Record<string, string> = {
  ai_video:
    'AI video is priced per request: model, length (30 or 60 s), resolution and native audio; narration adds speech and transcription cost. Dry-run the request (dry_run: true) to see its exact price.',
  ai_influencer:
    'AI influencer video is priced per request: engine and spoken length (about 2.5 words per second), rounded up to 5 cents with a 5-second minimum. Dry-run the request to see its exact price.',
};

export function unitPrice(operation: PricedOperation): number {
  const cents = PRICE_TABLE[operation].usdCents;
  if (cents === null) throw new Error(`${operation} has no flat price`);
  return cents;
}

/** Flat prices for /usage: null for request-priced tools. */
export function flatPrices(): Record<string, number | null> {
  return Object.fromEntries(Object.entries(PRICE_TABLE).map(([op, entry]) => [op, entry.usdCents]));
}

export function displayUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
