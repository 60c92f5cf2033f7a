// Locations of the acoustic model, language model and dictionary that pocketsphinx decodes with.

export interface PocketsphinxModel {
  /** Directory holding the acoustic model (mdef, means, sendump, …). */
  hmmDir: string;
  /** Trigram language model used for open transcription. */
  lmPath: string;
  /** CMU pronouncing dictionary matching the language model. */
  dictPath: string;
}

/** Where Debian's pocketsphinx-en-us package puts the model: `en-us/`, `en-us.lm.bin`, `cmudict-en-us.dict`. */
export const DEBIAN_MODEL_ROOT = '/usr/share/pocketsphinx/model/en-us';

/** The US English model shipped by Debian's pocketsphinx-en-us package. */
export const DEBIAN_EN_US_MODEL: PocketsphinxModel = {
  hmmDir: `${DEBIAN_MODEL_ROOT}/en-us`,
  lmPath: `${DEBIAN_MODEL_ROOT}/en-us.lm.bin`,
  dictPath: `${DEBIAN_MODEL_ROOT}/cmudict-en-us.dict`,
};
