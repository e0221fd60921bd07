import type { JobSpec } from '../../jobs/add-jobs.js';

/**
 * graphile-worker retries a failed send with its exponential backoff (about 3 s, 7 s, 20 s,
 * 55 s between attempts); after the last attempt the invite's emailStatus becomes `failed`.
 */
export const INVITE_EMAIL_MAX_ATTEMPTS = 5;

/** One waiting email per invite: a resend while one is queued replaces it rather than sending twice. */
export function inviteEmailJob(inviteId: string): JobSpec<'invite__send_email'> {
  return {
    task: 'invite__send_email',
    payload: { inviteId },
    jobKey: `invite-email:${inviteId}`,
    maxAttempts: INVITE_EMAIL_MAX_ATTEMPTS,
  };
}
