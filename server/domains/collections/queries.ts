import type { TCollection, TCollectionItem } from '../../../shared/schemas/collections.js';
import type { TAuthor } from '../../../shared/schemas/common.js';
import { defineQuery, type RowOf } from '../../db/query.js';
import { isoTimestamp, rawSql, type Sql, sql } from '../../db/sql.js';
import { authorFromRow } from '../common/author.js';
import { afterCursor, cursorValueOf } from '../common/cursor-page.js';
import { authorNameSql } from '../common/queries.js';
import { HIGHLIGHT_COLUMNS, HIGHLIGHT_JOINS, HIGHLIGHT_ROW, highlightFromRow } from '../highlights/index.js';

/** A collection with its items counted. */
const COLLECTION_ROW = {
  id: 'text',
  name: 'text',
  description: 'text | null',
  item_count: 'bigint',
  author_kind: 'text',
  author_id: 'text',
  author_name: 'text',
  created_at: 'text',
  updated_at: 'text',
  sort_value: 'text',
} as const;

type CollectionRow = RowOf<typeof COLLECTION_ROW>;

/** The columns of a CollectionRow from `col` (collections, or a CTE returning its rows), its items counted. */
const COLLECTION_COLUMNS = rawSql(
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

/** An item of a collection with its highlight as it is now. */
const ITEM_ROW = {
  ...HIGHLIGHT_ROW,
  item_note: 'text | null',
  added_by_kind: 'text',
  added_by_id: 'text',
  added_by_name: 'text',
  added_at: 'text',
  item_position: 'text',
} as const;

type ItemRow = RowOf<typeof ITEM_ROW>;

export function itemFromRow(row: ItemRow): TCollectionItem {
  return {
    highlight: highlightFromRow(row),
    note: row.item_note,
    addedBy: authorFromRow(row.added_by_kind, row.added_by_id, row.added_by_name),
    addedAt: row.added_at,
  };
}

/** Items of one collection, each with its highlight as it is now; `where` narrows them. */
function selectItems(organizationId: string, collectionId: string, where: Sql): Sql {
  return sql`select ${HIGHLIGHT_COLUMNS}, i.note as item_note, i.added_by_kind, i.added_by_id, i.added_by_name, ${rawSql(isoTimestamp('i.added_at'))} as added_at,
                i.position::text as item_position
             from collection_items i join highlights h on h.id = i.highlight_id ${HIGHLIGHT_JOINS}
             where i.collection_id = ${collectionId} and i.organization_id = ${organizationId} and ${where}`;
}

/** The item of `highlightId` in the collection, if it is there. */
export const collectionItem = defineQuery({
  columns: ITEM_ROW,
  statement: ({ organizationId, collectionId, highlightId }: { organizationId: string; collectionId: string; highlightId: string }) =>
    selectItems(organizationId, collectionId, sql`i.highlight_id = ${highlightId}`),
  example: { organizationId: 'org_example', collectionId: 'col_example', highlightId: 'hlt_example' },
});

export interface ItemsPageParams {
  organizationId: string;
  collectionId: string;
  cursor?: string | undefined;
  limit: number;
}

/** `limit + 1` items in the order they were added, after the cursor's place in that order. */
export const collectionItemsPage = defineQuery({
  columns: ITEM_ROW,
  statement: (p: ItemsPageParams) => {
    const after = p.cursor === undefined ? sql`true` : sql`i.position > ${cursorValueOf(p.cursor, 'bigint').value}::bigint`;
    return sql`${selectItems(p.organizationId, p.collectionId, after)} order by i.position limit ${p.limit + 1}`;
  },
  example: { organizationId: 'org_example', collectionId: 'col_example', limit: 20 } as ItemsPageParams,
});

/** The collection, key-share locked: a concurrent delete waits for the add, concurrent adds do not block each other. */
export const lockCollectionForAdd = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, collectionId }: { organizationId: string; collectionId: string }) =>
    sql`select id from collections where id = ${collectionId} and organization_id = ${organizationId} for key share`,
  example: { organizationId: 'org_example', collectionId: 'col_example' },
});

export interface NewItem {
  organizationId: string;
  collectionId: string;
  highlightId: string;
  note: string | null;
  addedBy: { kind: TAuthor['kind']; id: string };
}

/** Appends the organization's highlight to the collection; no row when it is there already (or is not the organization's). */
export const insertCollectionItem = defineQuery({
  columns: { highlight_id: 'text' },
  statement: (n: NewItem) =>
    sql`insert into collection_items (collection_id, highlight_id, organization_id, note, added_by_kind, added_by_id, added_by_name, added_at)
          select ${n.collectionId}, h.id, h.organization_id, ${n.note}, ${n.addedBy.kind}, ${n.addedBy.id}, ${authorNameSql(n.addedBy)}, now()
          from highlights h where h.id = ${n.highlightId} and h.organization_id = ${n.organizationId}
          on conflict (collection_id, highlight_id) do nothing
          returning highlight_id`,
  example: {
    organizationId: 'org_example',
    collectionId: 'col_example',
    highlightId: 'hlt_example',
    note: null,
    addedBy: { kind: 'member', id: 'mem_example' },
  } as NewItem,
});

