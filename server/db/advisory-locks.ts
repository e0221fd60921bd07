import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, sql } from './sql.js';

/**
 * Waits for advisory lock `id` in shared mode, held until `tx`'s transaction ends. Shared holders
 * do not wait for each other, only for an exclusive holder (`pg_advisory_lock(id)` on a
 * connection of its own, as the backup takes it).
 */
export async function lockSharedUntilCommit(tx: EntityManager, id: number): Promise<void> {
  if (!tx.isInTransaction()) throw new Error('lockSharedUntilCommit needs a transaction: outside one the lock would end with its statement');
  await queryRows(tx, sql`select pg_advisory_xact_lock_shared(${id})`);
}

/**
 * Waits for the exclusive advisory lock named by `key` (PostgreSQL's `hashtext` of it), held until
 * `tx`'s transaction ends: writers of one thing take turns.
 */
export async function lockUntilCommit(tx: EntityManager, key: string): Promise<void> {
  if (!tx.isInTransaction()) throw new Error('lockUntilCommit needs a transaction: outside one the lock would end with its statement');
  await queryRows(tx, sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}
