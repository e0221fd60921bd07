import type { Task } from 'graphile-worker';
import { purgeExpiredRateLimitWindows } from '../../server/platform/rate-limit.js';
import type { AppServices } from '../../server/services.js';

/** Cron: rate-limit windows that have ended are deleted. */
export function purgeRateLimitsTask(services: AppServices): Task {
  return async () => {
    const deleted = await purgeExpiredRateLimitWindows(services.orm.em.fork());
    if (deleted > 0) services.logger.debug({ deleted }, 'purged rate-limit windows');
  };
}
