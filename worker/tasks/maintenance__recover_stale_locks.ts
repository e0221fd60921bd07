import type { EntityManager } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import type { AppServices } from '../../server/services.js';

/** A worker process that has not refreshed its heartbeat for this long is presumed dead. */
export const STALE_WORKER_SECONDS = 120;

/**
 * Unlocks jobs and queues held by worker ids that no live process claims (a crashed or killed
 * worker), so they are retried within minutes rather than after graphile-worker's four-hour
 * lock timeout. Returns the ids it unlocked.
 */
export async function recoverStaleLocks(em: EntityManager): Promise<string[]> {
  const rows = await em.execute<{ locked_by: string }[]>(
    `select distinct locked_by from (
       select locked_by, locked_at from graphile_worker._private_jobs where locked_by is not null
       union all
       select locked_by, locked_at from graphile_worker._private_job_queues where locked_by is not null
     ) locks
     where locked_at < now() - make_interval(secs => ?)
       and not exists (
         select 1 from worker_processes p
         where p.worker_ids @> jsonb_build_array(locks.locked_by) and p.last_seen_at > now() - make_interval(secs => ?)
       )`,
    [STALE_WORKER_SECONDS, STALE_WORKER_SECONDS],
  );
  const stale = rows.map((row) => row.locked_by);
  // knex expands an array binding into a list, hence array[?].
  if (stale.length > 0) await em.execute(`select graphile_worker.force_unlock_workers(array[?]::text[])`, [stale]);
  await em.execute(`delete from worker_processes where last_seen_at < now() - interval '1 day'`);
  return stale;
}

export function recoverStaleLocksTask(services: AppServices): Task {
  return async () => {
    const unlocked = await recoverStaleLocks(services.orm.em.fork());
    if (unlocked.length > 0) services.logger.warn({ workerIds: unlocked }, 'unlocked jobs of dead workers');
  };
}
