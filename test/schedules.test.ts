import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { revokeKeysByPrefix } from '../src/platform/accounts/accounts.ts';
import { keyPrefix } from '../src/platform/accounts/api-keys.ts';
import { errors } from '../src/platform/errors.ts';
import { ScheduleTicker, type TickOutcome } from '../src/publishing/schedules/schedule-ticker.ts';
import { type AccountClient, newClient, uniqueKey } from './support/idem-helpers.ts';
import { testMode } from './support/test-mode.ts';
import { startTestService, type TestService } from './support/test-service.ts';

// POST /schedules and its routes (docs/schedules.md), through the real service. No worker runs (so no ticker
// of the runtime either): tickers are made here and driven with explicit times, never by waiting a minute.

let service: TestService;
before(async () => {
  // Not heavy: queued jobs of one account never reach the 5-render limit while no worker runs them.
  service = await startTestService({
    worker: false,
    modes: [
      testMode({ heavy: false }),
      // A channel source with nothing new yet: a refusal of the moment, not of the body.
      testMode({
        name: 'test_channel',
        endpoint: 'clipper/vidsite',
        heavy: false,
        async validate(request) {
          if (request.topic === 'quiet channel')
            throw errors.noNewChannelVideos('No new video on the channel.');
        },
      }),
    ],
  });
});
after(async () => {
  await service.stop();
});
// A ticker makes every due tick of the database: each test starts with no schedule of earlier tests.
afterEach(async () => {
  await sql`DELETE FROM schedules`.execute(service.runtime.database.db);
});

const MINUTE = 60_000;
const PATH = '/api/v1/schedules';
const everyMinute = (body: Record<string, unknown> = { topic: 'a video a minute' }) => ({
  name: 'Every minute',
  cron: '* * * * *',
  time_zone: 'UTC',
  endpoint: 'generate-and-post',
  body,
});

function ticker(): ScheduleTicker {
  const { db, generation, registry, log } = service.runtime.context;
  return new ScheduleTicker({ db, generation, registry, log });
}

async function create(c: AccountClient, body: unknown, key: string | null = uniqueKey('sched')) {
  return c.call('POST', PATH, { body, headers: key === null ? {} : { 'idempotency-key': key } });
}

/** Creates a schedule and returns its id and first tick time. */
async function created(c: AccountClient, body: unknown = everyMinute()): Promise<{ id: string; due: Date }> {
  const response = await create(c, body);
  assert.equal(response.status, 201, response.text);
  return { id: response.body.data.schedule_id, due: new Date(response.body.data.next_run_at) };
}

async function read(c: AccountClient, id: string) {
  const response = await c.call('GET', `${PATH}/${id}`);
  assert.equal(response.status, 200, response.text);
  return response.body.data;
}

const later = (at: Date, ms: number) => new Date(at.getTime() + ms);
const ofSchedule = (outcomes: TickOutcome[], id: string) => outcomes.filter((o) => o.scheduleId === id);

