import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCollection, TCollectionItem } from '../../../shared/schemas/collections.js';
import type { CursorPage } from '../../../shared/schemas/common.js';
import { isoTimestamp, queryRows, rawSql, type Sql, sql } from '../../db/sql.js';
import { authorFromRow } from '../common/author.js';
import { cursorPage, cursorValueOf } from '../common/cursor-page.js';
import { HIGHLIGHT_COLUMNS, HIGHLIGHT_JOINS, type HighlightRow, highlightFromRow } from '../highlights/index.js';

export interface CollectionRow {
  id: string;
  name: string;
  description: string | null;
  item_count: string;
  author_kind: string;
  author_id: string;
  author_name: string;
  created_at: string;
  updated_at: string;
  sort_value: string;
}

/** The columns of a CollectionRow from `col` (collections, or a CTE returning its rows), its items counted. */
export const COLLECTION_COLUMNS = rawSql(
  `col.id, col.name, col.description, (select count(*) from collection_items i where i.collection_id = col.id) as item_count,
   col.author_kind, col.author_id, col.author_name, ${isoTimestamp('col.created_at')} as created_at, ${isoTimestamp('col.updated_at')} as updated_at,
   col.created_at::text as sort_value`,
);

export function collectionFromRow(row: CollectionRow): TCollection {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    itemCount: Number(row.item_count),
    author: authorFromRow(row.author_kind, row.author_id, row.author_name),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

type ItemRow = HighlightRow & { item_note: string | null; added_by_kind: string; added_by_id: string; added_by_name: string; added_at: string; item_position: string };

/** Items of one collection, each with its highlight as it is now; `where` narrows them. */
function selectItems(organizationId: string, collectionId: string, where: Sql): Sql {
  return sql`select ${HIGHLIGHT_COLUMNS}, i.note as item_note, i.added_by_kind, i.added_by_id, i.added_by_name, ${rawSql(isoTimestamp('i.added_at'))} as added_at,
                i.position::text as item_position
             from collection_items i join highlights h on h.id = i.highlight_id ${HIGHLIGHT_JOINS}
             where i.collection_id = ${collectionId} and i.organization_id = ${organizationId} and ${where}`;
}

function itemFromRow(row: ItemRow): TCollectionItem {
  return {
    highlight: highlightFromRow(row),
    note: row.item_note,
    addedBy: authorFromRow(row.added_by_kind, row.added_by_id, row.added_by_name),
    addedAt: row.added_at,
  };
}

/** The item of `highlightId` in the collection, if it is there. */
export async function readCollectionItem(em: EntityManager, organizationId: string, collectionId: string, highlightId: string): Promise<TCollectionItem | undefined> {
  const [row] = await queryRows<ItemRow>(em, selectItems(organizationId, collectionId, sql`i.highlight_id = ${highlightId}`));
  return row && itemFromRow(row);
}

/**
 * A page of the collection's items in the order they were added (one statement). The cursor is
 * the last item's place in that order, so an item added or removed meanwhile neither repeats nor
 * hides another.
 */
export async function readCollectionItemsPage(
  em: EntityManager,
  organizationId: string,
  collectionId: string,
  input: { cursor?: string | undefined; limit: number },
): Promise<CursorPage<TCollectionItem>> {
  const after = input.cursor === undefined ? sql`true` : sql`i.position > ${cursorValueOf(input.cursor, 'bigint').value}::bigint`;
  const rows = await queryRows<ItemRow>(em, sql`${selectItems(organizationId, collectionId, after)} order by i.position limit ${input.limit + 1}`);
  // Paged by the item's place, not by the highlight's creation time its row also carries.
  return cursorPage(
    rows.map((row) => ({ ...row, sort_value: row.item_position })),
    input.limit,
    itemFromRow,
  );
}
