// The price of a scene-level revision (POST /api/v1/jobs/{id}/revise, docs/revision.md): the table's entry
// `revision` states it; this is the arithmetic. Always below a full stock render (60 cents).
import type { Price } from '../modes/mode.ts';

export const REVISION_BASE_CENTS = 10;
export const REVISION_SCENE_CENTS = 5;
export const REVISION_MAX_CENTS = 40;

/** `scenes`: scenes whose picture is rendered again (every scene when the caption style changes). */
export function revisionPrice(scenes: number): Price {
  const perScene = Math.min(REVISION_MAX_CENTS - REVISION_BASE_CENTS, scenes * REVISION_SCENE_CENTS);
  return {
    usdCents: REVISION_BASE_CENTS + perScene,
    breakdown: [
      {
        item: 'revision: audio remix and re-muxed video',
        usd_cents: REVISION_BASE_CENTS,
        quantity: 1,
        unit: 'job',
      },
      ...(perScene > 0
        ? [{ item: 'scenes rendered again', usd_cents: perScene, quantity: scenes, unit: 'scene' }]
        : []),
    ],
    tool: 'jobs/revise',
    model: 'stock',
    tier: 'standard',
    engine: 'stock',
  };
}
