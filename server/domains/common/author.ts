import type { CustomerAuth } from './caller.js';
import type { TAuthor } from '../../../shared/schemas/common.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, type Sql, sql } from '../../db/sql.js';

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
  if (auth.kind === 'member') {
    return {
      kind: 'member',
      id: auth.memberId,
      name: sql`coalesce((select coalesce(m.name, m.email) from members m where m.id = ${auth.memberId}), 'Member')`,
    };
  }
  return { kind: 'api_key', id: auth.apiKeyId, name: sql`coalesce((select k.name from api_keys k where k.id = ${auth.apiKeyId}), 'API key')` };
}

/**
 * The caller as an author, name read now: for writes whose record takes the name from the code
 * rather than from its own statement (the transcript audit log, anonymized exports).
 */
export async function authorOf(em: EntityManager, auth: CustomerAuth): Promise<TAuthor> {
  const author = authorColumns(auth);
  const [row] = await queryRows<{ name: string }>(em, sql`select ${author.name} as name`);
  return { kind: author.kind, id: author.id, name: row!.name };
}

/** Whether the caller is the one recorded as author. */
export function isAuthor(auth: CustomerAuth, author: { kind: string; id: string }): boolean {
  return auth.kind === 'member' ? author.kind === 'member' && author.id === auth.memberId : author.kind === 'api_key' && author.id === auth.apiKeyId;
}

export function authorFromRow(kind: string, id: string, name: string): TAuthor {
  return { kind: kind as TAuthor['kind'], id, name };
}
