// The presenter layouts' part of the video graph (spec 1 §4.5): the presenter (or the logo host) placed with
// the B-roll per layout, in the same graph as the rest of the composition; and the outro end card appended.
import { ffmpegColor, num } from '../ffmpeg/filter-escape.ts';
import type { Rect } from '../layouts/presenter-layout.ts';
import {
  cardQuad,
  cubeFaces,
  expressionAlgebra,
  type LoopPlan,
  type Quad,
} from '../layouts/logo-host-motion.ts';
import { MIX_FORMAT } from './audio-graph.ts';
import type { InputPlan } from './compose-inputs.ts';
import type { ResolvedPresenter, ResolvedSpec } from './compose-spec.ts';
import { coverTo } from './filter-source.ts';
import type { LayoutAssets } from './layout-assets.ts';

export interface LayoutPart {
  filters: string[];
  /** Label of the composed timeline (frame-sized, yuv420p). */
  output: string;
}

/** One loop of the host's motion: the card sways once, the cube turns a quarter. */
const HOST_LOOP_SEC = { card: 3, cube: 3 } as const;
/** The cube's gentle bob (its loop holds only the turn): share of the box, and period. */
const CUBE_BOB = { share: 0.025, periodSec: 2.4 } as const;
/**
 * Narration loudness for the card's glow: showwaves draws each sample's magnitude (square-root scale) as a
 * centred line, averaging the picture to one pixel gives the frame's level (speech ~20–75 of 255), which is
 * stretched, smoothed over 3 frames and spread over the glow's shape.
 */
const GLOW_LEVEL = 'showwaves=s=64x16:mode=cline:colors=white:draw=full:scale=sqrt';
const GLOW_GAIN = 3;

function mainFrames(spec: ResolvedSpec): number {
  return Math.max(1, Math.round(spec.mainSec * spec.fps));
}

function presenterOf(spec: ResolvedSpec): ResolvedPresenter {
  if (!spec.presenter) throw new Error('the composition has no presenter');
  return spec.presenter;
}

/** The presenter source brought to `box`: the compose's rate, its size, held on its last frame, cut to length. */
function sourceChain(spec: ResolvedSpec, inputs: InputPlan, box: Rect, label: string): string[] {
  const { source } = presenterOf(spec);
  if (!source || !inputs.presenter) throw new Error('the presenter source has no inputs in the video pass');
  const filters = source.filter(inputs.presenter, 'psrc');
  const steps: string[] = [];
  if (source.fps !== spec.fps) steps.push(`fps=${num(spec.fps)}`);
  if (source.width !== box.width || source.height !== box.height)
    steps.push(coverTo(box.width, box.height, source.hasAlpha ? 'yuva420p' : 'yuv420p'));
  if (source.durationSec < spec.mainSec)
    steps.push(`tpad=stop_mode=clone:stop_duration=${num(spec.mainSec)}`);
  steps.push(`trim=end_frame=${mainFrames(spec)}`, 'setpts=PTS-STARTPTS');
  filters.push(`[psrc]${steps.join(',')}[${label}]`);
  return filters;
}

function backdrop(spec: ResolvedSpec, size: Rect, label: string): string {
  const { backdropColor } = presenterOf(spec);
  return (
    `color=c=${ffmpegColor(backdropColor)}:s=${size.width}x${size.height}:r=${num(spec.fps)}` +
    `:d=${num(mainFrames(spec) / spec.fps)},format=yuv420p[${label}]`
  );
}

function quadOptions(quad: Quad<string>): string {
  return (['x0', 'y0', 'x1', 'y1', 'x2', 'y2', 'x3', 'y3'] as const)
    .map((k) => `${k}='${quad[k]}'`)
    .join(':');
}

/** A still repeated for one loop, one frame per frame of the loop. */
function stillLoop(input: number, frames: number, fps: number): string {
  return `[${input}:v]format=yuva420p,loop=loop=${frames - 1}:size=1,setpts=N/${num(fps)}/TB`;
}

/** The loop repeated over the timeline. */
function repeatLoop(spec: ResolvedSpec, frames: number): string {
  const total = mainFrames(spec);
  return `loop=loop=${Math.ceil(total / frames) - 1}:size=${frames},setpts=N/${num(spec.fps)}/TB,trim=end_frame=${total}`;
}

/**
 * The logo host drawn over `base` (frame or backdrop) whose top-left is at `origin` on the frame: the glow
 * (card, with narration), the animated card or cube, the URL line.
 */
