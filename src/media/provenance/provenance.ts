// The provenance manifest of a rendered video (docs/quality.md): every asset in it — footage, images, music,
// voice, fonts, logo — with where it came from, its licence and where it sits in the output.
import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { resolveComposeSpec, type ComposeSpec } from '../compose/compose-spec.ts';
import { logoBottomOffset } from '../compose/video-graph.ts';
import { probeMedia } from '../ffmpeg/probe.ts';
import { findShippedFontFamily, SYSTEM_FONT_FAMILIES } from '../fonts/font-catalogue.ts';
import { systemFontLicence, VOICE_ENGINE_LICENCES } from './licences.ts';

export type AssetKind = 'footage' | 'image' | 'music' | 'voice' | 'font' | 'logo';

/** Where an asset came from. */
export type AssetSource =
  /** Made by the service (procedural footage, generated music) and kept in its library under `library_id`. */
  | { type: 'generated'; library_id: string }
  /** Footage an operator uploaded to the library. */
  | { type: 'upload'; library_id: string; file?: string }
  /** Imported from a stock provider. */
  | { type: 'provider'; library_id?: string; provider: string; provider_id: string; url: string | null }
  /** Fetched from a URL the caller sent (asset_urls, logo_url, music URL). */
  | { type: 'url'; url: string; field: string }
  /** A file the caller uploaded or keeps with us (a brand kit's logo). */
  | { type: 'customer_file'; description: string }
  /** Spoken by a speech engine. */
  | { type: 'engine'; engine: string; voice_id: string }
  /** A font from an npm package or the system. */
  | { type: 'package'; package: string }
  | { type: 'system'; file: string };

/** A rectangle of the output frame, px. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Placement {
  start: number;
  end: number;
  /** Where on the frame; null for sound, or where the position is not fixed (say so in `note`). */
  region: Region | null;
  /** The stretch of the asset shown here, s on its own timeline (a clip's range of the caller's video). */
  source_range?: { start: number; end: number };
}

export interface ProvenanceItem {
  kind: AssetKind;
  /** The asset's own id (library id, voice id, font family). */
  id: string;
  title?: string;
  source: AssetSource;
  /** SPDX id where there is one; otherwise the terms in words. */
  licence: string;
  /** Credit line owed, when the source asks for one. */
  attribution?: string;
  /** Further licences of parts (e.g. the instrument samples of a music bed). */
  includes?: { name: string; licence: string }[];
  placements: Placement[];
  note?: string;
}

export interface ProvenanceManifest {
  version: 1;
  video: { duration_sec: number; width: number; height: number };
  items: ProvenanceItem[];
}

/** What is known about one asset apart from where it sits. */
export type AssetFacts = Omit<ProvenanceItem, 'placements' | 'kind'> & { kind?: AssetKind };

