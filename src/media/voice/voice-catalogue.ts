// The catalogue of local voices, with stable ids: a few espeak-ng variants per espeak language, and ahead of
// them in their dialect the natural English voices of flite and festival (english-voices.ts).
import { execFileSync } from 'node:child_process';
import { parseEspeakVoiceList, type EspeakVoiceEntry, type Gender } from './espeak-voice-list.ts';
import { installedNaturalVoices, type NaturalEngine, type NaturalVoice } from './english-voices.ts';
import { FESTIVAL_LIST_VOICES_ARGS, parseFestivalVoiceList } from './festival-args.ts';
import { FLITE_LIST_VOICES_ARGS, parseFliteVoiceList } from './flite-args.ts';
import { isoLanguageOf, normalizeLanguageTag } from './language-codes.ts';

export type { Gender } from './espeak-voice-list.ts';

export type VoiceEngine = 'espeak' | NaturalEngine;

export interface VoiceInfo {
  /** Stable id, e.g. "espeak:en-us:female-1", "flite:rms". */
  id: string;
  engine: VoiceEngine;
  /** ISO 639-1 code ("en", "zh"), or espeak's code for languages that have none. */
  language: string;
  /** espeak dialect, e.g. "en-us", "es-419", "cmn". */
  locale: string;
  name: string;
  gender: Gender;
  /** The engine's name for the voice: `espeak-ng -v`, flite's `-voice`, festival's `voice_<name>`. */
  engineVoice: string;
  /**
   * The espeak-ng voice that speaks like this one: itself for espeak voices, its dialect's for the others.
   * Its phonemes help place the words in the audio.
   */
  espeakVoice: string;
  /** How it sounds, to choose by. */
  note: string;
}

interface Dialect {
  locale: string;
  language: string;
  priority: number;
  aliases: { code: string; priority: number }[];
  voices: VoiceInfo[];
}

export interface VoiceCatalogue {
  voices: VoiceInfo[];
  dialects: Dialect[];
}

export interface VoiceRequest {
  voiceId?: string;
  gender?: Gender;
  language: string;
}

export class VoiceUnavailableError extends Error {
  readonly code = 'VOICE_UNAVAILABLE';
  constructor(
    message: string,
    readonly language: string,
    /** Ids that would have been accepted for this language (empty when no voice speaks it). */
    readonly validVoiceIds: string[],
  ) {
    super(message);
    this.name = 'VoiceUnavailableError';
  }
}

// Variants applied to every espeak language, in catalogue order; null is espeak's own voice.
const VARIANTS: readonly (string | null)[] = [null, 'f3', 'm3', 'f4', 'klatt'];
const ESPEAK_NOTE =
  'espeak-ng formant synthesis: robotic, and the voice of every language without a natural one';
const KLATT_NOTE = 'espeak-ng Klatt synthesis: the most robotic';

// Dialect preferred over espeak's own choice: US English matches the en-us pocketsphinx model used for alignment.
const PREFERRED_DIALECT: Record<string, string> = { en: 'en-us' };

function dialectKeys(entries: EspeakVoiceEntry[]): string[] {
  const seen = new Map<string, number>();
  for (const e of entries) seen.set(e.code, (seen.get(e.code) ?? 0) + 1);
  // Two voices can share a code (Cantonese and Cantonese-Jyutping are both "yue"); their files differ.
  return entries.map((e) =>
    (seen.get(e.code) ?? 0) > 1 ? (e.file.split('/').pop() ?? e.file).toLowerCase() : e.code,
  );
}

/**
 * espeak's languages, each with its own voice and the variants; `natural` voices come first in the dialect
 * they speak (one espeak lacks has no natural voices either: nothing could place their words as well).
 */
