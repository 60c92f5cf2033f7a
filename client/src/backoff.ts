import { setTimeout as delay } from 'node:timers/promises';

/** Delays that grow by `factor` from `initialMs` up to `maxMs`; `reset()` starts over (after progress). */
export class Backoff {
  private current: number;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
    private readonly factor = 1.5,
  ) {
    this.current = initialMs;
  }

  /** The delay to wait now; the next one is longer. */
  next(): number {
    const ms = this.current;
    this.current = Math.min(this.maxMs, Math.round(this.current * this.factor));
    return ms;
  }

  reset(): void {
    this.current = this.initialMs;
  }
}

/** Waits `ms`, or rejects (an AbortError) as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, signal ? { signal } : {});
}
