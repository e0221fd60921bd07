import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Writes `expired` on pending and started invites whose expiresAt has passed (the periodic job).
 * Readers already see them as expired; this makes the stored status agree for SQL consumers.
 * A session already in progress may still finish.
 */
export async function expireInvites(em: EntityManager): Promise<number> {
  const rows = await em.execute<{ id: string }[]>(
    `update invites set status = 'expired', updated_at = now()
     where status in ('pending', 'started') and expires_at <= now()
     returning id`,
  );
  return rows.length;
}
