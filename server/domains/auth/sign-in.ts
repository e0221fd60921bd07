import type { z } from 'zod';
import type { TSignedIn, ZSignInInput } from '../../../shared/schemas/members.js';
import { Member } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import { decoyPasswordHash, verifyPassword } from '../../lib/passwords.js';
import type { AppServices } from '../../services.js';
import type { Deps } from '../common/deps.js';
import { type ClientInfo, startMemberSession } from '../members/index.js';
import { beginSignInAttempt, recordSignInSuccess, signInSubjects } from './sign-in-throttle.js';

/** An email belongs to at most this many organizations we try a password against. */
const MAX_MEMBERSHIPS = 10;

function invalidCredentials(): AppError {
  return new AppError('INVALID_CREDENTIALS', 'The email or password is wrong.');
}

/**
 * `auth.signIn`: email and password to a token pair. An unknown email, an invited (not yet
 * active) member and a wrong password get the same answer after the same work (a decoy hash is
 * checked when no account matches); every attempt counts toward the email's and the address's
 * lock before the password is checked, and a success takes itself back.
 */
export async function signIn(
  { em, services }: Pick<Deps, 'em'> & { services: Pick<AppServices, 'memberTokens'> },
  input: z.infer<typeof ZSignInInput> & { client: ClientInfo },
): Promise<TSignedIn> {
  const { client } = input;
  const subjects = signInSubjects(input.email, client.ip);
  await beginSignInAttempt(em, subjects);
  const candidates = await em.find(
    Member,
    { email: input.email, status: 'active', ...(input.organizationId ? { organization: input.organizationId } : {}) },
    { populate: ['organization'], orderBy: { createdAt: 'asc' }, limit: MAX_MEMBERSHIPS },
  );
  const matches: Member[] = [];
  for (const member of candidates) {
    if (member.passwordHash && (await verifyPassword(input.password, member.passwordHash))) matches.push(member);
  }
  if (candidates.length === 0) await verifyPassword(input.password, await decoyPasswordHash());
  // A failure stays counted (the attempt was counted before the password was checked).
  if (matches.length === 0) throw invalidCredentials();
  await recordSignInSuccess(em, subjects);
  if (matches.length > 1) {
    // Only after the password proved itself: which organizations this person belongs to.
    throw new AppError('INVALID_REQUEST', 'This email belongs to several organizations: name one with organizationId.', {
      fields: [{ path: 'organizationId', message: 'required: the email belongs to several organizations' }],
      organizations: matches.map((member) => ({ id: member.organization.id, name: member.organization.name })),
    });
  }
  return startMemberSession(em, services.memberTokens, matches[0]!, client);
}
