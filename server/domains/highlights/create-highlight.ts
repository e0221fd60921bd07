import type { CustomerAuth } from '../common/caller.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_HIGHLIGHT_COLOR, type TCreateHighlightInput, type THighlight } from '../../../shared/schemas/highlights.js';
import { queryRows, sql } from '../../db/sql.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { newId } from '../../lib/ids.js';

import { authorColumns } from '../common/author.js';
import { writeHighlight } from './highlight-rows.js';

/**
 * The text of an utterance of the organization's session, or why there is none to highlight. The
 * utterance's row is read `for share`: a redaction holds it `for update` while it rewrites the
 * text and shifts the highlights already stored, so inside a transaction the text read here is the
 * one the new highlight will live with until the transaction ends.
 */
async function loadUtteranceText(em: EntityManager, organizationId: string, sessionId: string, utteranceId: string): Promise<string> {
  const [row] = await queryRows<{ session_found: boolean; utterance_found: boolean; text: string | null }>(
    em,
    sql`select s.id is not null as session_found, u.id is not null as utterance_found, u.text
        from (select 1) as one
        left join sessions s on s.id = ${sessionId} and s.organization_id = ${organizationId} and not s.preview
        left join lateral (select id, text from session_utterances where id = ${utteranceId} and session_id = s.id for share) u on true`,
  );
  if (!row?.session_found) throw notFound('session', sessionId, 'sessionId');
  if (!row.utterance_found) throw notFound('utterance', utteranceId, 'utteranceId');
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
  // Read, check and insert in one transaction under the utterance's share lock: a redaction
  // committed before it is seen in the text; one after it finds the highlight and shifts it.
  return em.transactional((tx) => insertHighlight(tx, auth, input));
}

async function insertHighlight(em: EntityManager, auth: CustomerAuth, input: TCreateHighlightInput): Promise<THighlight> {
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
  // Not expected while the utterance's row is locked (deleting a session cascades to it); a 404 rather than a 500 all the same.
  if (!highlight) throw notFound('utterance', input.utteranceId, 'utteranceId');
  return highlight;
}
