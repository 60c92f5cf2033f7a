import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError } from '../platform/errors.ts';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES, parseJsonBody } from './json-body.ts';

function refusal(body: Buffer | string): ApiError {
  try {
    parseJsonBody(typeof body === 'string' ? Buffer.from(body) : body);
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return error;
  }
  assert.fail('expected the body to be refused');
}

const field = (error: ApiError): string =>
  (error.details as { fields: { field: string }[] }).fields[0]!.field;

const nested = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

void describe('parseJsonBody', () => {
  void test(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses one more, naming where`, () => {
    assert.deepEqual(parseJsonBody(Buffer.from(nested(MAX_JSON_DEPTH))), JSON.parse(nested(MAX_JSON_DEPTH)));
    const deep = refusal(nested(MAX_JSON_DEPTH + 1));
    assert.equal(deep.status, 400);
    assert.equal(field(deep), '[0]'.repeat(MAX_JSON_DEPTH));
    const objects = refusal(`{"a":{"b c":[${'{"d":'.repeat(40)}1${'}'.repeat(40)}]}}`);
    assert.equal(field(objects), `a["b c"][0]${'.d'.repeat(MAX_JSON_DEPTH - 3)}`);
  });

  void test(`accepts ${MAX_JSON_VALUES} values and refuses one more with 413`, () => {
    const values = (n: number): string => `[${Array.from({ length: n - 1 }, () => '1').join(',')}]`;
    assert.equal(
      (parseJsonBody(Buffer.from(values(MAX_JSON_VALUES))) as unknown[]).length,
      MAX_JSON_VALUES - 1,
    );
    const many = refusal(values(MAX_JSON_VALUES + 1));
    assert.equal(many.status, 413);
    assert.equal(many.code, 'PAYLOAD_TOO_LARGE');
    const keys = `{${Array.from({ length: MAX_JSON_VALUES }, (_, i) => `"k${i}":0`).join(',')}}`;
    assert.equal(refusal(keys).status, 413);
  });

  void test('refuses NUL and lone surrogates in values and names, with the field path', () => {
    const cases: [string, string, RegExp][] = [
      ['"\\u0000"', '(body)', /NUL character \(\\u0000\) at position 0/],
      ['{"a":["ok","x\\u0000"]}', 'a[1]', /NUL character \(\\u0000\) at position 1/],
      ['{"a":"\\ud83d"}', 'a', /unpaired UTF-16 surrogate \(\\ud83d\)/],
      ['{"a":"\\ude00\\ud83d"}', 'a', /unpaired UTF-16 surrogate \(\\ude00\) at position 0/],
      ['{"a":{"\\ud800":1}}', 'a["\\ud800"]', /has a name that contains an unpaired/],
    ];
    for (const [body, path, message] of cases) {
      const error = refusal(body);
      assert.equal(error.status, 400, body);
      assert.equal(error.code, 'INPUT_INVALID');
      assert.equal(field(error), path, body);
      assert.match(error.message, message);
    }
    assert.deepEqual(parseJsonBody(Buffer.from('{"a":"\\ud83d\\ude00 \\u0001"}')), { a: '😀 \u0001' });
  });

  void test('refuses invalid UTF-8, including overlong forms and encoded surrogates', () => {
    for (const bytes of [[0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
      const body = Buffer.concat([Buffer.from('{"a":"'), Buffer.from(bytes), Buffer.from('"}')]);
      assert.match(refusal(body).message, /not valid UTF-8/, JSON.stringify(bytes));
    }
    assert.deepEqual(parseJsonBody(Buffer.from('{"a":"crêpe ☕ 😀"}')), { a: 'crêpe ☕ 😀' });
  });

  void test('refuses keys that reach a prototype, and says why JSON is malformed', () => {
    assert.equal(field(refusal('{"__proto__":{"admin":true}}')), '__proto__');
    assert.equal(field(refusal('{"a":{"constructor":{"prototype":{}}}}')), 'a.constructor');
    assert.deepEqual(parseJsonBody(Buffer.from('{"constructor":"a name"}')), { constructor: 'a name' });
    assert.match(refusal('{"a":1,}').message, /not valid JSON \(.*position 7\)/);
    assert.match(refusal('').message, /body is empty/);
  });
});
