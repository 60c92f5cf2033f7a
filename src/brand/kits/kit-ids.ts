// A kit's internal id: 24 hex characters (the list cursor format of spec 2 §4.3), ordered by creation time so
// "newest first" is "highest id first" and a cursor is simply the last id of a page.
import { randomBytes } from 'node:crypto';

export const KIT_ID_PATTERN = /^[0-9a-f]{24}$/;

let lastMs = 0;
let lastTail = 0n;
const TAIL_BITS = 48n;
const TAIL_MAX = (1n << TAIL_BITS) - 1n;

/** 12 hex of milliseconds since 1970, then 12 hex that are random, or one more than the last id's in the same ms. */
export function newKitId(now = Date.now()): string {
  let tail: bigint;
  if (now <= lastMs && lastTail < TAIL_MAX) {
    now = lastMs;
    tail = lastTail + 1n;
  } else {
    // Random start in the lower half, so a burst within one millisecond still has room to count up.
    tail = BigInt(`0x${randomBytes(6).toString('hex')}`) >> 1n;
  }
  lastMs = now;
  lastTail = tail;
  return now.toString(16).padStart(12, '0') + tail.toString(16).padStart(12, '0');
}
