import ipaddr from 'ipaddr.js';

/**
 * 'public' may be fetched; 'loopback' only under the test-only loopback switch; every other
 * category is refused. Categories name why (they appear in error messages).
 */
export type AddressCategory =
  | 'public'
  | 'loopback'
  | 'unspecified'
  | 'private'
  | 'carrier-grade-nat'
  | 'link-local'
  | 'cloud-metadata'
  | 'ietf-protocol'
  | 'documentation'
  | 'benchmarking'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'unique-local'
  | 'site-local'
  | 'discard-only'
  | 'orchid'
  | 'ipv4-compatible'
  | 'tunnelled-loopback'
  | 'not-global-unicast'
  | 'unparseable';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

const cidr = (text: string): Range => ipaddr.parseCIDR(text);

// Checked before the broader ranges that contain them, so errors say "cloud-metadata".
const METADATA_V4 = new Set(['169.254.169.254', '100.100.100.200', '169.254.170.2']);
const METADATA_V6 = new Set(['fd00:ec2::254']);

// First match wins; anything unmatched is public IPv4 unicast.
const V4_RANGES: [AddressCategory, Range[]][] = [
  ['unspecified', [cidr('0.0.0.0/8')]],
  ['loopback', [cidr('127.0.0.0/8')]],
  ['private', [cidr('10.0.0.0/8'), cidr('172.16.0.0/12'), cidr('192.168.0.0/16')]],
  ['carrier-grade-nat', [cidr('100.64.0.0/10')]],
  ['link-local', [cidr('169.254.0.0/16')]],
  ['ietf-protocol', [cidr('192.0.0.0/24'), cidr('192.88.99.0/24')]],
  ['documentation', [cidr('192.0.2.0/24'), cidr('198.51.100.0/24'), cidr('203.0.113.0/24')]],
  ['benchmarking', [cidr('198.18.0.0/15')]],
  ['multicast', [cidr('224.0.0.0/4')]],
  ['broadcast', [cidr('255.255.255.255/32')]],
  ['reserved', [cidr('240.0.0.0/4')]],
];

// Only 2000::/3 is assigned global unicast; inside it these are still not reachable publicly.
const V6_RANGES: [AddressCategory, Range[]][] = [
  ['documentation', [cidr('2001:db8::/32'), cidr('3fff::/20')]],
  ['benchmarking', [cidr('2001:2::/48')]],
  ['orchid', [cidr('2001:10::/28'), cidr('2001:20::/28')]],
  ['ietf-protocol', [cidr('2001::/23')]],
];
const V6_NON_GLOBAL: [AddressCategory, Range[]][] = [
  ['unique-local', [cidr('fc00::/7')]],
  ['link-local', [cidr('fe80::/10')]],
  ['site-local', [cidr('fec0::/10')]],
  ['multicast', [cidr('ff00::/8')]],
  ['discard-only', [cidr('100::/64')]],
  ['ipv4-compatible', [cidr('::/96')]],
];
const GLOBAL_UNICAST = cidr('2000::/3');
const NAT64 = cidr('64:ff9b::/96');
const SIX_TO_FOUR = cidr('2002::/16');
const TEREDO = cidr('2001::/32');

function matchTable(
  addr: ipaddr.IPv4 | ipaddr.IPv6,
  table: [AddressCategory, Range[]][],
): AddressCategory | null {
  for (const [category, ranges] of table) {
    if (ranges.some((range) => range[0].kind() === addr.kind() && addr.match(range))) return category;
  }
  return null;
}

function v4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function classifyV4(addr: ipaddr.IPv4): AddressCategory {
  if (METADATA_V4.has(addr.toString())) return 'cloud-metadata';
  return matchTable(addr, V4_RANGES) ?? 'public';
}

/** An IPv6 address carrying an IPv4 one is only as public as the IPv4 it reaches. */
function viaEmbedded(embedded: ipaddr.IPv4[]): AddressCategory {
  for (const v4 of embedded) {
    const category = classifyV4(v4);
    if (category !== 'public') return category === 'loopback' ? 'tunnelled-loopback' : category;
  }
  return 'public';
}

function classifyV6(addr: ipaddr.IPv6): AddressCategory {
  const p = addr.parts as [number, number, number, number, number, number, number, number];
  if (p.every((part) => part === 0)) return 'unspecified';
  if (p.slice(0, 7).every((part) => part === 0) && p[7] === 1) return 'loopback';
  // The kernel sends ::ffff:a.b.c.d to the IPv4 host itself, loopback included.
  if (addr.isIPv4MappedAddress()) return classifyV4(addr.toIPv4Address());
  if (METADATA_V6.has(addr.toNormalizedString()) || METADATA_V6.has(addr.toString())) return 'cloud-metadata';
  if (addr.match(NAT64)) return viaEmbedded([v4FromParts(p[6], p[7])]);
  if (addr.match(SIX_TO_FOUR)) return viaEmbedded([v4FromParts(p[1], p[2])]);
  // Teredo: server IPv4 in bits 32-63, client IPv4 bit-inverted in the last 32 bits.
  if (addr.match(TEREDO))
    return viaEmbedded([v4FromParts(p[2], p[3]), v4FromParts(~p[6] & 0xffff, ~p[7] & 0xffff)]);
  const nonGlobal = matchTable(addr, V6_NON_GLOBAL);
  if (nonGlobal) return nonGlobal;
  if (!addr.match(GLOBAL_UNICAST)) return 'not-global-unicast';
  return matchTable(addr, V6_RANGES) ?? 'public';
}

/** Classifies one IP address string (as returned by DNS or written in a URL, brackets removed). */
export function classifyAddress(address: string): AddressCategory {
  if (!ipaddr.isValid(address)) return 'unparseable';
  const addr = ipaddr.parse(address);
  return addr.kind() === 'ipv4' ? classifyV4(addr as ipaddr.IPv4) : classifyV6(addr as ipaddr.IPv6);
}
