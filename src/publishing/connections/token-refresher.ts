// Worker processes refresh platform tokens before they expire, so a post rarely waits on a refresh and a
// connection whose refresh is refused shows as expired before anyone posts to it. Rows are locked one at a
// time (connection-service.ts), so any number of workers may run this at once.
import type { Logger } from 'pino';
import type { ConnectionService } from './connection-service.ts';

export class TokenRefresher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly connections: ConnectionService,
    private readonly intervalSeconds: number,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.intervalSeconds <= 0) return;
    this.timer = setInterval(() => void this.runOnce(), this.intervalSeconds * 1000);
    this.timer.unref();
  }

  runOnce(): Promise<void> {
    this.running ??= this.connections
      .refreshDue()
      .then((outcome) => {
        if (outcome.refreshed + outcome.expired > 0) this.log.info(outcome, 'platform tokens refreshed');
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'platform token refresh failed'))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
