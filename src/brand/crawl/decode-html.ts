import { isUtf8 } from 'node:buffer';
// Node 20's own TextDecoder reads windows-1252 as latin1 (0x80 is not €); this one follows the Encoding standard.
import { TextDecoder } from '@exodus/bytes/encoding.js';
import htmlEncodingSniffer from 'html-encoding-sniffer';
import { charsetParam } from './content-type.ts';

export interface DecodedHtml {
  html: string;
  /** The encoding used, by its WHATWG name. */
  charset: string;
}

/**
 * Decodes an HTML body the way a browser picks its encoding (WHATWG "encoding sniffing"): a byte order
 * mark, else the Content-Type charset, else a <meta charset> / <meta http-equiv> in the first 1024 bytes.
 * When nothing declares one, valid UTF-8 is read as UTF-8 (what nearly every modern page is) and anything
 * else as windows-1252, the web's legacy default.
 */
export function decodeHtml(body: Buffer, contentType: string | null): DecodedHtml {
  const label = charsetParam(contentType);
  const sniff = (defaultEncoding: string): string =>
    htmlEncodingSniffer(body, { defaultEncoding, ...(label ? { transportLayerEncodingLabel: label } : {}) });
  const declared = sniff('UTF-8');
  // The sniffer answers the default only when nothing declared an encoding: two defaults tell that apart.
  const undeclared = declared !== sniff('windows-1252');
  const charset = undeclared && !isUtf8(body) ? 'windows-1252' : declared;
  return { html: new TextDecoder(charset).decode(body), charset };
}
