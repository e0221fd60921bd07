import type { z } from 'zod';
import type { TCommentThread, ZListCommentsInput } from '../../../shared/schemas/comments.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { type CommentRow, commentFromRow, sessionCommentRows } from './queries.js';

/**
 * `comments.list`: a session's threads, oldest first, each with its replies, in one statement.
 * With `utteranceId`, only the threads on that utterance (replies share their parent's utterance).
 */
export async function listComments({ em }: Pick<Deps, 'em'>, caller: Caller, input: z.infer<typeof ZListCommentsInput>): Promise<TCommentThread[]> {
  const { sessionId, utteranceId } = input;
  const rows = await sessionCommentRows.rows(em, { organizationId: caller.organizationId, sessionId, utteranceId: utteranceId ?? null });
  if (rows.length === 0) throw notFound('session', sessionId, 'sessionId');
  if (utteranceId !== undefined && !rows[0]!.utterance_found) throw notFound('utterance', utteranceId, 'utteranceId');
  const threads: TCommentThread[] = [];
  const byId = new Map<string, TCommentThread>();
  for (const row of rows) {
    if (row.id == null) continue;
    const comment = commentFromRow(row as CommentRow); // id is set: every comment column is
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
