import { createHash } from 'node:crypto';
import { randomToken } from '../ids.ts';

export const LIVE_KEY_PREFIX = 'svc_';
export const SANDBOX_KEY_PREFIX = 'svc_test_';

export function generateApiKey(sandbox: boolean): string {
  return `${sandbox ? SANDBOX_KEY_PREFIX : LIVE_KEY_PREFIX}${randomToken(32)}`;
}

/** Keys carry ~190 random bits, so a plain SHA-256 is enough to make the stored hash useless to a thief. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The public part of a key, shown in listings and used to revoke it: the kind marker plus 8 characters. */
export function keyPrefix(key: string): string {
  const marker = key.startsWith(SANDBOX_KEY_PREFIX) ? SANDBOX_KEY_PREFIX : LIVE_KEY_PREFIX;
  return key.slice(0, marker.length + 8);
}

export function looksLikeApiKey(value: string): boolean {
  return /^svc_(test_)?[0-9A-Za-z]{32}$/.test(value);
}
