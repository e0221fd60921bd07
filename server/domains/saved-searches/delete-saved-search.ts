import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, sql } from '../../db/sql.js';
import { notFound } from '../../errors.js';

/** `savedSearches.delete`. */
export async function deleteSavedSearch(em: EntityManager, organizationId: string, savedSearchId: string): Promise<void> {
  const deleted = await queryRows<{ id: string }>(em, sql`delete from saved_searches where id = ${savedSearchId} and organization_id = ${organizationId} returning id`);
  if (deleted.length === 0) throw notFound('savedSearch', savedSearchId, 'savedSearchId');
}
