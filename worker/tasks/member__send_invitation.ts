import type { Task } from 'graphile-worker';
import { sendMemberInvitation } from '../../server/domains/members/send-member-invitation.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** Emails a member invitation; a temporary failure throws so graphile-worker retries with backoff. */
export function sendMemberInvitationTask(services: AppServices): Task<'member__send_invitation'> {
  return typedTask('member__send_invitation', async (payload, helpers) => {
    const outcome = await sendMemberInvitation(
      { em: services.orm.em.fork(), services },
      {
        ...payload,
        attempt: { number: helpers.job.attempts, maxAttempts: helpers.job.max_attempts },
      },
    );
    if (outcome === 'retry') throw new Error(`member invitation email for ${payload.memberId} failed temporarily; retrying`);
  });
}
