import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Logger } from 'pino';

type Listener = (payload: string) => void;

/**
 * One LISTEN connection per process, fanning PostgreSQL notifications out to in-process listeners.
 * This is how a progress stream in one process sees a job running in another, and how a worker learns
 * that its job was cancelled.
 */
export class Notifications {
  private client: pg.Client | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();
  private stopped = false;
  private fenceWaiters: { resolve(): void; reject(error: unknown): void }[] = [];
  private fenceInFlight = false;

  private constructor(
    private readonly connectionString: string,
    private readonly channels: string[],
    private readonly log: Logger,
  ) {}

  static async start(connectionString: string, channels: string[], log: Logger): Promise<Notifications> {
    const hub = new Notifications(connectionString, channels, log);
    await hub.connect();
    return hub;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.connectionString,
      application_name: 'reelsmith-listen',
    });
    client.on('notification', (message) => {
      for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload ?? '');
    });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'notification connection lost; reconnecting');
      void this.reconnect();
    });
    await client.connect();
    for (const channel of this.channels) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    this.client = client;
  }

  private async reconnect(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    await old?.end().catch(() => {});
    while (!this.stopped && !this.client) {
      try {
        await this.connect();
        // Anything sent while disconnected was missed: wake every listener so it re-reads its state.
        for (const [, set] of this.listeners) for (const listener of set) listener('');
      } catch {
        await sleep(1000);
      }
    }
  }

  /**
   * Resolves once every notification of a transaction that committed before this call has reached the
   * listeners: a statement on the LISTEN connection is answered only after the notifications PostgreSQL
   * queued for it before the statement began. Calls made while one fence is in flight share the next one.
   */
  fence(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.fenceWaiters.push({ resolve, reject });
      if (!this.fenceInFlight) void this.runFence();
    });
  }

  private async runFence(): Promise<void> {
    const waiters = this.fenceWaiters;
    this.fenceWaiters = [];
    this.fenceInFlight = true;
    try {
      if (!this.client) throw new Error('notification connection is reconnecting');
      await this.client.query('SELECT 1');
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
    } finally {
      this.fenceInFlight = false;
      if (this.fenceWaiters.length > 0) void this.runFence();
    }
  }

  on(channel: string, listener: Listener): () => void {
    if (!this.channels.includes(channel)) throw new Error(`not listening on ${channel}`);
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client?.end().catch(() => {});
  }
}
