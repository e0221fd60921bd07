import type { EntityManager } from '@mikro-orm/postgresql';
import type { CursorPage } from '../../../shared/schemas/common.js';
import type { TSavedSearch } from '../../../shared/schemas/saved-searches.js';
import { queryRows, sql } from '../../db/sql.js';
import { afterCursor, cursorPage } from '../common/cursor-page.js';
import { SAVED_SEARCH_COLUMNS, type SavedSearchRow, savedSearchFromRow } from './saved-search-rows.js';

/** `savedSearches.list`: the organization's saved searches, newest first. */
export async function listSavedSearches(em: EntityManager, organizationId: string, input: { cursor?: string | undefined; limit: number }): Promise<CursorPage<TSavedSearch>> {
  const rows = await queryRows<SavedSearchRow>(
    em,
    sql`select ${SAVED_SEARCH_COLUMNS} from saved_searches ss
        where ss.organization_id = ${organizationId} and ${afterCursor('ss', input.cursor)}
        order by ss.created_at desc, ss.id desc limit ${input.limit + 1}`,
  );
  return cursorPage(rows, input.limit, savedSearchFromRow);
}