void describe('POST /schedules', () => {
  void test('is free, needs an Idempotency-Key, and a retry with the key answers the same schedule', async () => {
    const c = await newClient(service, 5000);
    const missing = await create(c, everyMinute(), null);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.code, 'IDEMPOTENCY_KEY_REQUIRED');

    const key = uniqueKey('sched');
    const first = await create(c, everyMinute(), key);
    assert.equal(first.status, 201, first.text);
    const schedule = first.body.data;
    assert.match(schedule.schedule_id, /^sch_[0-9A-Za-z]{20}$/);
    assert.equal(first.headers.get('location'), `${PATH}/${schedule.schedule_id}`);
    assert.equal(schedule.status, 'active');
    assert.equal(schedule.cron, '* * * * *');
    assert.equal(schedule.rrule, null);
    assert.equal(schedule.key_mode, 'live');
    assert.deepEqual(schedule.price_per_run, { usd_cents: 60, display: '$0.60' });
    const next = new Date(schedule.next_run_at);
    assert.ok(next.getTime() > Date.now() - 1000 && next.getTime() <= Date.now() + MINUTE);
    assert.equal(next.getUTCSeconds(), 0);
    assert.deepEqual(
      schedule.upcoming_runs.map((s: string) => new Date(s).getTime() - next.getTime()),
      [0, 1, 2, 3, 4].map((n) => n * MINUTE),
    );
    // Creating charges nothing and makes no job.
    assert.equal(await c.balance(), 5000);
    assert.deepEqual(await c.jobIds(), []);

    const again = await create(c, everyMinute(), key);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('x-idempotent-replay'), 'true');
    assert.equal(again.body.data.schedule_id, schedule.schedule_id);
    const list = await c.call('GET', PATH);
    assert.equal(list.body.data.schedules.length, 1);

    const otherBody = await create(c, everyMinute({ topic: 'something else' }), key);
    assert.equal(otherBody.status, 409);
    assert.equal(otherBody.body.error.code, 'RESOURCE_ALREADY_EXISTS');
  });

  void test('refuses invalid schedules with a free 400 naming each field, and creates nothing', async () => {
    const c = await newClient(service, 5000);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ ...everyMinute(), endpoint: 'videos/unknown' }, ['endpoint']],
      [everyMinute({ topic: '' }), ['body.topic']],
      [everyMinute({ topic: 'x', outcome: 'explode' }), ['body.outcome']],
      // The mode's own checks run too, as on its route.
      [everyMinute({ topic: 'forbidden topic' }), ['body.topic']],
      [everyMinute({ topic: 'x', dry_run: true }), ['body.dry_run']],
      [{ ...everyMinute(), cron: '*/10 * * * * *' }, ['cron']],
      [{ ...everyMinute(), cron: undefined, rrule: 'FREQ=SECONDLY' }, ['rrule']],
      [{ ...everyMinute(), cron: undefined, rrule: 'FREQ=MINUTELY;BYSECOND=0,30' }, ['rrule']],
      [{ ...everyMinute(), cron: undefined, rrule: 'FREQ=DAILY;UNTIL=20200101T000000Z' }, ['rrule']],
      [{ ...everyMinute(), rrule: 'FREQ=DAILY' }, ['cron', 'rrule']],
      [{ ...everyMinute(), time_zone: 'Mars/Olympus_Mons' }, ['time_zone']],
      [{ ...everyMinute(), surprise: 1 }, ['surprise']],
      // Everything wrong at once is named at once.
      [{ ...everyMinute({ topic: '' }), time_zone: '+05:00' }, ['time_zone', 'body.topic']],
    ];
    for (const [body, fields] of cases) {
      const response = await create(c, body);
      assert.equal(response.status, 400, `${JSON.stringify(body)}: ${response.text}`);
      assert.equal(response.body.error.code, 'INPUT_INVALID');
      const named = response.body.error.details.fields.map((f: { field: string }) => f.field);
      for (const field of fields) assert.ok(named.includes(field), `${JSON.stringify(body)} names ${named}`);
    }
    assert.deepEqual((await c.call('GET', PATH)).body.data.schedules, []);
    assert.equal(await c.balance(), 5000);
  });

  void test('an RRULE is read in its time zone', async () => {
    const c = await newClient(service);
    const response = await create(c, {
      rrule: 'FREQ=WEEKLY;BYDAY=MO,WE,FR;BYHOUR=9;BYMINUTE=0',
      time_zone: 'America/New_York',
      endpoint: 'generate-and-post',
      body: { topic: 'market open' },
    });
    assert.equal(response.status, 201, response.text);
    const wall = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    for (const run of response.body.data.upcoming_runs as string[]) {
      assert.match(wall.format(new Date(run)), /^(Mon|Wed|Fri) 09:00$/);
    }
  });

  void test('at most 50 schedules per account', async () => {
    const c = await newClient(service);
    for (let i = 0; i < 50; i++) await created(c, { ...everyMinute(), name: `schedule ${i}` });
    const refused = await create(c, everyMinute());
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'SCHEDULE_LIMIT_REACHED');
    const page = await c.call('GET', `${PATH}?limit=1`);
    const newest = page.body.data.schedules[0];
    assert.equal(newest.name, 'schedule 49');
    assert.equal((await c.call('DELETE', `${PATH}/${newest.schedule_id}`)).status, 200);
    assert.equal((await create(c, everyMinute())).status, 201);
  });
});

