import type { TComment } from '../../../shared/schemas/comments.js';
import { isoTimestamp, rawSql } from '../../db/sql.js';
import { authorFromRow } from '../common/author.js';

export interface CommentRow {
  id: string;
  session_id: string;
  utterance_id: string | null;
  parent_id: string | null;
  body: string | null;
  deleted: boolean;
  author_kind: string;
  author_id: string;
  author_name: string;
  created_at: string;
  updated_at: string;
  edited_at: string | null;
}

/** The columns of a CommentRow from `c` (comments, or a CTE returning its rows). */
export const COMMENT_COLUMNS = rawSql(
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
