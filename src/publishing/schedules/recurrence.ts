// When a schedule fires (docs/schedules.md): a 5-field cron expression (cron-parser) or an RFC 5545 RRULE
// (rrule), each read in an IANA time zone. Both are checked once, at creation, so a stored recurrence always
// has a future occurrence and never fires more than once a minute.
//
// RRULEs are expanded in "floating" wall-clock time (a Date whose UTC fields are the zone's wall clock) and
// each wall time is then placed in the zone by luxon, following RFC 5545 §3.3.5: a repeated wall time (the
// autumn change) is its first occurrence; a skipped one (the spring change) keeps the offset before the gap.
// rrule's own TZID support converts through the process's time zone, so it is not used.
import cronParser from 'cron-parser';
import { DateTime, IANAZone } from 'luxon';
import rrulePackage from 'rrule';
import type { Options as RRuleOptions } from 'rrule';
import { errors, type FieldIssue } from '../../platform/errors.ts';

const { RRule } = rrulePackage;

export type RecurrenceKind = 'cron' | 'rrule';

/** A checked recurrence, as a schedule stores it. */
export interface Recurrence {
  kind: RecurrenceKind;
  /** A 5-field cron expression or macro, or an RRULE value without its "RRULE:" prefix. */
  expression: string;
  /** Canonical IANA zone name. */
  timeZone: string;
  /** Wall-clock time in `timeZone` ("YYYY-MM-DDTHH:mm:ss"): an RRULE's DTSTART; for cron, no run before it. */
  start: string;
}

/**
 * Where an RRULE walk resumes: the wall time of one of its occurrences (or its DTSTART) and how many
 * occurrences came before it. Restarting the rule there yields the same later occurrences (its period,
 * defaults and COUNT are kept), so a walk costs what lies after the cursor, not everything since DTSTART.
 */
export interface RecurrenceCursor {
  at: string;
  index: number;
}

export interface Occurrence {
  at: Date;
  /** For an RRULE, the cursor of this occurrence; null for cron, which needs none. */
  cursor: RecurrenceCursor | null;
}

/** What one tick does once a schedule is due (docs/schedules.md "Catch-up"). */
export interface TickPlan {
  /** The occurrence to run now: the latest one due. */
  run: Occurrence;
  /** Earlier due occurrences that are skipped (at most one tick runs after downtime). */
  missed: { count: number; countCapped: boolean; first: Date; last: Date } | null;
  /** The first occurrence after now; null when the recurrence has ended. */
  next: Occurrence | null;
}

export interface RecurrenceInput {
  cron?: string | undefined;
  rrule?: string | undefined;
  start_at?: string | undefined;
  time_zone: string;
}

const CRON_MACROS = ['@yearly', '@monthly', '@weekly', '@daily', '@hourly'];
/** Wall time and instant differ from their neighbours' by at most the largest DST jump (2 h) below this. */
const SETTLE_MS = 3 * 3600_000;
/** How far ahead a next occurrence is looked for: rare rules (29 February on a Monday) still fit. */
const SEARCH_SPANS_MS = [1, 32, 1024, 32_768, 73_050].map((days) => days * 86_400_000);
/** start_at may lie this far back (an RRULE walks every occurrence since its start once). */
const MAX_START_AGE_MS = 366 * 86_400_000;
/** Missed ticks of a cron schedule are counted up to this many after downtime. */
const MISSED_COUNT_CAP = 10_000;

function invalid(field: string, message: string): never {
  throw errors.inputInvalid(`Invalid schedule: ${field} ${message}.`, [{ field, message }]);
}

// ---- time zones and wall-clock times ----

/** The canonical name of an IANA time zone, or undefined when it is not one (offsets such as +05:00 are not). */
export function canonicalTimeZone(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) || !IANAZone.isValidZone(name)) return undefined;
  return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
}

function floating(wall: string): Date {
  return new Date(`${wall}Z`);
}

