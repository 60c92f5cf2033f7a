// The provenance manifest of a render made from the caller's own video (a clip, a caption burn-in): the video
// itself (the stretch taken from it), the caption font, and what else the render laid over it.
import { fontFacts, type AssetFacts, type ProvenanceItem, type ProvenanceManifest } from './provenance.ts';

export interface CallerVideoProvenanceInput {
  /** Where the video came from: the URL (or upload reference) and the request field that named it. */
  source: { url: string; field: string };
  /** The stretch of the source the output shows, s on the source's timeline. */
  sourceRange: { start: number; end: number };
  output: { durationSec: number; width: number; height: number };
  /** The caption font and when the captions are up (output timeline); absent without burned captions. */
  captions?: {
    fontFamily: string;
    start: number;
    end: number;
    box: { x1: number; y1: number; x2: number; y2: number } | null;
  };
  /** Further assets over the whole output (a music bed, a logo), with their region (null for sound). */
  extras?: {
    kind: ProvenanceItem['kind'];
    facts: AssetFacts;
    region: ProvenanceItem['placements'][0]['region'];
  }[];
}

const round = (value: number) => Math.round(value * 1000) / 1000;

export function callerVideoProvenance(input: CallerVideoProvenanceInput): ProvenanceManifest {
  const { output } = input;
  const whole = { start: 0, end: round(output.durationSec) };
  const items: ProvenanceItem[] = [
    {
      kind: 'footage',
      id: input.source.field,
      source: { type: 'url', url: input.source.url, field: input.source.field },
      licence: 'supplied by the caller',
      placements: [
        {
          ...whole,
          region: { x: 0, y: 0, width: output.width, height: output.height },
          source_range: { start: round(input.sourceRange.start), end: round(input.sourceRange.end) },
        },
      ],
    },
  ];
  if (input.captions) {
    const { box } = input.captions;
    items.push({
      ...fontFacts(input.captions.fontFamily),
      kind: 'font',
      placements: [
        {
          start: round(input.captions.start),
          end: round(input.captions.end),
          region: box && { x: box.x1, y: box.y1, width: box.x2 - box.x1 + 1, height: box.y2 - box.y1 + 1 },
        },
      ],
    });
  }
  for (const extra of input.extras ?? [])
    items.push({ ...extra.facts, kind: extra.kind, placements: [{ ...whole, region: extra.region }] });
  return {
    version: 1,
    video: { duration_sec: round(output.durationSec), width: output.width, height: output.height },
    items,
  };
}
