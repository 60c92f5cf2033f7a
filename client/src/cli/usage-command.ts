import { Reelsmith } from '../client.ts';
import { usd } from './format.ts';
import { apiKey, serverUrl, type ConnectionFlags } from './settings.ts';

export interface UsageFlags extends ConnectionFlags {
  json: boolean;
}

const write = (line: string) => process.stdout.write(`${line}\n`);

/** `reelsmith usage`: balance, ledger totals and the flat prices (GET /api/v1/usage). */
export async function usageCommand(flags: UsageFlags): Promise<void> {
  const client = new Reelsmith({
    baseUrl: serverUrl(flags, process.env),
    apiKey: apiKey(flags, process.env),
  });
  const usage = await client.usage();
  if (flags.json) {
    write(JSON.stringify(usage));
    return;
  }
  write(`Account  ${usage.account_name ?? usage.account_id} (${usage.account_id}), ${usage.key_mode} key`);
  write(`Balance  ${usd(usage.balance_usd_cents)}`);
  write(
    `Ledger   topped up ${usd(usage.ledger.topped_up_usd_cents)}, charged ${usd(usage.ledger.charged_usd_cents)}, ` +
      `refunded ${usd(usage.ledger.refunded_usd_cents)} (${usage.ledger.entries} entries)`,
  );
  write('Prices');
  for (const [operation, cents] of Object.entries(usage.pricing.operations))
    write(`  ${operation.padEnd(24)} ${cents === null ? 'priced per request (see /tools)' : usd(cents)}`);
}
