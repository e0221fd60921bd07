import type { Session } from '../../entities/index.js';

// The session's clock counts seconds in progress only: pauses, the wait for consent and the time
// after the end do not count (they are not interview minutes, and not billed).

/** Seconds in progress so far, at `now` (fractional). */
export function activeSecondsAt(session: Pick<Session, 'activeSeconds' | 'activeSince'>, now: Date): number {
  const running = session.activeSince ? Math.max(0, (now.getTime() - session.activeSince.getTime()) / 1000) : 0;
  return session.activeSeconds + running;
}

/** The record's `duration`: whole seconds in progress. */
export function durationAt(session: Pick<Session, 'activeSeconds' | 'activeSince'>, now: Date): number {
  return Math.floor(activeSecondsAt(session, now));
}

/** Starts (or restarts after a pause) the clock. */
export function startClock(session: Session, now: Date): void {
  session.activeSince ??= now;
  session.startedAt ??= now;
  session.durationSeconds = durationAt(session, now);
}

/** Stops the clock (pause or finish), folding the running stretch into `activeSeconds`. */
export function stopClock(session: Session, now: Date): void {
  session.activeSeconds = activeSecondsAt(session, now);
  session.activeSince = null;
  session.durationSeconds = Math.floor(session.activeSeconds);
}

/** Seconds from the session's start (its first question), for utterance times. */
export function offsetAt(session: Pick<Session, 'startedAt'>, now: Date): number {
  return session.startedAt ? Math.max(0, (now.getTime() - session.startedAt.getTime()) / 1000) : 0;
}
