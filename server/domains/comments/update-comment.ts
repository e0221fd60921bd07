import type { TComment } from '../../../shared/schemas/comments.js';
import { AppError, notFound } from '../../errors.js';
import { authorColumns } from '../common/author.js';
import type { CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { commentFromRow, liveCommentAuthorName, updateCommentBody } from './queries.js';

/** `comments.update`: only its author changes a comment's body; `editedAt` records when. A deleted comment is gone (404). */
export async function updateComment({ em }: Pick<Deps, 'em'>, auth: CustomerAuth, input: { commentId: string; body: string }): Promise<TComment> {
  const { commentId, body } = input;
  const { kind, id } = authorColumns(auth);
  const row = await updateCommentBody.first(em, { organizationId: auth.organizationId, commentId, body, author: { kind, id } });
  if (row) return commentFromRow(row);
  const existing = await liveCommentAuthorName.first(em, { organizationId: auth.organizationId, commentId });
  if (!existing) throw notFound('comment', commentId, 'commentId');
  throw new AppError('INSUFFICIENT_PERMISSIONS', `Only the author of comment ${commentId} (${existing.author_name}) can edit it.`, { required: 'author' });
}
