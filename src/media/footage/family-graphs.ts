// Pure builders of the lavfi filter graphs that draw each family of procedural footage. Every graph is
// drawn at a reduced internal size and ends in the label [base]; procedural.ts upscales and encodes it.
// Motion either repeats exactly over the clip (phases from loopPhase) or, for drifting fields, is
// cross-faded into its own start, so every clip loops seamlessly.

import { colormapFilter, ffColor, hashExpr, hexToRgb, loopPhase, num } from './lavfi-expr.ts';

export type GeometricPattern = 'neon-grid' | 'stripes' | 'rings' | 'pulse-grid';

export type FootageLook =
  | { family: 'gradients'; shape: 'linear' | 'radial'; colors: string[] }
  | { family: 'liquid'; colors: string[]; variant: 0 | 1 | 2 }
  | {
      family: 'particles';
      background: [string, string];
      color: string;
      direction: 'up' | 'down';
      seed: number;
    }
  | { family: 'stars'; background: [string, string]; tint: string; seed: number }
  | { family: 'bokeh'; background: [string, string]; colors: string[]; seed: number }
  | { family: 'light-leaks'; base: string; colors: [string, string] }
  | { family: 'film-grain'; colors: string[]; strength: number }
  | { family: 'color-field'; colors: string[] }
  | { family: 'geometric'; pattern: GeometricPattern; colors: string[] };

export type FootageFamily = FootageLook['family'];

export interface GraphTiming {
  durationSec: number;
  fps: number;
}

/** Internal drawing size of the sharp families; smooth fields are drawn smaller still. */
export const DRAW_W = 540;
export const DRAW_H = 960;

function gradientsSource(
  size: [number, number],
  colors: readonly string[],
  shape: 'linear' | 'radial',
  points: [number, number, number, number],
  turnsPerClip: number,
  t: GraphTiming,
): string {
  if (colors.length < 2 || colors.length > 8)
    throw new Error(`gradients takes 2–8 colours, not ${colors.length}`);
  const [w, h] = size;
  const cs = colors.map((c, i) => `c${i}=${ffColor(c)}`).join(':');
  const [x0, y0, x1, y1] = points.map((p, i) => Math.round(p * (i % 2 === 0 ? w - 1 : h - 1)));
  // gradients rotates its end points by `speed` radians per frame.
  const speed = num((2 * Math.PI * turnsPerClip) / (t.durationSec * t.fps), 7);
  return `gradients=s=${w}x${h}:r=${t.fps}:n=${colors.length}:${cs}:x0=${x0}:y0=${y0}:x1=${x1}:y1=${y1}:speed=${speed}:type=${shape}:seed=1`;
}

/** Converts RGB to the clip's 4:2:0 BT.709 video in the same pass. */
const TO_YUV = 'scale=out_color_matrix=bt709:out_range=tv,format=yuv420p';

function gradientsGraph(look: Extract<FootageLook, { family: 'gradients' }>, t: GraphTiming): string {
  if (look.shape === 'radial') {
    return `${gradientsSource([DRAW_W, DRAW_H], look.colors, 'radial', [0.35, 0.4, 0.5, 1], 1, t)},${TO_YUV}[base]`;
  }
  // Mirrored stops make the linear gradient symmetric, so half a turn per clip already loops.
  const mirrored = [...look.colors, ...[...look.colors].reverse()];
  return `${gradientsSource([DRAW_W, DRAW_H], mirrored, 'linear', [0.2, 0.15, 0.8, 0.85], 0.5, t)},${TO_YUV}[base]`;
}

function colorFieldGraph(look: Extract<FootageLook, { family: 'color-field' }>, t: GraphTiming): string {
  const mirrored = [...look.colors, ...[...look.colors].reverse()];
  // Vignetting in RGB: darkening luma alone would shift warm hues toward olive.
  return (
    `${gradientsSource([DRAW_W, DRAW_H], mirrored, 'linear', [0.1, 0.1, 0.9, 0.9], 0.5, t)},format=rgb24,` +
    `vignette=angle=PI/4.5:dither=0,${TO_YUV}[base]`
  );
}

