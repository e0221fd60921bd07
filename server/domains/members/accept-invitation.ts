import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSignedIn } from '../../../shared/schemas/members.js';
import { Member } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import { hashSecretToken } from '../../lib/member-tokens.js';
import { hashPassword } from '../../lib/passwords.js';
import type { AppServices } from '../../services.js';
import type { ClientInfo } from '../common/client-info.js';
import type { Deps } from '../common/deps.js';
import { startMemberSession } from './member-sessions.js';
import { acceptOpenInvitation } from './queries.js';

export interface AcceptInvitationInput {
  token: string;
  password: string;
  name?: string | undefined;
  /** Who accepts: the new sign-in is recorded with it. */
  client: ClientInfo;
}

function invalidInvitation(): AppError {
  return new AppError('INVALID_INVITATION', 'This invitation link is unknown, already used or expired. Ask for a new invitation.');
}

/** The invited member a link's token names, while the invitation is open (not accepted, not expired). */
export async function findOpenInvitation({ em }: Pick<Deps, 'em'>, input: { token: string }): Promise<Member | null> {
  const member = await em.findOne(Member, { invitationTokenHash: hashSecretToken(input.token) }, { populate: ['organization'] });
  if (!member || member.status !== 'invited' || !member.invitationExpiresAt || member.invitationExpiresAt <= new Date()) return null;
  return member;
}

/**
 * Accepting a member invitation: sets the password (scrypt; never stored or logged in clear) and
 * signs the member in. The link works once: the conditional update on its hash lets exactly one
 * of two concurrent acceptances through. No caller: the token is the credential.
 */
export async function acceptInvitation(
  { em, services }: { em: EntityManager; services: Pick<AppServices, 'memberTokens'> },
  input: AcceptInvitationInput,
): Promise<TSignedIn> {
  const tokenHash = hashSecretToken(input.token);
  const member = await findOpenInvitation({ em }, input);
  if (!member) throw invalidInvitation();
  const passwordHash = await hashPassword(input.password);
  return em.transactional(async (tx) => {
    const accepted = await acceptOpenInvitation.rows(tx, { memberId: member.id, tokenHash, passwordHash, name: input.name ?? null });
    if (accepted.length === 0) throw invalidInvitation();
    const fresh = await tx.findOneOrFail(Member, { id: member.id }, { populate: ['organization'], refresh: true });
    return startMemberSession(tx, services.memberTokens, fresh, input.client);
  });
}
