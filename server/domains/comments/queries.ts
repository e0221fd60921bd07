import type { TComment } from '../../../shared/schemas/comments.js';
import type { TAuthor } from '../../../shared/schemas/common.js';
import { defineQuery, type RowOf } from '../../db/query.js';
import { isoTimestamp, rawSql, sql } from '../../db/sql.js';
import { authorFromRow } from '../common/author.js';
import { authorNameSql } from '../common/queries.js';

/** A comment as its API shape needs it. */
const COMMENT_ROW = {
  id: 'text',
  session_id: 'text',
  utterance_id: 'text | null',
  parent_id: 'text | null',
  body: 'text | null',
  deleted: 'boolean',
  author_kind: 'text',
  author_id: 'text',
  author_name: 'text',
  created_at: 'text',
  updated_at: 'text',
  edited_at: 'text | null',
} as const;

export type CommentRow = RowOf<typeof COMMENT_ROW>;

/** The columns of a CommentRow from `c` (comments, or a CTE returning its rows). */
const COMMENT_COLUMNS = rawSql(
  `c.id, c.session_id, c.utterance_id, c.parent_id, c.body, c.deleted_at is not null as deleted, c.author_kind, c.author_id, c.author_name,
   ${isoTimestamp('c.created_at')} as created_at, ${isoTimestamp('c.updated_at')} as updated_at, ${isoTimestamp('c.edited_at')} as edited_at`,
);

export function commentFromRow(row: CommentRow): TComment {
  return {
    id: row.id,
    sessionId: row.session_id,
    utteranceId: row.utterance_id,
    parentId: row.parent_id,
    body: row.deleted ? null : row.body,
    deleted: row.deleted,
    author: authorFromRow(row.author_kind, row.author_id, row.author_name),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    editedAt: row.edited_at,
  };
}

/** A reply's parent, share-locked until the reply is written (a concurrent delete waits and sees the reply). */
export const parentCommentForReply = defineQuery({
  columns: { session_id: 'text', utterance_id: 'text | null', parent_id: 'text | null', deleted: 'boolean' },
  statement: ({ organizationId, parentId }: { organizationId: string; parentId: string }) =>
    sql`select session_id, utterance_id, parent_id, deleted_at is not null as deleted from comments
        where id = ${parentId} and organization_id = ${organizationId} for share`,
  example: { organizationId: 'org_example', parentId: 'cmt_example' },
});

export interface NewComment {
  id: string;
  organizationId: string;
  sessionId: string;
  utteranceId: string | null;
  parentId: string | null;
  body: string;
  author: { kind: TAuthor['kind']; id: string };
}

/** Inserts a comment on the organization's session (and its utterance, when named); no row when either is not there. */
export const insertComment = defineQuery({
  columns: COMMENT_ROW,
  statement: (n: NewComment) =>
    sql`with c as (
            insert into comments (id, organization_id, session_id, utterance_id, parent_id, body, author_kind, author_id, author_name, created_at, updated_at)
            select ${n.id}, s.organization_id, s.id, ${n.utteranceId}, ${n.parentId}, ${n.body}, ${n.author.kind}, ${n.author.id}, ${authorNameSql(n.author)}, now(), now()
            from sessions s
            where s.id = ${n.sessionId} and s.organization_id = ${n.organizationId}
              and (${n.utteranceId}::text is null or exists (select 1 from session_utterances u where u.id = ${n.utteranceId} and u.session_id = s.id))
            returning *)
          select ${COMMENT_COLUMNS} from c`,
  example: {
    id: 'cmt_example',
    organizationId: 'org_example',
    sessionId: 'ses_example',
    utteranceId: 'utt_example',
    parentId: null,
    body: 'A comment',
    author: { kind: 'member', id: 'mem_example' },
  } as NewComment,
});

/** The organization's session, when it exists. */
export const sessionOfOrganization = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, sessionId }: { organizationId: string; sessionId: string }) =>
    sql`select id from sessions where id = ${sessionId} and organization_id = ${organizationId}`,
  example: { organizationId: 'org_example', sessionId: 'ses_example' },
});

/** A live comment's parent, read before any lock (to lock the parent first). */
export const liveCommentParent = defineQuery({
  columns: { parent_id: 'text | null' },
  statement: ({ organizationId, commentId }: { organizationId: string; commentId: string }) =>
    sql`select parent_id from comments where id = ${commentId} and organization_id = ${organizationId} and deleted_at is null`,
  example: { organizationId: 'org_example', commentId: 'cmt_example' },
});

