// Fills sentence templates: {name} takes a slot's value, {Name} the same value with a capital first letter.
// A template whose slot has no value is not usable for this brief.
import { capitalize } from './english.ts';

export type Slots = Readonly<Record<string, string | undefined>>;

const MARKER = /\{([A-Za-z]+)\}/g;

function value(name: string, slots: Slots): string | undefined {
  const direct = slots[name];
  if (direct !== undefined) return direct;
  const lowerName = name[0]!.toLowerCase() + name.slice(1);
  if (lowerName !== name && slots[lowerName] !== undefined) return capitalize(slots[lowerName]);
  return undefined;
}

/** The slot names a template needs. */
export function markers(template: string): string[] {
  return [...template.matchAll(MARKER)].map((m) => m[1]!);
}

/** Tidies punctuation where a slot value meets template punctuation. */
export function tidy(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/([?!])\./g, '$1')
    .replace(/(?<!\.)\.\.(?!\.)/g, '.')
    .replace(/,([.!?])/g, '$1')
    .trim();
}

/** Capitalizes the first letter of every sentence, leaving mixed-case names like "iPhone" alone. */
export function capitalizeSentences(text: string): string {
  return text.replace(/(^|[.!?]\s+)(\S+)/g, (m, pre: string, word: string) =>
    /^\p{Ll}+\p{Lu}/u.test(word) ? m : pre + capitalize(word),
  );
}

/**
 * Guards say nothing but decide where a line fits: {?name} only when the slot has a value,
 * {!name} only when it has none ("{?skill}Practice daily.", "{!product}Getting {topic} right is hard.").
 */
const GUARD = /\{([?!])([A-Za-z]+)\}/g;

export function fillTemplate(template: string, slots: Slots): string | undefined {
  let missing = false;
  const unguarded = template.replace(GUARD, (_m, kind: string, name: string) => {
    if ((slots[name] === undefined) === (kind === '?')) missing = true;
    return '';
  });
  const filled = unguarded.replace(MARKER, (_m, name: string) => {
    const v = value(name, slots);
    if (v === undefined || v === '') missing = true;
    return v ?? '';
  });
  return missing ? undefined : capitalizeSentences(tidy(filled));
}
