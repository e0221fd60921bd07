import type { CustomerAuth } from '../common/caller.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TComment, TCreateCommentInput } from '../../../shared/schemas/comments.js';
import { queryRows, sql } from '../../db/sql.js';
import { notFound, validationError } from '../../errors.js';
import { newId } from '../../lib/ids.js';

import { authorColumns } from '../common/author.js';
import { COMMENT_COLUMNS, type CommentRow, commentFromRow } from './comment-rows.js';

interface ParentRow {
  session_id: string;
  utterance_id: string | null;
  parent_id: string | null;
  deleted: boolean;
}

/**
 * The utterance a reply goes on: its parent's, which must be a live top-level comment of the same
 * session. The parent is share-locked until the reply is written, so a concurrent delete of it
 * waits and then sees the reply (and leaves a tombstone).
 */
async function replyUtterance(tx: EntityManager, organizationId: string, input: TCreateCommentInput & { parentId: string }): Promise<string | null> {
  const [parent] = await queryRows<ParentRow>(
    tx,
    sql`select session_id, utterance_id, parent_id, deleted_at is not null as deleted from comments
        where id = ${input.parentId} and organization_id = ${organizationId} for share`,
  );
  if (!parent) throw notFound('comment', input.parentId, 'parentId');
  if (parent.session_id !== input.sessionId) throw validationError([{ path: 'parentId', message: 'is a comment of another session' }]);
  if (parent.parent_id !== null) {
    throw validationError([{ path: 'parentId', message: 'is a reply: replies are one level deep, answer its top-level comment' }]);
  }
  if (parent.deleted) throw validationError([{ path: 'parentId', message: 'was deleted' }]);
  if (input.utteranceId !== undefined && input.utteranceId !== parent.utterance_id) {
    throw validationError([{ path: 'utteranceId', message: "must be the parent comment's utterance (or left out)" }]);
  }
  return parent.utterance_id;
}

/** `comments.create`: a comment on a session or on one of its utterances, or a reply to a top-level comment. */
export async function createComment(em: EntityManager, auth: CustomerAuth, input: TCreateCommentInput): Promise<TComment> {
  const organizationId = auth.organizationId;
  const author = authorColumns(auth);
  return em.transactional(async (tx) => {
    const utteranceId = input.parentId === undefined ? (input.utteranceId ?? null) : await replyUtterance(tx, organizationId, { ...input, parentId: input.parentId });
    const [row] = await queryRows<CommentRow>(
      tx,
      sql`with c as (
            insert into comments (id, organization_id, session_id, utterance_id, parent_id, body, author_kind, author_id, author_name, created_at, updated_at)
            select ${newId('cmt')}, s.organization_id, s.id, ${utteranceId}, ${input.parentId ?? null}, ${input.body}, ${author.kind}, ${author.id}, ${author.name}, now(), now()
            from sessions s
            where s.id = ${input.sessionId} and s.organization_id = ${organizationId}
              and (${utteranceId}::text is null or exists (select 1 from session_utterances u where u.id = ${utteranceId} and u.session_id = s.id))
            returning *)
          select ${COMMENT_COLUMNS} from c`,
    );
    if (row) return commentFromRow(row);
    const [found] = await queryRows<{ id: string }>(tx, sql`select id from sessions where id = ${input.sessionId} and organization_id = ${organizationId}`);
    if (!found) throw notFound('session', input.sessionId, 'sessionId');
    throw notFound('utterance', utteranceId ?? '', 'utteranceId');
  });
}
