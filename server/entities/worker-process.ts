import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Liveness of worker processes: each records its graphile-worker ids and refreshes
 * `lastSeenAt`. Jobs locked by ids no live process claims are unlocked (crash recovery),
 * instead of waiting graphile-worker's four hours.
 */
export const WorkerProcess = defineEntity({
  name: 'WorkerProcess',
  tableName: 'worker_processes',
  properties: {
    id: p.string().primary().columnType('text'),
    workerIds: p.json<string[]>(),
    startedAt: p.datetime(3),
    lastSeenAt: p.datetime(3).index(),
  },
});

export type WorkerProcess = InferEntity<typeof WorkerProcess>;
