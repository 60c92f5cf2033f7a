import { OpenAiSpeechClient } from '../../providers/openai-speech.ts';
import type { SpeechRecognizer } from '../speech/recognizer.ts';
import { recordedSpeechTimers } from './recorded-speech-timers.ts';
import type { SynthesizedSpeech } from './synthesize.ts';
import { synthesize } from './synthesize.ts';
import {
  dialectsFor,
  listVoices,
  loadVoiceCatalogue,
  resolveVoice,
  VoiceUnavailableError,
  type Gender,
  type VoiceInfo,
} from './voice-catalogue.ts';

type CatalogueVoice = Pick<VoiceInfo, 'id' | 'engine' | 'gender' | 'locale' | 'name' | 'note'>;
const GENDERS: readonly Gender[] = ['female', 'male'];

/** Voice ids of the configured OpenAI-compatible speech service are written `speech:<voice>`. */
export const SPEECH_VOICE_PREFIX = 'speech:';
/** The voices OpenAI's speech API documents; self-hosted compatible servers accept the same names. */
export const SPEECH_SERVICE_VOICES = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'nova',
  'onyx',
  'sage',
  'shimmer',
  'verse',
];

export interface NarrationRequest {
  text: string;
  voiceId?: string;
  gender?: 'female' | 'male';
  language: string;
  speed: number;
  outPath: string;
  signal?: AbortSignal;
}

export interface SpeechServiceSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
}

/**
 * Chooses the engine for a voice id: the local voices (flite and festival for English, espeak-ng for every
 * language; voice-catalogue.ts), or the speech service when one is configured.
 * The service's audio comes without word timings; they come from forced alignment of the script or, failing
 * that, from `recognizer` (the service's timings are never estimated where either can place the words).
 */
export class Narrator {
  private readonly service: OpenAiSpeechClient | undefined;

  constructor(
    settings?: SpeechServiceSettings,
    private readonly recognizer?: SpeechRecognizer,
  ) {
    this.service =
      settings &&
      new OpenAiSpeechClient({ baseURL: settings.baseUrl, apiKey: settings.apiKey, model: settings.model });
  }

  /** Throws VoiceUnavailableError (a 400 for the API) when no engine can speak this request. */
  check(request: Pick<NarrationRequest, 'voiceId' | 'gender' | 'language'>): void {
    if (request.voiceId?.startsWith(SPEECH_VOICE_PREFIX)) {
      const name = request.voiceId.slice(SPEECH_VOICE_PREFIX.length);
      if (!this.service) {
        throw new VoiceUnavailableError(
          `${request.voiceId} needs a speech service (SPEECH_BASE_URL, SPEECH_API_KEY, SPEECH_MODEL)`,
          request.language,
          this.voiceIds(request.language),
        );
      }
      if (!SPEECH_SERVICE_VOICES.includes(name)) {
        throw new VoiceUnavailableError(
          `unknown speech service voice ${name}`,
          request.language,
          this.voiceIds(request.language),
        );
      }
      return;
    }
    resolveVoice({ voiceId: request.voiceId, gender: request.gender, language: request.language });
  }

  async synthesize(request: NarrationRequest): Promise<SynthesizedSpeech> {
    this.check(request);
    if (request.voiceId?.startsWith(SPEECH_VOICE_PREFIX)) {
      return this.service!.synthesize({
        text: request.text,
        voice: request.voiceId.slice(SPEECH_VOICE_PREFIX.length),
        language: request.language,
        speed: request.speed,
        outPath: request.outPath,
        signal: request.signal,
        timers: recordedSpeechTimers(this.recognizer),
      });
    }
    const voice = resolveVoice({
      voiceId: request.voiceId,
      gender: request.gender,
      language: request.language,
    });
    return synthesize({
      text: request.text,
      voice,
      speed: request.speed,
      outPath: request.outPath,
      signal: request.signal,
    });
  }

  private voiceIds(language: string): string[] {
    return [
      ...listVoices()
        .filter((v) => v.language === language)
        .map((v) => v.id),
      ...(this.service ? SPEECH_SERVICE_VOICES.map((v) => SPEECH_VOICE_PREFIX + v) : []),
    ];
  }

  /**
   * The voice catalogue for /capabilities: local voices per language, best first, with the voice each
   * `voice_gender` gets by default; plus the service's voices when one is configured.
   */
  catalogue(): {
    engine: string;
    languages: Record<string, CatalogueVoice[]>;
    defaults: Record<string, Partial<Record<Gender, string>>>;
    service_voices: string[];
  } {
    const catalogue = loadVoiceCatalogue();
    const languages: Record<string, CatalogueVoice[]> = {};
    for (const voice of catalogue.voices)
      (languages[voice.language] ??= []).push({
        id: voice.id,
        engine: voice.engine,
        gender: voice.gender,
        locale: voice.locale,
        name: voice.name,
        note: voice.note,
      });
    const defaults: Record<string, Partial<Record<Gender, string>>> = {};
    for (const [language, voices] of Object.entries(languages)) {
      // Natural voices first, then by the dialects a request for the bare language would choose from.
      const rank = new Map(dialectsFor(catalogue, language).map((d, i) => [d.locale, i]));
      const espeak = (v: CatalogueVoice) => Number(v.engine === 'espeak');
      voices.sort(
        (a, b) =>
          espeak(a) - espeak(b) || (rank.get(a.locale) ?? rank.size) - (rank.get(b.locale) ?? rank.size),
      );
      for (const gender of GENDERS) {
        try {
          (defaults[language] ??= {})[gender] = resolveVoice({ language, gender }).id;
        } catch (error) {
          if (!(error instanceof VoiceUnavailableError)) throw error;
        }
      }
    }
    return {
      engine: 'flite and festival (English), espeak-ng (every language); local',
      languages,
      defaults,
      service_voices: this.service ? SPEECH_SERVICE_VOICES.map((v) => SPEECH_VOICE_PREFIX + v) : [],
    };
  }
}
