import type { EntityManager } from '@mikro-orm/postgresql';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { jobCountsByTaskAndState } from './queries.js';

/**
 * Prometheus metrics of one process (each API or worker process is its own scrape target).
 * Route labels are templates (`/v1/campaigns/{campaignId}`), never raw paths: bounded
 * cardinality, and no ids or participant tokens in label values.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  /** Counted by the worker process that ran the job: success, error (will retry), failed (no attempts left). */
  readonly jobOutcomes = new Counter({
    name: 'worker_jobs_total',
    help: 'Jobs run by this worker process, by task and outcome (success, error, failed).',
    labelNames: ['task', 'outcome'] as const,
    registers: [this.registry],
  });

  /** The job runner restarted after graphile-worker ended it on its own (a database restart). */
  readonly workerRestarts = new Counter({
    name: 'worker_runner_restarts_total',
    help: 'Times this worker process restarted its job runner after it stopped unexpectedly.',
    registers: [this.registry],
  });

  readonly inviteEmails = new Counter({
    name: 'invite_emails_total',
    help: 'Invitation email sends, by outcome (sent, retry, failed, bounced, skipped).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** Counted where deliveries run: each attempt's outcome (succeeded, retrying, failed for good, gone: 410). */
  readonly webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts by design, event type and outcome (succeeded, retrying, failed, gone).',
    labelNames: ['design', 'event', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookAttemptDuration = new Histogram({
    name: 'webhook_attempt_duration_seconds',
    help: 'Time a receiver took to answer one webhook request (or to fail), by design.',
    labelNames: ['design'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly webhookLatency = new Histogram({
    name: 'webhook_delivery_latency_seconds',
    help: 'Time from an event to its successful delivery (retries included), by design.',
    labelNames: ['design'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 30, 120, 600, 3600, 86_400],
    registers: [this.registry],
  });

  /** Scheduled backups (BACKUP_CRON), counted by the worker process that ran them. */
  readonly backups = new Counter({
    name: 'backups_total',
    help: 'Scheduled backups of the embedded database by outcome (success, failure).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly backupLastSuccess = new Gauge({
    name: 'backup_last_success_timestamp_seconds',
    help: 'When the last successful scheduled backup finished (Unix time); alert when it is too old.',
    registers: [this.registry],
  });

  readonly backupLastSize = new Gauge({
    name: 'backup_last_size_bytes',
    help: 'Size of the last successful scheduled backup archive.',
    registers: [this.registry],
  });

  readonly backupLastDuration = new Gauge({
    name: 'backup_last_duration_seconds',
    help: 'How long the last successful scheduled backup took, its check included.',
    registers: [this.registry],
  });

  constructor(em: () => EntityManager) {
    collectDefaultMetrics({ register: this.registry });
    const registry = this.registry;
    // Read at scrape time from graphile-worker's tables, so every process reports the shared queue.
    new Gauge({
      name: 'jobs',
      help: 'Jobs in the queue by task and state (waiting, scheduled, running, failed).',
      labelNames: ['task', 'state'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const rows = await jobCountsByTaskAndState.rows(em(), {});
        for (const row of rows) this.set({ task: row.task, state: row.state }, Number(row.count));
      },
    });
  }
}
