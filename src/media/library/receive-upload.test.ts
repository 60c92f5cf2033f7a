import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { receiveUpload, UploadTooLargeError } from './receive-upload.ts';

const dir = await mkdtemp(join(tmpdir(), 'receive-upload-'));
const chunks = (n: number, size: number) => Array.from({ length: n }, (_, i) => Buffer.alloc(size, i));

void test('writes every chunk to the file and reports its size and SHA-256', async () => {
  const parts = chunks(20, 64 * 1024);
  const dest = join(dir, 'nested', 'clip.upload');
  const received = await receiveUpload(Readable.from(parts), dest, { maxBytes: 20 * 64 * 1024 });
  const whole = Buffer.concat(parts);
  assert.equal(received.bytes, whole.length);
  assert.equal(received.sha256, createHash('sha256').update(whole).digest('hex'));
  assert.ok((await readFile(dest)).equals(whole));
  assert.deepEqual(await readdir(join(dir, 'nested')), ['clip.upload']);
});

void test('a body over the limit is refused and leaves no file', async () => {
  const dest = join(dir, 'big', 'clip.upload');
  await assert.rejects(
    receiveUpload(Readable.from(chunks(5, 1000)), dest, { maxBytes: 4999 }),
    (e: unknown) => e instanceof UploadTooLargeError && e.maxBytes === 4999,
  );
  assert.deepEqual(await readdir(join(dir, 'big')), []);
});

void test('a source that fails midway leaves no file', async () => {
  const dest = join(dir, 'broken', 'clip.upload');
  const source = new Readable({ read() {} });
  source.push(Buffer.alloc(1000));
  setImmediate(() => source.destroy(new Error('client went away')));
  await assert.rejects(receiveUpload(source, dest, { maxBytes: 1e6 }), /client went away/);
  assert.deepEqual(await readdir(join(dir, 'broken')), []);
});
