import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, sql } from '../../db/sql.js';
import { notFound } from '../../errors.js';

/** `collections.delete`: the collection and its items; the highlights themselves stay. */
export async function deleteCollection(em: EntityManager, organizationId: string, collectionId: string): Promise<void> {
  const deleted = await queryRows<{ id: string }>(em, sql`delete from collections where id = ${collectionId} and organization_id = ${organizationId} returning id`);
  if (deleted.length === 0) throw notFound('collection', collectionId, 'collectionId');
}
