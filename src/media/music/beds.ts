// The catalogue of instrumental beds: two per mood, each a chord progression arranged for General MIDI
// instruments, with the clip_type folders it suits.

import { OWN_WORK_LICENCE } from '../provenance/licences.ts';
import type { BedArrangement, Mood } from './arrangement.ts';

export interface MusicBedRecipe {
  id: string;
  title: string;
  mood: Mood;
  bpm: number;
  /** Top-level clip_type folders (see musicFolderFor) this bed suits. */
  folders: string[];
  arrangement: BedArrangement;
  /** The licence the bed is given (provenance manifests carry it, with the soundfont's). */
  licence: string;
}

// General MIDI programs (0-based) the catalogue uses.
const PIANO = 0;
const RHODES = 4;
const EPIANO_2 = 5;
const CELESTA = 8;
const GLOCKENSPIEL = 9;
const MUSIC_BOX = 10;
const VIBRAPHONE = 11;
const NYLON_GUITAR = 24;
const STEEL_GUITAR = 25;
const MUTED_GUITAR = 28;
const ACOUSTIC_BASS = 32;
const FINGERED_BASS = 33;
const FRETLESS_BASS = 35;
const SYNTH_BASS_1 = 38;
const SYNTH_BASS_2 = 39;
const HARP = 46;
const STRINGS = 48;
const SLOW_STRINGS = 49;
const SYNTH_STRINGS = 50;
const CHOIR = 52;
const SQUARE_LEAD = 80;
const SAW_LEAD = 81;
const NEW_AGE_PAD = 88;
const WARM_PAD = 89;
const POLYSYNTH = 90;
const BOWED_PAD = 92;
const HALO_PAD = 94;
// Drum kits (bank 128).
const STANDARD_KIT = 0;
const ROOM_KIT = 8;
const ELECTRONIC_KIT = 24;
const TR808_KIT = 25;

