import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, sql } from '../../db/sql.js';
import { notFound } from '../../errors.js';

/** `highlights.delete`: also takes it out of every collection (the items cascade). */
export async function deleteHighlight(em: EntityManager, organizationId: string, highlightId: string): Promise<void> {
  const deleted = await queryRows<{ id: string }>(em, sql`delete from highlights where id = ${highlightId} and organization_id = ${organizationId} returning id`);
  if (deleted.length === 0) throw notFound('highlight', highlightId, 'highlightId');
}
