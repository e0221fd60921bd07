import type { CustomerAuth } from '../common/caller.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, sql } from '../../db/sql.js';
import { AppError, notFound } from '../../errors.js';

import { isAuthor } from '../common/author.js';

interface TargetRow {
  id: string;
  parent_id: string | null;
  author_kind: string;
  author_id: string;
}

/**
 * `comments.delete`: by its author, or by whoever may manage the organization (an owner or admin
 * member, a key with organization:write). A top-level comment that has replies stays as a
 * tombstone (body gone, `deleted: true`) so the thread still reads; any other is removed, and a
 * tombstone whose last reply goes is removed with it. Parent before reply, rows are locked in the
 * same order as `comments.create` locks a parent, so concurrent replies and deletes never leave a
 * reply without its thread or a tombstone without replies.
 */
export async function deleteComment(em: EntityManager, auth: CustomerAuth, commentId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const [peek] = await queryRows<{ parent_id: string | null }>(
      tx,
      sql`select parent_id from comments where id = ${commentId} and organization_id = ${auth.organizationId} and deleted_at is null`,
    );
    if (!peek) throw notFound('comment', commentId, 'commentId');
    if (peek.parent_id !== null) await queryRows(tx, sql`select id from comments where id = ${peek.parent_id} for update`);
    const [target] = await queryRows<TargetRow>(
      tx,
      sql`select id, parent_id, author_kind, author_id from comments
          where id = ${commentId} and organization_id = ${auth.organizationId} and deleted_at is null for update`,
    );
    if (!target) throw notFound('comment', commentId, 'commentId');
    if (!isAuthor(auth, { kind: target.author_kind, id: target.author_id }) && !auth.permissions.includes('organization:write')) {
      throw new AppError('INSUFFICIENT_PERMISSIONS', `Only the author of comment ${commentId}, an owner or an admin can delete it.`, { required: 'author or organization:write' });
    }
    // A statement of its own, after the lock: it sees replies committed while this waited.
    const [replies] = await queryRows<{ count: string }>(tx, sql`select count(*) as count from comments where parent_id = ${commentId}`);
    if (Number(replies?.count ?? 0) > 0) {
      await queryRows(tx, sql`update comments set body = null, deleted_at = now(), updated_at = now() where id = ${commentId}`);
      return;
    }
    await queryRows(tx, sql`delete from comments where id = ${commentId}`);
    if (target.parent_id !== null) {
      await queryRows(
        tx,
        sql`delete from comments p where p.id = ${target.parent_id} and p.deleted_at is not null and not exists (select 1 from comments r where r.parent_id = p.id)`,
      );
    }
  });
}
