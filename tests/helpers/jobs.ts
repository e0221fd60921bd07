import { runTaskListOnce, type TaskList } from 'graphile-worker';
import pg from 'pg';
import { graphileLogger } from '../../server/db/migrate.js';
import type { AppServices } from '../../server/services.js';
import { createTaskList } from '../../worker/worker.js';
import type { TestApp } from './test-app.js';

/**
 * Runs every job that is due now, once, as a worker process would (graphile-worker's
 * `runTaskListOnce`): the real tasks against the test app's database. `tasks` limits the run
 * to some of them; `services` replaces the app's (a mailer that fails, say).
 */
export async function runJobsOnce(app: TestApp, options: { services?: AppServices; tasks?: string[] } = {}): Promise<void> {
  const services = options.services ?? app.runtime.services;
  const all = createTaskList(services);
  const taskList: TaskList = options.tasks ? Object.fromEntries(options.tasks.map((name) => [name, all[name]])) : all;
  const pool = new pg.Pool({ connectionString: app.database.url, max: 1 });
  const client = await pool.connect();
  try {
    await runTaskListOnce({ connectionString: app.database.url, noHandleSignals: true, logger: graphileLogger(services.logger) }, taskList, client);
  } finally {
    client.release();
    await pool.end();
  }
}

/**
 * What time would do to a worker killed while holding `workerId`'s job: its heartbeat and its
 * lock grow older than STALE_WORKER_SECONDS, so the next worker to start unlocks the job
 * (recoverStaleLocks).
 */
export async function ageDeadWorker(app: TestApp, workerId: string): Promise<void> {
  await app.em().execute(`update worker_processes set last_seen_at = now() - interval '10 minutes' where worker_ids @> jsonb_build_array(?::text)`, [workerId]);
  await app.em().execute(`update graphile_worker._private_jobs set locked_at = now() - interval '10 minutes' where locked_by = ?`, [workerId]);
}
