import { describeEmailFailure, isPermanentEmailFailure } from '../../email/mailer.js';
import { renderMemberInvitation } from '../../email/member-invitation-email.js';
import { Member } from '../../entities/index.js';
import { hashSecretToken } from '../../lib/member-tokens.js';
import type { AppServices } from '../../services.js';
import type { Deps } from '../common/deps.js';
import { recordInvitationEmailStatus } from './queries.js';

export type MemberInvitationOutcome = 'sent' | 'skipped' | 'failed' | 'retry';

export interface SendMemberInvitationInput {
  /** The job's payload. */
  memberId: string;
  sealedToken: string;
  attempt: { number: number; maxAttempts: number };
}

/**
 * The `member__send_invitation` job: emails the link with the token sealed in the job. Skipped
 * when the invitation was accepted, withdrawn or replaced meanwhile (its hash no longer matches).
 * No caller: the job's payload names the member alone, and the member row is the scope.
 */
export async function sendMemberInvitation(
  { em, services }: Pick<Deps, 'em'> & { services: Pick<AppServices, 'sealer' | 'links' | 'mailer' | 'logger'> },
  input: SendMemberInvitationInput,
): Promise<MemberInvitationOutcome> {
  const { attempt, ...job } = input;
  const member = await em.findOne(Member, { id: job.memberId }, { populate: ['organization'] });
  const token = services.sealer.open(job.sealedToken);
  if (!member || member.status !== 'invited' || member.invitationTokenHash !== hashSecretToken(token)) return 'skipped';
  const record = (status: 'sent' | 'failed') =>
    recordInvitationEmailStatus.rows(em, { memberId: member.id, tokenHash: member.invitationTokenHash ?? null, status });
  const rendered = renderMemberInvitation({
    organizationName: member.organization.name,
    role: member.role,
    acceptUrl: services.links.memberInvitationUrl(token),
    expiresAt: member.invitationExpiresAt ?? new Date(),
  });
  try {
    const host = new URL(services.links.memberInvitationUrl(token)).hostname;
    await services.mailer.send({
      to: { address: member.email, name: member.name ?? null },
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      // Stable across retries of this invitation, so a receiver can spot a duplicate.
      messageId: `<${member.id}.${member.invitationTokenHash!.slice(0, 12)}@${host}>`,
    });
  } catch (error) {
    const reason = describeEmailFailure(error);
    if (isPermanentEmailFailure(error) || attempt.number >= attempt.maxAttempts) {
      await record('failed');
      services.logger.warn({ memberId: member.id, reason }, 'member invitation email failed');
      return 'failed';
    }
    services.logger.info({ memberId: member.id, reason, attempt: attempt.number }, 'member invitation email failed; will retry');
    return 'retry';
  }
  await record('sent');
  return 'sent';
}