// Three plasma fields (sums of moving sine waves); T only enters through whole-cycle phases.
function plasmaExpr(variant: 0 | 1 | 2, periodSec: number): string {
  const p = loopPhase(periodSec);
  const q = loopPhase(periodSec, 2);
  const fields = [
    `sin(X/W*7+2*sin(ld(0)))+sin(Y/H*5+1.5*cos(ld(0)))+sin((X/W+Y/H)*4+ld(0))+sin(hypot(X/W-0.5-0.2*cos(ld(0)),(Y/H-0.5-0.25*sin(ld(0)))*1.78)*9-ld(0))`,
    `sin(X/W*5-ld(0))+sin(Y/H*6+2*cos(ld(0)))+sin((X/W-Y/H)*5+2*sin(ld(1)))+sin(hypot(X/W-0.3-0.2*sin(ld(0)),(Y/H-0.6+0.2*cos(ld(0)))*1.78)*11+ld(0))`,
    `sin(X/W*4+Y/H*3+ld(0))+sin(Y/H*7-1.5*sin(ld(0)))+sin(X/W*9+2*cos(ld(1))*0.5)+sin(hypot(X/W-0.7+0.15*cos(ld(0)),(Y/H-0.35-0.2*sin(ld(0)))*1.78)*8-ld(0))`,
  ];
  return `st(0,${p});st(1,${q});128+31*(${fields[variant]})`;
}

function liquidGraph(look: Extract<FootageLook, { family: 'liquid' }>, t: GraphTiming): string {
  return (
    `nullsrc=s=144x256:r=${t.fps},format=gray,geq=lum='${plasmaExpr(look.variant, t.durationSec)}',` +
    `format=rgb24,${colormapFilter(look.colors)},${TO_YUV}[base]`
  );
}

interface DotField {
  /** Cell size in pixels; each cell holds at most one dot, kept inside its cell with its glow. */
  cell: number;
  density: number;
  radius: [number, number];
  seed: number;
  /** Disc with a soft rim (bokeh) instead of a glowing point (dust, stars). */
  disc: boolean;
}

/** A geq expression for one field of randomly placed dots scaled by `channel` (0–255). */
function dotFieldExpr(f: DotField, channel: string): string {
  const h = (k: number): string => hashExpr('ld(0)', 'ld(1)', f.seed + k);
  const c = f.cell;
  const [rMin, rMax] = f.radius;
  const shape = f.disc
    ? `clip((1-ld(6))*ld(5)/1.5,0,1)*(0.7+0.3*pow(ld(6),4))+0.12*exp(-ld(6)*ld(6))`
    : `0.85*exp(-ld(6)*ld(6))+0.22*exp(-ld(6)*ld(6)/6)`;
  // The dot keeps this many radii from its cell's edges, where its glow has faded below one level.
  const margin = f.disc ? 1.6 : 4;
  return (
    `st(0,floor(X/${c}));st(1,floor(Y/${c}));` +
    `if(lt(${h(0)},${f.density}),` +
    `st(5,${rMin}+${num(rMax - rMin)}*${h(3)});` +
    `st(3,ld(0)*${c}+ld(5)*${margin}+(${c}-ld(5)*${2 * margin})*${h(1)});` +
    `st(4,ld(1)*${c}+ld(5)*${margin}+(${c}-ld(5)*${2 * margin})*${h(2)});` +
    `st(6,hypot(X-ld(3),Y-ld(4))/ld(5));` +
    // geq stores values modulo 256, so the sum is clipped before it can wrap to black.
    `clip((${channel})*(0.35+0.65*${h(4)})*(${shape}),0,255),0)`
  );
}

interface DriftLayer {
  label: string;
  /** One-frame graph of the still field, at least DRAW_W+|dx|·frames wide and DRAW_H+|dy|·frames tall. */
  field: string;
  /** Pixels per frame the field moves past the window (integers keep the motion free of judder). */
  dx: number;
  dy: number;
}

/**
 * Slides a window over a still field, and cross-fades the last second into the window's position one
 * clip-length earlier, so that the last frame leads into the first.
 */
function driftGraph(layer: DriftLayer, t: GraphTiming): string {
  const frames = Math.round(t.durationSec * t.fps);
  const fade = t.fps;
  // The window starts far enough into the field that the copy running one clip-length behind stays inside.
  const pos = (speed: number, shift: string): string =>
    speed >= 0 ? `${speed * fade}+${speed}*(n${shift})` : `${-speed * frames}-${-speed}*(n${shift})`;
  const l = layer.label;
  return (
    `${layer.field},loop=loop=${frames + fade}:size=1,setpts=N/(${t.fps}*TB),split[${l}a][${l}b];` +
    `[${l}a]crop=${DRAW_W}:${DRAW_H}:'${pos(layer.dx, '')}':'${pos(layer.dy, '')}',trim=end_frame=${frames}[${l}A];` +
    `[${l}b]crop=${DRAW_W}:${DRAW_H}:'${pos(layer.dx, `-${fade}`)}':'${pos(layer.dy, `-${fade}`)}',` +
    `trim=end_frame=${fade},setpts=PTS-STARTPTS[${l}B];` +
    `[${l}A][${l}B]xfade=transition=fade:duration=1:offset=${num((frames - fade) / t.fps)}[${l}]`
  );
}

