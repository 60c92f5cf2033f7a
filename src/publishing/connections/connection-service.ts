// An account's connections to the publishing platforms: connecting with tokens its owner obtained, listing
// and removing them, and handing the publisher a fresh access token. Tokens are sealed at rest, never
// returned, refreshed before they expire with each platform's own refresh flow, and a refused refresh marks
// the connection expired (posts to it then fail with PLATFORM_OAUTH_EXPIRED until it is connected again).
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '../../platform/db/database.ts';
import { errors } from '../../platform/errors.ts';
import { fieldIssues, invalidInputError } from '../../platform/generation/parse-request.ts';
import { randomToken } from '../../platform/ids.ts';
import {
  type PlatformAccount,
  type PlatformClient,
  PlatformError,
  type PlatformId,
  PLATFORMS,
  type PlatformToken,
} from '../platforms/platform.ts';
import {
  type ConnectionRecord,
  deleteConnection,
  expiringConnectionIds,
  findConnection,
  findConnectionByPlatform,
  listConnections,
  lockConnection,
  markExpired,
  storeRefreshedTokens,
  upsertConnection,
} from './connections-repo.ts';
import type { TokenCipher } from './token-cipher.ts';

/** A token this close to expiry is refreshed before it is used. */
const REFRESH_MARGIN_MS = 5 * 60_000;
/** The refresher's look-ahead: tokens expiring within it are refreshed in the background. */
export const REFRESH_AHEAD_MS = 60 * 60_000;

/** The body of POST /social-accounts (docs/publishing.md). */
export const connectSchema = z
  .object({
    platform: z.enum(PLATFORMS),
    external_account_id: z.string().trim().min(1).max(200),
    display_name: z.string().trim().min(1).max(200).optional(),
    access_token: z.string().min(8).max(8192),
    refresh_token: z.string().min(8).max(8192).optional(),
    expires_in: z
      .number()
      .int()
      .positive()
      .max(10 * 365 * 86_400)
      .optional(),
    expires_at: z.iso.datetime({ offset: true }).optional(),
    scopes: z.array(z.string().min(1).max(200)).max(50).optional(),
  })
  .strict()
  .refine((b) => !(b.expires_in !== undefined && b.expires_at !== undefined), {
    message: 'send expires_in or expires_at, not both',
    path: ['expires_at'],
  });
export type ConnectBody = z.infer<typeof connectSchema>;

/** What is sealed: the tokens only (the rest of the row is not secret). */
interface SealedTokens {
  access_token: string;
  refresh_token?: string;
}

export interface ConnectionServiceDeps {
  db: Db;
  /** Absent when PLATFORM_TOKEN_KEY is not set: nothing can be connected or posted. */
  cipher: TokenCipher | undefined;
  clients: Record<PlatformId, PlatformClient>;
  log: Logger;
  now?: () => Date;
}

export class ConnectionService {
  private readonly now: () => Date;

