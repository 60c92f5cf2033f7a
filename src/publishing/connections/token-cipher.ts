// Platform tokens at rest: AES-256-GCM under PLATFORM_TOKEN_KEY (32 bytes, base64 or hex). Each value is
// version (1 byte) | nonce (12) | tag (16) | ciphertext; the tag makes a wrong key or a changed byte an error,
// never a wrong token.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class TokenKeyError extends Error {}

/** The key from its setting: 64 hex digits or base64 of 32 bytes; anything else is refused with how to make one. */
export function parseTokenKey(value: string): Buffer {
  const text = value.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32)
    throw new TokenKeyError(
      'PLATFORM_TOKEN_KEY must be 32 bytes as 64 hex digits or base64 (make one with `openssl rand -base64 32`)',
    );
  return key;
}

export class TokenCipher {
  /** Names the key without revealing it: stored beside each ciphertext to tell a changed key from damage. */
  readonly fingerprint: string;

  constructor(private readonly key: Buffer) {
    this.fingerprint = createHash('sha256')
      .update('reelsmith platform token key\0')
      .update(key)
      .digest('hex')
      .slice(0, 16);
  }

  encrypt(value: unknown): Buffer {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), body]);
  }

  decrypt<T>(sealed: Buffer): T {
    if (sealed[0] !== VERSION) throw new TokenKeyError('unknown token format');
    const nonce = sealed.subarray(1, 1 + NONCE_BYTES);
    const tag = sealed.subarray(1 + NONCE_BYTES, 1 + NONCE_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, nonce);
    decipher.setAuthTag(tag);
    const body = sealed.subarray(1 + NONCE_BYTES + TAG_BYTES);
    return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')) as T;
  }
}
