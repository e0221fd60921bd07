import type { Deps } from '../common/deps.js';
import { expireOverdueInvites } from './queries.js';

/**
 * Writes `expired` on pending and started invites whose expiresAt has passed (the periodic job).
 * Readers already see them as expired; this makes the stored status agree for SQL consumers.
 * A session already in progress may still finish. No caller: it acts for every organization.
 */
export async function expireInvites({ em }: Pick<Deps, 'em'>): Promise<number> {
  const rows = await expireOverdueInvites.rows(em, {});
  return rows.length;
}
