import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signUploadToken, verifyUploadToken } from './upload-token.ts';

const SECRET = 'a'.repeat(64);
const now = new Date('2026-05-01T12:00:00Z');
const claims = {
  clipId: 'clip_abc',
  maxBytes: 5_000_000,
  expiresAt: Math.floor(now.getTime() / 1000) + 3600,
};

void test('a signed token verifies and carries its claims', () => {
  const token = signUploadToken(SECRET, claims);
  assert.match(token, /^clip_abc\.2z60w\.[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
  assert.ok(token.length < 100, "fits the router's 100-character path parameter");
  assert.deepEqual(verifyUploadToken(SECRET, token, now), { ok: true, claims });
});

void test('an expired token is refused as expired', () => {
  const token = signUploadToken(SECRET, claims);
  assert.deepEqual(verifyUploadToken(SECRET, token, new Date((claims.expiresAt + 1) * 1000)), {
    ok: false,
    reason: 'expired',
  });
});

void test('tampered, foreign and malformed tokens are refused as invalid', () => {
  const token = signUploadToken(SECRET, claims);
  const [payload, mac] = token.split('.') as [string, string];
  const bigger = Buffer.from(JSON.stringify({ c: 'clip_abc', m: 9e12, e: claims.expiresAt })).toString(
    'base64url',
  );
  for (const bad of [
    `${bigger}.${mac}`,
    `${payload}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
    signUploadToken('b'.repeat(64), claims),
    payload,
    '',
    `${payload}.${mac}.x`,
  ]) {
    assert.deepEqual(verifyUploadToken(SECRET, bad, now), { ok: false, reason: 'invalid' }, bad);
  }
});
