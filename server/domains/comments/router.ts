import { z } from 'zod';
import { ZComment, ZCommentIdInput, ZCommentList, ZCreateCommentInput, ZListCommentsInput, ZUpdateCommentInput } from '../../../shared/schemas/comments.js';
import { customerProcedure, router } from '../../trpc/trpc.js';
import { createComment } from './create-comment.js';
import { deleteComment } from './delete-comment.js';
import { listComments } from './list-comments.js';
import { updateComment } from './update-comment.js';

/** Comment threads on a session or an utterance (dashboard-only: tRPC procedures, no REST path). */
export const commentsRouter = router({
  list: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZListCommentsInput)
    .output(ZCommentList)
    .query(async ({ ctx, input }) => ({ data: await listComments(ctx, ctx.auth, input) })),

  create: customerProcedure
    .meta({ permission: 'sessions:write' })
    .input(ZCreateCommentInput)
    .output(ZComment)
    .mutation(({ ctx, input }) => createComment(ctx, ctx.auth, input)),

  update: customerProcedure
    .meta({ permission: 'sessions:write' })
    .input(ZUpdateCommentInput)
    .output(ZComment)
    .mutation(({ ctx, input }) => updateComment(ctx, ctx.auth, input)),

  delete: customerProcedure
    .meta({ permission: 'sessions:write' })
    .input(ZCommentIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteComment(ctx, ctx.auth, input)),
});
