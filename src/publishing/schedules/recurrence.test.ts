import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import rrulePackage from 'rrule';
import { ApiError } from '../../platform/errors.ts';
import {
  canonicalTimeZone,
  nextOccurrence,
  parseRecurrence,
  planTick,
  type Recurrence,
  type RecurrenceInput,
  upcomingOccurrences,
} from './recurrence.ts';

const { RRule } = rrulePackage;
const at = (iso: string) => new Date(iso);
const iso = (dates: { at: Date }[]) => dates.map((d) => d.at.toISOString());

function refused(input: RecurrenceInput, now: Date, field: string): ApiError {
  try {
    parseRecurrence(input, now);
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'INPUT_INVALID');
    const fields = (error.details as { fields: { field: string }[] }).fields.map((f) => f.field);
    assert.ok(fields.includes(field), `${error.message} names ${fields.join(', ')}, not ${field}`);
    return error;
  }
  assert.fail(`${JSON.stringify(input)} was accepted`);
}

void describe('cron recurrences', () => {
  void test('every minute fires on each whole minute after now', () => {
    const now = at('2026-01-01T12:00:30Z');
    const every = parseRecurrence({ cron: '* * * * *', time_zone: 'UTC' }, now);
    assert.deepEqual(iso(upcomingOccurrences(every, now, null, 3)), [
      '2026-01-01T12:01:00.000Z',
      '2026-01-01T12:02:00.000Z',
      '2026-01-01T12:03:00.000Z',
    ]);
  });

  void test('local times hold across a DST change (America/New_York, 8 March 2026)', () => {
    const now = at('2026-03-06T12:00:00Z');
    const nine = parseRecurrence({ cron: '0 9 * * *', time_zone: 'America/New_York' }, now);
    assert.deepEqual(iso(upcomingOccurrences(nine, now, null, 3)), [
      '2026-03-06T14:00:00.000Z',
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
    ]);
    // 02:30 does not exist on the 8th: it runs once that day, after the jump.
    const skipped = parseRecurrence({ cron: '30 2 * * *', time_zone: 'America/New_York' }, now);
    assert.deepEqual(iso(upcomingOccurrences(skipped, now, null, 3)), [
      '2026-03-07T07:30:00.000Z',
      '2026-03-08T07:30:00.000Z',
      '2026-03-09T06:30:00.000Z',
    ]);
  });

  void test('start_at holds back the first run', () => {
    const now = at('2026-01-01T12:00:00Z');
    const later = parseRecurrence(
      { cron: '0 * * * *', start_at: '2026-01-02T08:30', time_zone: 'Europe/Paris' },
      now,
    );
    assert.equal(nextOccurrence(later, now, null)?.at.toISOString(), '2026-01-02T08:00:00.000Z');
  });

  void test('a seconds field fires more than once a minute and is refused', () => {
    const now = at('2026-01-01T12:00:00Z');
    const error = refused({ cron: '*/10 * * * * *', time_zone: 'UTC' }, now, 'cron');
    assert.match(error.message, /more than once a minute/);
    refused({ cron: '* * * *', time_zone: 'UTC' }, now, 'cron');
    refused({ cron: '61 * * * *', time_zone: 'UTC' }, now, 'cron');
    refused({ cron: '@reboot', time_zone: 'UTC' }, now, 'cron');
    // 30 February never comes.
    refused({ cron: '0 0 30 2 *', time_zone: 'UTC' }, now, 'cron');
    assert.equal(parseRecurrence({ cron: '@daily', time_zone: 'UTC' }, now).expression, '@daily');
  });
});

