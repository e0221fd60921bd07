import type { EntityManager } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import type { AppServices } from '../../server/services.js';
import { deleteLongGoneWorkerProcesses, forceUnlockWorkers, staleLockHolders } from '../queries.js';

/** A worker process that has not refreshed its heartbeat for this long is presumed dead. */
export const STALE_WORKER_SECONDS = 120;

/**
 * Unlocks jobs and queues held by worker ids that no live process claims (a crashed or killed
 * worker), so they are retried within minutes rather than after graphile-worker's four-hour
 * lock timeout. Returns the ids it unlocked.
 */
export async function recoverStaleLocks(em: EntityManager): Promise<string[]> {
  const stale = (await staleLockHolders.rows(em, { staleSeconds: STALE_WORKER_SECONDS })).map((row) => row.locked_by);
  if (stale.length > 0) await forceUnlockWorkers.rows(em, { workerIds: stale });
  await deleteLongGoneWorkerProcesses.rows(em, {});
  return stale;
}

export function recoverStaleLocksTask(services: AppServices): Task {
  return async () => {
    const unlocked = await recoverStaleLocks(services.orm.em.fork());
    if (unlocked.length > 0) services.logger.warn({ workerIds: unlocked }, 'unlocked jobs of dead workers');
  };
}