function wallString(floatingDate: Date): string {
  return floatingDate.toISOString().slice(0, 19);
}

/** The wall-clock time of `instant` in `zone`, as a floating Date. */
export function wallOf(instant: Date, zone: string): Date {
  const local = DateTime.fromJSDate(instant, { zone });
  return new Date(Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second));
}

/** The instant a floating wall-clock time names in `zone` (RFC 5545 §3.3.5). */
export function instantOf(wall: Date, zone: string): Date {
  const resolved = DateTime.fromObject(
    {
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
      second: wall.getUTCSeconds(),
    },
    { zone },
  );
  // luxon places a repeated wall time after the change; the offset in force before it names the first one.
  const earlierOffset = DateTime.fromMillis(resolved.toMillis() - SETTLE_MS, { zone }).offset;
  const first = new Date(wall.getTime() - earlierOffset * 60_000);
  return wallOf(first, zone).getTime() === wall.getTime() ? first : resolved.toJSDate();
}

// ---- parsing ----

const NUMERIC_PARTS: Record<string, { min: number; max: number; signed: boolean }> = {
  interval: { min: 1, max: 10_000, signed: false },
  count: { min: 1, max: 1_000_000, signed: false },
  bysecond: { min: 0, max: 59, signed: false },
  byminute: { min: 0, max: 59, signed: false },
  byhour: { min: 0, max: 23, signed: false },
  bymonth: { min: 1, max: 12, signed: false },
  bymonthday: { min: 1, max: 31, signed: true },
  byyearday: { min: 1, max: 366, signed: true },
  byweekno: { min: 1, max: 53, signed: true },
  bysetpos: { min: 1, max: 366, signed: true },
};
const SINGLE_VALUED = new Set(['interval', 'count']);

interface ParsedRrule {
  /** The rule's parts, without DTSTART, COUNT and UNTIL (set per walk). */
  options: Partial<RRuleOptions>;
  count: number | null;
  /** UNTIL as a floating wall time (a UTC UNTIL is moved into the zone). */
  until: Date | null;
}

function numbersOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** Reads an RRULE value (RFC 5545 §3.3.10) strictly; rrule's own reader accepts malformed numbers. */
function readRrule(text: string, zone: string): ParsedRrule {
  const field = 'rrule';
  const value = text.replace(/^RRULE:/i, '');
  if (/[\r\n]/.test(value))
    invalid(field, 'must be one RRULE line; send DTSTART as start_at and the zone as time_zone');
  if (!/^[A-Za-z]+=[^;=\s]+(;[A-Za-z]+=[^;=\s]+)*$/.test(value))
    invalid(
      field,
      'must be NAME=VALUE parts separated by ";", e.g. FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0',
    );
  const names = value.split(';').map((part) => part.split('=')[0]!.toUpperCase());
  for (const name of names) {
    if (name === 'DTSTART' || name === 'TZID')
      invalid(field, `must not contain ${name}: send the start as start_at and the zone as time_zone`);
    if (name === 'BYEASTER') invalid(field, 'BYEASTER is not part of RFC 5545');
  }
  if (new Set(names).size !== names.length) invalid(field, 'names a part twice');
  let parsed: Partial<RRuleOptions>;
  try {
    parsed = RRule.parseString(value);
  } catch (error) {
    invalid(field, `is not a valid RRULE (${(error as Error).message})`);
  }
  if (parsed.freq === undefined || !names.includes('FREQ'))
    invalid(field, 'needs FREQ, one of YEARLY, MONTHLY, WEEKLY, DAILY, HOURLY, MINUTELY');
  if (parsed.freq === RRule.SECONDLY) invalid(field, 'fires more than once a minute (FREQ=SECONDLY)');
  for (const [part, range] of Object.entries(NUMERIC_PARTS)) {
    const raw = (parsed as Record<string, unknown>)[part];
    if (raw === undefined) continue;
    const values = numbersOf(raw);
    const name = part.toUpperCase();
    if (SINGLE_VALUED.has(part) && values.length !== 1) invalid(field, `${name} takes one number`);
    for (const v of values) {
      const ok =
        typeof v === 'number' &&
        Number.isInteger(v) &&
        Math.abs(v) >= range.min &&
        Math.abs(v) <= range.max &&
        (range.signed ? v !== 0 : v >= 0);
      if (!ok)
        invalid(
          field,
          `${name} must be ${range.signed ? `±${range.min}-${range.max}` : `${range.min}-${range.max}`}`,
        );
    }
  }
  if (parsed.bysecond !== undefined && numbersOf(parsed.bysecond).length > 1)
    invalid(field, 'fires more than once a minute (several BYSECOND values)');
  if (names.includes('WKST') && parsed.wkst === undefined)
    invalid(field, 'WKST must be MO, TU, WE, TH, FR, SA or SU');
  if (names.includes('BYDAY') && numbersOf(parsed.byweekday).some((day) => day === undefined))
    invalid(field, 'BYDAY must list MO, TU, WE, TH, FR, SA, SU (optionally with a position, e.g. -1FR)');
  if (parsed.count !== undefined && parsed.until !== undefined)
    invalid(field, 'must not have both COUNT and UNTIL');

  let until: Date | null = null;
  if (parsed.until) {
    const raw = /UNTIL=([0-9TZ]+)/i.exec(value)![1]!.toUpperCase();
    if (raw.endsWith('Z')) until = wallOf(parsed.until, zone);
    // A date alone includes that whole day.
    else if (raw.length === 8) until = new Date(parsed.until.getTime() + 86_399_000);
    else until = parsed.until;
  }
  const options = { ...parsed };
  delete options.count;
  delete options.until;
  return { options, count: typeof parsed.count === 'number' ? parsed.count : null, until };
}