void describe('ticks', () => {
  void test('each tick makes one job through the normal path, charged then; concurrent tickers make it once', async () => {
    const c = await newClient(service, 10_000);
    const { id, due } = await created(c);
    const tickers = [ticker(), ticker(), ticker()];

    assert.deepEqual(ofSchedule(await tickers[0]!.tick(later(due, -1000)), id), []);
    assert.deepEqual(await c.jobIds(), []);

    for (let minute = 0; minute < 4; minute++) {
      const now = later(due, minute * MINUTE + 1000);
      const outcomes = (await Promise.all(tickers.map((t) => t.tick(now)))).flatMap((o) => ofSchedule(o, id));
      assert.equal(outcomes.length, 1, JSON.stringify(outcomes));
      assert.equal(outcomes[0]!.status, 'job_created');
      assert.equal(outcomes[0]!.tickAt.getTime(), due.getTime() + minute * MINUTE);
      assert.equal((await c.jobIds()).length, minute + 1);
    }
    assert.equal(await c.balance(), 10_000 - 4 * 60);
    assert.equal(await c.chargeCount(), 4);

    const schedule = await read(c, id);
    assert.equal(schedule.next_run_at, later(due, 4 * MINUTE).toISOString());
    assert.equal(schedule.last_run_at, later(due, 3 * MINUTE).toISOString());
    assert.equal(schedule.runs.length, 4);
    const [latest] = schedule.runs;
    assert.equal(latest.tick_at, later(due, 3 * MINUTE).toISOString());
    assert.equal(latest.status, 'job_created');
    assert.equal(latest.price_usd_cents, 60);
    assert.equal(latest.error, null);
    assert.deepEqual(
      schedule.runs.map((r: { job_id: string }) => r.job_id).sort(),
      [...(await c.jobIds())].sort(),
    );

    // The job is an ordinary job of the account, made with the schedule's key and body.
    const job = await c.call('GET', `/api/v1/jobs/${latest.job_id}`);
    assert.equal(job.status, 200);
    assert.equal(job.body.data.job.status, 'queued');
    const row = await service.runtime.database.db
      .selectFrom('jobs')
      .select(['endpoint', 'api_key_id', 'request'])
      .where('id', '=', latest.job_id)
      .executeTakeFirstOrThrow();
    assert.equal(row.endpoint, 'generate-and-post');
    assert.equal((row.request as { topic: string }).topic, 'a video a minute');
  });

  void test("a tick made again (a process died after its job) answers with that tick's job, not a second one", async () => {
    const c = await newClient(service, 10_000);
    const { id, due } = await created(c);
    const [first] = ofSchedule(await ticker().tick(later(due, 1000)), id);
    assert.equal(first?.status, 'job_created');
    // Undo the claim's own record, as a rolled-back transaction would have: only the job remains.
    const db = service.runtime.database.db;
    await sql`DELETE FROM schedule_runs WHERE schedule_id = ${id}`.execute(db);
    await sql`UPDATE schedules SET next_run_at = ${due}, cursor = NULL WHERE id = ${id}`.execute(db);

    const [again] = ofSchedule(await ticker().tick(later(due, 2000)), id);
    assert.equal(again?.status, 'job_created');
    assert.deepEqual(again.jobIds, first.jobIds);
    assert.equal((await c.jobIds()).length, 1);
    assert.equal(await c.balance(), 10_000 - 60);
  });

  void test('a short balance skips the tick with the reason and charges nothing', async () => {
    const c = await newClient(service, 30);
    const { id, due } = await created(c);
    const [outcome] = ofSchedule(await ticker().tick(later(due, 1000)), id);
    assert.equal(outcome?.status, 'skipped');
    assert.equal(outcome.errorCode, 'INSUFFICIENT_API_CREDITS');
    assert.deepEqual(await c.jobIds(), []);
    assert.equal(await c.balance(), 30);
    assert.equal(await c.chargeCount(), 0);
    const schedule = await read(c, id);
    assert.equal(schedule.status, 'active');
    assert.equal(schedule.next_run_at, later(due, MINUTE).toISOString());
    assert.equal(schedule.runs[0].status, 'skipped');
    assert.equal(schedule.runs[0].job_id, null);
    assert.equal(schedule.runs[0].error.code, 'INSUFFICIENT_API_CREDITS');
    assert.match(schedule.runs[0].error.message, /60 cents/);

    // Topped up, the next tick runs.
    await c.topUp(1000);
    const [next] = ofSchedule(await ticker().tick(later(due, MINUTE + 1000)), id);
    assert.equal(next?.status, 'job_created');
    assert.equal(await c.balance(), 1030 - 60);
  });

  void test('after downtime one tick runs and the missed ones are recorded', async () => {
    const c = await newClient(service, 10_000);
    const { id, due } = await created(c);
    const outcomes = ofSchedule(await ticker().tick(later(due, 10 * MINUTE + 5000)), id);
    assert.equal(outcomes.length, 1);
    assert.equal(outcomes[0]!.tickAt.toISOString(), later(due, 10 * MINUTE).toISOString());
    assert.equal(outcomes[0]!.missed, 10);
    assert.equal((await c.jobIds()).length, 1);
    const schedule = await read(c, id);
    assert.equal(schedule.next_run_at, later(due, 11 * MINUTE).toISOString());
    const [ran, missed] = schedule.runs;
    assert.equal(ran.status, 'job_created');
    assert.equal(missed.status, 'missed');
    assert.equal(missed.tick_at, due.toISOString());
    assert.equal(missed.missed_count, 10);
    assert.equal(missed.last_missed_at, later(due, 9 * MINUTE).toISOString());
    assert.equal(missed.error.code, 'TICKS_MISSED');
    assert.equal(missed.job_id, null);
  });

  void test('a refusal of the moment (409) does not block creation; its ticks are skipped while it lasts', async () => {
    const c = await newClient(service, 10_000);
    const response = await create(c, {
      ...everyMinute({ topic: 'quiet channel' }),
      endpoint: 'clipper/vidsite',
    });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.data.price_per_run, null);
    assert.match(response.body.data.warnings[0], /NO_NEW_CHANNEL_VIDEOS/);
    const due = new Date(response.body.data.next_run_at);
    const [outcome] = ofSchedule(await ticker().tick(later(due, 1000)), response.body.data.schedule_id);
    assert.equal(outcome?.status, 'skipped');
    assert.equal(outcome.errorCode, 'NO_NEW_CHANNEL_VIDEOS');
    assert.equal(await c.chargeCount(), 0);
  });

  void test('a tick that fails unexpectedly is rolled back and made by a later pass', async () => {
    const c = await newClient(service, 10_000);
    const { id, due } = await created(c);
    const db = service.runtime.database.db;
    // The test mode throws a plain Error (a bug, not a refusal) for this topic.
    await sql`UPDATE schedules SET body = ${JSON.stringify({ topic: 'explode-during-validation' })}::jsonb WHERE id = ${id}`.execute(
      db,
    );
    assert.deepEqual(ofSchedule(await ticker().tick(later(due, 1000)), id), []);
    const untouched = await read(c, id);
    assert.equal(untouched.next_run_at, due.toISOString());
    assert.deepEqual(untouched.runs, []);
    assert.deepEqual(await c.jobIds(), []);

    await sql`UPDATE schedules SET body = ${JSON.stringify({ topic: 'fixed' })}::jsonb WHERE id = ${id}`.execute(
      db,
    );
    const [outcome] = ofSchedule(await ticker().tick(later(due, 2000)), id);
    assert.equal(outcome?.status, 'job_created');
    assert.equal(outcome.tickAt.getTime(), due.getTime());
  });

  void test('POST /jobs bodies choose their mode with operation', async () => {
    const c = await newClient(service, 10_000);
    const bad = await create(c, {
      ...everyMinute(),
      endpoint: 'jobs',
      body: { operation: 'nope', topic: 'x' },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details.fields[0].field, 'body.operation');
    const { id, due } = await created(c, {
      ...everyMinute(),
      endpoint: '/api/v1/jobs',
      body: { operation: 'test_video', topic: 'through jobs' },
    });
    const [outcome] = ofSchedule(await ticker().tick(later(due, 1000)), id);
    assert.equal(outcome?.status, 'job_created');
    const row = await service.runtime.database.db
      .selectFrom('jobs')
      .select('endpoint')
      .where('id', '=', outcome.jobIds[0]!)
      .executeTakeFirstOrThrow();
    assert.equal(row.endpoint, 'jobs');
  });

  void test('a revoked key skips the tick and pauses the schedule; resuming with another key rebinds it', async () => {
    const c = await newClient(service, 10_000);
    const { id, due } = await created(c);
    await revokeKeysByPrefix(service.runtime.database.db, keyPrefix(c.account.live_key));
    const [outcome] = ofSchedule(await ticker().tick(later(due, 1000)), id);
    assert.equal(outcome?.status, 'skipped');
    assert.equal(outcome.errorCode, 'API_KEY_REVOKED');
    assert.deepEqual(await c.jobIds(), []);

    const sandbox = c.account.sandbox_key;
    const paused = (await c.call('GET', `${PATH}/${id}`, { key: sandbox })).body.data;
    assert.equal(paused.status, 'paused');
    assert.equal(paused.status_reason.code, 'API_KEY_REVOKED');
    assert.equal(paused.next_run_at, null);
    assert.equal(paused.runs[0].error.code, 'API_KEY_REVOKED');

    const resumed = await c.call('POST', `${PATH}/${id}/resume`, { key: sandbox });
    assert.equal(resumed.status, 200, resumed.text);
    assert.equal(resumed.body.data.status, 'active');
    assert.equal(resumed.body.data.key_mode, 'sandbox');
    const next = new Date(resumed.body.data.next_run_at);
    const [made] = ofSchedule(await ticker().tick(later(next, 1000)), id);
    assert.equal(made?.status, 'job_created');
    assert.match(made.jobIds[0]!, /^sandbox_job_/);
    assert.equal(await c.chargeCount(), 0);
  });
});

