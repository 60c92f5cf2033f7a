// The signed part of a presigned upload URL: which clip the bytes are for, how many bytes at most, and until
// when. The token is the only credential of the PUT, so it is HMAC-signed with a server secret.

import { createHmac, timingSafeEqual } from 'node:crypto';

export interface UploadClaims {
  clipId: string;
  maxBytes: number;
  /** Unix seconds. */
  expiresAt: number;
}

export type UploadTokenCheck =
  { ok: true; claims: UploadClaims } | { ok: false; reason: 'invalid' | 'expired' };

function mac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(`stock-clip-upload\n${payload}`).digest('base64url');
}

// "<clip id>.<max bytes, base 36>.<expiry, base 36>.<HMAC>": short enough for one URL path segment.
const TOKEN = /^([A-Za-z0-9_-]{1,64})\.([0-9a-z]{1,12})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{43})$/;

export function signUploadToken(secret: string, claims: UploadClaims): string {
  const payload = `${claims.clipId}.${claims.maxBytes.toString(36)}.${claims.expiresAt.toString(36)}`;
  return `${payload}.${mac(secret, payload)}`;
}

export function verifyUploadToken(secret: string, token: string, now: Date = new Date()): UploadTokenCheck {
  const match = TOKEN.exec(token);
  if (!match) return { ok: false, reason: 'invalid' };
  const [, clipId, maxBytes, expiresAt, signature] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
  ];
  const expected = Buffer.from(mac(secret, `${clipId}.${maxBytes}.${expiresAt}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { ok: false, reason: 'invalid' };
  const claims = { clipId, maxBytes: parseInt(maxBytes, 36), expiresAt: parseInt(expiresAt, 36) };
  if (claims.expiresAt * 1000 < now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}
