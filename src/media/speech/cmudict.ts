// The CMU pronouncing dictionary that matches the pocketsphinx model, parsed once per process for speech
// alignment and voice timing alike.
import { readFile } from 'node:fs/promises';

/** Lower-case word → its pronunciations, each a list of CMU phones, in dictionary order. */
export type PronunciationDict = ReadonlyMap<string, readonly (readonly string[])[]>;

/** Sphinx format: `word PH ON ES` a line, alternates written `word(2) …`, `;;;` starting a comment line. */
export function parseCmuDict(text: string): Map<string, string[][]> {
  const dict = new Map<string, string[][]>();
  for (const line of text.split('\n')) {
    const parts = line.trim().split(/\s+/);
    const head = parts[0];
    if (!head || parts.length < 2 || head.startsWith(';;;')) continue;
    const word = head.replace(/\(\d+\)$/, '');
    const phones = parts.slice(1);
    const existing = dict.get(word);
    if (existing) existing.push(phones);
    else dict.set(word, [phones]);
  }
  return dict;
}

const cache = new Map<string, Promise<PronunciationDict>>();

/** Loads the dictionary at `path` once per process; later calls share the parsed map. */
export function loadCmuDict(path: string): Promise<PronunciationDict> {
  let loaded = cache.get(path);
  if (!loaded) {
    loaded = readFile(path, 'utf8').then(parseCmuDict);
    // A failed read is not kept, so a later call can try again.
    loaded.catch(() => cache.delete(path));
    cache.set(path, loaded);
  }
  return loaded;
}
