import type { Deps } from '../common/deps.js';
import { DRAIN_KEY_PREFIX, wakeDrains } from './delivery-jobs.js';
import { endpointsWithStalledFirstAttempts } from './queries.js';

/** A first attempt older than this without a drain having sent it is a drain's to wake again. */
const STALLED_AFTER_SECONDS = 60;

/**
 * `webhook__wake_stalled_drains` (every minute): wakes the drain of every endpoint with a delivery
 * that has waited over a minute for its first attempt and no drain left to send it. The backstop
 * behind `wakeDrains`: a drain job that failed for good (graphile-worker gives up after 25
 * attempts, about four days) or was lost otherwise would leave its endpoint's new deliveries
 * unsent until the next event to it. A drain waiting, running or retrying is left alone (its
 * backoff is not cut short). Answers how many drains were woken.
 *
 * No caller: it spans organizations, as the maintenance tasks do; it reads endpoint ids only.
 */
export async function wakeStalledDrains({ em }: Pick<Deps, 'em'>): Promise<number> {
  const stalled = await endpointsWithStalledFirstAttempts.rows(em, { olderThanSeconds: STALLED_AFTER_SECONDS, drainKeyPrefix: DRAIN_KEY_PREFIX });
  await wakeDrains(
    em,
    stalled.map((row) => row.endpoint_id),
  );
  return stalled.length;
}
