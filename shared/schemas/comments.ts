import { z } from 'zod';
import { ZAuthor, ZPathId, ZTimestamp } from './common.js';

export const COMMENT_LIMITS = { bodyMaxLength: 5000 } as const;

const ZBody = z.string().trim().min(1, 'must not be empty').max(COMMENT_LIMITS.bodyMaxLength);

const commentFields = {
  id: z.string(),
  sessionId: z.string(),
  /** The utterance the thread is on; null for a comment on the whole session. */
  utteranceId: z.string().nullable(),
  /** The top-level comment this one answers; null for a top-level comment. */
  parentId: z.string().nullable(),
  /** null once deleted (a deleted comment that has replies stays as a tombstone). */
  body: z.string().nullable(),
  deleted: z.boolean(),
  author: ZAuthor,
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
  /** When the author last changed the body; null if never edited. */
  editedAt: ZTimestamp.nullable(),
};

/** One comment: what create and update answer, and each reply of a thread. */
export const ZComment = z.object(commentFields);
export type TComment = z.infer<typeof ZComment>;

/** A top-level comment with its replies (one level deep), oldest first. */
export const ZCommentThread = ZComment.extend({ replies: z.array(ZComment) });
export type TCommentThread = z.infer<typeof ZCommentThread>;

/**
 * Without `utteranceId`, every thread of the session (on the session and on its utterances);
 * with it, only the threads on that utterance. Threads are oldest first.
 */
export const ZListCommentsInput = z.strictObject({ sessionId: ZPathId, utteranceId: ZPathId.optional() });
export const ZCommentList = z.object({ data: z.array(ZCommentThread) });

/** A reply (`parentId`) joins its parent's thread, on its parent's utterance. */
export const ZCreateCommentInput = z.strictObject({
  sessionId: ZPathId,
  utteranceId: ZPathId.optional(),
  parentId: ZPathId.optional(),
  body: ZBody,
});
export type TCreateCommentInput = z.infer<typeof ZCreateCommentInput>;

export const ZUpdateCommentInput = z.strictObject({ commentId: ZPathId, body: ZBody });
export const ZCommentIdInput = z.strictObject({ commentId: ZPathId });