function fieldSize(dx: number, dy: number, t: GraphTiming): [number, number] {
  const travel = Math.round((t.durationSec + 1) * t.fps);
  return [DRAW_W + Math.abs(dx) * travel, DRAW_H + Math.abs(dy) * travel];
}

function grayField(f: DotField, size: [number, number], tint: string, t: GraphTiming): string {
  const [r, g, b] = hexToRgb(tint).map((v) => num(v / 255, 3));
  return (
    `nullsrc=s=${size[0]}x${size[1]}:r=${t.fps},trim=end_frame=1,format=gray,geq=lum='${dotFieldExpr(f, '255')}',` +
    `format=gbrp,colorchannelmixer=rr=${r}:rg=0:rb=0:gr=0:gg=${g}:gb=0:br=0:bg=0:bb=${b}`
  );
}

/**
 * Discs in several colours: the disc shapes are drawn once in grey, and multiplied by a colour map with
 * one pixel per cell (the colour picked by a further hash of the cell), stretched over the cells.
 */
function colorField(
  f: DotField,
  size: [number, number],
  colors: readonly string[],
  label: string,
  t: GraphTiming,
): string {
  const rgb = colors.map(hexToRgb);
  const pick = (channel: 0 | 1 | 2): string => {
    let expr = String(rgb[rgb.length - 1]![channel]);
    for (let i = rgb.length - 2; i >= 0; i--)
      expr = `if(lt(ld(7),${num((i + 1) / rgb.length)}),${rgb[i]![channel]},${expr})`;
    return `st(0,X);st(1,Y);st(7,${hashExpr('ld(0)', 'ld(1)', f.seed + 5)});${expr}`;
  };
  const [cols, rows] = [Math.ceil(size[0] / f.cell), Math.ceil(size[1] / f.cell)];
  return (
    `nullsrc=s=${size[0]}x${size[1]}:r=${t.fps},trim=end_frame=1,format=gray,geq=lum='${dotFieldExpr(f, '255')}',format=gbrp[${label}m];` +
    `nullsrc=s=${cols}x${rows}:r=${t.fps},trim=end_frame=1,format=gbrp,geq=r='${pick(0)}':g='${pick(1)}':b='${pick(2)}',` +
    `scale=${cols * f.cell}:${rows * f.cell}:flags=neighbor,crop=${size[0]}:${size[1]}:0:0[${label}c];` +
    `[${label}m][${label}c]blend=all_mode=multiply`
  );
}

function backdrop(colors: [string, string], t: GraphTiming, label: string): string {
  return `${gradientsSource([DRAW_W, DRAW_H], colors, 'radial', [0.5, 0.55, 0.5, 1], 1, t)},format=gbrp[${label}]`;
}

function addLayers(bg: string, layers: string[]): string {
  let graph = '';
  let current = bg;
  layers.forEach((layer, i) => {
    const out = i === layers.length - 1 ? 'base' : `mix${i}`;
    graph += `;[${current}][${layer}]blend=all_mode=screen[${out}]`;
    current = out;
  });
  return graph;
}

function particlesGraph(look: Extract<FootageLook, { family: 'particles' }>, t: GraphTiming): string {
  const dir = look.direction === 'up' ? 1 : -1;
  const layers = [
    {
      label: 'far',
      dy: 1 * dir,
      dx: 0,
      f: { cell: 30, density: 0.35, radius: [1.1, 1.9], seed: look.seed, disc: false },
    },
    {
      label: 'near',
      dy: 2 * dir,
      dx: 0,
      f: { cell: 72, density: 0.4, radius: [2.6, 4.6], seed: look.seed + 10, disc: false },
    },
  ] as const;
  const parts = layers.map((l) =>
    driftGraph(
      {
        label: l.label,
        dx: l.dx,
        dy: l.dy,
        field: grayField({ ...l.f, radius: [...l.f.radius] }, fieldSize(l.dx, l.dy, t), look.color, t),
      },
      t,
    ),
  );
  return `${backdrop(look.background, t, 'bg')};${parts.join(';')}${addLayers(
    'bg',
    layers.map((l) => l.label),
  )}`;
}

