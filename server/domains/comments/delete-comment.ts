import { AppError, notFound } from '../../errors.js';
import { isAuthor } from '../common/author.js';
import type { CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { commentToDelete, deleteCommentRow, deleteEmptyTombstone, liveCommentParent, lockComment, replyCount, tombstoneComment } from './queries.js';

/**
 * `comments.delete`: by its author, or by whoever may manage the organization (an owner or admin
 * member, a key with organization:write). A top-level comment that has replies stays as a
 * tombstone (body gone, `deleted: true`) so the thread still reads; any other is removed, and a
 * tombstone whose last reply goes is removed with it. Parent before reply, rows are locked in the
 * same order as `comments.create` locks a parent, so concurrent replies and deletes never leave a
 * reply without its thread or a tombstone without replies.
 */
export async function deleteComment({ em }: Pick<Deps, 'em'>, auth: CustomerAuth, input: { commentId: string }): Promise<void> {
  const { commentId } = input;
  const organizationId = auth.organizationId;
  await em.transactional(async (tx) => {
    const peek = await liveCommentParent.first(tx, { organizationId, commentId });
    if (!peek) throw notFound('comment', commentId, 'commentId');
    if (peek.parent_id !== null) await lockComment.rows(tx, { commentId: peek.parent_id });
    const target = await commentToDelete.first(tx, { organizationId, commentId });
    if (!target) throw notFound('comment', commentId, 'commentId');
    if (!isAuthor(auth, { kind: target.author_kind, id: target.author_id }) && !auth.permissions.includes('organization:write')) {
      throw new AppError('INSUFFICIENT_PERMISSIONS', `Only the author of comment ${commentId}, an owner or an admin can delete it.`, {
        required: 'author or organization:write',
      });
    }
    // A statement of its own, after the lock: it sees replies committed while this waited.
    const replies = await replyCount.first(tx, { commentId });
    if (Number(replies?.count ?? 0) > 0) {
      await tombstoneComment.rows(tx, { commentId });
      return;
    }
    await deleteCommentRow.rows(tx, { commentId });
    if (target.parent_id !== null) await deleteEmptyTombstone.rows(tx, { commentId: target.parent_id });
  });
}
