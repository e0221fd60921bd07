import type { Task } from 'graphile-worker';
import { purgeStaleSignInThrottles } from '../../server/domains/auth/sign-in-throttle.js';
import { purgeExpiredRateLimitWindows } from '../../server/platform/rate-limit.js';
import type { AppServices } from '../../server/services.js';

/** Cron: rate-limit windows that have ended, and sign-in failure counts past their window, are deleted. */
export function purgeRateLimitsTask(services: AppServices): Task {
  return async () => {
    const deleted = await purgeExpiredRateLimitWindows(services.orm.em.fork());
    const throttles = await purgeStaleSignInThrottles({ em: services.orm.em.fork() });
    if (deleted + throttles > 0) services.logger.debug({ deleted, throttles }, 'purged rate-limit windows and sign-in counts');
  };
}
