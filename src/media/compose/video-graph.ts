// Video half of the composition filter graph: scenes → cover-crop → concat (or a presenter layout) → captions
// → logo → text → bar, then the outro card.
import { frameScale, platformSafeZone } from '../captions/safe-zone.ts';
import { escapeFilterValue, ffmpegColor, num } from '../ffmpeg/filter-escape.ts';
import type { InputPlan } from './compose-inputs.ts';
import { brollSize, sceneFrames, type ResolvedScene, type ResolvedSpec } from './compose-spec.ts';
import type { LayoutAssets } from './layout-assets.ts';
import { buildLayoutGraph, outroFilter } from './presenter-graph.ts';

/** Height reserved above the bottom UI for up to two caption lines, px at the reference scale (1080×1920). */
const CAPTION_BAND_PX = 240;
/** Watermark text height, px at the reference scale, and its opacity. */
const WATERMARK_PX = 35;
const WATERMARK_OPACITY = 0.6;

export interface GraphPart {
  filters: string[];
  /** Label of the part's final output. */
  output: string;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * Crops the largest centred region with the frame's aspect ratio, then scales it to the frame: the same
 * result as scale-to-cover + crop, but the scaler only touches pixels that are kept. Scaling straight to
 * yuv420p lets swscale convert the pixel format in the same pass.
 */
export function coverFilter(width: number, height: number): string {
  const g = gcd(width, height);
  const aw = width / g;
  const ah = height / g;
  return `crop=w=min(iw\\,ih*${aw}/${ah}):h=min(ih\\,iw*${ah}/${aw}),scale=${width}:${height},format=yuv420p,setsar=1`;
}

/**
 * Per-scene chain lasting exactly `duration`, covering the frame (or a layout's B-roll region). Video: frame
 * rate, cover, and a held last frame if the source runs short. Image: cover once, then repeat that frame.
 */
export function sceneFilter(scene: ResolvedScene, input: number, spec: ResolvedSpec, label: string): string {
  const size = brollSize(spec);
  const cover = coverFilter(size.width, size.height);
  if (scene.kind === 'image') {
    const frames = sceneFrames(scene, spec.fps);
    return `[${input}:v]${cover},loop=loop=${frames - 1}:size=1,setpts=N/${num(spec.fps)}/TB[${label}]`;
  }
  const d = num(scene.duration);
  return (
    `[${input}:v]fps=${num(spec.fps)},${cover},` +
    `tpad=stop_mode=clone:stop_duration=${d},trim=duration=${d},setpts=PTS-STARTPTS[${label}]`
  );
}

/**
 * A moving scene's chain: its frames of the motion feed (drawn at the output size already), re-timed to
 * start at zero.
 */
export function motionSceneFilter(source: string, firstFrame: number, frames: number, label: string): string {
  return (
    `[${source}]trim=start_frame=${firstFrame}:end_frame=${firstFrame + frames},` +
    `setpts=PTS-STARTPTS,setsar=1[${label}]`
  );
}

/** Distance from the bottom edge to the logo's bottom: bottom UI, caption band, margin. */
export function logoBottomOffset(spec: ResolvedSpec, margin: number): number {
  const safe = platformSafeZone(spec);
  return safe.bottom + Math.round(CAPTION_BAND_PX * frameScale(spec)) + margin;
}

export function buildVideoGraph(spec: ResolvedSpec, inputs: InputPlan, assets?: LayoutAssets): GraphPart {
  const filters: string[] = [];
  // The feed holds the moving scenes back to back; each takes its own frame range of one split branch.
  const moving = spec.scenes.filter((s) => s.motion).length;
  if (moving > 1 && inputs.motionFeed !== null) {
    const branches = Array.from({ length: moving }, (_, k) => `[mf${k}]`).join('');
    filters.push(`[${inputs.motionFeed}:v]split=${moving}${branches}`);
  }
  let feedFrame = 0;
  let feedBranch = 0;
  const sceneLabels = spec.scenes.map((scene, i) => {
    const input = inputs.sceneVideo[i];
    if (input === null || input === undefined) throw new Error(`scene ${i} has no input in the video pass`);
    const label = `v${i}`;
    if (scene.motion) {
      const frames = sceneFrames(scene, spec.fps);
      const source = moving > 1 ? `mf${feedBranch}` : `${input}:v`;
      filters.push(motionSceneFilter(source, feedFrame, frames, label));
      feedFrame += frames;
      feedBranch += 1;
    } else {
      filters.push(sceneFilter(scene, input, spec, label));
    }
    return label;
  });

  let current = sceneLabels[0] ?? 'v0';
  // Cutaway scenes are laid over the presenter one by one; everywhere else they run back to back.
  if (sceneLabels.length > 1 && spec.presenter?.layout !== 'cutaway') {
    filters.push(`${sceneLabels.map((l) => `[${l}]`).join('')}concat=n=${sceneLabels.length}:v=1:a=0[vcat]`);
    current = 'vcat';
  }
  if (spec.presenter) {
    const layout = buildLayoutGraph(
      spec,
      inputs,
      assets,
      sceneLabels.length > 0 ? current : null,
      sceneLabels,
    );
    filters.push(...layout.filters);
    current = layout.output;
  }

  if (spec.ass) {
    const fontsDir = spec.ass.fontsDir ? `:fontsdir=${escapeFilterValue(spec.ass.fontsDir)}` : '';
    filters.push(`[${current}]subtitles=filename=${escapeFilterValue(spec.ass.path)}${fontsDir}[vsub]`);
    current = 'vsub';
  }

  if (spec.logo && inputs.logo !== null) {
    const logoWidth = 2 * Math.round((Math.min(spec.width, spec.height) * spec.logo.widthFraction) / 2);
    filters.push(`[${inputs.logo}:v]scale=${logoWidth}:-2,format=yuva420p[logo]`);
    // With a presenter the logo goes top-right, clear of the presenter and the captions on the seam.
    const y = spec.presenter
      ? String(spec.presenter.geometry.logoTop)
      : `H-h-${logoBottomOffset(spec, spec.logo.margin)}`;
    filters.push(`[${current}][logo]overlay=x=W-w-${spec.logo.margin}:y=${y}:eval=init[vlogo]`);
    current = 'vlogo';
  }

  const mark = spec.watermark ? watermark(spec, spec.watermark) : null;
  if (mark) {
    filters.push(`[${current}]${mark}[vmark]`);
    current = 'vmark';
  }

  if (spec.progressBar) {
    const { heightPx, position, color, timeline } = spec.progressBar;
    const y = position === 'top' ? 0 : spec.height - heightPx;
    // A full-width bar slides in from the left: empty on the first frame, full on the timeline's last. It is
    // drawn once and overlay moves that frame on every frame: a bar source lasting the whole video cost 1.1–1.5
    // CPU-s per 30 s at 1080×1920, one frame 0.2 s.
    const span = Math.max((timeline?.totalSec ?? spec.mainSec) - 1 / spec.fps, 1 / spec.fps);
    const at = timeline ? `(t+${num(timeline.offsetSec)})` : 't';
    filters.push(
      `color=c=${ffmpegColor(color)}:s=${spec.width}x${heightPx}:r=${num(spec.fps)},trim=end_frame=1[barsrc]`,
    );
    filters.push(`[${current}][barsrc]overlay=x=-w+w*${at}/${num(span)}:y=${y}[vbar]`);
    current = 'vbar';
  }

  if (spec.outro) {
    filters.push(outroFilter(spec, inputs, mark ? 'vcard' : 'voutro'));
    if (mark) filters.push(`[vcard]${mark}[voutro]`);
    filters.push(`[${current}][voutro]concat=n=2:v=1:a=0[vend]`);
    current = 'vend';
  }

  return { filters, output: current };
}

/** The watermark's drawtext at the top-left of the safe zone (on the timeline and on the outro alike). */
function watermark(spec: ResolvedSpec, mark: { text: string; fontFile: string }): string {
  const safe = platformSafeZone(spec);
  const size = Math.max(8, Math.round(WATERMARK_PX * frameScale(spec)));
  const border = Math.max(1, Math.round(size / 12));
  return (
    `drawtext=fontfile=${escapeFilterValue(mark.fontFile)}` +
    `:text=${escapeFilterValue(mark.text)}:expansion=none:fontsize=${size}` +
    `:fontcolor=white@${WATERMARK_OPACITY}:borderw=${border}:bordercolor=black@0.4` +
    `:x=${safe.left}:y=${safe.top}`
  );
}
