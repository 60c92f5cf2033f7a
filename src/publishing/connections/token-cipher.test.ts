import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { parseTokenKey, TokenCipher, TokenKeyError } from './token-cipher.ts';

const key = randomBytes(32);

test('a sealed token opens with its key and shows no plaintext', () => {
  const cipher = new TokenCipher(key);
  const sealed = cipher.encrypt({ access_token: 'ya29.secret-access', refresh_token: '1//secret-refresh' });
  assert.ok(!sealed.toString('latin1').includes('secret'));
  assert.deepEqual(cipher.decrypt(sealed), {
    access_token: 'ya29.secret-access',
    refresh_token: '1//secret-refresh',
  });
});

test('two seals of one token differ (fresh nonce)', () => {
  const cipher = new TokenCipher(key);
  assert.notDeepEqual(cipher.encrypt('same'), cipher.encrypt('same'));
});

test('another key, or a changed byte, is an error rather than a wrong token', () => {
  const sealed = new TokenCipher(key).encrypt({ access_token: 'a' });
  assert.throws(() => new TokenCipher(randomBytes(32)).decrypt(sealed));
  const damaged = Buffer.from(sealed);
  damaged[damaged.length - 1]! ^= 1;
  assert.throws(() => new TokenCipher(key).decrypt(damaged));
});

test('the key is read from hex or base64 and must be 32 bytes; its fingerprint names it', () => {
  assert.deepEqual(parseTokenKey(key.toString('hex')), key);
  assert.deepEqual(parseTokenKey(key.toString('base64')), key);
  assert.throws(() => parseTokenKey('too short'), TokenKeyError);
  assert.equal(new TokenCipher(key).fingerprint, new TokenCipher(Buffer.from(key)).fingerprint);
  assert.notEqual(new TokenCipher(key).fingerprint, new TokenCipher(randomBytes(32)).fingerprint);
});
