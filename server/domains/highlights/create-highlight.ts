import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_HIGHLIGHT_COLOR, type TCreateHighlightInput, type THighlight } from '../../../shared/schemas/highlights.js';
import { queryRows, sql } from '../../db/sql.js';
import { AppError, validationError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import type { CustomerAuth } from '../../trpc/context.js';
import { authorColumns } from './author.js';
import { writeHighlight } from './highlight-rows.js';
import { missing } from './missing.js';

/** The text of an utterance of the organization's session, or why there is none to highlight. */
export async function loadUtteranceText(em: EntityManager, organizationId: string, sessionId: string, utteranceId: string): Promise<string> {
  const [row] = await queryRows<{ session_found: boolean; utterance_found: boolean; text: string | null }>(
    em,
    sql`select s.id is not null as session_found, u.id is not null as utterance_found, u.text
        from (select 1) as one
        left join sessions s on s.id = ${sessionId} and s.organization_id = ${organizationId}
        left join session_utterances u on u.id = ${utteranceId} and u.session_id = s.id`,
  );
  if (!row?.session_found) throw missing('Session', sessionId, 'sessionId');
  if (!row.utterance_found) throw missing('Utterance', utteranceId, 'utteranceId');
  if (row.text === null || row.text.length === 0) {
    throw new AppError('VALIDATION_ERROR', `Utterance ${utteranceId} has no text to highlight (a spoken answer nothing could transcribe).`, {
      fields: [{ path: 'utteranceId', message: 'has no text' }],
    });
  }
  return row.text;
}

/**
 * `highlights.create`: a span of an utterance's current text. Only the offsets are stored; the
 * quote is cut at read time. The span must lie within the text (JavaScript string indices, end
 * exclusive).
 */
export async function createHighlight(em: EntityManager, auth: CustomerAuth, input: TCreateHighlightInput): Promise<THighlight> {
  const text = await loadUtteranceText(em, auth.organizationId, input.sessionId, input.utteranceId);
  const fields = [];
  if (input.start >= text.length) fields.push({ path: 'start', message: `must be less than ${text.length} (the utterance's length)` });
  if (input.end > text.length) fields.push({ path: 'end', message: `must be at most ${text.length} (the utterance's length)` });
  if (fields.length > 0) throw validationError(fields, `The span ${input.start}–${input.end} lies outside the utterance's ${text.length} characters.`);
  const author = authorColumns(auth);
  const highlight = await writeHighlight(
    em,
    sql`insert into highlights (id, organization_id, session_id, utterance_id, start_offset, end_offset, label, color, note, author_kind, author_id, author_name, created_at, updated_at)
        values (${newId('hlt')}, ${auth.organizationId}, ${input.sessionId}, ${input.utteranceId}, ${input.start}, ${input.end}, ${input.label ?? null},
                ${input.color ?? DEFAULT_HIGHLIGHT_COLOR}, ${input.note ?? null}, ${author.kind}, ${author.id}, ${author.name}, now(), now())
        returning *`,
  );
  // The session or utterance went away between the check and the insert (a foreign key would have failed instead).
  if (!highlight) throw missing('Utterance', input.utteranceId, 'utteranceId');
  return highlight;
}