void describe('RRULE recurrences', () => {
  void test('a daily rule keeps its local hour across the European DST change (29 March 2026)', () => {
    const now = at('2026-03-27T12:00:00Z');
    const rule = parseRecurrence(
      { rrule: 'RRULE:FREQ=DAILY;BYHOUR=9;BYMINUTE=0', time_zone: 'Europe/Paris' },
      now,
    );
    assert.equal(rule.expression, 'FREQ=DAILY;BYHOUR=9;BYMINUTE=0');
    assert.deepEqual(iso(upcomingOccurrences(rule, now, null, 3)), [
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
    ]);
  });

  void test('a repeated wall time (autumn) runs at its first occurrence', () => {
    const now = at('2026-10-31T12:00:00Z');
    const rule = parseRecurrence(
      { rrule: 'FREQ=DAILY;BYHOUR=1;BYMINUTE=30', time_zone: 'America/New_York' },
      now,
    );
    assert.deepEqual(iso(upcomingOccurrences(rule, now, null, 2)), [
      '2026-11-01T05:30:00.000Z', // 01:30 EDT, not 01:30 EST an hour later
      '2026-11-02T06:30:00.000Z',
    ]);
  });

  void test('a sub-hourly rule through the spring gap fires each instant once, in order', () => {
    const now = at('2026-03-08T05:50:00Z');
    const rule = parseRecurrence(
      {
        rrule: 'FREQ=MINUTELY;INTERVAL=30',
        start_at: '2026-03-08T00:00:00',
        time_zone: 'America/New_York',
      },
      now,
    );
    assert.deepEqual(iso(upcomingOccurrences(rule, now, null, 5)), [
      '2026-03-08T06:00:00.000Z', // 01:00 EST
      '2026-03-08T06:30:00.000Z',
      '2026-03-08T07:00:00.000Z', // 02:00 does not exist: 03:00 EDT
      '2026-03-08T07:30:00.000Z',
      '2026-03-08T08:00:00.000Z', // 04:00 EDT
    ]);
    // Every 25 minutes the skipped wall times (02:05, 02:30, 02:55, moved past the gap) interleave with the
    // real ones after it (03:20, 03:45).
    const odd = parseRecurrence(
      {
        rrule: 'FREQ=MINUTELY;INTERVAL=25',
        start_at: '2026-03-08T00:00:00',
        time_zone: 'America/New_York',
      },
      now,
    );
    assert.deepEqual(
      iso(upcomingOccurrences(odd, at('2026-03-08T06:30:00Z'), null, 7)).map((s) => s.slice(11, 16)),
      ['06:40', '07:05', '07:20', '07:30', '07:45', '07:55', '08:10'],
    );
  });

  void test('walking on from cursors gives the same occurrences as expanding from the start', () => {
    const now = at('2026-01-01T00:00:00Z');
    const rules = [
      'FREQ=MONTHLY;BYMONTHDAY=31',
      'FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR;BYHOUR=17;BYMINUTE=0',
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;WKST=SU',
      'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
      'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
      'FREQ=HOURLY;INTERVAL=5;COUNT=40',
      'FREQ=DAILY;INTERVAL=3;UNTIL=20260301',
    ];
    for (const expression of rules) {
      const rule = parseRecurrence(
        { rrule: expression, time_zone: 'UTC', start_at: '2026-01-01T06:15' },
        now,
      );
      const expected = new RRule({
        ...RRule.parseString(expression),
        dtstart: new Date('2026-01-01T06:15:00Z'),
      })
        .all((_, i) => i < 30)
        .filter((d) => d > now)
        .map((d) => d.toISOString());
      assert.deepEqual(iso(upcomingOccurrences(rule, now, null, 30)), expected, expression);
    }
  });

  void test('COUNT and a date-only UNTIL end the rule where they say', () => {
    const now = at('2026-01-01T10:00:00Z');
    const three = parseRecurrence(
      { rrule: 'FREQ=DAILY;COUNT=3', start_at: '2026-01-01T09:00', time_zone: 'UTC' },
      now,
    );
    // The first of the three (09:00 today) is already past.
    assert.deepEqual(iso(upcomingOccurrences(three, now, null, 5)), [
      '2026-01-02T09:00:00.000Z',
      '2026-01-03T09:00:00.000Z',
    ]);
    const untilDay = parseRecurrence(
      { rrule: 'FREQ=DAILY;BYHOUR=18;BYMINUTE=0;UNTIL=20260102', time_zone: 'UTC' },
      now,
    );
    assert.deepEqual(iso(upcomingOccurrences(untilDay, now, null, 5)), [
      '2026-01-01T18:00:00.000Z',
      '2026-01-02T18:00:00.000Z',
    ]);
  });

  void test('refusals name the field: more than once a minute, bad parts, no future occurrence', () => {
    const now = at('2026-01-01T12:00:00Z');
    assert.match(
      refused({ rrule: 'FREQ=SECONDLY', time_zone: 'UTC' }, now, 'rrule').message,
      /once a minute/,
    );
    assert.match(
      refused({ rrule: 'FREQ=MINUTELY;BYSECOND=0,30', time_zone: 'UTC' }, now, 'rrule').message,
      /once a minute/,
    );
    assert.ok(parseRecurrence({ rrule: 'FREQ=MINUTELY', time_zone: 'UTC' }, now));
    for (const bad of [
      'BYHOUR=9',
      'FREQ=DAILY;COUNT=x',
      'FREQ=DAILY;BYHOUR=24',
      'FREQ=DAILY;FOO=1',
      'FREQ=WEEKLY;BYDAY=XX',
      'FREQ=DAILY;COUNT=2;UNTIL=20270101T000000Z',
      'DTSTART:20260101T090000\nRRULE:FREQ=DAILY',
      'FREQ=DAILY;TZID=Europe/Paris',
      'FREQ',
    ])
      refused({ rrule: bad, time_zone: 'UTC' }, now, 'rrule');
    assert.match(
      refused({ rrule: 'FREQ=DAILY;UNTIL=20251231T000000Z', time_zone: 'UTC' }, now, 'rrule').message,
      /no occurrence after now/,
    );
    refused({ rrule: 'FREQ=DAILY;COUNT=2', start_at: '2025-12-20T09:00', time_zone: 'UTC' }, now, 'rrule');
    refused({ rrule: 'FREQ=DAILY', start_at: '2020-01-01T09:00', time_zone: 'UTC' }, now, 'start_at');
    refused({ rrule: 'FREQ=DAILY', start_at: 'next tuesday', time_zone: 'UTC' }, now, 'start_at');
  });
});

