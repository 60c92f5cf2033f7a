// The catalogue of local espeak-ng voices: a few variants per espeak language, with stable ids.
import { execFileSync } from 'node:child_process';
import { parseEspeakVoiceList, type EspeakVoiceEntry, type Gender } from './espeak-voice-list.ts';
import { isoLanguageOf, normalizeLanguageTag } from './language-codes.ts';

export type { Gender } from './espeak-voice-list.ts';

export interface VoiceInfo {
  /** Stable id, e.g. "espeak:en-us:female-1". */
  id: string;
  engine: 'espeak';
  /** ISO 639-1 code ("en", "zh"), or espeak's code for languages that have none. */
  language: string;
  /** espeak dialect, e.g. "en-us", "es-419", "cmn". */
  locale: string;
  name: string;
  gender: Gender;
  /** Value for `espeak-ng -v`. */
  espeakVoice: string;
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

export function buildVoiceCatalogue(
  languages: EspeakVoiceEntry[],
  variants: EspeakVoiceEntry[],
): VoiceCatalogue {
  const variantGender = new Map(variants.map((v) => [v.file.replace(/^!v\//, ''), v.gender]));
  // mbrola voices need the separate mbrola synthesizer and databases, which are not installed.
  const usable = languages.filter((e) => e.code !== 'variant' && !e.file.startsWith('mb/'));
  const keys = dialectKeys(usable);
  const dialects = usable.map((entry, i): Dialect => {
    const locale = keys[i]!;
    const counts: Record<Gender, number> = { female: 0, male: 0 };
    const voices: VoiceInfo[] = [];
    for (const variant of VARIANTS) {
      const gender = variant === null ? (entry.gender ?? 'male') : variantGender.get(variant);
      if (!gender) continue;
      counts[gender] += 1;
      voices.push({
        id: `espeak:${locale}:${gender}-${counts[gender]}`,
        engine: 'espeak',
        language: isoLanguageOf(entry.code),
        locale,
        name: `${entry.name}, ${gender} ${counts[gender]}`,
        gender,
        espeakVoice: variant === null ? entry.file : `${entry.file}+${variant}`,
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

/** Picks the voice for a request: voiceId wins over gender; otherwise the best dialect's first voice. */
export function resolveVoiceIn(catalogue: VoiceCatalogue, request: VoiceRequest): VoiceInfo {
  const dialects = dialectsFor(catalogue, request.language);
  if (dialects.length === 0) {
    throw new VoiceUnavailableError(`No voice speaks language "${request.language}".`, request.language, []);
  }
  const candidates = dialects.flatMap((d) => d.voices);
  const language = dialects[0]!.language;
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

/** Reads espeak-ng's voice lists once per process. */
export function loadVoiceCatalogue(): VoiceCatalogue {
  cached ??= buildVoiceCatalogue(
    parseEspeakVoiceList(execFileSync('espeak-ng', ['--voices'], { encoding: 'utf8' })),
    parseEspeakVoiceList(execFileSync('espeak-ng', ['--voices=variant'], { encoding: 'utf8' })),
  );
  return cached;
}

export function listVoices(): VoiceInfo[] {
  return loadVoiceCatalogue().voices;
}

export function resolveVoice(request: VoiceRequest): VoiceInfo {
  return resolveVoiceIn(loadVoiceCatalogue(), request);
}
