import type { EntityManager } from '@mikro-orm/postgresql';
import type { THighlight, TListHighlightsInput } from '../../../shared/schemas/highlights.js';
import type { CursorPage } from '../../../shared/schemas/common.js';
import { queryRows, type Sql, sql } from '../../db/sql.js';
import { afterCursor, cursorPage } from '../common/cursor-page.js';
import { HIGHLIGHT_COLUMNS, HIGHLIGHT_JOINS, type HighlightRow, highlightFromRow } from './highlight-rows.js';
import { notFound } from '../../errors.js';

/** 404 for a session or campaign filter naming another organization's (or no) record, rather than an empty page. */
async function assertFiltersExist(em: EntityManager, organizationId: string, input: TListHighlightsInput): Promise<void> {
  if (input.sessionId === undefined && input.campaignId === undefined) return;
  const [row] = await queryRows<{ session_found: boolean; campaign_found: boolean }>(
    em,
    sql`select exists (select 1 from sessions where id = ${input.sessionId ?? null} and organization_id = ${organizationId}) as session_found,
               exists (select 1 from campaigns where id = ${input.campaignId ?? null} and organization_id = ${organizationId}) as campaign_found`,
  );
  if (input.sessionId !== undefined && !row?.session_found) throw notFound('session', input.sessionId, 'sessionId');
  if (input.campaignId !== undefined && !row?.campaign_found) throw notFound('campaign', input.campaignId, 'campaignId');
}

/** `highlights.list`: the organization's highlights, newest first, by session, campaign or label; one statement per page. */
export async function listHighlights(em: EntityManager, organizationId: string, input: TListHighlightsInput): Promise<CursorPage<THighlight>> {
  const filters: Sql[] = [sql`h.organization_id = ${organizationId}`, afterCursor('h', input.cursor)];
  if (input.sessionId !== undefined) filters.push(sql`h.session_id = ${input.sessionId}`);
  if (input.campaignId !== undefined) filters.push(sql`s.campaign_id = ${input.campaignId}`);
  if (input.label !== undefined) filters.push(sql`lower(h.label) = lower(${input.label})`);
  const where = filters.reduce((joined, filter) => sql`${joined} and ${filter}`);
  const [, rows] = await Promise.all([
    assertFiltersExist(em, organizationId, input),
    queryRows<HighlightRow>(em, sql`select ${HIGHLIGHT_COLUMNS} from highlights h ${HIGHLIGHT_JOINS} where ${where} order by h.created_at desc, h.id desc limit ${input.limit + 1}`),
  ]);
  return cursorPage(rows, input.limit, highlightFromRow);
}
