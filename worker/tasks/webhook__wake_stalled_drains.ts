import type { Task } from 'graphile-worker';
import { wakeStalledDrains } from '../../server/domains/webhooks/index.js';
import type { AppServices } from '../../server/services.js';

/** Cron: the drains of endpoints whose deliveries have waited over a minute for a first attempt are woken again. */
export function wakeStalledDrainsTask(services: AppServices): Task {
  return async () => {
    const woken = await wakeStalledDrains({ em: services.orm.em.fork() });
    if (woken > 0) services.logger.warn({ endpoints: woken }, 'webhook drains woken again for deliveries waiting over a minute');
  };
}