  constructor(private readonly deps: ConnectionServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Whether tokens can be sealed and opened here (PLATFORM_TOKEN_KEY is set). */
  get configured(): boolean {
    return this.deps.cipher !== undefined;
  }

  private cipher(): TokenCipher {
    if (!this.deps.cipher) throw errors.publishingNotConfigured();
    return this.deps.cipher;
  }

  async connect(
    accountId: string,
    body: unknown,
  ): Promise<{ connection: ConnectionRecord; replaced: boolean }> {
    const parsed = connectSchema.safeParse(body);
    if (!parsed.success) throw invalidInputError(fieldIssues(parsed.error));
    const input = parsed.data;
    const cipher = this.cipher();
    const expiresAt =
      input.expires_at !== undefined
        ? new Date(input.expires_at)
        : input.expires_in !== undefined
          ? new Date(this.now().getTime() + input.expires_in * 1000)
          : null;
    if (expiresAt && expiresAt.getTime() <= this.now().getTime() && !input.refresh_token)
      throw errors.inputInvalid('The access token has already expired and no refresh_token was sent.', [
        { field: 'expires_at', message: 'is in the past; send a fresh access_token or a refresh_token' },
      ]);
    const sealed: SealedTokens = {
      access_token: input.access_token,
      ...(input.refresh_token ? { refresh_token: input.refresh_token } : {}),
    };
    const { record, replaced } = await upsertConnection(this.deps.db, {
      id: `conn_${randomToken(20)}`,
      accountId,
      platform: input.platform,
      externalAccountId: input.external_account_id,
      displayName: input.display_name ?? null,
      tokens: cipher.encrypt(sealed),
      keyFingerprint: cipher.fingerprint,
      accessExpiresAt: expiresAt,
      scopes: input.scopes ?? [],
    });
    this.deps.log.info(
      { accountId, platform: input.platform, connectionId: record.id },
      'platform connected',
    );
    return { connection: record, replaced };
  }

  list(accountId: string): Promise<ConnectionRecord[]> {
    return listConnections(this.deps.db, accountId);
  }

  async get(accountId: string, id: string): Promise<ConnectionRecord> {
    const found = await findConnection(this.deps.db, accountId, id);
    if (!found) throw errors.connectionNotFound(id);
    return found;
  }

  async remove(accountId: string, id: string): Promise<void> {
    if (!(await deleteConnection(this.deps.db, accountId, id))) throw errors.connectionNotFound(id);
  }

  /** The account's connection to a platform, if any (posting checks this before anything is charged). */
  forPlatform(accountId: string, platform: PlatformId): Promise<ConnectionRecord | undefined> {
    return findConnectionByPlatform(this.deps.db, accountId, platform);
  }

  /**
   * The platform account with an access token good for the next few minutes: refreshed first when it is
   * about to expire (or at once with `forceRefresh`). Throws PlatformError PLATFORM_OAUTH_EXPIRED when the connection is gone, expired, or its
   * refresh is refused (the connection is then marked expired).
   */
  async accountFor(connectionId: string, options: { forceRefresh?: boolean } = {}): Promise<PlatformAccount> {
    const cipher = this.cipher();
    // Locked so two processes never spend one rotating refresh token twice. A refused refresh is answered,
    // not thrown, so the transaction commits the connection's expiry before the error reaches the caller.
    const outcome = await this.deps.db.transaction().execute(async (tx) => {
      const row = await lockConnection(tx, connectionId);
      if (!row) return new PlatformError('PLATFORM_OAUTH_EXPIRED', 'The platform connection was removed.');
      if (row.status === 'expired')
        return new PlatformError(
          'PLATFORM_OAUTH_EXPIRED',
          `The ${row.platform} connection has expired (${row.statusReason ?? 'refresh refused'}); connect it again.`,
        );
      this.assertKey(row);
      const token = toPlatformToken(cipher.decrypt<SealedTokens>(row.tokens), row);
      // Forced when the platform refused a token we thought good (revoked early, clock skew).
      const due =
        options.forceRefresh === true ||
        (row.accessExpiresAt && row.accessExpiresAt.getTime() - this.now().getTime() < REFRESH_MARGIN_MS);
      const fresh = due ? await this.refreshRow(tx, row, token) : token;
      return fresh instanceof PlatformError
        ? fresh
        : { externalAccountId: row.externalAccountId, token: fresh };
    });
    if (outcome instanceof PlatformError) throw outcome;
    return outcome;
  }

  /** Refreshes every active connection expiring within the look-ahead; one failure never stops the others. */
  async refreshDue(): Promise<{ refreshed: number; expired: number }> {
    const cipher = this.deps.cipher;
    if (!cipher) return { refreshed: 0, expired: 0 };
    const ids = await expiringConnectionIds(this.deps.db, new Date(this.now().getTime() + REFRESH_AHEAD_MS));
    let refreshed = 0;
    let expired = 0;
    for (const id of ids) {
      try {
        const outcome = await this.deps.db.transaction().execute(async (tx) => {
          const row = await lockConnection(tx, id);
          // Gone, expired, or refreshed by another process since the list was read.
          if (!row || row.status !== 'active') return 'skipped';
          if (row.accessExpiresAt && row.accessExpiresAt.getTime() > this.now().getTime() + REFRESH_AHEAD_MS)
            return 'skipped';
          this.assertKey(row);
          const token = toPlatformToken(cipher.decrypt<SealedTokens>(row.tokens), row);
          return (await this.refreshRow(tx, row, token)) instanceof PlatformError ? 'expired' : 'refreshed';
        });
        if (outcome === 'refreshed') refreshed++;
        if (outcome === 'expired') expired++;
      } catch (error) {
        this.deps.log.warn({ err: error, connectionId: id }, 'token refresh failed; will try again');
      }
    }
    return { refreshed, expired };
  }

  private assertKey(row: ConnectionRecord): void {
    if (row.keyFingerprint !== this.deps.cipher!.fingerprint)
      throw new Error(
        `connection ${row.id} was sealed with another PLATFORM_TOKEN_KEY (fingerprint ${row.keyFingerprint})`,
      );
  }

  /**
   * Refreshes inside the caller's transaction (the row is locked). A refusal marks the connection expired and
   * is answered as the PlatformError; other failures (the platform down) throw and leave it as it was.
   */
  private async refreshRow(
    tx: Parameters<typeof storeRefreshedTokens>[0],
    row: ConnectionRecord,
    token: PlatformToken,
  ): Promise<PlatformToken | PlatformError> {
    let next: PlatformToken;
    try {
      next = await this.deps.clients[row.platform].refresh(token, row.externalAccountId);
    } catch (error) {
      if (!(error instanceof PlatformError) || error.code !== 'PLATFORM_OAUTH_EXPIRED') throw error;
      await markExpired(tx, row.id, error.message);
      this.deps.log.warn({ connectionId: row.id, platform: row.platform }, 'platform connection expired');
      return error;
    }
    const refreshToken = next.refreshToken ?? token.refreshToken;
    const sealed: SealedTokens = {
      access_token: next.accessToken,
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
    };
    await storeRefreshedTokens(
      tx,
      row.id,
      this.deps.cipher!.encrypt(sealed),
      this.deps.cipher!.fingerprint,
      next.expiresAt ?? null,
    );
    return { ...next, ...(refreshToken ? { refreshToken } : {}) };
  }
}

function toPlatformToken(tokens: SealedTokens, row: ConnectionRecord): PlatformToken {
  return {
    accessToken: tokens.access_token,
    ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
    ...(row.accessExpiresAt ? { expiresAt: row.accessExpiresAt } : {}),
    ...(row.scopes.length > 0 ? { scope: row.scopes.join(' ') } : {}),
  };
}

/** A connection as routes show it: never its tokens. */
export function presentConnection(
  record: ConnectionRecord,
  clients: Record<PlatformId, PlatformClient>,
): Record<string, unknown> {
  return {
    id: record.id,
    platform: record.platform,
    platform_name: clients[record.platform].name,
    external_account_id: record.externalAccountId,
    display_name: record.displayName,
    status: record.status,
    status_reason: record.statusReason,
    scopes: record.scopes,
    access_expires_at: record.accessExpiresAt?.toISOString() ?? null,
    refreshed_at: record.refreshedAt?.toISOString() ?? null,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}
