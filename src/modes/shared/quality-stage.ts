// The quality gate and the provenance manifest as a job sees them: a render held to the gate (a second render
// is reported as progress; a second failure fails the job, which the platform refunds), and the manifest of a
// stock-engine video written next to it.
import { join } from 'node:path';
import { jobErrors, JobFailure } from '../../platform/errors.ts';
import type { JobContext, OutputFile } from '../../platform/modes/mode.ts';
import { DEFAULT_WATERMARK_FONT, type ComposeSpec } from '../../media/compose/compose-spec.ts';
import type { MusicBedFile, StockLibrary } from '../../media/library/stock-library.ts';
import { SOUNDFONT_CREDIT } from '../../media/provenance/licences.ts';
import {
  composeProvenance,
  fontFacts,
  fontFileFacts,
  voiceFacts,
  writeProvenance,
  type AssetFacts,
  type ProvenanceManifest,
} from '../../media/provenance/provenance.ts';
import {
  QualityGateError,
  renderCompositionGated,
  type GatedRenderInput,
  type GatedRenderResult,
  type QualityArtifact,
} from '../../media/quality/gated-render.ts';
import { deliverGated, type GatedDeliveryInput } from '../../media/quality/gated-delivery.ts';
import { describeFailures, type QualityReport } from '../../media/quality/quality-gate.ts';
import type { WordTiming } from '../../media/types.ts';

async function reportRerender(ctx: JobContext<unknown>, report: QualityReport): Promise<void> {
  ctx.log.warn({ failed: report.failed }, 'render failed its quality gate; rendering again');
  await ctx.progress(
    'quality',
    90,
    `The render failed its quality gate (${describeFailures(report)}); rendering it once more with corrected parameters.`,
  );
}

/** Renders a composition held to the quality gate (docs/quality.md); a second failure fails the job. */
export async function renderHeldToGate(
  ctx: JobContext<unknown>,
  input: Omit<GatedRenderInput, 'onRerender'>,
): Promise<GatedRenderResult> {
  try {
    return await renderCompositionGated({
      ...input,
      onRerender: (report) => reportRerender(ctx, report),
    });
  } catch (error) {
    if (error instanceof QualityGateError)
      throw new JobFailure(jobErrors.qualityGateFailed(describeFailures(error.report)));
    throw error;
  }
}

/** A render of the caller's own video (a clip, a caption burn-in) held to its gate; a second failure fails the job. */
export async function holdToGate(
  ctx: JobContext<unknown>,
  input: Omit<GatedDeliveryInput, 'onRerender'>,
): Promise<QualityArtifact> {
  try {
    return await deliverGated({ ...input, onRerender: (report) => reportRerender(ctx, report) });
  } catch (error) {
    if (error instanceof QualityGateError)
      throw new JobFailure(jobErrors.qualityGateFailed(describeFailures(error.report)));
    throw error;
  }
}

/** What a composed video's manifest is made from besides its spec. */
export interface VideoProvenanceInput {
  spec: ComposeSpec;
  /** Where each scene file came from, by its path. */
  scenes: ReadonlyMap<string, AssetFacts>;
  music?: MusicBedFile;
  /** The narration's voice and words; absent for an unnarrated video. */
  voiceId?: string;
  words: readonly WordTiming[];
  captionFont?: string;
  captionBox: { x1: number; y1: number; x2: number; y2: number } | null;
  /** The logo's URL when the caller sent one (else it is a brand kit's). */
  logoUrl?: string;
  presenter?: AssetFacts;
}

export interface StockProvenanceInput extends Omit<VideoProvenanceInput, 'scenes'> {
  library: StockLibrary;
  /** The library clips (or caller assets `asset-<i>`, in the work folder) the shots use. */
  clipIds: readonly string[];
  assetUrls: readonly string[];
}

