import { invalidInputError } from '../../platform/generation/parse-request.ts';
import { SPEECH_VOICE_PREFIX, type Narrator } from '../../media/voice/narrator.ts';
import { listVoices, VoiceUnavailableError } from '../../media/voice/voice-catalogue.ts';

// AI-video voice ids are 6-64 letters, digits, `_` and `-` (spec 1 §4.4), while catalogue ids are written
// `espeak:en-us:female-1` or `speech:nova`: a token names the catalogue voice whose id reads the same with
// every other character written `_` (`espeak_en-us_female-1`, `speech_nova`). Presenter voice ids (§4.5) may
// be either spelling.

export function voiceToken(catalogueId: string): string {
  return catalogueId.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The catalogue voice a token (or a catalogue id written as such) names. */
function catalogueIdOf(token: string): string | undefined {
  if (token.startsWith('speech_')) return SPEECH_VOICE_PREFIX + token.slice('speech_'.length);
  if (token.startsWith(SPEECH_VOICE_PREFIX)) return token;
  return listVoices().find((voice) => voice.id === token || voiceToken(voice.id) === token)?.id;
}

/** The voice fields of a narrated request. */
export interface VoiceFields {
  voice_id?: string;
  voice_gender: 'female' | 'male';
  language?: string;
}

/** The catalogue voice of a narrated request, checked like the stock engine checks it (400 naming the field). */
export function resolveVoiceToken(request: VoiceFields, narrator: Narrator): { voice_id?: string } {
  const language = request.language ?? 'en';
  const voiceId = request.voice_id ? catalogueIdOf(request.voice_id) : undefined;
  const valid = () =>
    listVoices()
      .filter((voice) => voice.language === language)
      .map((voice) => voiceToken(voice.id));
  if (request.voice_id && !voiceId)
    throw invalidInputError([
      {
        field: 'voice_id',
        message: `is not a voice of this service; voices for ${language}: ${valid().slice(0, 12).join(', ')}`,
        valid_values: valid(),
      },
    ]);
  try {
    narrator.check({ voiceId, gender: request.voice_gender, language });
  } catch (error) {
    if (!(error instanceof VoiceUnavailableError)) throw error;
    throw invalidInputError([
      { field: request.voice_id ? 'voice_id' : 'language', message: `cannot be narrated: ${error.message}` },
    ]);
  }
  return voiceId ? { voice_id: voiceId } : {};
}
