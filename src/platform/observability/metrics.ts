import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/database.ts';
import { countJobsByStatus } from '../jobs/jobs-repo.ts';
import { JOB_STATUSES } from '../jobs/job-status.ts';
import type { JobQueue } from '../jobs/queue.ts';

/** Prometheus metrics of one process: request latency, plus jobs by status and queue depth read at scrape time. */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly jobsEnded: Counter<'status'>;

  constructor(db: Db, queue: JobQueue) {
    this.httpDuration = new Histogram({
      name: 'reelsmith_http_request_duration_seconds',
      help: 'HTTP request latency by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [this.registry],
    });
    this.jobsEnded = new Counter({
      name: 'reelsmith_jobs_ended_total',
      help: 'Jobs ended by this process',
      labelNames: ['status'],
      registers: [this.registry],
    });
    new Gauge({
      name: 'reelsmith_jobs',
      help: 'Jobs by status (whole database)',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        const counts = await countJobsByStatus(db);
        for (const status of JOB_STATUSES) this.set({ status }, counts[status] ?? 0);
      },
    });
    new Gauge({
      name: 'reelsmith_queue_depth',
      help: 'Messages waiting in each queue',
      labelNames: ['queue'],
      registers: [this.registry],
      async collect() {
        for (const [name, depth] of Object.entries(await queue.depth())) this.set({ queue: name }, depth);
      },
    });
  }
}
