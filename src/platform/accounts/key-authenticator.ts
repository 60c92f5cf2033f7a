import type { Db } from '../db/database.ts';
import type { Notifications } from '../db/notifications.ts';
import { hashApiKey } from './api-keys.ts';
import { authenticateKey, KEYS_CHANGED_CHANNEL, type AuthenticatedKey } from './accounts.ts';

const CACHE_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * Authenticates API keys with a short in-process cache (by hash, never the key itself). A revocation
 * anywhere clears every process's cache through NOTIFY; the TTL bounds staleness if a notification is lost.
 */
export class KeyAuthenticator {
  private readonly cache = new Map<string, { key: AuthenticatedKey; expires: number }>();

  constructor(
    private readonly db: Db,
    notifications: Notifications,
  ) {
    notifications.on(KEYS_CHANGED_CHANNEL, () => this.cache.clear());
  }

  /** Forgets every cached key: a revocation made here takes effect at once, before its NOTIFY comes back. */
  clear(): void {
    this.cache.clear();
  }

  async authenticate(key: string): Promise<AuthenticatedKey | undefined> {
    const hash = hashApiKey(key);
    const now = Date.now();
    const hit = this.cache.get(hash);
    if (hit && hit.expires > now) return hit.key;
    const found = await authenticateKey(this.db, key);
    if (found) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
      this.cache.set(hash, { key: found, expires: now + CACHE_TTL_MS });
    } else {
      this.cache.delete(hash);
    }
    return found;
  }
}
