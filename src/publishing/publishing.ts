// The publishing domain as the rest of the service sees it: the platform clients built from configuration
// and the account connections that feed them tokens.
import type { Logger } from 'pino';
import type { Config } from '../platform/config.ts';
import type { Db } from '../platform/db/database.ts';
import { ConnectionService } from './connections/connection-service.ts';
import { parseTokenKey, TokenCipher } from './connections/token-cipher.ts';
import { createPlatformClients, type PlatformClient, type PlatformId } from './platforms/platform.ts';

export interface Publishing {
  clients: Record<PlatformId, PlatformClient>;
  connections: ConnectionService;
}

export function createPublishing(config: Config, db: Db, log: Logger): Publishing {
  const clients = createPlatformClients({ platforms: config.publishing.platforms });
  const cipher = config.publishing.tokenKey
    ? new TokenCipher(parseTokenKey(config.publishing.tokenKey))
    : undefined;
  return { clients, connections: new ConnectionService({ db, cipher, clients, log }) };
}
