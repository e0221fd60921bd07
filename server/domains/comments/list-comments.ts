import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCommentThread } from '../../../shared/schemas/comments.js';
import { queryRows, sql } from '../../db/sql.js';
import { COMMENT_COLUMNS, type CommentRow, commentFromRow } from './comment-rows.js';
import { notFound } from '../../errors.js';

/**
 * `comments.list`: a session's threads, oldest first, each with its replies, in one statement.
 * With `utteranceId`, only the threads on that utterance (replies share their parent's utterance).
 */
export async function listComments(em: EntityManager, organizationId: string, sessionId: string, utteranceId: string | undefined): Promise<TCommentThread[]> {
  const rows = await queryRows<Partial<CommentRow> & { utterance_found: boolean }>(
    em,
    sql`select u.id is not null as utterance_found, ${COMMENT_COLUMNS}
        from sessions s
        left join session_utterances u on u.id = ${utteranceId ?? null} and u.session_id = s.id
        left join comments c on c.session_id = s.id and (${utteranceId ?? null}::text is null or c.utterance_id = ${utteranceId ?? null})
        where s.id = ${sessionId} and s.organization_id = ${organizationId}
        order by c.created_at, c.id`,
  );
  if (rows.length === 0) throw notFound('session', sessionId, 'sessionId');
  if (utteranceId !== undefined && !rows[0]!.utterance_found) throw notFound('utterance', utteranceId, 'utteranceId');
  const threads: TCommentThread[] = [];
  const byId = new Map<string, TCommentThread>();
  for (const row of rows) {
    if (row.id == null) continue;
    const comment = commentFromRow(row as CommentRow);
    if (comment.parentId === null) {
      const thread = { ...comment, replies: [] };
      threads.push(thread);
      byId.set(comment.id, thread);
    } else {
      // Rows come oldest first, so a parent is always met before its replies.
      byId.get(comment.parentId)?.replies.push(comment);
    }
  }
  return threads;
}
