import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_HIGHLIGHT_COLOR, type TCreateHighlightInput, type THighlight } from '../../../shared/schemas/highlights.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { authorColumns } from '../common/author.js';
import type { CustomerAuth, OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { highlightFromRow, insertHighlight, utteranceTextToHighlight } from './queries.js';

/**
 * The text of an utterance of the organization's session, or why there is none to highlight. The
 * utterance's row is read `for share`: a redaction holds it `for update` while it rewrites the
 * text and shifts the highlights already stored, so inside a transaction the text read here is the
 * one the new highlight will live with until the transaction ends.
 */
async function loadUtteranceText(em: EntityManager, scope: OrganizationScope, input: { sessionId: string; utteranceId: string }): Promise<string> {
  const { sessionId, utteranceId } = input;
  const row = await utteranceTextToHighlight.first(em, { organizationId: scope.organizationId, sessionId, utteranceId });
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
export async function createHighlight({ em }: Pick<Deps, 'em'>, caller: CustomerAuth, input: TCreateHighlightInput): Promise<THighlight> {
  // Read, check and insert in one transaction under the utterance's share lock: a redaction
  // committed before it is seen in the text; one after it finds the highlight and shifts it.
  return em.transactional((tx) => addHighlight(tx, caller, input));
}

async function addHighlight(em: EntityManager, auth: CustomerAuth, input: TCreateHighlightInput): Promise<THighlight> {
  const text = await loadUtteranceText(em, auth, input);
  const fields = [];
  if (input.start >= text.length) fields.push({ path: 'start', message: `must be less than ${text.length} (the utterance's length)` });
  if (input.end > text.length) fields.push({ path: 'end', message: `must be at most ${text.length} (the utterance's length)` });
  if (fields.length > 0) throw validationError(fields, `The span ${input.start}–${input.end} lies outside the utterance's ${text.length} characters.`);
  const { kind, id } = authorColumns(auth);
  const row = await insertHighlight.first(em, {
    id: newId('hlt'),
    organizationId: auth.organizationId,
    sessionId: input.sessionId,
    utteranceId: input.utteranceId,
    start: input.start,
    end: input.end,
    label: input.label ?? null,
    color: input.color ?? DEFAULT_HIGHLIGHT_COLOR,
    note: input.note ?? null,
    author: { kind, id },
  });
  // Not expected while the utterance's row is locked (deleting a session cascades to it); a 404 rather than a 500 all the same.
  if (!row) throw notFound('utterance', input.utteranceId, 'utteranceId');
  return highlightFromRow(row);
}