/** Checks a cron expression: 5 fields (or a macro) and parseable in the zone. */
function readCron(text: string, zone: string): string {
  const expression = text.trim().replace(/\s+/g, ' ');
  if (expression.startsWith('@')) {
    if (!CRON_MACROS.includes(expression.toLowerCase()))
      invalid('cron', `macro must be one of: ${CRON_MACROS.join(', ')}`);
    return expression.toLowerCase();
  }
  const fields = expression.split(' ').length;
  if (fields === 6)
    invalid('cron', 'has a seconds field and would fire more than once a minute; send 5 fields');
  if (fields !== 5) invalid('cron', 'must have 5 fields: minute hour day-of-month month day-of-week');
  try {
    cronParser.parseExpression(expression, { tz: zone });
  } catch (error) {
    invalid('cron', `is not a valid cron expression (${(error as Error).message})`);
  }
  return expression;
}

/** Reads start_at: an ISO 8601 date-time, local to the zone unless it carries an offset. */
function readStart(text: string, zone: string, now: Date): string {
  const parsed = DateTime.fromISO(text, { zone });
  if (!parsed.isValid || !/^\d{4}-\d{2}-\d{2}/.test(text))
    invalid('start_at', 'must be an ISO 8601 date-time such as 2026-07-01T09:00 (local to time_zone)');
  const time = text.split('T')[1] ?? '';
  const hasOffset = /(Z|[+-]\d{2}(:?\d{2})?)$/i.test(time);
  const wall = hasOffset
    ? wallOf(parsed.toJSDate(), zone)
    : new Date(
        Date.UTC(parsed.year, parsed.month - 1, parsed.day, parsed.hour, parsed.minute, parsed.second),
      );
  if (instantOf(wall, zone).getTime() < now.getTime() - MAX_START_AGE_MS)
    invalid('start_at', 'must not be more than a year in the past');
  return wallString(wall);
}

/**
 * Checks the recurrence fields of a schedule body and returns the recurrence; throws a 400 naming the field.
 * Refused: both or neither of cron and rrule, a zone that is not IANA, anything firing more than once a
 * minute, and a recurrence with no occurrence after `now`.
 */
