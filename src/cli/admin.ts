import { parseArgs } from 'node:util';
import {
  createAccount,
  createApiKey,
  findAccount,
  revokeKeysByPrefix,
} from '../platform/accounts/accounts.ts';
import { pino } from 'pino';
import { type Config, loadConfig } from '../platform/config.ts';
import type { Db } from '../platform/db/database.ts';
import { ApiError } from '../platform/errors.ts';
import { presentConnection } from '../publishing/connections/connection-service.ts';
import { createPublishing } from '../publishing/publishing.ts';
import { openDatabase } from '../platform/db/database.ts';
import { startEmbeddedPostgres } from '../platform/db/embedded-postgres.ts';
import { migrate } from '../platform/db/migrate.ts';
import { ledgerSummary, topUp } from '../platform/ledger/ledger.ts';

// `npm run admin -- <group> <action> [options]`: prints exactly one JSON line on stdout (errors on stderr).
// Works against a running server's database (it joins the embedded PostgreSQL) and with the server stopped.

const MINIMUM_TOP_UP_CENTS = 1000;

const USAGE = `Usage: npm run admin -- <command>
  accounts create --name NAME [--balance-cents N]
  accounts show --account ID
  keys create --account ID [--sandbox]
  keys revoke --key-prefix PREFIX
  credits add --account ID --cents N   (at least ${MINIMUM_TOP_UP_CENTS})
  connections connect --account ID < connection.json   (the body of POST /api/v1/social-accounts, on stdin)
  connections list --account ID
  connections remove --account ID --connection CONNECTION_ID`;

class UsageError extends Error {}

const silent = pino({ enabled: false });

function wholeCents(value: string | undefined, name: string): number {
  if (value === undefined || !/^\d+$/.test(value))
    throw new UsageError(`--${name} must be a whole number of cents`);
  return Number(value);
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

async function main(): Promise<unknown> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'balance-cents': { type: 'string' },
      account: { type: 'string' },
      sandbox: { type: 'boolean', default: false },
      'key-prefix': { type: 'string' },
      cents: { type: 'string' },
      connection: { type: 'string' },
    },
  });
  const command = positionals.join(' ');
  const known = [
    'accounts create',
    'accounts show',
    'keys create',
    'keys revoke',
    'credits add',
    'connections connect',
    'connections list',
    'connections remove',
  ];
  if (!known.includes(command))
    throw new UsageError(command ? `unknown command "${command}"` : 'no command given');

  const config = loadConfig();
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort);
  const database = openDatabase(config.databaseUrl ?? embedded!.connectionString, { max: 2 });
  try {
    await migrate(database.pool);
    const { db } = database;
    const accountOf = async (id: string) => {
      const account = await findAccount(db, id);
      if (!account) throw new UsageError(`no account ${id}`);
      return account;
    };
    switch (command) {
      case 'accounts create': {
        const balance =
          values['balance-cents'] === undefined ? 0 : wholeCents(values['balance-cents'], 'balance-cents');
        return await createAccount(db, required(values.name, 'name'), balance);
      }
      case 'accounts show': {
        const account = await accountOf(required(values.account, 'account'));
        const keys = await db
          .selectFrom('api_keys')
          .select(['prefix', 'sandbox', 'created_at', 'revoked_at'])
          .where('account_id', '=', account.id)
          .orderBy('created_at')
          .execute();
        return {
          account_id: account.id,
          name: account.name,
          created_at: new Date(account.created_at).toISOString(),
          ...(await ledgerSummary(db, account.id)),
          keys: keys.map((k) => ({ prefix: k.prefix, sandbox: k.sandbox, revoked: k.revoked_at !== null })),
        };
      }
      case 'keys create': {
        const account = await accountOf(required(values.account, 'account'));
        const key = await createApiKey(db, account.id, values.sandbox);
        return { account_id: account.id, [values.sandbox ? 'sandbox_key' : 'live_key']: key };
      }
      case 'keys revoke': {
        const prefix = required(values['key-prefix'], 'key-prefix');
        if (prefix.length < 8)
          throw new UsageError('--key-prefix must be the full prefix shown by "accounts show"');
        return { key_prefix: prefix, revoked: await revokeKeysByPrefix(db, prefix) };
      }
      case 'credits add': {
        const account = await accountOf(required(values.account, 'account'));
        const cents = wholeCents(values.cents, 'cents');
        if (cents < MINIMUM_TOP_UP_CENTS)
          throw new UsageError(`the minimum top-up is ${MINIMUM_TOP_UP_CENTS} cents`);
        const balance = await db.transaction().execute((tx) => topUp(tx, account.id, cents, 'admin top-up'));
        return { account_id: account.id, added_cents: cents, balance_cents: balance };
      }
      case 'connections connect': {
        const account = await accountOf(required(values.account, 'account'));
        // Tokens come on stdin, never as arguments, so they stay out of shell history and process lists.
        const body = await readJsonStdin();
        const { connection, replaced } = await connectionsOf(config, db).connect(account.id, body);
        return { connection: presentConnection(connection, clientsOf(config)), replaced };
      }
      case 'connections list': {
        const account = await accountOf(required(values.account, 'account'));
        const list = await connectionsOf(config, db).list(account.id);
        return { connections: list.map((c) => presentConnection(c, clientsOf(config))) };
      }
      case 'connections remove': {
        const account = await accountOf(required(values.account, 'account'));
        const id = required(values.connection, 'connection');
        await connectionsOf(config, db).remove(account.id, id);
        return { connection_id: id, deleted: true };
      }
    }
    throw new UsageError(`unknown command "${command}"`);
  } finally {
    await database.close();
    await embedded?.stop();
  }
}

function clientsOf(config: Config) {
  return createPublishing(config, undefined as never, silent).clients;
}

function connectionsOf(config: Config, db: Db) {
  return createPublishing(config, db, silent).connections;
}

async function readJsonStdin(): Promise<unknown> {
  if (process.stdin.isTTY) throw new UsageError('send the connection as JSON on stdin');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new UsageError('stdin is not JSON');
  }
}

main().then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`admin: ${error.message}\n${USAGE}\n`);
    else if (error instanceof ApiError)
      process.stderr.write(
        `admin: ${error.code}: ${error.message}\n${JSON.stringify(error.details ?? [])}\n`,
      );
    else process.stderr.write(`admin: ${(error as Error).message}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
