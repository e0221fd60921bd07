import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Runs domain code in process on an EntityManager whose transaction is rolled back when `work`
 * ends, passed or failed: the test reads its own writes, the database keeps none of them, so
 * tests sharing one app and database stay independent of each other and of their order. A rule
 * is tested here by calling its domain function; the HTTP tests keep the edge's contract (status,
 * envelope, permissions).
 *
 * Domain functions that open `em.transactional` themselves run in a savepoint of this
 * transaction. What takes a connection of its own (a fresh `t.em()`, the job worker, another HTTP
 * request) does not see the uncommitted rows.
 */
export async function inRolledBackTransaction<T>(source: { em(): EntityManager }, work: (em: EntityManager) => Promise<T>): Promise<T> {
  const em = source.em();
  await em.begin();
  try {
    return await work(em);
  } finally {
    await em.rollback();
  }
}
