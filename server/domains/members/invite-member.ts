import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { TInviteMemberInput, TMember } from '../../../shared/schemas/members.js';
import { isTestWorld, Member, Organization } from '../../entities/index.js';
import { AppError, notFound } from '../../errors.js';
import { addJobs } from '../../jobs/add-jobs.js';
import { newId } from '../../lib/ids.js';
import { hashSecretToken, INVITATION_SECONDS, newSecretToken } from '../../lib/member-tokens.js';
import type { AppServices } from '../../services.js';
import type { Deps } from '../common/deps.js';
import { assertMayManageRole, type MembersActor } from './owner-rules.js';
import { toMemberDto } from './serialize.js';

export interface InvitedMember {
  member: TMember;
  /** For the admin CLI (a host without SMTP): the API never shows it, it goes by email. */
  invitationUrl: string;
}

/**
 * `POST /v1/organization/members`: an invited member and the email with their one-use link to set
 * a password, queued in the same transaction. 409 MEMBER_EXISTS for an address already there.
 */
export async function inviteMember(
  { em, services }: Pick<Deps, 'em'> & { services: Pick<AppServices, 'sealer' | 'links'> },
  auth: MembersActor,
  input: TInviteMemberInput,
): Promise<InvitedMember> {
  assertMayManageRole(auth, input.role);
  const token = newSecretToken('mit');
  try {
    return await em.transactional(async (tx) => {
      const organization = await tx.findOne(Organization, { id: auth.organizationId });
      if (!organization) throw notFound('organization', auth.organizationId);
      // Members belong to the live organization: a test world has none (its data is deleted whole).
      if (isTestWorld(organization)) throw new AppError('LIVE_MODE_ONLY', 'Members are invited to the live organization: use a live key or the dashboard.');
      const member = tx.create(Member, {
        id: newId('mem'),
        organization,
        email: input.email,
        name: input.name ?? null,
        role: input.role,
        status: 'invited',
        passwordHash: null,
        invitationTokenHash: hashSecretToken(token),
        invitationExpiresAt: new Date(Date.now() + INVITATION_SECONDS * 1000),
        invitationEmailStatus: 'queued',
        lastSignInAt: null,
      });
      await tx.flush();
      await addJobs(tx, [{ task: 'member__send_invitation', payload: { memberId: member.id, sealedToken: services.sealer.seal(token) }, maxAttempts: 10 }]);
      return { member: toMemberDto(member), invitationUrl: services.links.memberInvitationUrl(token) };
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw new AppError('MEMBER_EXISTS', `The organization already has a member with the email ${input.email}.`, {
        fields: [{ path: 'email', message: 'already a member (or invited)' }],
      });
    }
    throw error;
  }
}