export interface ComposeProvenanceInput {
  spec: ComposeSpec;
  /** Facts of each scene's file, by its path. */
  scenes: ReadonlyMap<string, AssetFacts>;
  music?: AssetFacts;
  voice?: AssetFacts & { speechStart: number; speechEnd: number };
  /** The caption font, with the box the captions were measured to occupy (artifacts.quality). */
  captionFont?: AssetFacts & { region: Region | null; start: number; end: number };
  watermarkFont?: AssetFacts;
  logo?: AssetFacts;
  /** The presenter of a presenter layout: a persona's animated photo, a hosted engine's video, a logo host. */
  presenter?: AssetFacts;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/** Joins touching placements of the same asset (a clip looped over one shot is one stretch). */
function merge(placements: Placement[]): Placement[] {
  const out: Placement[] = [];
  for (const p of placements) {
    const last = out[out.length - 1];
    if (
      last &&
      Math.abs(last.end - p.start) < 1e-6 &&
      JSON.stringify(last.region) === JSON.stringify(p.region)
    )
      last.end = p.end;
    else out.push({ ...p });
  }
  return out.map((p) => ({ ...p, start: round(p.start), end: round(p.end) }));
}

/**
 * The manifest of a composition: scenes fill the frame (or a presenter layout's B-roll area) one after another,
 * or, in a cutaway, each during its interval, with the presenter in its box the rest of the time.
 */
export async function composeProvenance(input: ComposeProvenanceInput): Promise<ProvenanceManifest> {
  const resolved = resolveComposeSpec(input.spec);
  const full: Region = { x: 0, y: 0, width: resolved.width, height: resolved.height };
  const geometry = resolved.presenter?.geometry;
  const cutaways = resolved.presenter?.cutaways ?? [];
  const secondsOf = (frame: number) => frame / resolved.fps;
  const items: ProvenanceItem[] = [];
  const byPath = new Map<string, ProvenanceItem>();
  let at = 0;
  resolved.scenes.forEach((scene, index) => {
    const cutaway = cutaways[index];
    const start = cutaway ? secondsOf(cutaway.startFrame) : at;
    // The last scene is held to the end of the timeline when the scenes fall short of it.
    const end = cutaway
      ? secondsOf(cutaway.endFrame)
      : index === resolved.scenes.length - 1
        ? resolved.mainSec
        : Math.min(resolved.mainSec, at + scene.duration);
    // A file nobody recorded a source for is listed as such rather than left out.
    const facts = input.scenes.get(scene.path) ?? {
      id: basename(scene.path),
      source: { type: 'customer_file', description: 'source not recorded' },
      licence: 'unknown',
    };
    let item = byPath.get(scene.path);
    if (!item) {
      item = { kind: scene.kind === 'image' ? 'image' : 'footage', ...facts, placements: [] };
      byPath.set(scene.path, item);
      items.push(item);
    }
    item.placements.push({ start, end, region: geometry ? geometry.broll : full });
    at = end;
  });
  for (const item of items) item.placements = merge(item.placements);
  if (input.presenter && geometry) {
    // A cutaway shows the presenter between its cutaways; every other layout, over the whole timeline.
    const shown: Placement[] = [];
    let from = 0;
    for (const c of cutaways) {
      if (secondsOf(c.startFrame) > from)
        shown.push({ start: from, end: secondsOf(c.startFrame), region: geometry.presenter });
      from = secondsOf(c.endFrame);
    }
    if (resolved.mainSec > from)
      shown.push({ start: from, end: resolved.mainSec, region: geometry.presenter });
    items.push({ kind: 'footage', ...input.presenter, placements: merge(shown) });
  }

  if (input.music) {
    items.push({
      kind: 'music',
      ...input.music,
      placements: [{ start: 0, end: round(resolved.durationSec), region: null }],
    });
  }
  if (input.voice) {
    const { speechStart, speechEnd, ...facts } = input.voice;
    items.push({
      kind: 'voice',
      ...facts,
      placements: [{ start: round(speechStart), end: round(speechEnd), region: null }],
    });
  }
  if (input.captionFont) {
    const { region, start, end, ...facts } = input.captionFont;
    items.push({ kind: 'font', ...facts, placements: [{ start: round(start), end: round(end), region }] });
  }
  if (input.watermarkFont) {
    items.push({
      kind: 'font',
      note: 'The watermark, at the top-left corner of the platform safe zone.',
      ...input.watermarkFont,
      placements: [{ start: 0, end: round(resolved.durationSec), region: null }],
    });
  }
  if (input.logo && resolved.logo) {
    const info = await probeMedia(resolved.logo.path);
    const width =
      2 * Math.round((Math.min(resolved.width, resolved.height) * resolved.logo.widthFraction) / 2);
    const height = info.video ? 2 * Math.round((width * info.video.height) / info.video.width / 2) : width;
    const region: Region = {
      x: resolved.width - width - resolved.logo.margin,
      // With a presenter the logo stands top-right (src/media/compose/video-graph.ts).
      y: geometry
        ? geometry.logoTop
        : resolved.height - height - logoBottomOffset(resolved, resolved.logo.margin),
      width,
      height,
    };
    items.push({
      kind: 'logo',
      ...input.logo,
      placements: [{ start: 0, end: round(resolved.mainSec), region }],
    });
  }
  return {
    version: 1,
    video: { duration_sec: round(resolved.durationSec), width: resolved.width, height: resolved.height },
    items,
  };
}

export async function writeProvenance(path: string, manifest: ProvenanceManifest): Promise<void> {
  await writeFile(path, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The facts of a caption or watermark font family (shipped web font or system font). */
export function fontFacts(family: string): AssetFacts {
  const shipped = findShippedFontFamily(family);
  if (shipped)
    return {
      id: shipped.family,
      source: { type: 'package', package: shipped.package },
      licence: shipped.licence,
    };
  const file = SYSTEM_FONT_FAMILIES[family] ?? family;
  return { id: family, source: { type: 'system', file }, licence: systemFontLicence(file) };
}

/** The facts of a font file drawn by ffmpeg's drawtext (the watermark). */
export function fontFileFacts(file: string): AssetFacts {
  return { id: basename(file), source: { type: 'system', file }, licence: systemFontLicence(file) };
}

/** The facts of a narration voice by its catalogue id (`engine:voice`). */
export function voiceFacts(voiceId: string): AssetFacts {
  const engine = voiceId.slice(0, Math.max(0, voiceId.indexOf(':'))) || voiceId;
  const local = VOICE_ENGINE_LICENCES[engine];
  return {
    id: voiceId,
    source: {
      type: 'engine',
      engine: local ? engine : `${engine} (configured speech service)`,
      voice_id: voiceId,
    },
    licence: local
      ? `synthesized speech, unrestricted (engine ${engine}: ${local})`
      : "the configured speech service's terms",
  };
}
