import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isQuery, type Query, type RowSpec } from '../../server/db/query.js';
import { ROOT } from '../helpers/processes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

/**
 * Every statement a `queries.ts` declares (server/db/query.ts) runs against the migrated schema
 * with its example parameters, and the columns PostgreSQL describes must be the declared ones,
 * with the declared types. Reads run under `limit 0`; writes run in a transaction that is rolled
 * back, with foreign-key triggers off (the examples need not point at existing rows).
 */

interface Declared {
  name: string;
  query: Query<unknown, RowSpec>;
}

/** Each `queries.ts` under server/ (a domain's, and the platform's), and what it declares. */
async function declaredQueries(): Promise<Declared[]> {
  const found: Declared[] = [];
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === 'queries.ts') {
        const module = (await import(full)) as Record<string, unknown>;
        for (const [name, value] of Object.entries(module)) {
          if (isQuery(value)) found.push({ name: `${path.relative(ROOT, full)} ${name}`, query: value });
        }
      }
    }
  };
  await walk(path.join(ROOT, 'server'));
  await walk(path.join(ROOT, 'worker'));
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** `$1, $2…` for the statement's bound values. */
function numbered(strings: readonly string[]): string {
  return strings.reduce((text, part, index) => (index === 0 ? part : `${text}$${index}${part}`), '');
}

/** A read (no data-modifying clause) can be wrapped: it then plans and describes without reading a row. */
function isRead(text: string): boolean {
  return /^\s*(select|with)\b/i.test(text) && !/\b(insert\s+into|update\s+\w+\s+set|delete\s+from)\b/i.test(text);
}

let database: TestDatabase;
let client: pg.Client;
let typeNames: Map<number, string>;
let declared: Declared[];

beforeAll(async () => {
  database = await createTestDatabase();
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const types = await client.query<{ oid: number; name: string }>(`select oid::int as oid, format_type(oid, null) as name from pg_type`);
  typeNames = new Map(types.rows.map((row) => [row.oid, row.name]));
  declared = await declaredQueries();
});

afterAll(async () => {
  await client?.end();
  await database?.drop();
});

describe('declared statements', () => {
  it('are found in the queries.ts files', () => {
    expect(declared.length).toBeGreaterThan(0);
  });

  it('answer exactly the declared columns, with the declared types, on the migrated schema', async () => {
    const mismatches: string[] = [];
    for (const { name, query } of declared) {
      const statement = query.statement(query.example);
      const text = numbered(statement.strings);
      const values = statement.values.map((value) => (value === undefined ? null : value));
      await client.query('begin');
      try {
        await client.query(`set local session_replication_role = replica`);
        const result = isRead(text) ? await client.query(`select * from (${text}) as declared limit 0`, values) : await client.query(text, values);
        const described = Object.fromEntries(result.fields.map((field) => [field.name, typeNames.get(field.dataTypeID) ?? `oid ${field.dataTypeID}`]));
        const expected = Object.fromEntries(Object.entries(query.columns).map(([column, type]) => [column, type.replace(/ \| null$/, '')]));
        if (JSON.stringify(sorted(described)) !== JSON.stringify(sorted(expected))) {
          mismatches.push(`${name}: PostgreSQL describes ${JSON.stringify(sorted(described))}, declared ${JSON.stringify(sorted(expected))}`);
        }
      } catch (error) {
        mismatches.push(`${name}: ${(error as Error).message}`);
      } finally {
        await client.query('rollback');
      }
    }
    expect(mismatches).toEqual([]);
  });
});

function sorted(record: Record<string, string>): [string, string][] {
  return Object.entries(record).sort(([a], [b]) => a.localeCompare(b));
}
