import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCollection } from '../../../shared/schemas/collections.js';
import type { CursorPage } from '../../../shared/schemas/common.js';
import { queryRows, sql } from '../../db/sql.js';
import { afterCursor, cursorPage } from '../common/cursor-page.js';
import { COLLECTION_COLUMNS, type CollectionRow, collectionFromRow } from './collection-rows.js';

/** `collections.list`: the organization's collections, newest first, with their item counts. */
export async function listCollections(em: EntityManager, organizationId: string, input: { cursor?: string | undefined; limit: number }): Promise<CursorPage<TCollection>> {
  const rows = await queryRows<CollectionRow>(
    em,
    sql`select ${COLLECTION_COLUMNS} from collections col
        where col.organization_id = ${organizationId} and ${afterCursor('col', input.cursor)}
        order by col.created_at desc, col.id desc limit ${input.limit + 1}`,
  );
  return cursorPage(rows, input.limit, collectionFromRow);
}
