import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * `session__announce_completion`: the last step after a finished session's transcript and
 * insights. It records that it ran, once; the `interview.completed` deliveries fan out from
 * here when webhooks exist.
 */
export async function announceCompletion(em: EntityManager, sessionId: string): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(
    `update sessions set completion_announced_at = now(), updated_at = now() where id = ? and completion_announced_at is null and status in ('completed', 'abandoned') returning id`,
    [sessionId],
  );
  return rows.length > 0;
}
