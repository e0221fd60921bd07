import type { EntityManager } from '@mikro-orm/postgresql';
import type { THighlight, TListHighlightsInput } from '../../../shared/schemas/highlights.js';
import type { CursorPage } from '../../../shared/schemas/common.js';
import { notFound } from '../../errors.js';
import type { Caller, OrganizationScope } from '../common/caller.js';
import { cursorPage } from '../common/cursor-page.js';
import type { Deps } from '../common/deps.js';
import { highlightFiltersExist, highlightFromRow, highlightPage } from './queries.js';

/** 404 for a session or campaign filter naming another organization's (or no) record, rather than an empty page. */
async function assertFiltersExist(em: EntityManager, scope: OrganizationScope, input: TListHighlightsInput): Promise<void> {
  if (input.sessionId === undefined && input.campaignId === undefined) return;
  const row = await highlightFiltersExist.first(em, {
    organizationId: scope.organizationId,
    sessionId: input.sessionId ?? null,
    campaignId: input.campaignId ?? null,
  });
  if (input.sessionId !== undefined && !row?.session_found) throw notFound('session', input.sessionId, 'sessionId');
  if (input.campaignId !== undefined && !row?.campaign_found) throw notFound('campaign', input.campaignId, 'campaignId');
}

/** `highlights.list`: the organization's highlights, newest first, by session, campaign or label; one statement per page. */
export async function listHighlights({ em }: Pick<Deps, 'em'>, caller: Caller, input: TListHighlightsInput): Promise<CursorPage<THighlight>> {
  // The page's statement first: a cursor it cannot read is a 400 before either statement runs.
  const page = highlightPage.rows(em, { ...input, organizationId: caller.organizationId });
  const [rows] = await Promise.all([page, assertFiltersExist(em, caller, input)]);
  return cursorPage(rows, input.limit, highlightFromRow);
}
