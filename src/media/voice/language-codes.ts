// Maps espeak-ng language codes and user-supplied language tags onto ISO 639-1 where one exists.

// espeak codes whose primary subtag is not the ISO 639-1 code of the language.
const ISO_639_1: Record<string, string> = {
  cmn: 'zh',
  yue: 'zh',
  hak: 'zh',
  hyw: 'hy',
};

/** "EN_us" → "en-us". */
export function normalizeLanguageTag(tag: string): string {
  return tag.trim().toLowerCase().replaceAll('_', '-');
}

/** ISO 639-1 code of an espeak language code ("en-gb-scotland" → "en", "cmn" → "zh"); codes without one stay as they are. */
export function isoLanguageOf(code: string): string {
  const primary = normalizeLanguageTag(code).split('-')[0] ?? '';
  return ISO_639_1[primary] ?? primary;
}
