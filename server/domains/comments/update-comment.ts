import type { CustomerAuth } from '../common/caller.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TComment } from '../../../shared/schemas/comments.js';
import { queryRows, sql } from '../../db/sql.js';
import { AppError, notFound } from '../../errors.js';

import { authorColumns } from '../common/author.js';
import { COMMENT_COLUMNS, type CommentRow, commentFromRow } from './comment-rows.js';

/** `comments.update`: only its author changes a comment's body; `editedAt` records when. A deleted comment is gone (404). */
export async function updateComment(em: EntityManager, auth: CustomerAuth, commentId: string, body: string): Promise<TComment> {
  const author = authorColumns(auth);
  const [row] = await queryRows<CommentRow>(
    em,
    sql`with c as (
          update comments set body = ${body}, edited_at = now(), updated_at = now()
          where id = ${commentId} and organization_id = ${auth.organizationId} and deleted_at is null
            and author_kind = ${author.kind} and author_id = ${author.id}
          returning *)
        select ${COMMENT_COLUMNS} from c`,
  );
  if (row) return commentFromRow(row);
  const [existing] = await queryRows<{ author_name: string }>(
    em,
    sql`select author_name from comments where id = ${commentId} and organization_id = ${auth.organizationId} and deleted_at is null`,
  );
  if (!existing) throw notFound('comment', commentId, 'commentId');
  throw new AppError('INSUFFICIENT_PERMISSIONS', `Only the author of comment ${commentId} (${existing.author_name}) can edit it.`, { required: 'author' });
}
