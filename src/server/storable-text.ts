import { errors } from '../platform/errors.ts';

// The one rule for text that comes in over HTTP (body strings and keys, path parameters, query values): it
// must be storable. PostgreSQL text and jsonb cannot hold U+0000, and a UTF-16 surrogate without its pair is
// not Unicode at all (PostgreSQL refuses it in jsonb and it has no UTF-8 form). Such text is refused with a
// 400 naming where it was sent, before anything is stored or charged; nothing is silently stripped.

// With the `u` flag a well-formed surrogate pair is one code point, so \p{Cs} matches only lone halves.
const UNSTORABLE = /[\u0000\p{Cs}]/u;

/** Why `text` cannot be accepted, or undefined when it can. */
export function unstorableTextProblem(text: string): string | undefined {
  const found = UNSTORABLE.exec(text);
  if (!found) return undefined;
  if (found[0] === '\u0000') {
    return `contains a NUL character (\\u0000) at position ${found.index}; remove it`;
  }
  const unit = found[0].charCodeAt(0).toString(16);
  return `contains an unpaired UTF-16 surrogate (\\u${unit}) at position ${found.index}; send valid Unicode text`;
}

/** Refuses the first unstorable value of a flat record of strings (path parameters, query values). */
export function assertStorableFields(fields: unknown): void {
  if (fields === null || typeof fields !== 'object') return;
  for (const [name, value] of Object.entries(fields)) {
    for (const text of Array.isArray(value) ? value : [value]) {
      if (typeof text !== 'string') continue;
      const problem = unstorableTextProblem(text);
      if (problem) throw errors.textNotStorable(name, problem);
    }
  }
}