const BEDS: Omit<MusicBedRecipe, 'licence'>[] = [
  {
    id: 'calm-still-water',
    title: 'Still Water',
    mood: 'calm',
    bpm: 64,
    folders: ['relaxing', 'soothing', 'spiritual', 'nature', 'satisfying', 'wood_works', 'health'],
    arrangement: {
      chords: ['Cmaj7', 'Am7', 'Fmaj7', 'Gsus4'],
      barsPerChord: 2,
      pads: [{ program: WARM_PAD, low: 55, velocity: 70 }],
      keys: { program: PIANO, low: 60, velocity: 58, pattern: 'broken' },
      bass: { program: ACOUSTIC_BASS, low: 36, velocity: 70, pattern: 'sustain' },
      bell: { program: VIBRAPHONE, low: 72, velocity: 52 },
      room: 0.6,
    },
  },
  {
    id: 'calm-morning-light',
    title: 'Morning Light',
    mood: 'calm',
    bpm: 75,
    folders: ['relaxing', 'soothing', 'nature', 'health', 'spiritual', 'satisfying'],
    arrangement: {
      chords: ['Dadd9', 'Bm7', 'Gmaj7', 'A'],
      barsPerChord: 2,
      pads: [{ program: STRINGS, low: 57, velocity: 62 }],
      keys: { program: NYLON_GUITAR, low: 57, velocity: 72, pattern: 'arp8' },
      bass: { program: FINGERED_BASS, low: 38, velocity: 72, pattern: 'sustain' },
      bell: { program: HARP, low: 74, velocity: 60 },
      room: 0.5,
    },
  },
  {
    id: 'uplifting-open-road',
    title: 'Open Road',
    mood: 'uplifting',
    bpm: 100,
    folders: [
      'motivational',
      'mindset',
      'travel',
      'health',
      'food',
      'places',
      'events',
      'useful_hacks',
      'urban',
    ],
    arrangement: {
      chords: ['G', 'D', 'Em', 'C'],
      barsPerChord: 1,
      pads: [{ program: STRINGS, low: 55, velocity: 56 }],
      keys: { program: STEEL_GUITAR, low: 55, velocity: 78, pattern: 'strum' },
      bass: { program: FINGERED_BASS, low: 36, velocity: 84, pattern: 'rootFifth' },
      bell: { program: GLOCKENSPIEL, low: 79, velocity: 50 },
      drums: { kit: STANDARD_KIT, pattern: 'pop' },
      room: 0.35,
    },
  },
  {
    id: 'uplifting-bright-horizon',
    title: 'Bright Horizon',
    mood: 'uplifting',
    bpm: 96,
    folders: ['motivational', 'mindset', 'travel', 'food', 'places', 'events', 'useful_hacks', 'business'],
    arrangement: {
      chords: ['F', 'C', 'Dm', 'Bb'],
      barsPerChord: 1,
      pads: [
        { program: WARM_PAD, low: 53, velocity: 60 },
        { program: STRINGS, low: 65, velocity: 48 },
      ],
      keys: { program: PIANO, low: 65, velocity: 70, pattern: 'arp8' },
      bass: { program: FINGERED_BASS, low: 36, velocity: 84, pattern: 'eighths' },
      bell: { program: GLOCKENSPIEL, low: 77, velocity: 48 },
      drums: { kit: STANDARD_KIT, pattern: 'pop' },
      room: 0.35,
    },
  },
  {
    id: 'energetic-drive',
    title: 'Drive',
    mood: 'energetic',
    bpm: 120,
    folders: [
      'gym',
      'automotive',
      'urban',
      'tech',
      'overlays',
      'colors',
      'finance',
      'travel',
      'mindset',
      'places',
    ],
    arrangement: {
      chords: ['Am', 'F', 'C', 'G'],
      barsPerChord: 1,
      pads: [{ program: POLYSYNTH, low: 57, velocity: 66 }],
      keys: { program: SAW_LEAD, low: 69, velocity: 54, pattern: 'arp16' },
      bass: { program: SYNTH_BASS_1, low: 33, velocity: 92, pattern: 'eighths' },
      drums: { kit: ELECTRONIC_KIT, pattern: 'four' },
      room: 0.3,
    },
  },
  {
    id: 'energetic-pulse-runner',
    title: 'Pulse Runner',
    mood: 'energetic',
    bpm: 128,
    folders: ['gym', 'automotive', 'urban', 'health', 'business', 'overlays', 'colors', 'travel', 'mindset'],
    arrangement: {
      chords: ['Em', 'C', 'G', 'D'],
      barsPerChord: 2,
      pads: [{ program: SYNTH_STRINGS, low: 52, velocity: 64 }],
      keys: { program: SQUARE_LEAD, low: 64, velocity: 50, pattern: 'arp8' },
      bass: { program: SYNTH_BASS_2, low: 28, velocity: 94, pattern: 'eighths' },
      drums: { kit: TR808_KIT, pattern: 'four' },
      room: 0.3,
    },
  },
  {
    id: 'corporate-clear-plan',
    title: 'Clear Plan',
    mood: 'corporate',
    bpm: 100,
    folders: ['business', 'finance', 'tech', 'ecommerce', 'realestate', 'tools', 'premium', 'urban'],
    arrangement: {
      chords: ['Cadd9', 'G', 'Am7', 'Fmaj7'],
      barsPerChord: 1,
      pads: [{ program: STRINGS, low: 55, velocity: 52 }],
      keys: { program: PIANO, low: 60, velocity: 70, pattern: 'arp8' },
      bass: { program: FINGERED_BASS, low: 36, velocity: 80, pattern: 'roots' },
      bell: { program: VIBRAPHONE, low: 72, velocity: 50 },
      drums: { kit: ROOM_KIT, pattern: 'light' },
      room: 0.35,
    },
  },
  {
    id: 'corporate-steady-growth',
    title: 'Steady Growth',
    mood: 'corporate',
    bpm: 96,
    folders: ['business', 'finance', 'tech', 'ecommerce', 'realestate', 'tools'],
    arrangement: {
      chords: ['Bb', 'F', 'Gm7', 'Eb'],
      barsPerChord: 1,
      pads: [{ program: WARM_PAD, low: 53, velocity: 60 }],
      keys: { program: MUTED_GUITAR, low: 58, velocity: 76, pattern: 'arp16' },
      bass: { program: FINGERED_BASS, low: 34, velocity: 80, pattern: 'sustain' },
      bell: { program: RHODES, low: 70, velocity: 56 },
      drums: { kit: ROOM_KIT, pattern: 'light' },
      room: 0.35,
    },
  },
  {
    id: 'dark-night-shift',
    title: 'Night Shift',
    mood: 'dark',
    bpm: 75,
    folders: ['spiritual', 'mindset', 'events', 'colors', 'tech', 'urban'],
    arrangement: {
      chords: ['Dm', 'Bb', 'Gm', 'A'],
      barsPerChord: 2,
      pads: [
        { program: BOWED_PAD, low: 50, velocity: 66 },
        { program: SLOW_STRINGS, low: 50, velocity: 54 },
      ],
      keys: { program: PIANO, low: 50, velocity: 60, pattern: 'broken' },
      bass: { program: SYNTH_BASS_2, low: 26, velocity: 84, pattern: 'sustain' },
      bell: { program: CELESTA, low: 74, velocity: 50 },
      drums: { kit: STANDARD_KIT, pattern: 'halftime' },
      room: 0.55,
    },
  },
  {
    id: 'dark-low-ember',
    title: 'Low Ember',
    mood: 'dark',
    bpm: 64,
    folders: ['spiritual', 'mindset', 'events', 'colors', 'Space'],
    arrangement: {
      chords: ['Em', 'Cmaj7', 'Am', 'B7'],
      barsPerChord: 2,
      pads: [{ program: HALO_PAD, low: 52, velocity: 70 }],
      keys: { program: RHODES, low: 52, velocity: 58, pattern: 'arp8' },
      bass: { program: FRETLESS_BASS, low: 28, velocity: 78, pattern: 'sustain' },
      room: 0.6,
    },
  },
  {
    id: 'dreamy-cloud-drift',
    title: 'Cloud Drift',
    mood: 'dreamy',
    bpm: 72,
    folders: [
      'luxury',
      'luxury_woman',
      'abstract',
      'Space',
      'art',
      'overlays',
      'colors',
      'spiritual',
      'nature',
      'realestate',
    ],
    arrangement: {
      chords: ['Ebmaj7', 'Cm7', 'Abmaj7', 'Bbsus4'],
      barsPerChord: 2,
      pads: [{ program: NEW_AGE_PAD, low: 55, velocity: 64 }],
      keys: { program: EPIANO_2, low: 63, velocity: 60, pattern: 'arp8' },
      bass: { program: FRETLESS_BASS, low: 31, velocity: 74, pattern: 'sustain' },
      bell: { program: MUSIC_BOX, low: 79, velocity: 50 },
      room: 0.7,
    },
  },
  {
    id: 'dreamy-soft-focus',
    title: 'Soft Focus',
    mood: 'dreamy',
    bpm: 80,
    folders: ['luxury', 'luxury_woman', 'abstract', 'Space', 'art', 'premium', 'overlays', 'colors'],
    arrangement: {
      chords: ['Fmaj7', 'Em7', 'Dm7', 'Cmaj7'],
      barsPerChord: 2,
      pads: [
        { program: HALO_PAD, low: 53, velocity: 62 },
        { program: CHOIR, low: 65, velocity: 46 },
      ],
      keys: { program: VIBRAPHONE, low: 65, velocity: 58, pattern: 'broken' },
      bass: { program: ACOUSTIC_BASS, low: 29, velocity: 70, pattern: 'sustain' },
      bell: { program: CELESTA, low: 77, velocity: 48 },
      room: 0.7,
    },
  },
];

/** The beds a fresh library is seeded with (a new array each call). */
export function seedMusicRecipes(): MusicBedRecipe[] {
  return structuredClone(BEDS).map((bed) => ({ ...bed, licence: OWN_WORK_LICENCE }));
}
