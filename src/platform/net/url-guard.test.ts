import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  UrlGuard,
  UrlRejectedError,
  type HostLookup,
  type ResolvedAddress,
  type UrlRejectReason,
} from './url-guard.ts';

const PUBLIC_V4: ResolvedAddress = { address: '93.184.215.14', family: 4 };

/** Lookup over a fixed table; unknown names fail like NXDOMAIN. Never touches real DNS. */
function tableLookup(table: Record<string, string[]>): HostLookup {
  return async (hostname) => {
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const dnsTable: Record<string, string[]> = {
  'example.com': [PUBLIC_V4.address],
  'cdn.example.com': [PUBLIC_V4.address],
  'xn--bcher-kva.de': [PUBLIC_V4.address],
  'v6.example.com': ['2606:4700:4700::1111'],
  'dual.example.com': [PUBLIC_V4.address, '2606:4700:4700::1111'],
  'nat64-public.example.com': ['64:ff9b::808:808'],
  'mapped-public.example.com': ['::ffff:8.8.8.8'],
  'loopback.example.com': ['127.0.0.1'],
  'loopback6.example.com': ['::1'],
  'ten.example.com': ['10.1.2.3'],
  'mixed.example.com': [PUBLIC_V4.address, '10.0.0.5'],
  'mixed6.example.com': ['2606:4700:4700::1111', 'fd12::1'],
  'meta.example.com': ['169.254.169.254'],
  'alibaba-meta.example.com': ['100.100.100.200'],
  'ec2v6-meta.example.com': ['fd00:ec2::254'],
  'cgnat.example.com': ['100.64.0.1'],
  'zero.example.com': ['0.0.0.0'],
  'ula.example.com': ['fd12::1'],
  'linklocal6.example.com': ['fe80::1'],
  'mapped-private.example.com': ['::ffff:192.168.1.1'],
  'mapped-loopback.example.com': ['::ffff:127.0.0.1'],
  'nat64-private.example.com': ['64:ff9b::c0a8:101'],
  'sixtofour-private.example.com': ['2002:c0a8:101::1'],
  'teredo-private.example.com': ['2001:0:4136:e378:8000:63bf:f5ff:fffe'],
  'benchmark.example.com': ['198.18.0.1'],
  'doc.example.com': ['203.0.113.5'],
  'multicast.example.com': ['239.1.1.1'],
  'broadcast.example.com': ['255.255.255.255'],
  '127.0.0.1.nip.io': ['127.0.0.1'],
  'empty.example.com': [],
};

async function rejection(promise: Promise<unknown>): Promise<UrlRejectedError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof UrlRejectedError, `expected UrlRejectedError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the URL to be refused');
}

const longUrl = `https://example.com/${'a'.repeat(2100)}`;

// [url, reason] refused with the loopback switch OFF.
const badUrls: [string, UrlRejectReason][] = [
  ['http://example.com/', 'scheme_not_allowed'],
  ['HTTP://EXAMPLE.COM/', 'scheme_not_allowed'],
  ['ftp://example.com/file.mp4', 'scheme_not_allowed'],
  ['file:///etc/passwd', 'scheme_not_allowed'],
  ['gopher://example.com:70/_GET', 'scheme_not_allowed'],
  ['data:text/plain,hello', 'scheme_not_allowed'],
  ['javascript:alert(1)', 'scheme_not_allowed'],
  ['ws://example.com/socket', 'scheme_not_allowed'],
  ['http://127.0.0.1/', 'scheme_not_allowed'],
  ['http://localhost/', 'scheme_not_allowed'],
  ['http://2130706433/', 'scheme_not_allowed'],
  ['http://0x7f.1/', 'scheme_not_allowed'],
  ['http://017700000001/', 'scheme_not_allowed'],
  ['http://127.1/', 'scheme_not_allowed'],
  ['https://user:pass@example.com/', 'userinfo_not_allowed'],
  ['https://user@example.com/', 'userinfo_not_allowed'],
  ['https://:secret@example.com/', 'userinfo_not_allowed'],
  ['https://example.com@127.0.0.1/', 'userinfo_not_allowed'],
  ['https://127.0.0.1/', 'ip_literal'],
  ['https://2130706433/', 'ip_literal'],
  ['https://0x7f.1/', 'ip_literal'],
  ['https://017700000001/', 'ip_literal'],
  ['https://127.1/', 'ip_literal'],
  ['https://0177.0.0.1/', 'ip_literal'],
  ['https://0x7f000001/', 'ip_literal'],
  ['https://%31%32%37.0.0.1/', 'ip_literal'],
  ['https://0/', 'ip_literal'],
  ['https://10.0.0.1/', 'ip_literal'],
  ['https://192.168.0.1:8443/admin', 'ip_literal'],
  ['https://169.254.169.254/latest/meta-data/', 'ip_literal'],
  ['https://100.100.100.200/latest/meta-data/', 'ip_literal'],
  ['https://8.8.8.8/', 'ip_literal'],
  ['https://[::1]/', 'ip_literal'],
  ['https://[::]/', 'ip_literal'],
  ['https://[::ffff:127.0.0.1]/', 'ip_literal'],
  ['https://[0:0:0:0:0:ffff:7f00:1]/', 'ip_literal'],
  ['https://[fe80::1]/', 'ip_literal'],
  ['https://[fd00:ec2::254]/', 'ip_literal'],
  ['https://[64:ff9b::10.0.0.1]/', 'ip_literal'],
  ['https://[2002:c0a8:101::1]/', 'ip_literal'],
  ['https://[2606:4700:4700::1111]/', 'ip_literal'],
  ['https://localhost/', 'internal_host'],
  ['https://LOCALHOST./', 'internal_host'],
  ['https://ｌｏｃａｌｈｏｓｔ/', 'internal_host'],
  ['https://app.localhost/', 'internal_host'],
  ['https://printer.local/', 'internal_host'],
  ['https://metadata.google.internal/computeMetadata/v1/', 'internal_host'],
  ['https://router.home.arpa/', 'internal_host'],
  ['https://1.0.0.127.in-addr.arpa/', 'internal_host'],
  ['https://nas.lan/', 'internal_host'],
  ['https://kubernetes.default.svc/', 'internal_host'],
  ['https://intranet/', 'internal_host'],
  ['https://metadata/', 'internal_host'],
  ['https://instance-data./', 'internal_host'],
  [longUrl, 'url_too_long'],
  ['', 'invalid_url'],
  ['not a url', 'invalid_url'],
  ['/relative/path.png', 'invalid_url'],
  [' https://example.com/', 'invalid_url'],
  ['https://exa\nmple.com/', 'invalid_url'],
  ['https://example.com/\tx', 'invalid_url'],
  ['https://[fe80::1%25eth0]/', 'invalid_url'],
  ['https://example.com:0/', 'invalid_url'],
  ['https://1.2.3.4.5/', 'invalid_url'],
];

// Syntactically fine; refused once DNS answers are checked (switch OFF).
const badByDns: [string, UrlRejectReason][] = [
  ['https://loopback.example.com/', 'private_address'],
  ['https://loopback6.example.com/', 'private_address'],
  ['https://127.0.0.1.nip.io/', 'private_address'],
  ['https://ten.example.com/', 'private_address'],
  ['https://mixed.example.com/', 'private_address'],
  ['https://mixed6.example.com/', 'private_address'],
  ['https://meta.example.com/', 'private_address'],
  ['https://alibaba-meta.example.com/', 'private_address'],
  ['https://ec2v6-meta.example.com/', 'private_address'],
  ['https://cgnat.example.com/', 'private_address'],
  ['https://zero.example.com/', 'private_address'],
  ['https://ula.example.com/', 'private_address'],
  ['https://linklocal6.example.com/', 'private_address'],
  ['https://mapped-private.example.com/', 'private_address'],
  ['https://mapped-loopback.example.com/', 'private_address'],
  ['https://nat64-private.example.com/', 'private_address'],
  ['https://sixtofour-private.example.com/', 'private_address'],
  ['https://teredo-private.example.com/', 'private_address'],
  ['https://benchmark.example.com/', 'private_address'],
  ['https://doc.example.com/', 'private_address'],
  ['https://multicast.example.com/', 'private_address'],
  ['https://broadcast.example.com/', 'private_address'],
  ['https://nxdomain.example.com/', 'dns_failed'],
  ['https://empty.example.com/', 'dns_failed'],
];

const goodUrls = [
  'https://example.com/',
  'https://cdn.example.com:8443/path/logo.png?size=2#top',
  'https://EXAMPLE.com./x',
  'https://bücher.de/',
  'https://v6.example.com/',
  'https://dual.example.com/',
  'https://nat64-public.example.com/',
  'https://mapped-public.example.com/',
];

void describe('UrlGuard refuses bad URLs (loopback switch off)', () => {
  const guard = new UrlGuard({ allowLoopback: false, lookup: tableLookup(dnsTable) });
  assert.ok(badUrls.length + badByDns.length >= 40);

  for (const [url, reason] of badUrls) {
    void test(`syntax: ${JSON.stringify(url.slice(0, 60))} -> ${reason}`, async () => {
      assert.throws(
        () => guard.checkUrlSyntax(url),
        (err) => err instanceof UrlRejectedError && err.reason === reason,
      );
      assert.equal((await rejection(guard.assertAllowed(url))).reason, reason);
    });
  }

  for (const [url, reason] of badByDns) {
    void test(`dns: ${url} -> ${reason}`, async () => {
      guard.checkUrlSyntax(url);
      assert.equal((await rejection(guard.assertAllowed(url))).reason, reason);
    });
  }

  void test('messages name the host but never echo credentials, paths or queries', async () => {
    const userinfo = await rejection(guard.assertAllowed('https://admin:hunter2@example.com/?token=abc'));
    assert.doesNotMatch(userinfo.message, /hunter2|admin|token|abc/);
    const dns = await rejection(guard.assertAllowed('https://meta.example.com/secret-path?key=k1'));
    assert.match(dns.message, /meta\.example\.com/);
    assert.match(dns.message, /cloud-metadata/);
    assert.doesNotMatch(dns.message, /secret-path|k1/);
  });
});

void describe('UrlGuard accepts public URLs', () => {
  const guard = new UrlGuard({ allowLoopback: false, lookup: tableLookup(dnsTable) });
  for (const url of goodUrls) {
    void test(url, async () => {
      const syntax = guard.checkUrlSyntax(url);
      const checked = await guard.assertAllowed(url);
      assert.equal(checked.href, syntax.href);
      assert.equal(checked.protocol, 'https:');
    });
  }
});

void describe('UrlGuard with the loopback switch on', () => {
  const guard = new UrlGuard({ allowLoopback: true, lookup: tableLookup(dnsTable) });

  for (const url of [
    'http://127.0.0.1:8080/hook',
    'https://127.0.0.1/',
    'http://[::1]:3000/',
    'http://localhost:3000/x',
    'https://localhost./',
    'http://0x7f.1/',
    'https://loopback.example.com/',
  ]) {
    void test(`allows ${url}`, async () => {
      assert.equal((await guard.assertAllowed(url)).href, new URL(url).href);
    });
  }

  const stillRefused: [string, UrlRejectReason][] = [
    ['http://example.com/', 'scheme_not_allowed'],
    ['http://10.0.0.1/', 'scheme_not_allowed'],
    ['http://loopback.example.com/', 'scheme_not_allowed'],
    ['ftp://127.0.0.1/', 'scheme_not_allowed'],
    ['https://10.0.0.1/', 'ip_literal'],
    ['https://169.254.169.254/', 'ip_literal'],
    ['https://[::ffff:10.0.0.1]/', 'ip_literal'],
    ['https://[64:ff9b::7f00:1]/', 'ip_literal'],
    ['https://app.localhost/', 'internal_host'],
    ['https://printer.local/', 'internal_host'],
    ['https://metadata.google.internal/', 'internal_host'],
    ['http://user:pw@127.0.0.1/', 'userinfo_not_allowed'],
    ['https://ten.example.com/', 'private_address'],
    ['https://meta.example.com/', 'private_address'],
    ['https://mapped-private.example.com/', 'private_address'],
  ];
  for (const [url, reason] of stillRefused) {
    void test(`still refuses ${url} -> ${reason}`, async () => {
      assert.equal((await rejection(guard.assertAllowed(url))).reason, reason);
    });
  }
});

void describe('DNS rebinding is stopped at connect time', () => {
  void test('public at check time, loopback at connect time: no socket is opened', async () => {
    const seen: string[] = [];
    let calls = 0;
    const lookup: HostLookup = async (hostname) => {
      seen.push(hostname);
      calls += 1;
      return calls === 1 ? [PUBLIC_V4] : [{ address: '127.0.0.1', family: 4 }];
    };
    const guard = new UrlGuard({ allowLoopback: false, lookup });
    try {
      const err = await rejection(guard.request('https://rebind.example.com/', { timeoutMs: 5000 }));
      assert.equal(err.reason, 'private_address');
      assert.match(err.message, /loopback/);
      assert.equal(calls, 2);
      assert.deepEqual(seen, ['rebind.example.com', 'rebind.example.com']);
    } finally {
      await guard.close();
    }
  });

  void test('with the switch on, a private answer appearing at connect time is refused', async () => {
    let calls = 0;
    const lookup: HostLookup = async () => {
      calls += 1;
      return calls === 1
        ? [{ address: '127.0.0.1', family: 4 }]
        : [
            { address: '127.0.0.1', family: 4 },
            { address: '10.0.0.1', family: 4 },
          ];
    };
    const guard = new UrlGuard({ allowLoopback: true, lookup });
    try {
      const err = await rejection(guard.request('https://rebind.example.com:9/', { timeoutMs: 5000 }));
      assert.equal(err.reason, 'private_address');
      assert.match(err.message, /private/);
      assert.equal(calls, 2);
    } finally {
      await guard.close();
    }
  });

  void test('a lookup that never answers is cut off by the timeout', async () => {
    const guard = new UrlGuard({
      allowLoopback: false,
      lookup: () => new Promise<ResolvedAddress[]>(() => {}),
    });
    const started = Date.now();
    const err = await rejection(guard.assertAllowed('https://slow-dns.example.com/', { timeoutMs: 150 }));
    assert.equal(err.reason, 'timeout');
    assert.ok(Date.now() - started < 2000);
    await guard.close();
  });
});
