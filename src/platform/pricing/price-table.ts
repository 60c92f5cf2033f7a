// The one price table, keyed by mode name: a mode and its price entry share one key, and the mode registry
// refuses at start a mode without an entry. Dry runs, charges, /tools, /usage and the X-Api-Credits-* headers
// all read it. An entry moves in with the route that serves it; catalogs list only registered modes.

export type PriceUnit = 'job' | 'clip' | 'started_4_minutes' | 'started_minute' | 'request';

export interface PriceEntry {
  /** Flat price per unit in US cents; null when the price depends on the request (see `variable`). */
  usdCents: number | null;
  unit: PriceUnit;
  engine: string;
  notes: string;
  /** Why the price depends on the request, for request-priced modes (the `pricing.variable` of /usage). */
  variable?: string;
}

const AI_VIDEO_VARIABLE =
  'AI video: generated seconds × the engine cost per second (by model, resolution and native audio) × the model revenue multiple, plus speech and transcription cost when narrated, rounded up to 5 cents and never below the model floor; a script one shot over its word budget adds that shot. The local motion engine costs 2 cents per second. Per-model 30 s and 60 s prices: GET /api/v1/tools pricing.ai_video; the exact charge: a dry run, X-Api-Credits-Cost-Usd-Cents.';

export const PRICE_TABLE = {
  stock: { usdCents: 60, unit: 'job', engine: 'stock', notes: 'Flat for any length up to 120 s.' },
  article: { usdCents: 50, unit: 'job', engine: 'stock', notes: 'Refunded on failure.' },
  magic: { usdCents: 60, unit: 'job', engine: 'stock', notes: 'Stock engine with the account brand.' },
  motivational: {
    usdCents: 60,
    unit: 'job',
    engine: 'stock',
    notes: 'Quote video over motivational footage.',
  },
  news: { usdCents: 60, unit: 'job', engine: 'stock', notes: 'Source article summarized and narrated.' },
  revision: {
    usdCents: null,
    unit: 'job',
    engine: 'stock',
    notes:
      'POST /jobs/{id}/revise: a new video from a finished one, re-rendering only the scenes that changed; refunded on failure.',
    variable:
      'Scene-level revision: 10 cents (audio remix and re-mux) plus 5 cents per scene rendered again (the scenes whose line or footage changes; every scene when caption_style changes), at most 40 cents, so always below a full stock render (60 cents). docs/revision.md.',
  },
  clip: {
    usdCents: 40,
    unit: 'clip',
    engine: 'clipper',
    notes: 'Per requested clip, charged up front; undelivered clips refunded at completion.',
  },
  transcription: {
    usdCents: 5,
    unit: 'started_4_minutes',
    engine: 'speech',
    notes: 'Per started 4 minutes of source; diarization adds 50 %.',
  },
  caption_render: {
    usdCents: 25,
    unit: 'started_minute',
    engine: 'captions',
    notes: 'Per started minute of output.',
  },
  brand_analysis: {
    usdCents: 40,
    unit: 'job',
    engine: 'brand',
    notes: 'Spec: 8 credits (5 cents each). Website crawl and brand profile; refunded on failure or timeout.',
  },
  trends_radar: {
    usdCents: 10,
    unit: 'request',
    engine: 'signals',
    notes: 'Spec: 2 credits (5 cents each). GET /trends/radar that fetched the sources; errors are free.',
  },
  trends_radar_cached: {
    usdCents: 5,
    unit: 'request',
    engine: 'signals',
    notes: 'Spec: 1 credit. GET /trends/radar answered from the 10-minute cache of its geo and category.',
  },
  trends_breaking: {
    usdCents: 10,
    unit: 'request',
    engine: 'signals',
    notes: 'Spec: 2 credits. GET /trends/breaking, cached or not; errors are free.',
  },
  news_broadcast_recommend: {
    usdCents: 25,
    unit: 'request',
    engine: 'signals',
    notes:
      'Spec: 5 credits. POST /news-broadcast/recommend: the live trends most relevant to a brand; errors and empty answers are free.',
  },
  brand_recommendations: {
    usdCents: 15,
    unit: 'request',
    engine: 'signals',
    notes: 'Spec: 3 credits. GET /brand/{brand_id}/recommendations: a 7-day content plan; errors are free.',
  },
  avatar_creation: {
    usdCents: 265,
    unit: 'request',
    engine: 'presenters',
    notes:
      'POST /avatars: a persona from one photo, charged once; refunded when the photo is refused or creation fails. Looks (POST /avatars/{avatar_id}/looks) and reads are free.',
  },
  seo_article: {
    usdCents: 10,
    unit: 'request',
    engine: 'articles',
    notes:
      'POST /articles: an SEO article written by the configured LLM, else by the local writer; charged only once it passes the quality gates, so an article that fails them (422) costs nothing. Publishing and notifying are included; their failures are reported, not refunded.',
  },
  post: {
    usdCents: 5,
    unit: 'request',
    engine: 'publishing',
    notes:
      'POST /post: a finished video posted to 1–5 connected platforms as one publish job; kept when a platform refuses the post (the job reports it per platform).',
  },
  fanout: {
    usdCents: null,
    unit: 'job',
    engine: 'publishing',
    notes:
      'POST /jobs with platforms: renders a video, then posts it; refunded in full when the video fails or the job is cancelled before it starts.',
    variable:
      'Fan-out job: the price of the video it renders (its generation mode’s price for that request) plus 5 cents per platform (the price of POST /post for each), so a 30 s stock video posted to three platforms costs $0.75. Spec 2 counts 15 credits plus 1 per platform; this build charges in USD from this table.',
  },
  text_to_video: {
    usdCents: null,
    unit: 'job',
    engine: 'ai_video',
    notes: 'Priced per request from the AI-video model table; refunded on failure.',
    variable: AI_VIDEO_VARIABLE,
  },
  image_to_video: {
    usdCents: null,
    unit: 'job',
    engine: 'ai_video',
    notes: 'Priced per request from the AI-video model table; refunded on failure.',
    variable: AI_VIDEO_VARIABLE,
  },
  ai_influencer: {
    usdCents: null,
    unit: 'job',
    engine: 'presenter',
    notes:
      'Priced per request by engine and spoken length; same price for every format and layout; refunded on failure.',
    variable:
      'Presenter video: the engine cost per spoken second (avatar_iii and the logo host 1.67 cents, avatar_iv 4.08, avatar_v 12.08) times the spoken seconds (the script at about 2.5 words per second at speed 1.0, or duration_sec for a topic; at least 5), times 2, rounded up to 5 cents: 30 s costs $1.00, $2.45 and $7.25. broll.visuals generated or mixed adds 10 cents per AI still (the image model’s cost per still × 1.5, rounded up to 5 cents) for the most stills the video can use (one per B-roll sentence of a script, one per 3 s of duration_sec for a topic; every other one for mixed); stills not made are refunded when the job completes. Variations charge count times one video. Per-engine 30 s and 60 s prices: GET /api/v1/tools pricing.ai_influencer.',
  },
} as const satisfies Record<string, PriceEntry>;

export type PricedOperation = keyof typeof PRICE_TABLE;

/** A price table the registry checks modes against: the product's, or a test's that adds its own modes. */
export type PriceBook = Readonly<Record<string, PriceEntry>>;

/** Operations with one flat price (the others are priced per request). */
export type FlatPricedOperation = {
  [K in PricedOperation]: (typeof PRICE_TABLE)[K]['usdCents'] extends number ? K : never;
}[PricedOperation];

export function unitPrice(operation: FlatPricedOperation): number {
  return PRICE_TABLE[operation].usdCents;
}

export function displayUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
