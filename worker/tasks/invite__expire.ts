import type { Task } from 'graphile-worker';
import { expireInvites } from '../../server/domains/invites/expire-invites.js';
import type { AppServices } from '../../server/services.js';

/** Cron: pending and started invites past their expiresAt are marked expired. */
export function expireInvitesTask(services: AppServices): Task {
  return async () => {
    const expired = await expireInvites({ em: services.orm.em.fork() });
    if (expired > 0) services.logger.info({ expired }, 'invites expired');
  };
}
