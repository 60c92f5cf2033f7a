import { MIMEType } from 'node:util';

/** "text/html" of "text/HTML; charset=UTF-8"; null when missing or unparsable. */
export function mimeEssence(contentType: string | null): string | null {
  return parse(contentType)?.essence ?? null;
}

/** The charset parameter of a Content-Type, as written; null when absent. */
export function charsetParam(contentType: string | null): string | null {
  return parse(contentType)?.params.get('charset') ?? null;
}

function parse(contentType: string | null): MIMEType | null {
  if (!contentType) return null;
  try {
    return new MIMEType(contentType);
  } catch {
    return null;
  }
}
