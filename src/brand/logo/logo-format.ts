// What a logo's bytes are, decided by the bytes themselves: servers mislabel images (application/octet-stream,
// text/plain for SVG), so Content-Type only helps word the error when the bytes are not an image we take.
import { Parser } from 'htmlparser2';
import type { LogoSourceFormat } from './normalized-logo.ts';

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0): boolean =>
  signature.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');

/** Formats we refuse, recognised only so the error can name them. */
const OTHER_FORMATS: { name: string; signature: number[]; at?: number }[] = [
  { name: 'a GIF image', signature: ascii('GIF8') },
  { name: 'an ICO icon', signature: [0x00, 0x00, 0x01, 0x00] },
  { name: 'a BMP image', signature: ascii('BM') },
  { name: 'a TIFF image', signature: [0x49, 0x49, 0x2a, 0x00] },
  { name: 'a TIFF image', signature: [0x4d, 0x4d, 0x00, 0x2a] },
  { name: 'a PDF document', signature: ascii('%PDF') },
  { name: 'an AVIF/HEIF image', signature: ascii('ftyp'), at: 4 },
  { name: 'gzip-compressed data (SVGZ is not accepted; send the plain SVG)', signature: [0x1f, 0x8b] },
];

/** Markup is sniffed within this many leading bytes; an SVG's root element comes well before. */
const MARKUP_SNIFF_BYTES = 64 * 1024;

function rasterFormat(bytes: Uint8Array): LogoSourceFormat | null {
  if (startsWith(bytes, PNG)) return 'png';
  if (startsWith(bytes, JPEG)) return 'jpeg';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'webp';
  return null;
}

/**
 * Name of the first element when the bytes are XML/HTML text, else null. Uses the same XML tokenizer the
 * SVG sanitizer parses with, stopped at the first tag.
 */
export function firstElementName(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, MARKUP_SNIFF_BYTES));
  if (head.includes(0)) return null;
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  if (!text.trimStart().startsWith('<')) return null;
  let name: string | null = null;
  const parser = new Parser(
    {
      onopentagname(tag) {
        name ??= tag;
        parser.pause();
      },
    },
    { xmlMode: true },
  );
  parser.write(text);
  return name;
}

const localName = (qualified: string): string => qualified.slice(qualified.indexOf(':') + 1);

export function detectLogoFormat(bytes: Uint8Array): LogoSourceFormat | null {
  const raster = rasterFormat(bytes);
  if (raster) return raster;
  const root = firstElementName(bytes);
  return root !== null && localName(root) === 'svg' ? 'svg' : null;
}

/** Says what the bytes are instead of an accepted logo, for the LOGO_UNREADABLE message. */
export function describeUnsupported(bytes: Uint8Array, contentType?: string | null): string {
  if (bytes.length === 0) return 'the logo is empty (0 bytes)';
  const other = OTHER_FORMATS.find((f) => startsWith(bytes, f.signature, f.at));
  if (other) return `the logo is ${other.name}`;
  const root = firstElementName(bytes);
  if (root !== null && localName(root).toLowerCase() === 'html')
    return 'the address returned an HTML page, not an image; link the image file itself';
  if (root !== null) return `the logo is an XML document whose root is <${root}>, not <svg>`;
  const declared = contentType?.split(';')[0]?.trim();
  return declared
    ? `the bytes are not a PNG, JPEG, WebP or SVG image (the server called them ${declared})`
    : 'the bytes are not a PNG, JPEG, WebP or SVG image';
}