/** Where library clips came from, by their files' paths. */
export async function libraryClipFacts(
  library: StockLibrary,
  clipIds: readonly string[],
): Promise<Map<string, AssetFacts>> {
  const facts = new Map<string, AssetFacts>();
  for (const origin of await library.clipSources([...new Set(clipIds)])) {
    if (!origin.path) continue;
    const source: AssetFacts['source'] =
      origin.source === 'generated'
        ? { type: 'generated', library_id: origin.id }
        : origin.source === 'provider'
          ? {
              type: 'provider',
              library_id: origin.id,
              provider: origin.externalSource ?? 'unknown',
              provider_id: origin.externalId ?? '',
              url: origin.originUrl,
            }
          : { type: 'upload', library_id: origin.id };
    facts.set(origin.path, {
      id: origin.id,
      title: origin.title,
      source,
      licence: origin.licence ?? 'supplied by the operator (not recorded)',
      ...(origin.attribution ? { attribution: origin.attribution } : {}),
    });
  }
  return facts;
}

async function stockSceneFacts(
  workDir: string,
  input: StockProvenanceInput,
): Promise<Map<string, AssetFacts>> {
  const assets = input.clipIds.filter((id) => /^asset-\d+$/.test(id));
  const facts = await libraryClipFacts(
    input.library,
    input.clipIds.filter((id) => !assets.includes(id)),
  );
  for (const clipId of new Set(assets)) {
    const index = Number(clipId.slice('asset-'.length));
    facts.set(join(workDir, clipId), {
      id: clipId,
      source: { type: 'url', url: input.assetUrls[index] ?? '', field: `asset_urls[${index}]` },
      licence: 'supplied by the caller',
    });
  }
  return facts;
}

function musicFacts(music: MusicBedFile): AssetFacts {
  if (music.bed)
    return {
      id: music.id,
      title: music.title,
      source: { type: 'generated', library_id: music.id },
      licence: music.licence ?? 'unknown',
      includes: [{ name: `${SOUNDFONT_CREDIT.name} soundfont`, licence: SOUNDFONT_CREDIT.licence }],
    };
  return {
    id: music.id,
    title: music.title,
    source: music.sourceUrl
      ? { type: 'url', url: music.sourceUrl, field: 'music' }
      : { type: 'customer_file', description: music.title },
    licence: 'supplied by the caller',
  };
}

export interface WrittenProvenance {
  manifest: ProvenanceManifest;
  file: OutputFile;
}

/** The manifest of a stock-engine video, written to the work folder as provenance.json. */
export async function stockProvenance(
  ctx: JobContext<unknown>,
  input: StockProvenanceInput,
): Promise<WrittenProvenance> {
  return videoProvenance(ctx, { ...input, scenes: await stockSceneFacts(ctx.workDir, input) });
}

/** The manifest of a composed video (scenes filling the frame in turn), written as provenance.json. */
export async function videoProvenance(
  ctx: JobContext<unknown>,
  input: VideoProvenanceInput,
): Promise<WrittenProvenance> {
  const words = input.words;
  const manifest = await composeProvenance({
    spec: input.spec,
    scenes: input.scenes,
    ...(input.presenter ? { presenter: input.presenter } : {}),
    ...(input.music ? { music: musicFacts(input.music) } : {}),
    ...(input.voiceId && words.length > 0
      ? {
          voice: {
            ...voiceFacts(input.voiceId),
            speechStart: words[0]!.start,
            speechEnd: words[words.length - 1]!.end,
          },
        }
      : {}),
    ...(input.spec.ass && input.captionFont && words.length > 0
      ? {
          captionFont: {
            ...fontFacts(input.captionFont),
            start: words[0]!.start,
            end: words[words.length - 1]!.end,
            region: input.captionBox && {
              x: input.captionBox.x1,
              y: input.captionBox.y1,
              width: input.captionBox.x2 - input.captionBox.x1 + 1,
              height: input.captionBox.y2 - input.captionBox.y1 + 1,
            },
          },
        }
      : {}),
    ...(input.spec.watermark
      ? { watermarkFont: fontFileFacts(input.spec.watermark.fontFile ?? DEFAULT_WATERMARK_FONT) }
      : {}),
    ...(input.spec.logo
      ? {
          logo: {
            id: 'logo',
            source: input.logoUrl
              ? { type: 'url', url: input.logoUrl, field: 'brand.logo_url' }
              : { type: 'customer_file', description: "the brand kit's normalized logo" },
            licence: 'supplied by the caller',
          },
        }
      : {}),
  });
  const path = join(ctx.workDir, 'provenance.json');
  await writeProvenance(path, manifest);
  return {
    manifest,
    file: { role: 'manifest', path, contentType: 'application/json', name: 'provenance.json' },
  };
}
