// What GET /resources/transcribe-languages lists and what language_hint accepts: the languages the configured
// recognizer really transcribes, each with word timestamps; diarization works on the audio alone, so it is
// available for every one of them.
import { isLocalRecognizer } from '../../media/speech/create-recognizer.ts';
import type { SpeechRecognizer } from '../../media/speech/recognizer.ts';

export interface TranscribeLanguage {
  code: string;
  name: string;
  word_timestamps: true;
  engine: string;
  diarization: boolean;
}

export interface TranscribeLanguageList {
  engine: string;
  /** Whether the engine detects the language when language_hint is omitted (the local one knows English only). */
  auto_detect: boolean;
  count: number;
  languages: TranscribeLanguage[];
}

const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

function languageName(code: string): string {
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

export function transcribeLanguages(recognizer: SpeechRecognizer): TranscribeLanguageList {
  const languages = recognizer
    .languages()
    .map((code) => ({
      code,
      name: languageName(code),
      word_timestamps: true as const,
      engine: recognizer.id,
      diarization: true,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return {
    engine: recognizer.id,
    auto_detect: !isLocalRecognizer(recognizer),
    count: languages.length,
    languages,
  };
}