function hostOver(
  spec: ResolvedSpec,
  inputs: InputPlan,
  assets: LayoutAssets,
  base: string,
  origin: { x: number; y: number },
  out: string,
): string[] {
  const place = presenterOf(spec).geometry.host;
  const host = assets.host;
  if (!place || !host || inputs.hostImage === null) throw new Error('the logo host has no pictures');
  const side = place.box.width;
  const x = place.box.x - origin.x;
  const y = place.box.y - origin.y;
  const plan: LoopPlan = {
    frames: Math.max(2, Math.round(HOST_LOOP_SEC[host.style] * spec.fps)),
    canvas: side,
  };
  const filters: string[] = [];
  const perspective = (quad: Quad<string>) => `perspective=${quadOptions(quad)}:sense=destination:eval=frame`;
  let current = base;

  if (host.style === 'card' && inputs.hostGlow !== null && inputs.narration !== null && spec.narration) {
    const tempo = spec.narration.tempo !== 1 ? `,atempo=${num(spec.narration.tempo)}` : '';
    const format = MIX_FORMAT.replace('channel_layouts=stereo', 'channel_layouts=mono');
    filters.push(
      `[${inputs.narration}:a]${format}${tempo},${GLOW_LEVEL}:rate=${num(spec.fps)},format=gray,` +
        `scale=1:1:flags=area,lut=c0='clip(val*${GLOW_GAIN},0,255)',tmix=frames=3,` +
        `scale=${side}:${side}:flags=neighbor[hlevel]`,
      `[${inputs.hostGlow}:v]format=gray[hshape]`,
      '[hlevel][hshape]blend=all_mode=multiply[halpha]',
      `color=c=${ffmpegColor(presenterOf(spec).host?.glowColor ?? '#FFFFFF')}:s=${side}x${side}:r=${num(spec.fps)}` +
        `:d=${num(mainFrames(spec) / spec.fps)},format=yuva420p[hglowc]`,
      '[hglowc][halpha]alphamerge[hglow]',
      `[${current}][hglow]overlay=x=${x}:y=${y}:eval=init:eof_action=pass[hbase]`,
    );
    current = 'hbase';
  }

  if (host.style === 'card') {
    filters.push(
      `${stillLoop(inputs.hostImage, plan.frames, spec.fps)},${perspective(cardQuad(expressionAlgebra('in'), plan))},` +
        `${repeatLoop(spec, plan.frames)}[hanim]`,
      `[${current}][hanim]overlay=x=${x}:y=${y}:eval=init[hlogo]`,
    );
  } else {
    const quads = cubeFaces(expressionAlgebra('in'), plan);
    const shades = cubeFaces(expressionAlgebra('n'), plan);
    const bob = Math.round(side * CUBE_BOB.share);
    filters.push(
      `${stillLoop(inputs.hostImage, plan.frames, spec.fps)},split=2[hface0][hface1]`,
      `[hface0]eq=brightness='${shades.sideShade}':eval=frame,${perspective(quads.side)}[hside]`,
      `[hface1]eq=brightness='${shades.frontShade}':eval=frame,${perspective(quads.front)}[hfront]`,
      `[hside][hfront]overlay=eval=init,${repeatLoop(spec, plan.frames)}[hanim]`,
      `[${current}][hanim]overlay=x=${x}:y='${y}+${bob}*sin(2*PI*t/${num(CUBE_BOB.periodSec)})'[hlogo]`,
    );
  }
  current = 'hlogo';

  if (place.url && inputs.hostUrl !== null) {
    filters.push(
      `[${inputs.hostUrl}:v]format=yuva420p[hurl]`,
      `[${current}][hurl]overlay=x=${place.url.x - origin.x}:y=${place.url.y - origin.y}:eval=init[${out}]`,
    );
  } else {
    filters.push(`[${current}]null[${out}]`);
  }
  return filters;
}

/**
 * The presenter's picture filling `rect` opaquely (full frame, split's bottom half): the source (over the
 * backdrop when it has a matte), or the logo host over the backdrop.
 */
