// The kit's font (spec 2 §2.4 `kit.font`): a Google Fonts family, with its stylesheet URL, or the safe web
// default of brand analysis when none was set or the name is not a web font (profile/font-catalogue.ts decides).
import { createRequire } from 'node:module';
import { googleFont, SAFE_DEFAULTS, systemFamilyKind } from '../profile/font-catalogue.ts';

export interface KitFont {
  family: string;
  source: 'google' | 'default';
  /** Google Fonts CSS2 stylesheet of the family's regular and bold weights (those it has). */
  css_url: string;
}

const WANTED_WEIGHTS = ['400', '700'];

let weights: Map<string, string[]> | undefined;

/**
 * The upright weights of each Google family, from the package's copy of the Google Fonts API answer: the CSS2 API
 * refuses a stylesheet that asks for a weight the family lacks.
 */
function uprightWeights(family: string): string[] {
  if (!weights) {
    const require = createRequire(import.meta.url);
    const entries = require('google-fonts-complete/api-response.json') as {
      family: string;
      variants: string[];
    }[];
    weights = new Map(
      entries.map((entry) => [
        entry.family,
        entry.variants.map((v) => (v === 'regular' ? '400' : v)).filter((v) => /^\d+$/.test(v)),
      ]),
    );
  }
  return weights.get(family) ?? [];
}

function cssUrl(family: string): string {
  const upright = uprightWeights(family);
  const wanted = WANTED_WEIGHTS.filter((w) => upright.includes(w));
  const axis = (wanted.length > 0 ? wanted : upright.slice(0, 1)).join(';');
  return `https://fonts.googleapis.com/css2?family=${family.replaceAll(' ', '+')}${axis ? `:wght@${axis}` : ''}&display=swap`;
}

export function kitFont(requested: string | null | undefined): KitFont {
  const found = requested ? googleFont(requested) : undefined;
  if (found) return { family: found.family, source: 'google', css_url: cssUrl(found.family) };
  // A serif system face keeps a serif look; anything else gets the neutral sans.
  const kind = requested ? systemFamilyKind(requested) : undefined;
  const family = SAFE_DEFAULTS[kind === 'serif' ? 'serif' : 'sans-serif'].headline;
  return { family, source: 'default', css_url: cssUrl(family) };
}
