import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSignedIn } from '../../../shared/schemas/members.js';
import { Member } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import { hashSecretToken, type MemberTokens } from '../../lib/member-tokens.js';
import { hashPassword } from '../../lib/passwords.js';
import { type ClientInfo, startMemberSession } from './member-sessions.js';

export interface AcceptInvitationInput {
  token: string;
  password: string;
  name?: string | undefined;
}

function invalidInvitation(): AppError {
  return new AppError('INVALID_INVITATION', 'This invitation link is unknown, already used or expired. Ask for a new invitation.');
}

/**
 * Accepting a member invitation: sets the password (scrypt; never stored or logged in clear) and
 * signs the member in. The link works once: the conditional update on its hash lets exactly one
 * of two concurrent acceptances through.
 */
/** The invited member a link's token names, while the invitation is open (not accepted, not expired). */
export async function findOpenInvitation(em: EntityManager, token: string): Promise<Member | null> {
  const member = await em.findOne(Member, { invitationTokenHash: hashSecretToken(token) }, { populate: ['organization'] });
  if (!member || member.status !== 'invited' || !member.invitationExpiresAt || member.invitationExpiresAt <= new Date()) return null;
  return member;
}

export async function acceptInvitation(em: EntityManager, tokens: MemberTokens, input: AcceptInvitationInput, client: ClientInfo): Promise<TSignedIn> {
  const tokenHash = hashSecretToken(input.token);
  const member = await findOpenInvitation(em, input.token);
  if (!member) throw invalidInvitation();
  const passwordHash = await hashPassword(input.password);
  return em.transactional(async (tx) => {
    const accepted = await tx.execute<{ id: string }[]>(
      `update members set status = 'active', password_hash = ?, name = coalesce(?, name), invitation_token_hash = null,
         invitation_expires_at = null, updated_at = now()
       where id = ? and invitation_token_hash = ? and status = 'invited' and invitation_expires_at > now() returning id`,
      [passwordHash, input.name ?? null, member.id, tokenHash],
    );
    if (accepted.length === 0) throw invalidInvitation();
    const fresh = await tx.findOneOrFail(Member, { id: member.id }, { populate: ['organization'], refresh: true });
    return startMemberSession(tx, tokens, fresh, client);
  });
}