export function parseRecurrence(input: RecurrenceInput, now: Date): Recurrence {
  const issues: FieldIssue[] = [];
  if ((input.cron === undefined) === (input.rrule === undefined))
    issues.push(
      ...['cron', 'rrule'].map((field) => ({ field, message: 'send exactly one of cron and rrule' })),
    );
  const timeZone = canonicalTimeZone(input.time_zone);
  if (timeZone === undefined)
    issues.push({ field: 'time_zone', message: 'must be an IANA time zone such as Europe/Paris or UTC' });
  if (issues.length > 0) throw errors.inputInvalid(`Invalid schedule: ${issues[0]!.message}.`, issues);
  const zone = timeZone!;
  const start =
    input.start_at !== undefined
      ? readStart(input.start_at, zone, now)
      : wallString(wallOf(new Date(Math.floor(now.getTime() / 60_000) * 60_000), zone));
  const recurrence: Recurrence =
    input.cron !== undefined
      ? { kind: 'cron', expression: readCron(input.cron, zone), timeZone: zone, start }
      : {
          kind: 'rrule',
          expression: input
            .rrule!.trim()
            .replace(/^RRULE:/i, '')
            .toUpperCase(),
          timeZone: zone,
          start,
        };
  if (recurrence.kind === 'rrule') readRrule(recurrence.expression, zone);
  if (!nextOccurrence(recurrence, now, null))
    invalid(recurrence.kind, 'has no occurrence after now (check COUNT, UNTIL and start_at)');
  return recurrence;
}

// ---- occurrences ----

function startCursor(recurrence: Recurrence): RecurrenceCursor {
  return { at: recurrence.start, index: 0 };
}

/**
 * Visits the RRULE's occurrences with instants in (after, before], earliest first and each instant once, until
 * `visit` answers false. Wall order is not instant order near a spring gap: a skipped wall time moves past
 * the gap, beyond real ones after it. So an occurrence is only visited once no later wall time can land
 * before it, and its cursor is an occurrence far enough back that walking on from it misses nothing.
 */
function scanRrule(
  recurrence: Recurrence,
  cursor: RecurrenceCursor,
  after: number,
  before: number,
  visit: (occurrence: Occurrence) => boolean,
): void {
  const zone = recurrence.timeZone;
  const rule = readRrule(recurrence.expression, zone);
  const remaining = rule.count === null ? null : rule.count - cursor.index;
  if (remaining !== null && remaining <= 0) return;
  const windowEnd = wallOf(new Date(before), zone).getTime() + SETTLE_MS;
  const until = Math.min(rule.until?.getTime() ?? Infinity, windowEnd);
  const dtstart = floating(cursor.at);
  if (until < dtstart.getTime()) return;
  const walk = new RRule({
    ...rule.options,
    dtstart,
    count: remaining,
    until: new Date(until),
    tzid: null,
  });
  // Recent wall times walked (the first is always a safe place to resume), and instants waiting to settle.
  const trail = [{ wall: dtstart.getTime(), index: cursor.index }];
  const pending: number[] = [];
  let stopped = false;
  const resumeBefore = (at: number): RecurrenceCursor => {
    const limit = wallOf(new Date(at), zone).getTime() - SETTLE_MS;
    let safe = trail[0]!;
    for (let k = trail.length - 1; k > 0; k--) {
      if (trail[k]!.wall <= limit) {
        safe = trail[k]!;
        break;
      }
    }
    return { at: wallString(new Date(safe.wall)), index: safe.index };
  };
  const flush = (upTo: number) => {
    while (!stopped && pending.length > 0 && pending[0]! <= upTo) {
      const at = pending.shift()!;
      if (!visit({ at: new Date(at), cursor: resumeBefore(at) })) stopped = true;
    }
  };
  // Wall times this far before `after` cannot land after it: they are only walked past.
  const walkPast = wallOf(new Date(after), zone).getTime() - SETTLE_MS;
  walk.all((wall, i) => {
    const wallMs = wall.getTime();
    trail.push({ wall: wallMs, index: cursor.index + i });
    while (trail.length > 1 && trail[1]!.wall <= wallMs - 4 * SETTLE_MS) trail.shift();
    if (wallMs < walkPast) return true;
    const at = instantOf(wall, zone).getTime();
    if (at > after && at <= before && !pending.includes(at)) {
      const position = pending.findIndex((p) => p > at);
      pending.splice(position === -1 ? pending.length : position, 0, at);
    }
    // No later wall time lands earlier than this one minus the largest DST jump.
    flush(at - SETTLE_MS);
    return !stopped;
  });
  flush(Infinity);
}

