import { createHash } from 'node:crypto';

/** Literal output text, queued between the values still to be written. */
class Token {
  constructor(readonly text: string) {}
}

/**
 * JSON with object keys sorted at every level, so the same body in any field order hashes the same. Written
 * with an explicit work stack instead of recursion, so no nesting depth can exhaust the call stack; the output
 * is unchanged from the recursive form, so stored request fingerprints keep matching.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const work: unknown[] = [value];
  while (work.length > 0) {
    const item = work.pop();
    if (item instanceof Token) {
      out.push(item.text);
    } else if (Array.isArray(item)) {
      work.push(new Token(']'));
      for (let i = item.length - 1; i >= 0; i--) {
        work.push(item[i]);
        if (i > 0) work.push(new Token(','));
      }
      work.push(new Token('['));
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      work.push(new Token('}'));
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        work.push(child, new Token(`${JSON.stringify(key)}:`));
        if (i > 0) work.push(new Token(','));
      }
      work.push(new Token('{'));
    } else {
      out.push(JSON.stringify(item) ?? 'null');
    }
  }
  return out.join('');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