void describe('time zones and fields', () => {
  void test('IANA names are required and canonicalized', () => {
    assert.equal(canonicalTimeZone('US/Eastern'), 'America/New_York');
    assert.equal(canonicalTimeZone('europe/paris'), 'Europe/Paris');
    assert.equal(canonicalTimeZone('+05:00'), undefined);
    const now = at('2026-01-01T12:00:00Z');
    refused({ cron: '* * * * *', time_zone: 'Mars/Olympus_Mons' }, now, 'time_zone');
    refused({ cron: '* * * * *', time_zone: '+05:00' }, now, 'time_zone');
    refused({ cron: '* * * * *', rrule: 'FREQ=DAILY', time_zone: 'UTC' }, now, 'cron');
    refused({ time_zone: 'UTC' }, now, 'rrule');
  });

  void test('start_at with an offset is moved into the zone', () => {
    const now = at('2026-01-01T12:00:00Z');
    const rule = parseRecurrence(
      { rrule: 'FREQ=DAILY', start_at: '2026-01-05T14:00:00Z', time_zone: 'Asia/Tokyo' },
      now,
    );
    assert.equal(rule.start, '2026-01-05T23:00:00');
  });
});

void describe('catch-up after downtime', () => {
  const cases: [string, Partial<RecurrenceInput>][] = [
    ['cron', { cron: '* * * * *' }],
    ['rrule', { rrule: 'FREQ=MINUTELY' }],
  ];
  for (const [kind, fields] of cases) {
    void test(`${kind}: only the latest due tick runs; the others are missed`, () => {
      const created = at('2026-01-01T11:59:30Z');
      const rule: Recurrence = parseRecurrence({ ...fields, time_zone: 'UTC' }, created);
      const due = nextOccurrence(rule, created, null)!;
      assert.equal(due.at.toISOString(), '2026-01-01T12:00:00.000Z');

      const onTime = planTick(rule, due, at('2026-01-01T12:00:02Z'));
      assert.equal(onTime.run.at.toISOString(), '2026-01-01T12:00:00.000Z');
      assert.equal(onTime.missed, null);
      assert.equal(onTime.next?.at.toISOString(), '2026-01-01T12:01:00.000Z');

      const late = planTick(rule, due, at('2026-01-01T12:05:30Z'));
      assert.equal(late.run.at.toISOString(), '2026-01-01T12:05:00.000Z');
      assert.deepEqual(
        late.missed && {
          count: late.missed.count,
          first: late.missed.first.toISOString(),
          last: late.missed.last.toISOString(),
        },
        { count: 5, first: '2026-01-01T12:00:00.000Z', last: '2026-01-01T12:04:00.000Z' },
      );
      assert.equal(late.next?.at.toISOString(), '2026-01-01T12:06:00.000Z');
    });
  }

  void test('an RRULE whose COUNT runs out during downtime ends after the one catch-up tick', () => {
    const created = at('2026-01-01T08:00:00Z');
    const rule = parseRecurrence(
      { rrule: 'FREQ=HOURLY;COUNT=3', start_at: '2026-01-01T09:00', time_zone: 'UTC' },
      created,
    );
    const due = nextOccurrence(rule, created, null)!;
    const plan = planTick(rule, due, at('2026-01-02T00:00:00Z'));
    assert.equal(plan.run.at.toISOString(), '2026-01-01T11:00:00.000Z');
    assert.equal(plan.missed?.count, 2);
    assert.equal(plan.next, null);
  });
});
