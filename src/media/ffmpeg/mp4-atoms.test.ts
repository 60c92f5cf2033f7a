import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFaststart, parseAtomHeader, readTopLevelAtoms } from './mp4-atoms.ts';
import { runFfmpeg } from './runner.ts';

function header(size: number, type: string, largeSize?: bigint): Buffer {
  const buf = Buffer.alloc(largeSize === undefined ? 8 : 16);
  buf.writeUInt32BE(size, 0);
  buf.write(type, 4, 'latin1');
  if (largeSize !== undefined) buf.writeBigUInt64BE(largeSize, 8);
  return buf;
}

describe('parseAtomHeader', () => {
  const cases: [string, Buffer, number, number, ReturnType<typeof parseAtomHeader>][] = [
    ['32-bit size', header(24, 'ftyp'), 0, 1000, { type: 'ftyp', offset: 0, size: 24 }],
    ['64-bit size', header(1, 'mdat', 5000n), 100, 6000, { type: 'mdat', offset: 100, size: 5000 }],
    ['size 0 runs to end of file', header(0, 'mdat'), 200, 1000, { type: 'mdat', offset: 200, size: 800 }],
    ['too small', header(4, 'free'), 0, 1000, null],
    ['past end of file', header(2000, 'moov'), 0, 1000, null],
    ['truncated header', Buffer.from([0, 0]), 0, 1000, null],
  ];
  for (const [name, buf, offset, fileSize, expected] of cases) {
    test(name, () => assert.deepEqual(parseAtomHeader(buf, offset, fileSize), expected));
  }
});

describe('isFaststart', () => {
  const atom = (type: string) => ({ type, offset: 0, size: 8 });
  test('moov first', () => assert.equal(isFaststart([atom('ftyp'), atom('moov'), atom('mdat')]), true));
  test('mdat first', () => assert.equal(isFaststart([atom('ftyp'), atom('mdat'), atom('moov')]), false));
  test('no moov', () => assert.equal(isFaststart([atom('ftyp'), atom('mdat')]), false));
});

test('readTopLevelAtoms tells +faststart output from a default one', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rs-atoms-'));
  try {
    const encode = (out: string, extra: string[]) =>
      runFfmpeg([
        '-y',
        '-f',
        'lavfi',
        '-i',
        'color=s=32x32:r=10:d=0.5',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        ...extra,
        out,
      ]);
    const plain = join(dir, 'plain.mp4');
    const fast = join(dir, 'fast.mp4');
    await encode(plain, []);
    await encode(fast, ['-movflags', '+faststart']);
    assert.equal(isFaststart(await readTopLevelAtoms(plain)), false);
    const atoms = await readTopLevelAtoms(fast);
    assert.equal(isFaststart(atoms), true);
    assert.equal(atoms[0]?.type, 'ftyp');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