function opaquePresenter(
  spec: ResolvedSpec,
  inputs: InputPlan,
  assets: LayoutAssets | undefined,
  rect: Rect,
  out: string,
): string[] {
  const presenter = presenterOf(spec);
  if (presenter.host) {
    if (!assets) throw new Error('the logo host has no pictures');
    return [backdrop(spec, rect, 'pback'), ...hostOver(spec, inputs, assets, 'pback', rect, out)];
  }
  if (!presenter.source?.hasAlpha) return sourceChain(spec, inputs, rect, out);
  return [
    ...sourceChain(spec, inputs, rect, 'pcut'),
    backdrop(spec, rect, 'pback'),
    `[pback][pcut]overlay=eval=init[${out}]`,
  ];
}

/**
 * The composed timeline of a presenter layout. `background` is the B-roll (creator, split: the scenes
 * back to back at the B-roll region's size); `scenes` are the scene labels (cutaway: one per interval).
 */
export function buildLayoutGraph(
  spec: ResolvedSpec,
  inputs: InputPlan,
  assets: LayoutAssets | undefined,
  background: string | null,
  scenes: string[],
): LayoutPart {
  const presenter = presenterOf(spec);
  const g = presenter.geometry;
  const box = g.presenter;
  switch (presenter.layout) {
    case 'talking_head':
      return { filters: opaquePresenter(spec, inputs, assets, box, 'vlay'), output: 'vlay' };
    case 'cutaway': {
      const filters = opaquePresenter(spec, inputs, assets, box, 'vpres');
      let current = 'vpres';
      presenter.cutaways.forEach(({ startFrame, endFrame }, i) => {
        const scene = scenes[i];
        if (scene === undefined) throw new Error(`cutaway ${i} has no scene`);
        // The scene's frames start at its interval; outside it the presenter passes through untouched. The
        // interval is given in time half a frame wide of its first and last frames (the timeline's frame
        // count `n` is not the main input's in a two-input filter).
        const from = num((startFrame - 0.5) / spec.fps);
        const to = num((endFrame - 0.5) / spec.fps);
        filters.push(
          `[${scene}]setpts=PTS-STARTPTS+${startFrame}/(${num(spec.fps)}*TB)[cut${i}]`,
          `[${current}][cut${i}]overlay=eval=init:eof_action=pass:enable='between(t,${from},${to})'[vcut${i}]`,
        );
        current = `vcut${i}`;
      });
      return { filters, output: current };
    }
    case 'split': {
      if (background === null) throw new Error('the split layout needs B-roll');
      const filters = opaquePresenter(spec, inputs, assets, box, 'vpres');
      filters.push(`[${background}][vpres]vstack=inputs=2[vlay]`);
      return { filters, output: 'vlay' };
    }
    case 'creator': {
      if (background === null) throw new Error('the creator layout needs B-roll');
      if (presenter.host) {
        if (!assets) throw new Error('the logo host has no pictures');
        return {
          filters: hostOver(spec, inputs, assets, background, { x: 0, y: 0 }, 'vlay'),
          output: 'vlay',
        };
      }
      if (g.style === 'cutout')
        return {
          filters: [
            ...sourceChain(spec, inputs, box, 'vpres'),
            `[${background}][vpres]overlay=x=${box.x}:y=${box.y}:eval=init[vlay]`,
          ],
          output: 'vlay',
        };
      if (inputs.bubbleMask === null || inputs.bubbleRing === null)
        throw new Error('the bubble has no pictures');
      // The border is drawn into the presenter's box first, so one alpha mask cuts both out.
      return {
        filters: [
          ...sourceChain(spec, inputs, box, 'vpres'),
          `[${inputs.bubbleRing}:v]format=yuva420p[bring]`,
          `[${inputs.bubbleMask}:v]format=gray[bmask]`,
          '[vpres][bring]overlay=eval=init,format=yuva420p[vframed]',
          '[vframed][bmask]alphamerge[vbubble]',
          `[${background}][vbubble]overlay=x=${box.x}:y=${box.y}:eval=init[vlay]`,
        ],
        output: 'vlay',
      };
    }
  }
}

/** The end card: one decoded frame repeated for the outro's length (watermarked by the caller's chain). */
export function outroFilter(spec: ResolvedSpec, inputs: InputPlan, label: string): string {
  if (!spec.outro || inputs.outro === null) throw new Error('the outro has no card');
  const frames = Math.max(1, Math.round(spec.outro.durationSec * spec.fps));
  return (
    `[${inputs.outro}:v]format=yuv420p,setsar=1,loop=loop=${frames - 1}:size=1,` +
    `setpts=N/${num(spec.fps)}/TB[${label}]`
  );
}