function starsGraph(look: Extract<FootageLook, { family: 'stars' }>, t: GraphTiming): string {
  const layers = [
    {
      label: 'dust',
      dx: -1,
      dy: 0,
      f: { cell: 9, density: 0.35, radius: [0.45, 0.8], seed: look.seed, disc: false },
    },
    {
      label: 'bright',
      dx: -2,
      dy: 1,
      f: { cell: 40, density: 0.3, radius: [0.9, 1.7], seed: look.seed + 10, disc: false },
    },
  ] as const;
  const parts = layers.map((l) =>
    driftGraph(
      {
        label: l.label,
        dx: l.dx,
        dy: l.dy,
        field: grayField({ ...l.f, radius: [...l.f.radius] }, fieldSize(l.dx, l.dy, t), look.tint, t),
      },
      t,
    ),
  );
  return `${backdrop(look.background, t, 'bg')};${parts.join(';')}${addLayers(
    'bg',
    layers.map((l) => l.label),
  )}`;
}

function bokehGraph(look: Extract<FootageLook, { family: 'bokeh' }>, t: GraphTiming): string {
  const layers = [
    {
      label: 'back',
      dx: 0,
      dy: 1,
      f: { cell: 90, density: 0.5, radius: [12, 22], seed: look.seed, disc: true },
    },
    {
      label: 'front',
      dx: 1,
      dy: 1,
      f: { cell: 160, density: 0.45, radius: [26, 44], seed: look.seed + 10, disc: true },
    },
  ] as const;
  const parts = layers.map((l, i) =>
    driftGraph(
      {
        label: l.label,
        dx: l.dx,
        dy: l.dy,
        field: `${colorField({ ...l.f, radius: [...l.f.radius] }, fieldSize(l.dx, l.dy, t), look.colors, l.label, t)},gblur=sigma=${i === 0 ? 4 : 2}`,
      },
      t,
    ),
  );
  return `${backdrop(look.background, t, 'bg')};${parts.join(';')}${addLayers(
    'bg',
    layers.map((l) => l.label),
  )}`;
}

function lightLeaksGraph(look: Extract<FootageLook, { family: 'light-leaks' }>, t: GraphTiming): string {
  const size: [number, number] = [270, 480];
  const [a, b] = look.colors;
  // gradients only turns one way; the mirrored second leak turns the other.
  const leak = (
    color: string,
    points: [number, number, number, number],
    mirror: boolean,
    label: string,
  ): string =>
    `${gradientsSource(size, [color, '#000000'], 'radial', points, 1, t)},format=gbrp${mirror ? ',hflip' : ''}[${label}]`;
  return (
    `color=c=${ffColor(look.base)}:s=${size[0]}x${size[1]}:r=${t.fps},format=gbrp[bg];` +
    `${leak(a, [0.05, 0.2, 0.6, 0.75], false, 'l1')};${leak(b, [0.1, 0.85, 0.55, 0.35], true, 'l2')};` +
    `[bg][l1]blend=all_mode=screen[m1];[m1][l2]blend=all_mode=screen,` +
    `vignette=angle=PI/5:dither=0,${TO_YUV}[base]`
  );
}

function filmGrainGraph(look: Extract<FootageLook, { family: 'film-grain' }>, t: GraphTiming): string {
  const flicker = `0.012*sin(${loopPhase(t.durationSec, 8, 't')})+0.008*sin(${loopPhase(t.durationSec, 19, 't')})`;
  // Grain is drawn at half size and changes at half the frame rate, so it clumps like film and stays
  // compressible.
  return (
    `${gradientsSource([DRAW_W, DRAW_H], look.colors, 'radial', [0.5, 0.45, 0.5, 1], 1, t)},format=rgb24,` +
    `vignette=angle=PI/4:dither=0,${TO_YUV},eq=brightness='${flicker}':eval=frame[tone];` +
    `color=c=0x808080:s=${DRAW_W / 2}x${DRAW_H / 2}:r=${t.fps / 2},format=gray,noise=c0s=${look.strength}:c0f=t+u,` +
    `scale=${DRAW_W}:${DRAW_H}:flags=bicubic,format=yuv420p,fps=${t.fps}[grain];` +
    `[tone][grain]blend=c0_mode=overlay:c1_mode=normal:c2_mode=normal[base]`
  );
}

// Geometric patterns are drawn as a grey intensity (0–255) and coloured through the palette.

/** Soft diagonal bands sliding one band-width per cycle, their angle swaying. */
function stripesExpr(periodSec: number): string {
  return `st(0,${loopPhase(periodSec)});st(1,(X+Y*(0.6+0.15*sin(ld(0))))/W*3-ld(0)/PI);128+127*sin(2*PI*ld(1))`;
}

