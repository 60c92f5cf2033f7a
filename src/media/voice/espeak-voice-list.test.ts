import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEspeakVoiceList } from './espeak-voice-list.ts';

const LISTING = `Pty Language       Age/Gender VoiceName          File                 Other Languages
 5  cmn             --/M      Chinese_(Mandarin,_latin_as_English) sit/cmn              (zh-cmn 5)(zh 5)
 2  en-us           --/M      English_(America)  gmw/en-US            (en 3)
 5  en-us-nyc       --/M      English_(America,_New_York_City) gmw/en-US-nyc
 5  variant         --/F      female3            !v/f3
 5  variant         70/M      male1              !v/m1
`;

void test('parses every row of an espeak-ng --voices listing', () => {
  assert.deepEqual(parseEspeakVoiceList(LISTING), [
    {
      priority: 5,
      code: 'cmn',
      gender: 'male',
      name: 'Chinese (Mandarin, latin as English)',
      file: 'sit/cmn',
      aliases: [
        { code: 'zh-cmn', priority: 5 },
        { code: 'zh', priority: 5 },
      ],
    },
    {
      priority: 2,
      code: 'en-us',
      gender: 'male',
      name: 'English (America)',
      file: 'gmw/en-US',
      aliases: [{ code: 'en', priority: 3 }],
    },
    {
      priority: 5,
      code: 'en-us-nyc',
      gender: 'male',
      name: 'English (America, New York City)',
      file: 'gmw/en-US-nyc',
      aliases: [],
    },
    { priority: 5, code: 'variant', gender: 'female', name: 'female3', file: '!v/f3', aliases: [] },
    { priority: 5, code: 'variant', gender: 'male', name: 'male1', file: '!v/m1', aliases: [] },
  ]);
});

void test('ignores the header and blank lines', () => {
  assert.deepEqual(parseEspeakVoiceList('Pty Language Age/Gender VoiceName File Other Languages\n\n'), []);
});
