import { defineQuery } from '../server/db/query.js';
import { sql } from '../server/db/sql.js';

/**
 * The worker's own statements: its liveness heartbeat (`worker_processes`, one row per process
 * with the lock holder ids it runs jobs under) and the unlocking of jobs held by dead ones.
 */

/** This process is alive, locking jobs under these ids (`workerIds`: a JSON array). */
export const recordWorkerHeartbeat = defineQuery({
  columns: {},
  statement: ({ processId, workerIds }: { processId: string; workerIds: string }) =>
    sql`insert into worker_processes (id, worker_ids, started_at, last_seen_at) values (${processId}, ${workerIds}::jsonb, now(), now())
       on conflict (id) do update set worker_ids = excluded.worker_ids, last_seen_at = now()`,
  example: { processId: 'process-example', workerIds: '["pool-example"]' },
});

/** A process that stopped cleanly: its lock holder ids read as gone at once. */
export const deleteWorkerProcess = defineQuery({
  columns: {},
  statement: ({ processId }: { processId: string }) => sql`delete from worker_processes where id = ${processId}`,
  example: { processId: 'process-example' },
});

/** Heartbeats of processes gone for a day: no lock can be theirs any more. */
export const deleteLongGoneWorkerProcesses = defineQuery({
  columns: {},
  statement: () => sql`delete from worker_processes where last_seen_at < now() - interval '1 day'`,
  example: {},
});

/**
 * Lock holder ids on jobs or queues locked for over `staleSeconds` that no process has claimed
 * in its heartbeat within `staleSeconds`: their process crashed or was killed.
 */
export const staleLockHolders = defineQuery({
  columns: { locked_by: 'text' },
  statement: ({ staleSeconds }: { staleSeconds: number }) =>
    sql`select distinct locked_by from (
       select locked_by, locked_at from graphile_worker._private_jobs where locked_by is not null
       union all
       select locked_by, locked_at from graphile_worker._private_job_queues where locked_by is not null
     ) locks
     where locked_at < now() - make_interval(secs => ${staleSeconds})
       and not exists (
         select 1 from worker_processes p
         where p.worker_ids @> jsonb_build_array(locks.locked_by) and p.last_seen_at > now() - make_interval(secs => ${staleSeconds})
       )`,
  example: { staleSeconds: 120 },
});

/** Unlocks the jobs and queues these lock holders hold, so they run again. */
export const forceUnlockWorkers = defineQuery({
  columns: { force_unlock_workers: 'void' },
  statement: ({ workerIds }: { workerIds: string[] }) => sql`select graphile_worker.force_unlock_workers(${workerIds}::text[])`,
  example: { workerIds: ['pool-example'] },
});
