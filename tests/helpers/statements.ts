import type { TestApp } from './test-app.js';

/**
 * The SQL the service sends on its ORM's pool while `work` runs, trimmed and lower-cased: declared
 * statements announce themselves as knex's own do (server/db/sql.ts), so both are here. For tests
 * that hold a path to its statement count or its shape (one write, no transaction).
 */
export async function statementsDuring(t: Pick<TestApp, 'runtime'>, work: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const knex = t.runtime.orm.em.getConnection().getKnex();
  const listener = (query: { sql: string }) => statements.push(query.sql.trim().toLowerCase());
  knex.on('query', listener);
  try {
    await work();
  } finally {
    knex.removeListener('query', listener);
  }
  return statements;
}
