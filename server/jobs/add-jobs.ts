import type { EntityManager } from '@mikro-orm/postgresql';
import { addJobsAlone } from './queries.js';
import type { TaskName, TaskPayload } from './task-payloads.js';

export interface JobSpec<T extends TaskName = TaskName> {
  task: T;
  payload: TaskPayload<T>;
  /** One pending job per key: adding again replaces the waiting job instead of duplicating it. */
  jobKey?: string;
  maxAttempts?: number;
  runAt?: Date;
  /**
   * A named queue runs its jobs one at a time: long jobs (rendering, merging) in one take at most
   * one of the worker's slots, so deliveries and the next steps of other sessions never wait behind them.
   */
  queueName?: string;
}

/**
 * Enqueues jobs through the caller's EntityManager, so inside `em.transactional` the jobs commit
 * or roll back with the write that caused them. Any number of jobs is one statement. A statement
 * that writes rows and enqueues their jobs at once composes the same call, `addJobsSql` (queries.ts).
 * Answers how many jobs were added or replaced: a keyed job that graphile-worker neither replaced
 * nor added (see `wakeDrains` in webhooks/delivery-jobs.ts) is not counted.
 */
export async function addJobs(em: EntityManager, specs: JobSpec[]): Promise<number> {
  if (specs.length === 0) return 0;
  const [row] = await addJobsAlone.rows(em, { specs });
  return Number(row?.count ?? 0);
}