/** Concentric rings flowing outward from a slowly circling centre. */
function ringsExpr(periodSec: number): string {
  return (
    `st(0,${loopPhase(periodSec)});st(2,hypot(X/W-0.5-0.08*cos(ld(0)),(Y/H-0.5-0.06*sin(ld(0)))*1.78));` +
    `128+110*sin(2*PI*(ld(2)*6-ld(0)/PI))*exp(-ld(2)*1.2)`
  );
}

const HORIZON = 0.42;

/**
 * A perspective floor grid running toward the viewer under a glowing horizon. The converging lines and
 * the glow never move, so they are drawn once; the cross lines depend only on the row, so each frame
 * draws a single column and stretches it across.
 */
function neonGridGraph(t: GraphTiming): string {
  const [w, h] = [270, 480];
  const depth = `st(0,Y/H-${HORIZON});st(1,1.1/ld(0))`;
  const still =
    `${depth};if(gt(ld(0),0.003),st(2,(X/W-0.5)*ld(1)*4);` +
    `255*clip(max(0,1-abs(ld(2)-round(ld(2)))/(0.022*ld(1)))*exp(-ld(1)*0.12)+0.5*exp(-ld(0)*60),0,1),` +
    `255*clip(0.55*exp(ld(0)*14),0,1))`;
  const moving =
    `${depth};if(gt(ld(0),0.003),st(2,ld(1)+T/${num(t.durationSec)}*2);` +
    `255*max(0,1-abs(ld(2)-round(ld(2)))/(0.003*ld(1)*ld(1)))*exp(-ld(1)*0.12),0)`;
  return (
    `nullsrc=s=${w}x${h}:r=${t.fps},trim=end_frame=1,format=gray,geq=lum='${still}',loop=loop=-1:size=1,setpts=N/(${t.fps}*TB)[gs];` +
    `nullsrc=s=1x${h}:r=${t.fps},format=gray,geq=lum='${moving}',scale=${w}:${h}:flags=neighbor[gm];` +
    `[gs][gm]blend=all_mode=lighten,gblur=sigma=0.8`
  );
}

/**
 * Rounded cells whose brightness travels outward from the centre in waves: the cell shapes are drawn
 * once and multiplied by a per-frame image with one pixel per cell.
 */
function pulseGridGraph(t: GraphTiming): string {
  const [cols, rows, cell] = [9, 16, 30];
  const mask = `st(1,X/${cell});st(2,Y/${cell});255*(1-clip((max(abs(ld(1)-floor(ld(1))-0.5),abs(ld(2)-floor(ld(2))-0.5))-0.36)*25,0,1))`;
  const level = `40+200*pow(0.5+0.5*sin(${loopPhase(t.durationSec, 2)}-hypot(X-${(cols - 1) / 2},Y-${(rows - 1) / 2})*0.8),3)`;
  return (
    `nullsrc=s=${cols * cell}x${rows * cell}:r=${t.fps},trim=end_frame=1,format=gray,geq=lum='${mask}',loop=loop=-1:size=1,setpts=N/(${t.fps}*TB)[pm];` +
    `nullsrc=s=${cols}x${rows}:r=${t.fps},format=gray,geq=lum='${level}',scale=${cols * cell}:${rows * cell}:flags=neighbor[pl];` +
    `[pm][pl]blend=all_mode=multiply,gblur=sigma=1`
  );
}

function geometricGraph(look: Extract<FootageLook, { family: 'geometric' }>, t: GraphTiming): string {
  const field = (expr: string): string => `nullsrc=s=144x256:r=${t.fps},format=gray,geq=lum='${expr}'`;
  const gray = {
    stripes: () => field(stripesExpr(t.durationSec)),
    rings: () => field(ringsExpr(t.durationSec)),
    'neon-grid': () => neonGridGraph(t),
    'pulse-grid': () => pulseGridGraph(t),
  }[look.pattern]();
  return `${gray},format=rgb24,${colormapFilter(look.colors)},${TO_YUV}[base]`;
}

/** The filter graph (ending in [base]) that draws a look for the given clip timing. */
export function familyGraph(look: FootageLook, t: GraphTiming): string {
  switch (look.family) {
    case 'gradients':
      return gradientsGraph(look, t);
    case 'color-field':
      return colorFieldGraph(look, t);
    case 'liquid':
      return liquidGraph(look, t);
    case 'particles':
      return particlesGraph(look, t);
    case 'stars':
      return starsGraph(look, t);
    case 'bokeh':
      return bokehGraph(look, t);
    case 'light-leaks':
      return lightLeaksGraph(look, t);
    case 'film-grain':
      return filmGrainGraph(look, t);
    case 'geometric':
      return geometricGraph(look, t);
  }
}