export const touchCollection = defineQuery({
  columns: {},
  statement: ({ collectionId }: { collectionId: string }) => sql`update collections set updated_at = now() where id = ${collectionId}`,
  example: { collectionId: 'col_example' },
});

export interface NewCollection {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  author: { kind: TAuthor['kind']; id: string };
}

/** Inserts a collection; no row when its name is taken (the unique index on the organization and lower(name)). */
export const insertCollection = defineQuery({
  columns: COLLECTION_ROW,
  statement: (n: NewCollection) =>
    sql`with col as (
          insert into collections (id, organization_id, name, description, author_kind, author_id, author_name, created_at, updated_at)
          values (${n.id}, ${n.organizationId}, ${n.name}, ${n.description}, ${n.author.kind}, ${n.author.id}, ${authorNameSql(n.author)}, now(), now())
          on conflict do nothing
          returning *)
        select ${COLLECTION_COLUMNS} from col`,
  example: {
    id: 'col_example',
    organizationId: 'org_example',
    name: 'Pricing',
    description: null,
    author: { kind: 'member', id: 'mem_example' },
  } as NewCollection,
});

export const deleteCollectionRow = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, collectionId }: { organizationId: string; collectionId: string }) =>
    sql`delete from collections where id = ${collectionId} and organization_id = ${organizationId} returning id`,
  example: { organizationId: 'org_example', collectionId: 'col_example' },
});

/** The organization's collection with its item count. */
export const collectionById = defineQuery({
  columns: COLLECTION_ROW,
  statement: ({ organizationId, collectionId }: { organizationId: string; collectionId: string }) =>
    sql`select ${COLLECTION_COLUMNS} from collections col where col.id = ${collectionId} and col.organization_id = ${organizationId}`,
  example: { organizationId: 'org_example', collectionId: 'col_example' },
});

/** Whether the organization has the collection. */
export const collectionExists = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, collectionId }: { organizationId: string; collectionId: string }) =>
    sql`select id from collections where id = ${collectionId} and organization_id = ${organizationId}`,
  example: { organizationId: 'org_example', collectionId: 'col_example' },
});

/** `limit + 1` of the organization's collections, newest first, after the cursor. */
export const collectionPage = defineQuery({
  columns: COLLECTION_ROW,
  statement: ({ organizationId, cursor, limit }: { organizationId: string; cursor?: string | undefined; limit: number }) =>
    sql`select ${COLLECTION_COLUMNS} from collections col
        where col.organization_id = ${organizationId} and ${afterCursor('col', cursor)}
        order by col.created_at desc, col.id desc limit ${limit + 1}`,
  example: { organizationId: 'org_example', limit: 20 } as { organizationId: string; cursor?: string | undefined; limit: number },
});

/** Takes the highlight out of the collection (touching it when it did), and says whether the collection exists and the item went. */
export const removeCollectionItem = defineQuery({
  columns: { collection_found: 'boolean', removed: 'boolean' },
  statement: ({ organizationId, collectionId, highlightId }: { organizationId: string; collectionId: string; highlightId: string }) =>
    sql`with removed as (
          delete from collection_items where collection_id = ${collectionId} and highlight_id = ${highlightId} and organization_id = ${organizationId}
          returning collection_id),
        touched as (update collections set updated_at = now() where id in (select collection_id from removed))
        select exists (select 1 from collections where id = ${collectionId} and organization_id = ${organizationId}) as collection_found,
               exists (select 1 from removed) as removed`,
  example: { organizationId: 'org_example', collectionId: 'col_example', highlightId: 'hlt_example' },
});

export interface CollectionChanges {
  organizationId: string;
  collectionId: string;
  name: string | null;
  /** Undefined leaves the description; null clears it. */
  description: string | null | undefined;
}

/** Changes the collection's name and description; raises the unique violation when the name is taken. */
export const updateCollectionRow = defineQuery({
  columns: COLLECTION_ROW,
  statement: (c: CollectionChanges) =>
    sql`with col as (
              update collections set
                name = coalesce(${c.name}, name),
                description = case when ${c.description !== undefined} then ${c.description ?? null} else description end,
                updated_at = now()
              where id = ${c.collectionId} and organization_id = ${c.organizationId}
              returning *)
            select ${COLLECTION_COLUMNS} from col`,
  example: { organizationId: 'org_example', collectionId: 'col_example', name: 'Pricing', description: null } as CollectionChanges,
});
