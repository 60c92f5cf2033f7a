import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { signWebhook, verifyWebhook } from './webhook-signature.ts';

test('signature is t=<unix>,v1=<hex HMAC-SHA256 of "t.body">', () => {
  const body = '{"event_type":"video.completed"}';
  const header = signWebhook('whsec_abc', body, 1_700_000_000);
  const expected = createHmac('sha256', 'whsec_abc').update(`1700000000.${body}`).digest('hex');
  assert.equal(header, `t=1700000000,v1=${expected}`);
});

test('verification accepts the right secret and refuses tampering, other secrets and stale timestamps', () => {
  const body = '{"a":1}';
  const header = signWebhook('s1', body, 1000);
  assert.equal(verifyWebhook('s1', body, header, { now: 1010 }), true);
  assert.equal(verifyWebhook('s2', body, header, { now: 1010 }), false);
  assert.equal(verifyWebhook('s1', '{"a":2}', header, { now: 1010 }), false);
  assert.equal(verifyWebhook('s1', body, header, { now: 5000 }), false);
  assert.equal(verifyWebhook('s1', body, 'garbage', { now: 1010 }), false);
});
