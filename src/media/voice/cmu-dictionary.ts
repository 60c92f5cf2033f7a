// The CMU pronouncing dictionary shipped with pocketsphinx's en-us model, loaded once per process.
import { readFile } from 'node:fs/promises';

export const POCKETSPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

/** Word → its pronunciations, each a space-separated ARPAbet string such as "T AH D EY". */
export type Pronunciations = Map<string, string[]>;

/** "word PH PH" lines, alternates written "word(2) PH PH". */
export function parseCmuDictionary(text: string): Pronunciations {
  const dict: Pronunciations = new Map();
  let from = 0;
  while (from < text.length) {
    let to = text.indexOf('\n', from);
    if (to < 0) to = text.length;
    const space = text.indexOf(' ', from);
    if (space > from && space < to) {
      const head = text.slice(from, space);
      const paren = head.indexOf('(');
      const word = paren > 0 ? head.slice(0, paren) : head;
      const phones = text.slice(space + 1, to).trim();
      const list = dict.get(word);
      if (list) list.push(phones);
      else dict.set(word, [phones]);
    }
    from = to + 1;
  }
  return dict;
}

const loaded = new Map<string, Promise<Pronunciations>>();

export function loadCmuDictionary(
  path = `${POCKETSPHINX_MODEL_DIR}/cmudict-en-us.dict`,
): Promise<Pronunciations> {
  let dict = loaded.get(path);
  if (!dict) {
    dict = readFile(path, 'utf8').then(parseCmuDictionary);
    // A failed read is not cached, so a later call can try again.
    dict.catch(() => loaded.delete(path));
    loaded.set(path, dict);
  }
  return dict;
}