/** Locks a comment's row (a thread's parent, before its reply). */
export const lockComment = defineQuery({
  columns: { id: 'text' },
  statement: ({ commentId }: { commentId: string }) => sql`select id from comments where id = ${commentId} for update`,
  example: { commentId: 'cmt_example' },
});

/** A live comment to delete, locked, with its author. */
export const commentToDelete = defineQuery({
  columns: { id: 'text', parent_id: 'text | null', author_kind: 'text', author_id: 'text' },
  statement: ({ organizationId, commentId }: { organizationId: string; commentId: string }) =>
    sql`select id, parent_id, author_kind, author_id from comments
          where id = ${commentId} and organization_id = ${organizationId} and deleted_at is null for update`,
  example: { organizationId: 'org_example', commentId: 'cmt_example' },
});

/** How many replies a comment has. */
export const replyCount = defineQuery({
  columns: { count: 'bigint' },
  statement: ({ commentId }: { commentId: string }) => sql`select count(*) as count from comments where parent_id = ${commentId}`,
  example: { commentId: 'cmt_example' },
});

/** A top-level comment with replies stays as a tombstone: body gone, deleted. */
export const tombstoneComment = defineQuery({
  columns: {},
  statement: ({ commentId }: { commentId: string }) => sql`update comments set body = null, deleted_at = now(), updated_at = now() where id = ${commentId}`,
  example: { commentId: 'cmt_example' },
});

export const deleteCommentRow = defineQuery({
  columns: {},
  statement: ({ commentId }: { commentId: string }) => sql`delete from comments where id = ${commentId}`,
  example: { commentId: 'cmt_example' },
});

/** Removes a tombstone whose last reply went. */
export const deleteEmptyTombstone = defineQuery({
  columns: {},
  statement: ({ commentId }: { commentId: string }) =>
    sql`delete from comments p where p.id = ${commentId} and p.deleted_at is not null and not exists (select 1 from comments r where r.parent_id = p.id)`,
  example: { commentId: 'cmt_example' },
});

/**
 * A session's comments, oldest first (filtered to one utterance's threads when named), each row
 * saying whether the utterance exists; one row with null comment columns for a session without
 * comments, no row for no session of the organization.
 */
export const sessionCommentRows = defineQuery({
  columns: {
    utterance_found: 'boolean',
    id: 'text | null',
    session_id: 'text | null',
    utterance_id: 'text | null',
    parent_id: 'text | null',
    body: 'text | null',
    deleted: 'boolean | null',
    author_kind: 'text | null',
    author_id: 'text | null',
    author_name: 'text | null',
    created_at: 'text | null',
    updated_at: 'text | null',
    edited_at: 'text | null',
  },
  statement: ({ organizationId, sessionId, utteranceId }: { organizationId: string; sessionId: string; utteranceId: string | null }) =>
    sql`select u.id is not null as utterance_found, ${COMMENT_COLUMNS}
        from sessions s
        left join session_utterances u on u.id = ${utteranceId} and u.session_id = s.id
        left join comments c on c.session_id = s.id and (${utteranceId}::text is null or c.utterance_id = ${utteranceId})
        where s.id = ${sessionId} and s.organization_id = ${organizationId}
        order by c.created_at, c.id`,
  example: { organizationId: 'org_example', sessionId: 'ses_example', utteranceId: null as string | null },
});

/** Changes a live comment's body when the author is the one recorded. */
export const updateCommentBody = defineQuery({
  columns: COMMENT_ROW,
  statement: ({
    organizationId,
    commentId,
    body,
    author,
  }: {
    organizationId: string;
    commentId: string;
    body: string;
    author: { kind: TAuthor['kind']; id: string };
  }) =>
    sql`with c as (
          update comments set body = ${body}, edited_at = now(), updated_at = now()
          where id = ${commentId} and organization_id = ${organizationId} and deleted_at is null
            and author_kind = ${author.kind} and author_id = ${author.id}
          returning *)
        select ${COMMENT_COLUMNS} from c`,
  example: { organizationId: 'org_example', commentId: 'cmt_example', body: 'Edited', author: { kind: 'member' as TAuthor['kind'], id: 'mem_example' } },
});

/** A live comment's author name (for the refusal to edit another's comment). */
export const liveCommentAuthorName = defineQuery({
  columns: { author_name: 'text' },
  statement: ({ organizationId, commentId }: { organizationId: string; commentId: string }) =>
    sql`select author_name from comments where id = ${commentId} and organization_id = ${organizationId} and deleted_at is null`,
  example: { organizationId: 'org_example', commentId: 'cmt_example' },
});
