import type { Task } from 'graphile-worker';
import { sendInviteEmail } from '../../server/domains/invites/send-invite-email.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** Sends one invitation email; a temporary failure throws so graphile-worker retries with backoff. */
export function sendInviteEmailTask(services: AppServices): Task<'invite__send_email'> {
  return typedTask('invite__send_email', async ({ inviteId }, helpers) => {
    const outcome = await sendInviteEmail(
      { em: services.orm.em.fork(), services },
      { inviteId, attempt: { number: helpers.job.attempts, maxAttempts: helpers.job.max_attempts } },
    );
    services.metrics.inviteEmails.inc({ outcome });
    if (outcome === 'retry') throw new Error(`invitation email for ${inviteId} failed temporarily; retrying`);
  });
}
