import type { CustomerAuth } from '../common/caller.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TAddHighlightInput, TCollectionItem } from '../../../shared/schemas/collections.js';
import { queryRows, sql } from '../../db/sql.js';

import { authorColumns } from '../common/author.js';
import { readCollectionItem } from './collection-rows.js';
import { notFound } from '../../errors.js';

/**
 * `collections.addHighlight`: appends a highlight of the organization to the collection.
 * Idempotent: a highlight already there answers its item unchanged (its place and note). The
 * collection is key-share locked, so a concurrent delete of it waits instead of breaking the
 * insert, while concurrent adds do not block each other.
 */
export async function addHighlightToCollection(em: EntityManager, auth: CustomerAuth, input: TAddHighlightInput): Promise<TCollectionItem> {
  const organizationId = auth.organizationId;
  const author = authorColumns(auth);
  return em.transactional(async (tx) => {
    const [collection] = await queryRows<{ id: string }>(
      tx,
      sql`select id from collections where id = ${input.collectionId} and organization_id = ${organizationId} for key share`,
    );
    if (!collection) throw notFound('collection', input.collectionId, 'collectionId');
    const inserted = await queryRows<{ highlight_id: string }>(
      tx,
      sql`insert into collection_items (collection_id, highlight_id, organization_id, note, added_by_kind, added_by_id, added_by_name, added_at)
          select ${input.collectionId}, h.id, h.organization_id, ${input.note ?? null}, ${author.kind}, ${author.id}, ${author.name}, now()
          from highlights h where h.id = ${input.highlightId} and h.organization_id = ${organizationId}
          on conflict (collection_id, highlight_id) do nothing
          returning highlight_id`,
    );
    if (inserted.length > 0) await queryRows(tx, sql`update collections set updated_at = now() where id = ${input.collectionId}`);
    const item = await readCollectionItem(tx, organizationId, input.collectionId, input.highlightId);
    if (!item) throw notFound('highlight', input.highlightId, 'highlightId');
    return item;
  });
}