void describe('schedule routes', () => {
  void test('pause stops ticks, resume starts again from now, delete removes it', async () => {
    const c = await newClient(service, 10_000);
    const { id, due } = await created(c);

    const paused = await c.call('POST', `${PATH}/${id}/pause`);
    assert.equal(paused.status, 200, paused.text);
    assert.equal(paused.body.data.status, 'paused');
    assert.equal(paused.body.data.next_run_at, null);
    assert.equal(paused.body.data.status_reason, null);
    assert.equal((await c.call('POST', `${PATH}/${id}/pause`)).body.data.status, 'paused');
    assert.deepEqual(ofSchedule(await ticker().tick(later(due, 5 * MINUTE)), id), []);
    assert.deepEqual(await c.jobIds(), []);

    const resumed = await c.call('POST', `${PATH}/${id}/resume`);
    assert.equal(resumed.status, 200, resumed.text);
    assert.equal(resumed.body.data.status, 'active');
    const next = new Date(resumed.body.data.next_run_at);
    assert.ok(next.getTime() > Date.now() - 1000 && next.getTime() <= Date.now() + MINUTE);
    const [outcome] = ofSchedule(await ticker().tick(later(next, 1000)), id);
    assert.equal(outcome?.status, 'job_created');
    // Paused time is not made up.
    assert.equal(outcome.missed, 0);

    const deleted = await c.call('DELETE', `${PATH}/${id}`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body.data, { schedule_id: id, deleted: true });
    const gone = await c.call('GET', `${PATH}/${id}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error.code, 'SCHEDULE_NOT_FOUND');
    assert.deepEqual(ofSchedule(await ticker().tick(later(next, 10 * MINUTE)), id), []);
    // The job it made stays.
    assert.equal((await c.jobIds()).length, 1);
  });

  void test("another account's schedule is a 404 on every route", async () => {
    const owner = await newClient(service);
    const stranger = await newClient(service);
    const { id } = await created(owner);
    for (const [method, path] of [
      ['GET', `${PATH}/${id}`],
      ['POST', `${PATH}/${id}/pause`],
      ['POST', `${PATH}/${id}/resume`],
      ['DELETE', `${PATH}/${id}`],
      ['GET', `${PATH}/sch_nope`],
    ] as const) {
      const response = await stranger.call(method, path);
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.equal(response.body.error.code, 'SCHEDULE_NOT_FOUND');
    }
    assert.deepEqual((await stranger.call('GET', PATH)).body.data.schedules, []);
    assert.equal((await read(owner, id)).status, 'active');
  });

  void test('the list is newest first, a page at a time', async () => {
    const c = await newClient(service);
    for (const name of ['first', 'second', 'third']) await created(c, { ...everyMinute(), name });
    const page1 = await c.call('GET', `${PATH}?limit=2`);
    assert.equal(page1.status, 200);
    assert.deepEqual(
      page1.body.data.schedules.map((s: { name: string }) => s.name),
      ['third', 'second'],
    );
    assert.equal(page1.body.data.has_more, true);
    const page2 = await c.call('GET', `${PATH}?limit=2&cursor=${page1.body.data.next_cursor}`);
    assert.deepEqual(
      page2.body.data.schedules.map((s: { name: string }) => s.name),
      ['first'],
    );
    assert.equal(page2.body.data.has_more, false);
    assert.equal(page2.body.data.next_cursor, null);
    const bad = await c.call('GET', `${PATH}?limit=500`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details.fields[0].field, 'limit');
  });
});
