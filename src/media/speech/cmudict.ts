// The CMU pronouncing dictionary that matches the pocketsphinx model, parsed once per process for speech
// alignment and voice timing alike.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/**
 * Lower-case word → its pronunciations, each a list of CMU phones, in dictionary order. Only the reads the
 * callers make, so a plain Map of arrays (e.g. an empty one) serves as well as the packed dictionary.
 */
export interface PronunciationDict {
  readonly size: number;
  has(word: string): boolean;
  get(word: string): readonly (readonly string[])[] | undefined;
}

const PHONE = ' ';
const VARIANT = '\n';

/**
 * The 126k-word dictionary held as one packed string a word: a Map of phone arrays took 39 MB of heap, this
 * takes 11 MB. A word's arrays are rebuilt on each `get`, which only runs a few times per script word.
 */
class PackedPronunciationDict implements PronunciationDict {
  readonly #packed: ReadonlyMap<string, string>;

  constructor(packed: ReadonlyMap<string, string>) {
    this.#packed = packed;
  }

  get size(): number {
    return this.#packed.size;
  }

  has(word: string): boolean {
    return this.#packed.has(word);
  }

  get(word: string): string[][] | undefined {
    return this.#packed
      .get(word)
      ?.split(VARIANT)
      .map((variant) => variant.split(PHONE));
  }
}

/**
 * Sphinx format: `word PH ON ES` a line, alternates written `word(2) …`, `;;;` starting a comment line. Lines are
 * decoded one at a time from the bytes so that no word keeps a slice of the whole file's text alive.
 */
export function parseCmuDict(source: string | Buffer): PronunciationDict {
  const bytes = typeof source === 'string' ? Buffer.from(source) : source;
  const packed = new Map<string, string>();
  for (let start = 0; start <= bytes.length;) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    const parts = bytes.toString('utf8', start, end).trim().split(/\s+/);
    start = end + 1;
    const head = parts[0];
    if (!head || parts.length < 2 || head.startsWith(';;;')) continue;
    const word = head.replace(/\(\d+\)$/, '');
    const phones = parts.slice(1).join(PHONE);
    const existing = packed.get(word);
    packed.set(word, existing === undefined ? phones : [existing, phones].join(VARIANT));
  }
  return new PackedPronunciationDict(packed);
}

const cache = new Map<string, Promise<PronunciationDict>>();

/** Loads the dictionary at `path` once per process; later calls share it, however the path is written. */
export function loadCmuDict(path: string): Promise<PronunciationDict> {
  const key = resolve(path);
  let loaded = cache.get(key);
  if (!loaded) {
    loaded = readFile(key).then(parseCmuDict);
    // A failed read is not kept, so a later call can try again.
    loaded.catch(() => cache.delete(key));
    cache.set(key, loaded);
  }
  return loaded;
}
