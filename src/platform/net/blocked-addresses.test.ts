import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyAddress, type AddressCategory } from './blocked-addresses.ts';

const cases: [string, AddressCategory][] = [
  ['93.184.215.14', 'public'],
  ['8.8.8.8', 'public'],
  ['172.15.255.255', 'public'],
  ['172.32.0.1', 'public'],
  ['100.63.255.255', 'public'],
  ['100.128.0.1', 'public'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'carrier-grade-nat'],
  ['100.127.255.255', 'carrier-grade-nat'],
  ['169.254.1.1', 'link-local'],
  ['169.254.169.254', 'cloud-metadata'],
  ['169.254.170.2', 'cloud-metadata'],
  ['100.100.100.200', 'cloud-metadata'],
  ['192.0.0.8', 'ietf-protocol'],
  ['192.0.2.1', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['2606:4700:4700::1111', 'public'],
  ['2a00:1450:4001:82a::200e', 'public'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'cloud-metadata'],
  ['::ffff:8.8.8.8', 'public'],
  ['::7f00:1', 'ipv4-compatible'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['fec0::1', 'site-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456::1', 'unique-local'],
  ['fd00:ec2::254', 'cloud-metadata'],
  ['ff02::1', 'multicast'],
  ['100::1', 'discard-only'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2001:2::1', 'benchmarking'],
  ['2001:20::1', 'orchid'],
  ['64:ff9b::a00:1', 'private'],
  ['64:ff9b::7f00:1', 'tunnelled-loopback'],
  ['64:ff9b::a9fe:a9fe', 'cloud-metadata'],
  ['64:ff9b::808:808', 'public'],
  ['64:ff9b:1::a00:1', 'not-global-unicast'],
  ['2002:c0a8:101::1', 'private'],
  ['2002:7f00:1::1', 'tunnelled-loopback'],
  ['2002:808:808::1', 'public'],
  // Teredo client 10.0.0.1 (stored inverted), public server 65.54.227.120.
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private'],
  // Teredo server 10.0.0.1, public client 8.8.8.8 (inverted f7f7:f7f7).
  ['2001:0:a00:1:8000:63bf:f7f7:f7f7', 'private'],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'public'],
  ['4000::1', 'not-global-unicast'],
  ['::ffff:0:a00:1', 'not-global-unicast'],
  ['not-an-address', 'unparseable'],
  ['', 'unparseable'],
];

void describe('classifyAddress', () => {
  for (const [address, expected] of cases) {
    void test(`${address || '(empty)'} -> ${expected}`, () => {
      assert.equal(classifyAddress(address), expected);
    });
  }
});
