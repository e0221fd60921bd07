import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.js';
import type { Deps } from '../common/deps.js';
import { clearSignInFailures, countSignInAttempt, purgeStaleThrottles, takeBackSignInAttempt } from './queries.js';

/**
 * Brute-force protection for sign-in, in PostgreSQL so every API process counts together:
 * 5 failures for one email, or 20 from one address, within 15 minutes lock that email or
 * address for 15 minutes. The email is counted whether or not it has an account, so the lock
 * says nothing about which emails exist.
 */
export const SIGN_IN_LIMITS = {
  account: { failures: 5 },
  address: { failures: 20 },
  windowSeconds: 15 * 60,
  lockSeconds: 15 * 60,
} as const;

const WINDOW = `${SIGN_IN_LIMITS.windowSeconds} seconds`;
const LOCK = `${SIGN_IN_LIMITS.lockSeconds} seconds`;

export interface SignInSubjects {
  account: string;
  address: string;
}

export function signInSubjects(email: string, ip: string | undefined): SignInSubjects {
  return { account: `email:${email}`, address: `ip:${ip ?? 'unknown'}` };
}

/**
 * Counts this attempt for the email and for the address before any password is looked at, and
 * refuses it (429) when either was locked or is now past its limit. Counting first, in one
 * statement per subject that takes the row's lock, means concurrent attempts (a batch of ten, many
 * connections) are counted one after another: at most `failures` of them are ever checked.
 */
export async function beginSignInAttempt(em: EntityManager, subjects: SignInSubjects): Promise<void> {
  let retryAfter = 0;
  for (const [subject, limit] of [
    [subjects.account, SIGN_IN_LIMITS.account.failures],
    [subjects.address, SIGN_IN_LIMITS.address.failures],
  ] as const) {
    const row = await countSignInAttempt.first(em, { subject, limit, window: WINDOW, lock: LOCK });
    const lockedBefore = row?.locked_before ? new Date(row.locked_before).getTime() > Date.now() : false;
    if (lockedBefore || Number(row?.failures ?? 0) > limit) retryAfter = Math.max(retryAfter, Number(row?.seconds ?? 0), 1);
  }
  if (retryAfter > 0) {
    throw new AppError(
      'TOO_MANY_SIGN_IN_ATTEMPTS',
      `Too many failed sign-ins. Try again in ${Math.ceil(retryAfter / 60)} minute(s), or ask for a new invitation.`,
      { retryAfter },
      { 'Retry-After': String(retryAfter) },
    );
  }
}

/**
 * A success was counted as an attempt: it clears the email's count, and takes itself back from
 * the address's (which keeps the rest, or one valid account would reset it for an attacker).
 */
export async function recordSignInSuccess(em: EntityManager, subjects: SignInSubjects): Promise<void> {
  await clearSignInFailures.rows(em, { subject: subjects.account });
  await takeBackSignInAttempt.rows(em, { subject: subjects.address, limit: SIGN_IN_LIMITS.address.failures });
}

/** Counts whose window ended and that hold no lock are useless; the rate-limit purge deletes them. */
export async function purgeStaleSignInThrottles({ em }: Pick<Deps, 'em'>): Promise<number> {
  const row = await purgeStaleThrottles.first(em, { window: `${SIGN_IN_LIMITS.windowSeconds} seconds` });
  return Number(row?.count ?? 0);
}
