// Reading the top-level box layout of an MP4, e.g. to confirm `+faststart` put moov before mdat.
import { open } from 'node:fs/promises';

export interface Mp4Atom {
  type: string;
  offset: number;
  size: number;
}

/** Parses one box header (8 bytes, or 16 with a 64-bit size). Returns null when it is not a valid header. */
export function parseAtomHeader(header: Buffer, offset: number, fileSize: number): Mp4Atom | null {
  if (header.length < 8) return null;
  let size = header.readUInt32BE(0);
  const type = header.toString('latin1', 4, 8);
  if (size === 1) {
    if (header.length < 16) return null;
    size = Number(header.readBigUInt64BE(8));
  } else if (size === 0) {
    size = fileSize - offset;
  }
  if (size < 8 || offset + size > fileSize) return null;
  return { type, offset, size };
}

/** Lists the top-level boxes of an MP4/MOV file in file order. */
export async function readTopLevelAtoms(path: string): Promise<Mp4Atom[]> {
  const handle = await open(path, 'r');
  try {
    const { size: fileSize } = await handle.stat();
    const atoms: Mp4Atom[] = [];
    const header = Buffer.alloc(16);
    let offset = 0;
    while (offset + 8 <= fileSize) {
      const { bytesRead } = await handle.read(header, 0, 16, offset);
      const atom = parseAtomHeader(header.subarray(0, bytesRead), offset, fileSize);
      if (!atom) throw new Error(`invalid MP4 box header at offset ${offset} in ${path}`);
      atoms.push(atom);
      offset += atom.size;
    }
    return atoms;
  } finally {
    await handle.close();
  }
}

/** True when the movie header comes before the media data, so playback can start while downloading. */
export function isFaststart(atoms: readonly Mp4Atom[]): boolean {
  const moov = atoms.findIndex((a) => a.type === 'moov');
  const mdat = atoms.findIndex((a) => a.type === 'mdat');
  return moov >= 0 && mdat >= 0 && moov < mdat;
}
