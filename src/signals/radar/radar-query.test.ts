import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError } from '../../platform/errors.ts';
import { isCountryCode } from './country-code.ts';
import { parseBreakingQuery, parseRadarQuery } from './radar-query.ts';

function refusal(run: () => unknown): { field: string; message: string; valid_values?: string[] }[] {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 400);
    assert.equal(error.code, 'INPUT_INVALID');
    return (error.details as { fields: { field: string; message: string }[] }).fields;
  }
  assert.fail('the query was accepted');
}

void describe('trends query parameters (spec 2 §4.1)', () => {
  void test('defaults: US, no category, 20 trends, min_virality 0.5, 24 hours', () => {
    assert.deepEqual(parseRadarQuery({}), {
      geo: 'US',
      category: undefined,
      limit: 20,
      minVirality: 0.5,
      windowHours: 24,
    });
  });

  void test('every parameter is read, geo case-insensitively', () => {
    assert.deepEqual(
      parseRadarQuery({
        geo: 'gb',
        category: 'science',
        limit: '100',
        min_virality: '0',
        window_hours: '168',
      }),
      { geo: 'GB', category: 'science', limit: 100, minVirality: 0, windowHours: 168 },
    );
    assert.equal(parseRadarQuery({ min_virality: '.75' }).minVirality, 0.75);
    assert.equal(parseRadarQuery({ min_virality: '1' }).minVirality, 1);
  });

  void test('each out-of-range or malformed value is a 400 naming its field', () => {
    const cases: [Record<string, string>, string][] = [
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ limit: '2.5' }, 'limit'],
      [{ limit: '' }, 'limit'],
      [{ window_hours: '169' }, 'window_hours'],
      [{ window_hours: '0' }, 'window_hours'],
      [{ window_hours: '1e2' }, 'window_hours'],
      [{ min_virality: '1.01' }, 'min_virality'],
      [{ min_virality: '-0.1' }, 'min_virality'],
      [{ min_virality: 'high' }, 'min_virality'],
      [{ min_virality: ' ' }, 'min_virality'],
      [{ geo: 'USA' }, 'geo'],
      [{ geo: 'XX' }, 'geo'],
      [{ geo: 'EU' }, 'geo'],
      [{ geo: 'UK' }, 'geo'],
      [{ category: 'weather' }, 'category'],
      [{ page: '2' }, 'page'],
    ];
    for (const [query, field] of cases) {
      const fields = refusal(() => parseRadarQuery(query));
      assert.deepEqual(
        fields.map((f) => f.field),
        [field],
        JSON.stringify(query),
      );
    }
    const category = refusal(() => parseRadarQuery({ category: 'weather' }))[0]!;
    assert.deepEqual(category.valid_values, [
      'tech',
      'business',
      'entertainment',
      'sports',
      'health',
      'politics',
      'science',
    ]);
  });

  void test('all offending fields are named at once', () => {
    const fields = refusal(() => parseRadarQuery({ limit: '0', geo: 'ZZ', window_hours: 'x' }));
    assert.deepEqual(fields.map((f) => f.field).sort(), ['geo', 'limit', 'window_hours']);
  });

  void test('a repeated parameter is refused rather than one of its values picked', () => {
    assert.deepEqual(
      refusal(() => parseRadarQuery({ geo: ['US', 'GB'] })).map((f) => f.field),
      ['geo'],
    );
  });

  void test('breaking: window defaults to 18 hours, spelled windowHours or window_hours', () => {
    assert.equal(parseBreakingQuery({}).query.windowHours, 18);
    assert.equal(parseBreakingQuery({ windowHours: '6' }).query.windowHours, 6);
    assert.equal(parseBreakingQuery({ window_hours: '12' }).query.windowHours, 12);
    const both = parseBreakingQuery({ windowHours: '6', window_hours: '12' });
    assert.equal(both.query.windowHours, 12);
    assert.match(both.warnings[0]!, /"window_hours" was used/);
    assert.deepEqual(
      refusal(() => parseBreakingQuery({ windowHours: '500' })).map((f) => f.field),
      ['windowHours'],
    );
  });

  void test('country codes: the 249 assigned ISO 3166-1 alpha-2 codes, nothing else', () => {
    let assigned = 0;
    for (let a = 65; a <= 90; a++)
      for (let b = 65; b <= 90; b++) if (isCountryCode(String.fromCharCode(a, b))) assigned++;
    assert.equal(assigned, 249);
    for (const code of ['US', 'GB', 'DE', 'JP', 'BR', 'AQ', 'SS']) assert.ok(isCountryCode(code), code);
    for (const code of ['us', 'XK', 'EU', 'UN', 'ZZ', 'SU', 'YU'])
      assert.equal(isCountryCode(code), false, code);
  });
});
