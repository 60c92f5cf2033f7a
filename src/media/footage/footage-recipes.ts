// The catalogue of procedural clips a fresh install seeds its footage library with. Tags describe what
// is on screen; niches list only the clip types the visual genuinely fits.

import { OWN_WORK_LICENCE } from '../provenance/licences.ts';
import type { FootageLook } from './family-graphs.ts';
import type { Niche } from './niches.ts';
import type { FootageRecipe } from './procedural.ts';

const PALETTES = {
  ocean: ['#041c32', '#04506b', '#1d9bb2', '#8fe3e0'],
  sunset: ['#2b1055', '#a4286a', '#f2705c', '#ffc57a'],
  royal: ['#c3b1e1', '#6a5acd', '#302b63', '#0f0c29'],
  mint: ['#0b3d3a', '#1f8a70', '#9ee6c9', '#f1fff8'],
  gold: ['#140d02', '#5c3d0a', '#c9962c', '#f6dd9b'],
  neon: ['#0a0018', '#3a0ca3', '#f72585', '#4cc9f0'],
  aurora: ['#04151f', '#0b4f4a', '#2dd4a0', '#8a5cf6'],
  pastel: ['#a6c1ee', '#c9d6ff', '#fbc2eb', '#fde2f3'],
  midnight: ['#020617', '#0f1e46', '#2c3e8c', '#7b8ce0'],
} as const;

interface Entry {
  id: string;
  palette: string;
  title: string;
  tags: string[];
  niches: Niche[];
  look: FootageLook;
  durationSec?: number;
}

// Smooth fields compress well; dense dots and grain need a lighter touch to survive encoding.
const DEFAULT_CRF: Record<FootageLook['family'], number> = {
  gradients: 22,
  'color-field': 22,
  liquid: 22,
  geometric: 22,
  'light-leaks': 25,
  particles: 21,
  stars: 21,
  bokeh: 21,
  'film-grain': 24,
};