export function buildVoiceCatalogue(
  languages: EspeakVoiceEntry[],
  variants: EspeakVoiceEntry[],
  natural: readonly NaturalVoice[] = [],
): VoiceCatalogue {
  const variantGender = new Map(variants.map((v) => [v.file.replace(/^!v\//, ''), v.gender]));
  // mbrola voices need the separate mbrola synthesizer and databases, which are not installed.
  const usable = languages.filter((e) => e.code !== 'variant' && !e.file.startsWith('mb/'));
  const keys = dialectKeys(usable);
  const dialects = usable.map((entry, i): Dialect => {
    const locale = keys[i]!;
    const counts: Record<Gender, number> = { female: 0, male: 0 };
    const voices: VoiceInfo[] = natural
      .filter((v) => v.locale === locale)
      .map((v) => ({
        id: v.id,
        engine: v.engine,
        language: isoLanguageOf(entry.code),
        locale,
        name: v.name,
        gender: v.gender,
        engineVoice: v.engineVoice,
        espeakVoice: entry.file,
        note: v.note,
      }));
    for (const variant of VARIANTS) {
      const gender = variant === null ? (entry.gender ?? 'male') : variantGender.get(variant);
      if (!gender) continue;
      counts[gender] += 1;
      const espeakVoice = variant === null ? entry.file : `${entry.file}+${variant}`;
      voices.push({
        id: `espeak:${locale}:${gender}-${counts[gender]}`,
        engine: 'espeak',
        language: isoLanguageOf(entry.code),
        locale,
        name: `${entry.name}, ${gender} ${counts[gender]}`,
        gender,
        engineVoice: espeakVoice,
        espeakVoice,
        note: variant === 'klatt' ? KLATT_NOTE : ESPEAK_NOTE,
      });
    }
    return {
      locale,
      language: isoLanguageOf(entry.code),
      priority: entry.priority,
      aliases: entry.aliases,
      voices,
    };
  });
  return { voices: dialects.flatMap((d) => d.voices), dialects };
}

function aliasPriority(d: Dialect, code: string): number {
  return d.aliases.find((a) => a.code === code)?.priority ?? Number.POSITIVE_INFINITY;
}

/** Dialects that speak `language`, best first. */
export function dialectsFor(catalogue: VoiceCatalogue, language: string): Dialect[] {
  const tag = normalizeLanguageTag(language);
  const exact = catalogue.dialects.filter((d) => d.locale === tag);
  if (exact.length > 0) return exact;
  const rank = (code: string) => (a: Dialect, b: Dialect) =>
    Number(b.locale === PREFERRED_DIALECT[code]) - Number(a.locale === PREFERRED_DIALECT[code]) ||
    aliasPriority(a, code) - aliasPriority(b, code) ||
    a.priority - b.priority;
  const aliased = catalogue.dialects.filter((d) => d.aliases.some((a) => a.code === tag)).sort(rank(tag));
  if (aliased.length > 0) return aliased;
  const iso = isoLanguageOf(tag);
  return catalogue.dialects.filter((d) => d.language === iso).sort(rank(iso));
}

/**
 * Picks the voice for a request: voiceId wins over gender; otherwise the first voice of that gender (or the
 * first voice) among the language's natural voices, then the espeak voices of its best dialect.
 */
export function resolveVoiceIn(catalogue: VoiceCatalogue, request: VoiceRequest): VoiceInfo {
  const dialects = dialectsFor(catalogue, request.language);
  if (dialects.length === 0) {
    throw new VoiceUnavailableError(`No voice speaks language "${request.language}".`, request.language, []);
  }
  const language = dialects[0]!.language;
  const inDialects = dialects.flatMap((d) => d.voices);
  // A natural voice of the language beats espeak-ng in any of its dialects: those of the asked dialect first.
  const natural = (v: VoiceInfo) => v.engine !== 'espeak';
  const candidates = [
    ...inDialects.filter(natural),
    ...catalogue.voices.filter((v) => v.language === language && natural(v) && !inDialects.includes(v)),
    ...inDialects.filter((v) => !natural(v)),
  ];
  // Any dialect of the language is accepted by id; the matching dialects are listed first.
  const validIds = [
    ...new Set([...candidates, ...catalogue.voices.filter((v) => v.language === language)].map((v) => v.id)),
  ];
  if (request.voiceId !== undefined) {
    const voice = catalogue.voices.find((v) => v.id === request.voiceId);
    if (voice && voice.language === language) return voice;
    const problem = voice
      ? `Voice "${request.voiceId}" speaks "${voice.language}", not "${request.language}".`
      : `Unknown voice "${request.voiceId}".`;
    throw new VoiceUnavailableError(
      `${problem} Valid voices for "${request.language}": ${validIds.join(', ')}.`,
      request.language,
      validIds,
    );
  }
  const voice = request.gender ? candidates.find((v) => v.gender === request.gender) : candidates[0];
  if (!voice) {
    throw new VoiceUnavailableError(
      `No ${request.gender} voice speaks "${request.language}". Valid voices: ${validIds.join(', ')}.`,
      request.language,
      validIds,
    );
  }
  return voice;
}

let cached: VoiceCatalogue | undefined;

/** What an engine lists; an engine that is not installed has no voices (English then falls back to espeak). */
function listedBy(command: string, args: string[], parse: (text: string) => string[]): string[] {
  try {
    return parse(execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Reads the engines' voice lists once per process. */
export function loadVoiceCatalogue(): VoiceCatalogue {
  cached ??= buildVoiceCatalogue(
    parseEspeakVoiceList(execFileSync('espeak-ng', ['--voices'], { encoding: 'utf8' })),
    parseEspeakVoiceList(execFileSync('espeak-ng', ['--voices=variant'], { encoding: 'utf8' })),
    installedNaturalVoices({
      flite: listedBy('flite', FLITE_LIST_VOICES_ARGS, parseFliteVoiceList),
      festival: listedBy('festival', FESTIVAL_LIST_VOICES_ARGS, parseFestivalVoiceList),
    }),
  );
  return cached;
}

export function listVoices(): VoiceInfo[] {
  return loadVoiceCatalogue().voices;
}

export function resolveVoice(request: VoiceRequest): VoiceInfo {
  return resolveVoiceIn(loadVoiceCatalogue(), request);
}
