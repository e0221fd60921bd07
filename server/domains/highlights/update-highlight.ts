import type { EntityManager } from '@mikro-orm/postgresql';
import type { THighlight, TUpdateHighlightInput } from '../../../shared/schemas/highlights.js';
import { sql } from '../../db/sql.js';
import { writeHighlight } from './highlight-rows.js';
import { notFound } from '../../errors.js';

/** `highlights.update`: label, colour and note (a `null` clears the label or note). The span itself does not change. */
export async function updateHighlight(em: EntityManager, organizationId: string, input: TUpdateHighlightInput): Promise<THighlight> {
  const highlight = await writeHighlight(
    em,
    sql`update highlights set
          label = case when ${input.label !== undefined} then ${input.label ?? null} else label end,
          color = coalesce(${input.color ?? null}, color),
          note = case when ${input.note !== undefined} then ${input.note ?? null} else note end,
          updated_at = now()
        where id = ${input.highlightId} and organization_id = ${organizationId}
        returning *`,
  );
  if (!highlight) throw notFound('highlight', input.highlightId, 'highlightId');
  return highlight;
}
