import { defineQuery } from '../db/query.js';
import { type Sql, sql } from '../db/sql.js';
import type { JobSpec } from './add-jobs.js';

/**
 * graphile-worker's `add_jobs(…)` call for the specs, as a fragment of a statement: the one way
 * jobs are added. Alone it is `addJobs` (add-jobs.ts); inside a larger statement it enqueues jobs
 * in the same statement as the write that causes them (`insertInvites`, `recordWebhookAttempts`),
 * so they commit together or not at all. `onlyIf` (SQL over `spec`: its
 * `identifier`, `payload`, …) keeps the specs whose rows were really written.
 */
export function addJobsSql(specs: JobSpec[], onlyIf: Sql = sql`true`): Sql {
  return sql`graphile_worker.add_jobs(array(
       select row(spec.identifier, spec.payload, spec.queue_name, spec.run_at, spec.max_attempts, spec.job_key, null, null)::graphile_worker.job_spec
       from jsonb_to_recordset(${specRows(specs)}::jsonb) as spec(identifier text, payload json, queue_name text, run_at timestamptz, max_attempts int, job_key text)
       where ${onlyIf}))`;
}

function specRows(specs: JobSpec[]): string {
  return JSON.stringify(
    specs.map((spec) => ({
      identifier: spec.task,
      payload: spec.payload,
      queue_name: spec.queueName ?? null,
      run_at: spec.runAt?.toISOString() ?? null,
      max_attempts: spec.maxAttempts ?? null,
      job_key: spec.jobKey ?? null,
    })),
  );
}

/** The call as a statement of its own; answers how many jobs it added. */
export const addJobsAlone = defineQuery({
  columns: { count: 'bigint' },
  statement: ({ specs }: { specs: JobSpec[] }) => sql`select count(*) from ${addJobsSql(specs)}`,
  example: { specs: [{ task: 'invite__send_email', payload: { inviteId: 'inv_example' } }] as JobSpec[] },
});
