import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withUserUrlRules } from '../../platform/net/user-url.ts';
import { readWebsite } from './kit-input.ts';

test('a website is a domain or an http(s) URL, read as https', () => {
  assert.deepEqual(readWebsite('acme.co.uk'), { url: 'https://acme.co.uk/', domain: 'acme.co.uk' });
  assert.deepEqual(readWebsite('http://www.acme.com/about'), {
    url: 'https://www.acme.com/about',
    domain: 'acme.com',
  });
  assert.deepEqual(readWebsite('https://shop.acme.com'), {
    url: 'https://shop.acme.com/',
    domain: 'acme.com',
  });
});

test('a website meets the URL guard address rules', () => {
  for (const raw of ['ftp://acme.com', 'localhost', 'https://10.0.0.1/', 'intranet', 'https://a@acme.com/'])
    assert.ok('problem' in readWebsite(raw), raw);
});

test('plain http stays http only for a loopback test server the rules allow', () => {
  assert.ok('problem' in readWebsite('http://127.0.0.1:8080/'));
  assert.deepEqual(
    withUserUrlRules({ allowLoopback: true }, () => readWebsite('http://127.0.0.1:8080/')),
    { url: 'http://127.0.0.1:8080/', domain: '127.0.0.1' },
  );
});
