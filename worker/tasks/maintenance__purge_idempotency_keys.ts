import type { Task } from 'graphile-worker';
import { purgeExpiredIdempotencyKeys } from '../../server/platform/idempotency-store.js';
import type { AppServices } from '../../server/services.js';

/** Cron (hourly): idempotency keys past their 24 hours are deleted. */
export function purgeIdempotencyKeysTask(services: AppServices): Task {
  return async () => {
    const deleted = await purgeExpiredIdempotencyKeys(services.orm.em.fork());
    if (deleted > 0) services.logger.debug({ deleted }, 'purged idempotency keys');
  };
}
