import { test } from 'node:test';
import assert from 'node:assert/strict';
import { installedNaturalVoices, NATURAL_ENGLISH_VOICES } from './english-voices.ts';
import { parseEspeakVoiceList } from './espeak-voice-list.ts';
import {
  buildVoiceCatalogue,
  dialectsFor,
  listVoices,
  resolveVoice,
  resolveVoiceIn,
  VoiceUnavailableError,
} from './voice-catalogue.ts';

const LANGUAGES = parseEspeakVoiceList(`Pty Language Age/Gender VoiceName File Other Languages
 5  cmn             --/M      Chinese_(Mandarin) sit/cmn              (zh-cmn 5)(zh 5)
 2  en-gb           --/M      English_(Great_Britain) gmw/en               (en 2)
 2  en-us           --/M      English_(America)  gmw/en-US            (en 3)
 5  es              --/M      Spanish_(Spain)    roa/es
 5  es-419          --/M      Spanish_(Latin_America) roa/es-419           (es-mx 6)(es 6)
 5  en-us           --/F      us-mbrola-1        mb/mb-us1            (en 8)
 5  yue             --/M      Chinese_(Cantonese) sit/yue              (zh-yue 5)(zh 8)
 5  yue             --/M      Chinese_(Cantonese,_Jyutping) sit/yue-Latn-jyutping (zh-yue 5)(zh 8)
`);
const VARIANTS = parseEspeakVoiceList(`Pty Language Age/Gender VoiceName File Other Languages
 5  variant         --/F      female3            !v/f3
 5  variant         --/M      male3              !v/m3
 5  variant         --/F      female4            !v/f4
 5  variant         --/M      klatt              !v/klatt
`);
const catalogue = buildVoiceCatalogue(LANGUAGES, VARIANTS);

void test('every espeak language gets its own voice and four variants, with genders from the variant list', () => {
  assert.deepEqual(
    catalogue.voices.filter((v) => v.locale === 'en-us'),
    [
      ['male-1', 'male', 'gmw/en-US'],
      ['female-1', 'female', 'gmw/en-US+f3'],
      ['male-2', 'male', 'gmw/en-US+m3'],
      ['female-2', 'female', 'gmw/en-US+f4'],
      ['male-3', 'male', 'gmw/en-US+klatt'],
    ].map(([slot, gender, espeakVoice], i) => ({
      id: `espeak:en-us:${slot}`,
      engine: 'espeak',
      language: 'en',
      locale: 'en-us',
      name: `English (America), ${gender} ${[1, 1, 2, 2, 3][i]}`,
      gender,
      engineVoice: espeakVoice,
      espeakVoice,
      note: slot === 'male-3' ? 'espeak-ng Klatt synthesis: the most robotic' : catalogue.voices[0]!.note,
    })),
  );
});

void test('natural voices lead their dialect, keep espeak ids as they were, and take the dialect for phonemes', () => {
  const natural = buildVoiceCatalogue(
    LANGUAGES,
    VARIANTS,
    installedNaturalVoices({ flite: ['rms', 'slt', 'awb', 'kal'], festival: ['cmu_us_slt_arctic_hts'] }),
  );
  const enUs = natural.voices.filter((v) => v.locale === 'en-us');
  assert.deepEqual(
    enUs.map((v) => `${v.id} ${v.engine} ${v.engineVoice} ${v.espeakVoice}`),
    [
      'flite:rms flite rms gmw/en-US',
      'festival:slt-hts festival cmu_us_slt_arctic_hts gmw/en-US',
      'flite:slt flite slt gmw/en-US',
      ...catalogue.voices
        .filter((v) => v.locale === 'en-us')
        .map((v) => `${v.id} espeak ${v.espeakVoice} ${v.espeakVoice}`),
    ],
  );
  // awb speaks Scottish English, a dialect this espeak list lacks; kal16 is not installed.
  assert.ok(!natural.voices.some((v) => v.id === 'flite:awb' || v.id === 'flite:kal16'));
  assert.ok(enUs.every((v) => v.language === 'en' && v.note.length > 0));

  const cases: [Parameters<typeof resolveVoiceIn>[1], string][] = [
    [{ language: 'en' }, 'flite:rms'],
    [{ language: 'en', gender: 'male' }, 'flite:rms'],
    [{ language: 'en-US', gender: 'female' }, 'festival:slt-hts'],
    [{ language: 'en', gender: 'male', voiceId: 'espeak:en-us:male-2' }, 'espeak:en-us:male-2'],
    [{ language: 'en-gb', gender: 'female' }, 'festival:slt-hts'],
    [{ language: 'en-gb', voiceId: 'espeak:en-gb:female-1' }, 'espeak:en-gb:female-1'],
    [{ language: 'en-gb', voiceId: 'flite:slt' }, 'flite:slt'],
    [{ language: 'es', gender: 'female' }, 'espeak:es:female-1'],
  ];
  for (const [request, id] of cases)
    assert.equal(resolveVoiceIn(natural, request).id, id, JSON.stringify(request));
  assert.throws(() => resolveVoiceIn(natural, { language: 'es', voiceId: 'flite:rms' }), /speaks "en"/);
});

