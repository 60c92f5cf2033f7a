// The one place that chooses the speech recognizer: the configured OpenAI-compatible transcription service
// (TRANSCRIBE_BASE_URL), else the local pocketsphinx recognizer (English).
import type { Config } from '../../platform/config.ts';
import { OpenAiTranscriber } from '../../providers/openai-transcription.ts';
import { PocketsphinxRecognizer } from './pocketsphinx-recognizer.ts';
import type { SpeechRecognizer } from './recognizer.ts';

export function createRecognizer(config: Pick<Config, 'transcription'>): SpeechRecognizer {
  const service = config.transcription;
  if (service) {
    return new OpenAiTranscriber({ baseURL: service.baseUrl, apiKey: service.apiKey, model: service.model });
  }
  return new PocketsphinxRecognizer();
}

/** Whether the recognizer runs on this machine (its speed, and what it can detect, differ from a service's). */
export function isLocalRecognizer(recognizer: SpeechRecognizer): boolean {
  return recognizer instanceof PocketsphinxRecognizer;
}
