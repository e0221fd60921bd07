import type { THighlight, TUpdateHighlightInput } from '../../../shared/schemas/highlights.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { highlightFromRow, updateHighlightRow } from './queries.js';

/** `highlights.update`: label, colour and note (a `null` clears the label or note). The span itself does not change. */
export async function updateHighlight({ em }: Pick<Deps, 'em'>, caller: Caller, input: TUpdateHighlightInput): Promise<THighlight> {
  const row = await updateHighlightRow.first(em, {
    organizationId: caller.organizationId,
    highlightId: input.highlightId,
    label: input.label,
    color: input.color ?? null,
    note: input.note,
  });
  if (!row) throw notFound('highlight', input.highlightId, 'highlightId');
  return highlightFromRow(row);
}
