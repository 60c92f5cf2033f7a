import type pg from 'pg';
import type { Notifications } from '../db/notifications.ts';
import type { JobRow } from '../db/schema.ts';
import { findAccountJobWithEvents, JOB_EVENTS_CHANNEL, type ProgressEvent } from './jobs-repo.ts';

/** Bounds the memory of the cache and how long an entry lives if its notification were ever lost unnoticed. */
const TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  accountId: string;
  job: JobRow;
  events: ProgressEvent[];
  expires: number;
}

/**
 * Jobs with their progress events, as GET /jobs/{id} reads them, kept per process. Every change to a job or its
 * events sends a notification on the job events channel (addJobEvent, and the jobs_notify_change trigger for
 * the job row), which drops the entry in every process. A read never goes backwards, in this process or
 * across processes: before answering from the cache it waits for a notification fence (Notifications.fence),
 * so every change that committed before the request arrived, here or elsewhere, has dropped its entry; and an
 * entry is stored only if no notification for its job arrived between its query and a fence after it.
 */
export class JobCache {
  private readonly entries = new Map<string, Entry>();
  /** Fills under way per job: a notification for the job spoils them (their row may predate the change). */
  private readonly filling = new Map<string, Set<{ spoiled: boolean }>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly notifications: Notifications,
  ) {
    notifications.on(JOB_EVENTS_CHANNEL, (jobId) => this.drop(jobId));
  }

  private drop(jobId: string): void {
    // An empty payload means notifications may have been missed (the connection was lost): forget everything.
    if (jobId === '') {
      this.entries.clear();
      for (const tickets of this.filling.values()) for (const ticket of tickets) ticket.spoiled = true;
      return;
    }
    this.entries.delete(jobId);
    for (const ticket of this.filling.get(jobId) ?? []) ticket.spoiled = true;
  }

  /** The account's job with its events, or undefined when the account has no such job. */
  async find(
    accountId: string,
    jobId: string,
  ): Promise<{ job: JobRow; events: ProgressEvent[] } | undefined> {
    try {
      await this.notifications.fence();
    } catch {
      // Without a fence the cache cannot be trusted: read the database, and keep nothing.
      return findAccountJobWithEvents(this.pool, accountId, jobId);
    }
    const hit = this.entries.get(jobId);
    if (hit && hit.expires > Date.now() && hit.accountId === accountId)
      return { job: hit.job, events: hit.events };
    return this.fill(accountId, jobId);
  }

  private async fill(
    accountId: string,
    jobId: string,
  ): Promise<{ job: JobRow; events: ProgressEvent[] } | undefined> {
    const ticket = { spoiled: false };
    let tickets = this.filling.get(jobId);
    if (!tickets) this.filling.set(jobId, (tickets = new Set()));
    tickets.add(ticket);
    try {
      const found = await findAccountJobWithEvents(this.pool, accountId, jobId);
      if (!found) return undefined;
      // A change that committed after the query's snapshot and before this fence has spoiled the ticket; one
      // that commits later drops the stored entry when its notification comes. Without a fence, keep nothing.
      const fenced = await this.notifications.fence().then(
        () => true,
        () => false,
      );
      if (fenced && !ticket.spoiled) {
        if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
        this.entries.set(jobId, { accountId, ...found, expires: Date.now() + TTL_MS });
      }
      return found;
    } finally {
      tickets.delete(ticket);
      if (tickets.size === 0) this.filling.delete(jobId);
    }
  }
}
