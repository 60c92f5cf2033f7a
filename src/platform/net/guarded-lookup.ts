import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress } from './blocked-addresses.ts';
import { UrlRejectedError } from './url-rejected-error.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has. Injectable so tests never touch real DNS. */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: HostLookup = async (hostname) => {
  const answers = await dnsLookupAsync(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

// `localhost` is answered here, not by /etc/hosts or the injected lookup, so it can only mean loopback.
const LOCALHOST: ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/**
 * Resolves `hostname` and refuses unless EVERY address is public (or loopback when allowed):
 * one private answer among public ones is enough for an attacker who controls the DNS zone.
 */
export async function resolveChecked(
  hostname: string,
  lookup: HostLookup,
  allowLoopback: boolean,
): Promise<ResolvedAddress[]> {
  const host = hostname.replace(/\.+$/, '').toLowerCase();
  if (allowLoopback && host === 'localhost') return LOCALHOST;
  let answers: ResolvedAddress[];
  const literal = isIP(host);
  if (literal !== 0) {
    answers = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      answers = await lookup(host);
    } catch (err) {
      throw new UrlRejectedError('dns_failed', `could not resolve host "${host}"`, { cause: err });
    }
  }
  if (answers.length === 0) throw new UrlRejectedError('dns_failed', `host "${host}" has no addresses`);
  for (const answer of answers) {
    const category = classifyAddress(answer.address);
    if (category === 'public' || (category === 'loopback' && allowLoopback)) continue;
    throw new UrlRejectedError('private_address', `host "${host}" resolves to a ${category} address`);
  }
  return answers;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `net.connect` lookup that resolves through `resolveChecked`, so a socket only ever connects to an
 * address checked at that moment (defeats DNS rebinding between the pre-check and the connect).
 */
export function guardedConnectLookup(
  lookup: HostLookup,
  allowLoopback: boolean,
): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    resolveChecked(hostname, lookup, allowLoopback).then(
      (answers) => {
        const wanted =
          options.family === 4 || options.family === 'IPv4'
            ? 4
            : options.family === 6 || options.family === 'IPv6'
              ? 6
              : 0;
        const usable = wanted === 0 ? answers : answers.filter((a) => a.family === wanted);
        const first = usable[0];
        if (!first) {
          const err: NodeJS.ErrnoException = new Error(`host "${hostname}" has no IPv${wanted} address`);
          err.code = 'ENOTFOUND';
          callback(err, '');
        } else if (options.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
