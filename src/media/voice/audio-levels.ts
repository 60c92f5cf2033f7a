// Reads a WAV file into the level track that pause and speech detection work on.
import { readFile } from 'node:fs/promises';
import { parseWav } from './wav-file.ts';
import { levelTrack, type LevelTrack } from './speech-activity.ts';

export async function readLevelTrack(wavPath: string): Promise<LevelTrack & { durationSec: number }> {
  const audio = parseWav(await readFile(wavPath));
  return { ...levelTrack(audio.samples, audio.sampleRate), durationSec: audio.durationSec };
}
