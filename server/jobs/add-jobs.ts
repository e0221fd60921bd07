import { rawSql, type Sql, sql } from '../db/sql.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TaskName, TaskPayload } from './task-payloads.js';

export interface JobSpec<T extends TaskName = TaskName> {
  task: T;
  payload: TaskPayload<T>;
  /** One pending job per key: adding again replaces the waiting job instead of duplicating it. */
  jobKey?: string;
  maxAttempts?: number;
  runAt?: Date;
}

/**
 * The `graphile_worker.add_jobs(…)` call for the specs, as SQL and its parameters, for a statement
 * that adds jobs as part of something larger (see deliverWebhook); `addJobs` runs it alone.
 */
export function addJobsCall(specs: JobSpec[]): { sql: string; params: unknown[] } {
  return { sql: `${ADD_JOBS_FROM_SPECS}))`, params: [specRows(specs)] };
}

const ADD_JOBS_FROM_SPECS = `graphile_worker.add_jobs(array(
       select row(spec.identifier, spec.payload, null, spec.run_at, spec.max_attempts, spec.job_key, null, null)::graphile_worker.job_spec
       from jsonb_to_recordset(?::jsonb) as spec(identifier text, payload json, run_at timestamptz, max_attempts int, job_key text)`;

function specRows(specs: JobSpec[]): string {
  return JSON.stringify(
    specs.map((spec) => ({
      identifier: spec.task,
      payload: spec.payload,
      run_at: spec.runAt?.toISOString() ?? null,
      max_attempts: spec.maxAttempts ?? null,
      job_key: spec.jobKey ?? null,
    })),
  );
}

/**
 * The same call as a fragment of the read/write path's SQL (`server/db/sql.ts`), for a statement
 * that writes rows and enqueues their jobs at once (`insertInvites`). `onlyIf` (SQL over `spec`)
 * keeps the specs whose rows were really written.
 */
export function addJobsSql(specs: JobSpec[], onlyIf: Sql = sql`true`): Sql {
  const [before, after] = ADD_JOBS_FROM_SPECS.split('?') as [string, string];
  return sql`${rawSql(before)}${specRows(specs)}${rawSql(after)} where ${onlyIf}))`;
}

/**
 * Enqueues jobs through the caller's EntityManager, so inside `em.transactional` the jobs commit
 * or roll back with the write that caused them. Any number of jobs is one statement.
 */
export async function addJobs(em: EntityManager, specs: JobSpec[]): Promise<void> {
  if (specs.length === 0) return;
  const call = addJobsCall(specs);
  await em.execute(`select count(*) from ${call.sql}`, call.params);
}
