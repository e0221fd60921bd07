import type { EntityManager } from '@mikro-orm/postgresql';
import type { TComment, TCreateCommentInput } from '../../../shared/schemas/comments.js';
import { notFound, validationError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { authorColumns } from '../common/author.js';
import type { CustomerAuth, OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { commentFromRow, insertComment, parentCommentForReply, sessionOfOrganization } from './queries.js';

/**
 * The utterance a reply goes on: its parent's, which must be a live top-level comment of the same
 * session. The parent is share-locked until the reply is written, so a concurrent delete of it
 * waits and then sees the reply (and leaves a tombstone).
 */
async function replyUtterance(tx: EntityManager, scope: OrganizationScope, input: TCreateCommentInput & { parentId: string }): Promise<string | null> {
  const parent = await parentCommentForReply.first(tx, { organizationId: scope.organizationId, parentId: input.parentId });
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
export async function createComment({ em }: Pick<Deps, 'em'>, caller: CustomerAuth, input: TCreateCommentInput): Promise<TComment> {
  const organizationId = caller.organizationId;
  const { kind, id } = authorColumns(caller);
  return em.transactional(async (tx) => {
    const utteranceId = input.parentId === undefined ? (input.utteranceId ?? null) : await replyUtterance(tx, caller, { ...input, parentId: input.parentId });
    const row = await insertComment.first(tx, {
      id: newId('cmt'),
      organizationId,
      sessionId: input.sessionId,
      utteranceId,
      parentId: input.parentId ?? null,
      body: input.body,
      author: { kind, id },
    });
    if (row) return commentFromRow(row);
    const found = await sessionOfOrganization.first(tx, { organizationId, sessionId: input.sessionId });
    if (!found) throw notFound('session', input.sessionId, 'sessionId');
    throw notFound('utterance', utteranceId ?? '', 'utteranceId');
  });
}