void test('the natural voice table: unique ids, a male and a female English voice first in their gender', () => {
  const ids = NATURAL_ENGLISH_VOICES.map((v) => v.id);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(NATURAL_ENGLISH_VOICES.find((v) => v.gender === 'male')!.id, 'flite:rms');
  assert.equal(NATURAL_ENGLISH_VOICES.find((v) => v.gender === 'female')!.id, 'festival:slt-hts');
});

void test('mbrola voices are left out and voices sharing a code are told apart by their file', () => {
  assert.ok(!catalogue.voices.some((v) => v.espeakVoice.startsWith('mb/')));
  assert.deepEqual(
    [...new Set(catalogue.voices.filter((v) => v.language === 'zh').map((v) => v.locale))],
    ['cmn', 'yue', 'yue-latn-jyutping'],
  );
  const ids = catalogue.voices.map((v) => v.id);
  assert.equal(new Set(ids).size, ids.length);
});

void test('dialects are chosen by exact code, then alias, then ISO language', () => {
  const cases: [string, string[]][] = [
    ['en', ['en-us', 'en-gb']],
    ['EN_GB', ['en-gb']],
    ['en-AU', ['en-us', 'en-gb']],
    ['es', ['es']],
    ['es-MX', ['es-419']],
    ['zh', ['cmn', 'yue', 'yue-latn-jyutping']],
    ['zh-CN', ['cmn', 'yue', 'yue-latn-jyutping']],
    ['fr', []],
  ];
  for (const [language, locales] of cases) {
    assert.deepEqual(
      dialectsFor(catalogue, language).map((d) => d.locale),
      locales,
      language,
    );
  }
});

void test('resolveVoiceIn: voice id wins over gender, gender picks the best dialect, default is its first voice', () => {
  const cases: [Parameters<typeof resolveVoiceIn>[1], string][] = [
    [{ language: 'en' }, 'espeak:en-us:male-1'],
    [{ language: 'en', gender: 'female' }, 'espeak:en-us:female-1'],
    [{ language: 'en', gender: 'female', voiceId: 'espeak:en-gb:male-2' }, 'espeak:en-gb:male-2'],
    [{ language: 'es-mx', gender: 'female' }, 'espeak:es-419:female-1'],
    [{ language: 'zh', gender: 'male' }, 'espeak:cmn:male-1'],
  ];
  for (const [request, id] of cases)
    assert.equal(resolveVoiceIn(catalogue, request).id, id, JSON.stringify(request));
});

void test('an unknown voice id is refused with the ids that are valid for the language', () => {
  assert.throws(
    () => resolveVoiceIn(catalogue, { language: 'es', voiceId: 'espeak:es:robot-9' }),
    (error: unknown) =>
      error instanceof VoiceUnavailableError &&
      error.code === 'VOICE_UNAVAILABLE' &&
      error.message.includes('Unknown voice "espeak:es:robot-9"') &&
      error.message.includes('espeak:es:female-1') &&
      error.validVoiceIds.length === 10 &&
      error.validVoiceIds.every((id) => id.startsWith('espeak:es')),
  );
});

void test('a voice of another language is refused', () => {
  assert.throws(
    () => resolveVoiceIn(catalogue, { language: 'en', voiceId: 'espeak:es:male-1' }),
    (error: unknown) => error instanceof VoiceUnavailableError && /speaks "es", not "en"/.test(error.message),
  );
});

void test('a language without any voice is refused with no valid ids', () => {
  assert.throws(
    () => resolveVoiceIn(catalogue, { language: 'fr', gender: 'female' }),
    (error: unknown) =>
      error instanceof VoiceUnavailableError &&
      error.message === 'No voice speaks language "fr".' &&
      error.validVoiceIds.length === 0,
  );
});

void test('the installed engines give male and female voices for the main languages; English ones are natural', () => {
  const voices = listVoices();
  assert.equal(new Set(voices.map((v) => v.id)).size, voices.length);
  for (const language of ['en', 'es', 'fr', 'de', 'pt', 'zh', 'it', 'ja', 'ru', 'hi']) {
    assert.equal(resolveVoice({ language, gender: 'female' }).gender, 'female', language);
    assert.equal(resolveVoice({ language, gender: 'male' }).gender, 'male', language);
  }
  assert.equal(resolveVoice({ language: 'en' }).id, 'flite:rms');
  assert.equal(resolveVoice({ language: 'en', gender: 'female' }).id, 'festival:slt-hts');
  assert.equal(resolveVoice({ language: 'en', voiceId: 'espeak:en-us:male-1' }).engine, 'espeak');
  for (const id of ['flite:slt', 'flite:kal16', 'flite:awb'])
    assert.equal(resolveVoice({ language: 'en', voiceId: id }).id, id);
  assert.equal(resolveVoice({ language: 'de', gender: 'female' }).engine, 'espeak');
  assert.equal(resolveVoice({ language: 'zh' }).locale, 'cmn');
  assert.throws(() => resolveVoice({ language: 'tlh' }), VoiceUnavailableError);
  assert.throws(
    () => resolveVoice({ language: 'en', voiceId: 'espeak:en-us:female-9' }),
    VoiceUnavailableError,
  );
});
