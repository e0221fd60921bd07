import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { deleteHighlightRow } from './queries.js';

/** `highlights.delete`: also takes it out of every collection (the items cascade). */
export async function deleteHighlight({ em }: Pick<Deps, 'em'>, caller: Caller, input: { highlightId: string }): Promise<void> {
  const deleted = await deleteHighlightRow.rows(em, { organizationId: caller.organizationId, highlightId: input.highlightId });
  if (deleted.length === 0) throw notFound('highlight', input.highlightId, 'highlightId');
}
