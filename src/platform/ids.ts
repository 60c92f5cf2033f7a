import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random base62 string; 22 characters carry about 131 bits. */
export function randomToken(length = 22): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const byte = bytes[i]!;
    // 248 = 4 × 62: rejecting the top bytes keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out.length === length ? out : out + randomToken(length - out.length);
}

export const newId = {
  account: () => `acct_${randomToken(16)}`,
  apiKey: () => `key_${randomToken(16)}`,
  job: () => `job_${randomToken(20)}`,
  sandboxJob: () => `sandbox_job_${randomToken(20)}`,
  video: () => `vid_${randomToken(20)}`,
  event: () => `evt_${randomToken(20)}`,
  webhookDelivery: () => `whd_${randomToken(20)}`,
  request: () => `req_${randomToken(20)}`,
  batch: () => `batch_${randomToken(16)}`,
};