function cronIterator(recurrence: Recurrence, from: Date) {
  return cronParser.parseExpression(recurrence.expression, { tz: recurrence.timeZone, currentDate: from });
}

/** The first occurrence strictly after `after`; `cursor` is an RRULE's (null: from its start). */
export function nextOccurrence(
  recurrence: Recurrence,
  after: Date,
  cursor: RecurrenceCursor | null,
): Occurrence | null {
  if (recurrence.kind === 'cron') {
    const notBefore = instantOf(floating(recurrence.start), recurrence.timeZone).getTime() - 1;
    try {
      const at = cronIterator(recurrence, new Date(Math.max(after.getTime(), notBefore)))
        .next()
        .toDate();
      return { at, cursor: null };
    } catch {
      return null;
    }
  }
  const from = cursor ?? startCursor(recurrence);
  for (const span of SEARCH_SPANS_MS) {
    let found: Occurrence | null = null;
    scanRrule(recurrence, from, after.getTime(), after.getTime() + span, (occurrence) => {
      found = occurrence;
      return false;
    });
    if (found) return found;
  }
  return null;
}

/** The next `count` occurrences after `after`. */
export function upcomingOccurrences(
  recurrence: Recurrence,
  after: Date,
  cursor: RecurrenceCursor | null,
  count: number,
): Occurrence[] {
  const out: Occurrence[] = [];
  let previous: Occurrence | null = { at: after, cursor };
  while (out.length < count && previous) {
    previous = nextOccurrence(recurrence, previous.at, previous.cursor);
    if (previous) out.push(previous);
  }
  return out;
}

/**
 * Plans the tick of a schedule whose next occurrence `due` has come (`due.at` <= now): after downtime only
 * the latest due occurrence runs; the earlier ones are reported as missed. Then the next one after now.
 */
export function planTick(recurrence: Recurrence, due: Occurrence, now: Date): TickPlan {
  let run = due;
  let missed: TickPlan['missed'] = null;
  if (recurrence.kind === 'cron') {
    const latest = cronIterator(recurrence, new Date(now.getTime() + 1))
      .prev()
      .toDate();
    if (latest.getTime() > due.at.getTime()) {
      run = { at: latest, cursor: null };
      let count = 0;
      const walk = cronIterator(recurrence, new Date(due.at.getTime() - 1));
      while (count < MISSED_COUNT_CAP && walk.next().toDate().getTime() < latest.getTime()) count++;
      const last = cronIterator(recurrence, latest).prev().toDate();
      missed = { count, countCapped: count === MISSED_COUNT_CAP, first: due.at, last };
    }
  } else {
    let count = 0;
    const lastTwo: Occurrence[] = [];
    scanRrule(recurrence, due.cursor ?? startCursor(recurrence), due.at.getTime() - 1, now.getTime(), (o) => {
      count++;
      lastTwo.push(o);
      if (lastTwo.length > 2) lastTwo.shift();
      return true;
    });
    run = lastTwo.at(-1) ?? due;
    if (lastTwo.length === 2)
      missed = { count: count - 1, countCapped: false, first: due.at, last: lastTwo[0]!.at };
  }
  return { run, missed, next: nextOccurrence(recurrence, now, run.cursor) };
}
