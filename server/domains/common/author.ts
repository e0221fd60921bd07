import type { CustomerAuth } from './caller.js';
import type { TAuthor } from '../../../shared/schemas/common.js';
import type { Sql } from '../../db/sql.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { authorName, authorNameSql } from './queries.js';

/**
 * Who wrote a workspace record (highlights, comments, collections, saved searches, the transcript
 * audit log): kind and id (what edit rights compare), and their name as SQL, read in the write's
 * own statement.
 */
export interface AuthorColumns {
  kind: TAuthor['kind'];
  id: string;
  /** A scalar subquery: the member's name (else email) or the key's name, as it is now. */
  name: Sql;
}

export function authorColumns(auth: CustomerAuth): AuthorColumns {
  const author = auth.kind === 'member' ? ({ kind: 'member', id: auth.memberId } as const) : ({ kind: 'api_key', id: auth.apiKeyId } as const);
  return { ...author, name: authorNameSql(author) };
}

/**
 * The caller as an author, name read now: for writes whose record takes the name from the code
 * rather than from its own statement (the transcript audit log, anonymized exports).
 */
export async function authorOf(em: EntityManager, auth: CustomerAuth): Promise<TAuthor> {
  const { kind, id } = authorColumns(auth);
  const row = await authorName.first(em, { author: { kind, id } });
  return { kind, id, name: row!.name };
}

/** Whether the caller is the one recorded as author. */
export function isAuthor(auth: CustomerAuth, author: { kind: string; id: string }): boolean {
  return auth.kind === 'member' ? author.kind === 'member' && author.id === auth.memberId : author.kind === 'api_key' && author.id === auth.apiKeyId;
}

export function authorFromRow(kind: string, id: string, name: string): TAuthor {
  return { kind: kind as TAuthor['kind'], id, name };
}
