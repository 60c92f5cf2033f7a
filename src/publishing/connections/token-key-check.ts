// Start-up refuses a token key that cannot open the stored connections: a missing key once connections exist,
// a malformed one, or a different one than sealed them. Failing at start beats every post failing later.
import type { Config } from '../../platform/config.ts';
import type { Executor } from '../../platform/db/database.ts';
import { storedKeyFingerprints } from './connections-repo.ts';
import { parseTokenKey, TokenCipher } from './token-cipher.ts';

export async function checkTokenKey(config: Config, db: Executor): Promise<void> {
  const cipher = config.publishing.tokenKey
    ? new TokenCipher(parseTokenKey(config.publishing.tokenKey))
    : undefined;
  const stored = await storedKeyFingerprints(db);
  const total = stored.reduce((sum, s) => sum + s.count, 0);
  if (total === 0) return;
  if (!cipher)
    throw new Error(
      `PLATFORM_TOKEN_KEY is not set but the database holds ${total} platform connection(s) sealed with it: set the key they were sealed with (or remove the connections with \`npm run admin -- connections remove\`).`,
    );
  const other = stored.filter((s) => s.fingerprint !== cipher.fingerprint);
  if (other.length > 0)
    throw new Error(
      `PLATFORM_TOKEN_KEY (fingerprint ${cipher.fingerprint}) is not the key ${other
        .map((s) => `${s.count} connection(s) were sealed with (fingerprint ${s.fingerprint})`)
        .join(', ')}: set that key.`,
    );
}
