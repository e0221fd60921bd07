import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.js';

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

export interface SignInSubjects {
  account: string;
  address: string;
}

export function signInSubjects(email: string, ip: string | undefined): SignInSubjects {
  return { account: `email:${email}`, address: `ip:${ip ?? 'unknown'}` };
}

/** 429 while either subject is locked: checked before any password is looked at. */
export async function assertSignInAllowed(em: EntityManager, subjects: SignInSubjects): Promise<void> {
  const [row] = await em.execute<{ seconds: string | null }[]>(
    `select ceil(extract(epoch from max(locked_until) - now())) as seconds from sign_in_throttles where subject in (?, ?) and locked_until > now()`,
    [subjects.account, subjects.address],
  );
  const seconds = Number(row?.seconds ?? 0);
  if (seconds > 0) {
    throw new AppError(
      'TOO_MANY_SIGN_IN_ATTEMPTS',
      `Too many failed sign-ins. Try again in ${Math.ceil(seconds / 60)} minute(s), or reset the password with a new invitation.`,
      { retryAfter: seconds },
      { 'Retry-After': String(seconds) },
    );
  }
}

/** One failure for the subject, in one atomic upsert; the failure that reaches the limit sets the lock. */
async function countFailure(em: EntityManager, subject: string, limit: number): Promise<void> {
  const window = `${SIGN_IN_LIMITS.windowSeconds} seconds`;
  await em.execute(
    `insert into sign_in_throttles as t (subject, failures, window_started_at, locked_until) values (?, 1, now(), null)
     on conflict (subject) do update set
       failures = case when t.window_started_at < now() - ?::interval then 1 else t.failures + 1 end,
       window_started_at = case when t.window_started_at < now() - ?::interval then now() else t.window_started_at end,
       locked_until = case
         when (case when t.window_started_at < now() - ?::interval then 1 else t.failures + 1 end) >= ?
           then now() + ?::interval
         else t.locked_until end`,
    [subject, window, window, window, limit, `${SIGN_IN_LIMITS.lockSeconds} seconds`],
  );
}

export async function recordSignInFailure(em: EntityManager, subjects: SignInSubjects): Promise<void> {
  await countFailure(em, subjects.account, SIGN_IN_LIMITS.account.failures);
  await countFailure(em, subjects.address, SIGN_IN_LIMITS.address.failures);
}

/** A success clears the account's count; the address keeps its own, or one valid account would reset it. */
export async function recordSignInSuccess(em: EntityManager, subjects: SignInSubjects): Promise<void> {
  await em.execute(`delete from sign_in_throttles where subject = ?`, [subjects.account]);
}

/** Counts whose window ended and that hold no lock are useless; the rate-limit purge deletes them. */
export async function purgeStaleSignInThrottles(em: EntityManager): Promise<number> {
  const rows = await em.execute<{ count: string }[]>(
    `with deleted as (
       delete from sign_in_throttles
       where window_started_at < now() - ?::interval and (locked_until is null or locked_until < now())
       returning 1)
     select count(*) as count from deleted`,
    [`${SIGN_IN_LIMITS.windowSeconds} seconds`],
  );
  return Number(rows[0]?.count ?? 0);
}
