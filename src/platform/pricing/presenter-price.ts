// The presenter price rule of spec 1 §4.5: the engine's cost per spoken second (provider time, narration and
// storage) times the spoken seconds, times 2, rounded up to 5 cents, with a 5-second minimum. The per-engine
// costs are the spec's 30 s prices halved, so the rule reproduces its table exactly ($1.00 / $2.00 for
// avatar_iii, $2.45 / $4.90 for avatar_iv, $7.25 / $14.50 for avatar_v). Generated B-roll (broll.visuals
// generated or mixed) adds a line per AI still: the image model's cost per still times its revenue multiple,
// rounded up to 5 cents per still.

import { roundUpTo5Cents } from './ai-video-price.ts';

export const PRESENTER_ENGINES = ['avatar_iii', 'avatar_iv', 'avatar_v'] as const;
export type PresenterEngine = (typeof PRESENTER_ENGINES)[number];

/** What a render is priced as: a presenter engine, or the logo host (priced like avatar_iii). */
export type PricedPresenter = PresenterEngine | 'logo_host';

/** Cost in US cents of 30 spoken seconds, before the ×2 revenue multiple. */
const COST_PER_30_SEC: Record<PresenterEngine, number> = {
  avatar_iii: 50,
  avatar_iv: 122.5,
  avatar_v: 362.5,
};

const REVENUE_MULTIPLE = 2;

/**
 * The hosted image model of generated B-roll: OpenAI's list price of one gpt-image-1 still at medium quality
 * in the portrait or landscape size (1024×1536 or 1536×1024; a square one costs less), in USD.
 */
export const IMAGE_MODEL_COST = { model: 'gpt-image-1', usdPerStill: 0.063, revenueMultiple: 1.5 } as const;

/** The price of one generated B-roll still, in cents. */
export const STILL_PRICE_CENTS = roundUpTo5Cents(
  IMAGE_MODEL_COST.usdPerStill * IMAGE_MODEL_COST.revenueMultiple,
);
export const MIN_PRICED_SECONDS = 5;
/** Spec: spoken length is estimated at about 2.5 words per second at speed 1.0. */
export const SPOKEN_WORDS_PER_SECOND = 2.5;

/** Seconds a script takes to speak at `speed`, by the spec's estimate. */
export function spokenSeconds(words: number, speed: number): number {
  return words / (SPOKEN_WORDS_PER_SECOND * speed);
}

export interface PresenterPrice {
  usdCents: number;
  pricedSeconds: number;
  breakdown: { item: string; usd_cents: number; quantity: number; unit: string }[];
}

/** `stills`: the generated B-roll stills priced (the most the video can be made with). */
export function presenterPrice(priced: PricedPresenter, speechSec: number, stills = 0): PresenterPrice {
  const engine = priced === 'logo_host' ? 'avatar_iii' : priced;
  const pricedSeconds = Math.max(MIN_PRICED_SECONDS, Math.ceil(speechSec));
  const usd = (COST_PER_30_SEC[engine] * pricedSeconds * REVENUE_MULTIPLE) / 30 / 100;
  const presenterCents = roundUpTo5Cents(usd);
  const stillCents = stills * STILL_PRICE_CENTS;
  return {
    usdCents: presenterCents + stillCents,
    pricedSeconds,
    breakdown: [
      {
        item: `${priced === 'logo_host' ? 'logo host (priced like avatar_iii)' : engine} per spoken second`,
        usd_cents: presenterCents,
        quantity: pricedSeconds,
        unit: 'second',
      },
      ...(stills > 0
        ? [
            {
              item: `generated B-roll stills (${IMAGE_MODEL_COST.model}), ${STILL_PRICE_CENTS} cents each; stills not made are refunded`,
              usd_cents: stillCents,
              quantity: stills,
              unit: 'still',
            },
          ]
        : []),
    ],
  };
}

export type PresenterPriceSheet = Record<
  PricedPresenter,
  { usd_cents_30s: number; usd_cents_60s: number }
> & {
  generated_broll_still: { usd_cents: number; model: string; unit: 'still' };
};

/** For /tools: the spec's table rows (the price of 30 s and 60 s per engine) and the price of one AI still. */
export function presenterPriceSheet(): PresenterPriceSheet {
  const rows = {} as Record<PricedPresenter, { usd_cents_30s: number; usd_cents_60s: number }>;
  for (const engine of [...PRESENTER_ENGINES, 'logo_host'] as const)
    rows[engine] = {
      usd_cents_30s: presenterPrice(engine, 30).usdCents,
      usd_cents_60s: presenterPrice(engine, 60).usdCents,
    };
  return {
    ...rows,
    generated_broll_still: { usd_cents: STILL_PRICE_CENTS, model: IMAGE_MODEL_COST.model, unit: 'still' },
  };
}