const ENTRIES: Entry[] = [
  // Gradients: one smooth gradient turning slowly.
  {
    id: 'gradient-ocean',
    palette: 'ocean',
    title: 'Ocean blue gradient turning slowly',
    tags: ['gradient', 'blue', 'teal', 'ocean', 'cool', 'calm', 'smooth', 'slow'],
    niches: ['abstract/gradients', 'abstract', 'relaxing', 'soothing', 'tech/minimal'],
    look: { family: 'gradients', shape: 'linear', colors: [...PALETTES.ocean] },
  },
  {
    id: 'gradient-sunset',
    palette: 'sunset',
    title: 'Warm sunset gradient turning slowly',
    tags: ['gradient', 'sunset', 'orange', 'pink', 'purple', 'warm', 'calm', 'smooth'],
    niches: ['abstract/gradients', 'abstract', 'nature/sunset', 'relaxing'],
    look: { family: 'gradients', shape: 'linear', colors: [...PALETTES.sunset] },
  },
  {
    id: 'gradient-royal-glow',
    palette: 'royal',
    title: 'Violet glow circling on deep indigo',
    tags: ['gradient', 'glow', 'purple', 'violet', 'indigo', 'dark', 'calm', 'dreamy'],
    niches: ['abstract/gradients', 'abstract', 'spiritual/energy', 'soothing'],
    look: { family: 'gradients', shape: 'radial', colors: [...PALETTES.royal] },
  },
  {
    id: 'gradient-mint',
    palette: 'mint',
    title: 'Fresh mint green gradient turning slowly',
    tags: ['gradient', 'green', 'mint', 'fresh', 'light', 'calm', 'clean'],
    niches: ['abstract/gradients', 'abstract', 'relaxing', 'soothing', 'tech/minimal'],
    look: { family: 'gradients', shape: 'linear', colors: [...PALETTES.mint] },
  },
  {
    id: 'gradient-gold-glow',
    palette: 'gold',
    title: 'Golden glow circling on black',
    tags: ['gradient', 'glow', 'gold', 'golden', 'black', 'warm', 'elegant', 'dark'],
    niches: ['abstract/gradients', 'colors/gold', 'luxury', 'premium'],
    look: { family: 'gradients', shape: 'radial', colors: ['#f6dd9b', '#c9962c', '#5c3d0a', '#140d02'] },
  },
  {
    id: 'gradient-neon',
    palette: 'neon',
    title: 'Neon magenta and electric blue gradient',
    tags: ['gradient', 'neon', 'magenta', 'pink', 'blue', 'vivid', 'energetic'],
    niches: ['abstract/gradients', 'abstract', 'colors/neon'],
    look: { family: 'gradients', shape: 'linear', colors: [...PALETTES.neon] },
  },

  // Liquid: flowing plasma fields.
  {
    id: 'liquid-ocean',
    palette: 'ocean',
    title: 'Flowing liquid blues',
    tags: ['liquid', 'fluid', 'flowing', 'blue', 'teal', 'ocean', 'calm', 'smooth'],
    niches: ['abstract/liquid', 'abstract', 'relaxing', 'soothing', 'satisfying'],
    look: { family: 'liquid', variant: 0, colors: [...PALETTES.ocean] },
  },
  {
    id: 'liquid-sunset',
    palette: 'sunset',
    title: 'Flowing liquid sunset colours',
    tags: ['liquid', 'fluid', 'flowing', 'sunset', 'orange', 'pink', 'purple', 'warm'],
    niches: ['abstract/liquid', 'abstract', 'satisfying', 'relaxing'],
    look: { family: 'liquid', variant: 1, colors: [...PALETTES.sunset] },
  },
  {
    id: 'liquid-aurora',
    palette: 'aurora',
    title: 'Aurora green and violet flowing on dark',
    tags: ['liquid', 'flowing', 'aurora', 'green', 'violet', 'dark', 'glow', 'dreamy'],
    niches: ['abstract/liquid', 'abstract', 'spiritual/energy', 'soothing'],
    look: { family: 'liquid', variant: 2, colors: [...PALETTES.aurora] },
  },
  {
    id: 'liquid-gold',
    palette: 'gold',
    title: 'Molten gold flowing',
    tags: ['liquid', 'flowing', 'gold', 'golden', 'molten', 'warm', 'elegant'],
    niches: ['abstract/liquid', 'colors/gold', 'luxury', 'premium', 'satisfying'],
    look: { family: 'liquid', variant: 0, colors: [...PALETTES.gold] },
  },
  {
    id: 'liquid-pastel',
    palette: 'pastel',
    title: 'Soft pastel colours flowing',
    tags: ['liquid', 'flowing', 'pastel', 'pink', 'lavender', 'light', 'soft', 'dreamy', 'calm'],
    niches: ['abstract/liquid', 'abstract', 'soothing', 'relaxing'],
    look: { family: 'liquid', variant: 1, colors: [...PALETTES.pastel] },
  },
  {
    id: 'liquid-midnight',
    palette: 'midnight',
    title: 'Deep midnight blue currents',
    tags: ['liquid', 'flowing', 'midnight', 'blue', 'dark', 'moody', 'calm'],
    niches: ['abstract/liquid', 'abstract', 'spiritual/dark_aesthetic', 'relaxing'],
    look: { family: 'liquid', variant: 2, colors: [...PALETTES.midnight] },
  },

  // Particles: glowing dots drifting in two depths.
  {
    id: 'particles-gold-dust',
    palette: 'gold',
    title: 'Gold dust rising on black',
    tags: ['particles', 'dust', 'gold', 'golden', 'glow', 'rising', 'black', 'dark', 'elegant'],
    niches: ['abstract/particles', 'overlays/particles', 'colors/gold', 'luxury', 'premium'],
    look: {
      family: 'particles',
      background: ['#1a1205', '#050302'],
      color: '#ffcc66',
      direction: 'up',
      seed: 11,
    },
  },
  {
    id: 'particles-blue-tech',
    palette: 'midnight',
    title: 'Blue light particles rising on navy',
    tags: ['particles', 'blue', 'cyan', 'glow', 'rising', 'dark', 'cool', 'digital'],
    niches: ['abstract/particles', 'overlays/particles', 'tech/abstract'],
    look: {
      family: 'particles',
      background: ['#0a1a3a', '#02040c'],
      color: '#6fd3ff',
      direction: 'up',
      seed: 12,
    },
  },
  {
    id: 'particles-rose',
    palette: 'rose',
    title: 'Soft pink particles floating up',
    tags: ['particles', 'pink', 'rose', 'glow', 'rising', 'soft', 'dreamy', 'calm'],
    niches: ['abstract/particles', 'overlays/particles', 'soothing'],
    look: {
      family: 'particles',
      background: ['#2e0c1f', '#0a0307'],
      color: '#ff9ec7',
      direction: 'up',
      seed: 13,
    },
  },
  {
    id: 'particles-embers',
    palette: 'ember',
    title: 'Orange embers rising on black',
    tags: ['particles', 'embers', 'sparks', 'orange', 'fire', 'glow', 'rising', 'warm', 'energetic', 'dark'],
    niches: ['abstract/particles', 'overlays/particles'],
    look: {
      family: 'particles',
      background: ['#2a0c02', '#070201'],
      color: '#ff8a2b',
      direction: 'up',
      seed: 14,
    },
  },
  {
    id: 'particles-snow',
    palette: 'winter',
    title: 'White snow falling on deep blue',
    tags: ['particles', 'snow', 'snowfall', 'white', 'falling', 'winter', 'blue', 'cold', 'calm'],
    niches: ['abstract/particles', 'overlays/particles', 'events/christmas', 'soothing'],
    look: {
      family: 'particles',
      background: ['#14284f', '#050a18'],
      color: '#f4f8ff',
      direction: 'down',
      seed: 15,
    },
  },

  // Stars: star fields drifting slowly.
  {
    id: 'stars-deep-blue',
    palette: 'midnight',
    title: 'Star field drifting in deep blue space',
    tags: ['stars', 'space', 'night', 'sky', 'starry', 'blue', 'dark', 'calm', 'drifting'],
    niches: ['Space', 'abstract/particles', 'spiritual/meditation', 'relaxing'],
    look: { family: 'stars', background: ['#0c1633', '#02030a'], tint: '#e8f0ff', seed: 21 },
  },
  {
    id: 'stars-violet-nebula',
    palette: 'royal',
    title: 'Stars drifting over a violet glow',
    tags: ['stars', 'space', 'nebula', 'violet', 'purple', 'glow', 'dark', 'dreamy', 'cosmic'],
    niches: ['Space', 'spiritual/energy', 'spiritual/dark_aesthetic'],
    look: { family: 'stars', background: ['#2a1050', '#04020c'], tint: '#f3e9ff', seed: 22 },
  },
  {
    id: 'stars-teal',
    palette: 'aurora',
    title: 'Star field drifting over a teal haze',
    tags: ['stars', 'space', 'teal', 'haze', 'night', 'dark', 'calm', 'cosmic'],
    niches: ['Space', 'abstract/particles'],
    look: { family: 'stars', background: ['#06303a', '#010608'], tint: '#e6fffb', seed: 23 },
  },

  // Bokeh: out-of-focus discs of light.
  {
    id: 'bokeh-gold',
    palette: 'gold',
    title: 'Golden bokeh lights drifting',
    tags: ['bokeh', 'lights', 'gold', 'golden', 'warm', 'glow', 'festive', 'elegant', 'blur'],
    niches: ['overlays/bokeh', 'colors/gold', 'luxury', 'events/christmas', 'events/new_years'],
    look: {
      family: 'bokeh',
      background: ['#2a1a08', '#070403'],
      colors: ['#ffcf70', '#ff9f43', '#fff1c1'],
      seed: 31,
    },
  },
  {
    id: 'bokeh-city-lights',
    palette: 'city',
    title: 'Out-of-focus city lights at night',
    tags: ['bokeh', 'lights', 'city', 'night', 'blur', 'orange', 'blue', 'red', 'urban'],
    niches: ['overlays/bokeh', 'urban/nightlife'],
    look: {
      family: 'bokeh',
      background: ['#10131f', '#030409'],
      colors: ['#ffb347', '#ff5e5b', '#7ec8ff', '#fff3d6'],
      seed: 32,
    },
  },
  {
    id: 'bokeh-blue',
    palette: 'ocean',
    title: 'Soft blue bokeh drifting',
    tags: ['bokeh', 'lights', 'blue', 'cyan', 'cool', 'soft', 'calm', 'blur'],
    niches: ['overlays/bokeh', 'soothing', 'relaxing'],
    look: {
      family: 'bokeh',
      background: ['#071a2e', '#020609'],
      colors: ['#5ab8ff', '#8fe3e0', '#d6f1ff'],
      seed: 33,
    },
  },
  {
    id: 'bokeh-pink',
    palette: 'rose',
    title: 'Pink and violet bokeh drifting',
    tags: ['bokeh', 'lights', 'pink', 'violet', 'soft', 'dreamy', 'blur'],
    niches: ['overlays/bokeh', 'soothing'],
    look: {
      family: 'bokeh',
      background: ['#260b24', '#080208'],
      colors: ['#ff8fc7', '#c77dff', '#ffd6ec'],
      seed: 34,
    },
  },

  // Light leaks: soft coloured glows sweeping over dark.
  {
    id: 'light-leak-amber',
    palette: 'ember',
    title: 'Amber and red light leaks',
    tags: ['light leak', 'glow', 'amber', 'orange', 'red', 'warm', 'film', 'soft'],
    niches: ['overlays/light_leaks'],
    look: { family: 'light-leaks', base: '#0b0604', colors: ['#ff9a3c', '#ff4e50'] },
  },
  {
    id: 'light-leak-rose',
    palette: 'rose',
    title: 'Rose and peach light leaks',
    tags: ['light leak', 'glow', 'pink', 'rose', 'peach', 'warm', 'soft', 'dreamy'],
    niches: ['overlays/light_leaks'],
    look: { family: 'light-leaks', base: '#0a0407', colors: ['#ff7eb3', '#ffb88c'] },
  },
  {
    id: 'light-leak-teal-orange',
    palette: 'teal-orange',
    title: 'Teal and orange light leaks',
    tags: ['light leak', 'glow', 'teal', 'orange', 'cinematic', 'soft'],
    niches: ['overlays/light_leaks'],
    look: { family: 'light-leaks', base: '#04080a', colors: ['#ff8c42', '#2ec4b6'] },
  },

  // Film grain over a toned background.
  {
    id: 'film-grain-warm',
    palette: 'sepia',
    title: 'Warm sepia film grain',
    tags: ['film grain', 'grain', 'film', 'vintage', 'sepia', 'brown', 'warm', 'texture'],
    niches: ['overlays/film_grain'],
    look: { family: 'film-grain', colors: ['#c8a27a', '#6b4a2f', '#2a1a10'], strength: 16 },
    durationSec: 6,
  },
  {
    id: 'film-grain-mono',
    palette: 'mono',
    title: 'Dark monochrome film grain',
    tags: ['film grain', 'grain', 'film', 'vintage', 'monochrome', 'grey', 'dark', 'texture'],
    niches: ['overlays/film_grain', 'spiritual/dark_aesthetic'],
    look: { family: 'film-grain', colors: ['#6a6a6a', '#2e2e2e', '#0c0c0c'], strength: 16 },
    durationSec: 6,
  },

  // Colour fields: near-solid colour with a slow sheen.
  {
    id: 'color-field-gold',
    palette: 'gold',
    title: 'Brushed gold colour field with a slow sheen',
    tags: ['gold', 'golden', 'metallic', 'sheen', 'warm', 'elegant', 'solid'],
    niches: ['colors/gold', 'luxury', 'premium'],
    look: { family: 'color-field', colors: ['#8a5a12', '#d4a94a', '#f3dc9c'] },
  },
  {
    id: 'color-field-black',
    palette: 'black',
    title: 'Black colour field with a faint moving sheen',
    tags: ['black', 'dark', 'minimal', 'sheen', 'elegant', 'solid'],
    niches: ['colors/black', 'premium', 'tech/minimal'],
    look: { family: 'color-field', colors: ['#000000', '#0b0b0d', '#26262b'] },
  },
  {
    id: 'color-field-neon',
    palette: 'neon',
    title: 'Neon magenta and violet colour field',
    tags: ['neon', 'magenta', 'violet', 'pink', 'vivid', 'glow', 'solid'],
    niches: ['colors/neon'],
    look: { family: 'color-field', colors: ['#3a0ca3', '#b5179e', '#f72585'] },
  },

  // Geometric patterns.
  {
    id: 'geometric-synthwave-grid',
    palette: 'synthwave',
    title: 'Synthwave neon grid running to the horizon',
    tags: ['grid', 'neon', 'synthwave', 'retro', 'magenta', 'pink', 'purple', 'glow', 'dark', 'energetic'],
    niches: ['tech/futurism', 'colors/neon', 'abstract/geometric', 'overlays/vj_loops'],
    look: { family: 'geometric', pattern: 'neon-grid', colors: ['#07000f', '#4a0b7a', '#ff2bd6', '#ffe6fb'] },
  },
  {
    id: 'geometric-cyan-grid',
    palette: 'cyber',
    title: 'Cyan neon grid running to the horizon',
    tags: ['grid', 'neon', 'cyan', 'blue', 'futuristic', 'digital', 'glow', 'dark'],
    niches: ['tech/futurism', 'tech/cyber', 'abstract/geometric', 'overlays/vj_loops'],
    look: { family: 'geometric', pattern: 'neon-grid', colors: ['#00060d', '#063a5a', '#19d3ff', '#e6fbff'] },
  },
  {
    id: 'geometric-sunset-stripes',
    palette: 'sunset',
    title: 'Soft sunset stripes sliding diagonally',
    tags: ['stripes', 'diagonal', 'sliding', 'sunset', 'orange', 'pink', 'purple', 'warm', 'retro'],
    niches: ['abstract/geometric', 'overlays/vj_loops', 'satisfying'],
    look: { family: 'geometric', pattern: 'stripes', colors: ['#1b0b3a', '#e0567a', '#ffc38a'] },
  },
  {
    id: 'geometric-mint-stripes',
    palette: 'mint',
    title: 'Minimal mint stripes sliding diagonally',
    tags: ['stripes', 'diagonal', 'sliding', 'mint', 'green', 'light', 'minimal', 'clean', 'calm'],
    niches: ['abstract/geometric', 'tech/minimal'],
    look: { family: 'geometric', pattern: 'stripes', colors: ['#cfeee2', '#7fcfb6', '#2c8c7a'] },
  },
  {
    id: 'geometric-violet-rings',
    palette: 'neon',
    title: 'Hypnotic violet rings flowing outward',
    tags: ['rings', 'circles', 'hypnotic', 'violet', 'purple', 'blue', 'glow', 'dark', 'pulsing'],
    niches: ['abstract/geometric', 'overlays/vj_loops', 'satisfying', 'spiritual/energy'],
    look: { family: 'geometric', pattern: 'rings', colors: ['#050014', '#3a0ca3', '#7209b7', '#4cc9f0'] },
  },
  {
    id: 'geometric-gold-rings',
    palette: 'gold',
    title: 'Golden rings flowing outward on black',
    tags: ['rings', 'circles', 'hypnotic', 'gold', 'golden', 'black', 'warm', 'elegant'],
    niches: ['abstract/geometric', 'colors/gold'],
    look: { family: 'geometric', pattern: 'rings', colors: [...PALETTES.gold] },
  },
  {
    id: 'geometric-cyan-pulse-grid',
    palette: 'cyber',
    title: 'Cyan tile grid pulsing in waves',
    tags: ['grid', 'tiles', 'squares', 'pulsing', 'waves', 'cyan', 'blue', 'digital', 'dark'],
    niches: ['abstract/geometric', 'tech/abstract', 'overlays/vj_loops'],
    look: {
      family: 'geometric',
      pattern: 'pulse-grid',
      colors: ['#02070d', '#06324a', '#0aa5c8', '#b8f3ff'],
    },
  },
  {
    id: 'geometric-green-pulse-grid',
    palette: 'terminal',
    title: 'Green tile grid pulsing in waves',
    tags: ['grid', 'tiles', 'squares', 'pulsing', 'waves', 'green', 'digital', 'dark', 'code'],
    niches: ['abstract/geometric', 'tech/cyber', 'tech/abstract'],
    look: {
      family: 'geometric',
      pattern: 'pulse-grid',
      colors: ['#010603', '#06361a', '#1fd66a', '#d8ffe6'],
    },
  },
];

const DEFAULT_DURATION_SEC = 8;

/** The recipes a fresh library is seeded with (a new array each call). */
export function seedFootageRecipes(): FootageRecipe[] {
  return ENTRIES.map((e) => ({
    id: e.id,
    family: e.look.family,
    palette: e.palette,
    title: e.title,
    tags: [...e.tags],
    niches: [...e.niches],
    durationSec: e.durationSec ?? DEFAULT_DURATION_SEC,
    crf: DEFAULT_CRF[e.look.family],
    look: structuredClone(e.look),
    licence: OWN_WORK_LICENCE,
  }));
}
