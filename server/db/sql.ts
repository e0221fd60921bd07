import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import type pg from 'pg';

/**
 * The `sql` tag and the one function that runs a statement: a statement written once as SQL, run
 * on the ORM's own pool and transaction. It skips what declared statements do not need (entity
 * hydration, the unit of work, knex's query runner) and keeps what they do: parameters are
 * always bound (in and outside transactions: PostgreSQL's log shows `$n`, never a value), a
 * statement inside `em.transactional` (or the idempotency transaction) runs in that transaction,
 * and errors are the driver's exceptions the rest of the service understands.
 *
 * Domain code does not call this directly: it declares its statements in its `queries.ts`
 * (server/db/query.ts) and uses entities for aggregates with rules (docs/architecture.md,
 * "Reaching the database: two ways").
 */
const FRAGMENT = Symbol('sql fragment');

export interface Sql {
  readonly [FRAGMENT]: true;
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

const RAW = Symbol('raw sql');

export interface RawSql {
  [RAW]: string;
}

/** A fragment written by us, never by a caller's input: an identifier, a keyword, a sort direction. */
export function rawSql(text: string): RawSql {
  return { [RAW]: text };
}

/** Only what `sql` made is spliced in as SQL: any other object is a bound value, whatever its keys. */
function isSql(value: unknown): value is Sql {
  return typeof value === 'object' && value !== null && FRAGMENT in value;
}

function isRaw(value: unknown): value is RawSql {
  return typeof value === 'object' && value !== null && RAW in value;
}

/** `sql\`select … where id = ${id}\``: values become bound parameters; nested `sql` and `rawSql` splice in. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  const parts: string[] = [strings[0]!];
  const params: unknown[] = [];
  values.forEach((value, index) => {
    const following = strings[index + 1]!;
    if (isRaw(value)) {
      parts[parts.length - 1] += value[RAW] + following;
    } else if (isSql(value)) {
      parts[parts.length - 1] += value.strings[0]!;
      value.values.forEach((nested, nestedIndex) => {
        params.push(nested);
        parts.push(value.strings[nestedIndex + 1]!);
      });
      parts[parts.length - 1] += following;
    } else {
      params.push(value);
      parts.push(following);
    }
  });
  return { [FRAGMENT]: true, strings: parts, values: params };
}

/** `a, b, c` of fragments. */
export function joinSql(fragments: Sql[], separator = ', '): Sql {
  if (fragments.length === 0) return sql``;
  return fragments.slice(1).reduce((joined, fragment) => sql`${joined}${rawSql(separator)}${fragment}`, fragments[0]!);
}

function numbered(query: Sql): string {
  return query.strings.reduce((text, part, index) => (index === 0 ? part : `${text}$${index}${part}`), '');
}

/** Knex's placeholders are `?`; a literal `?` in the SQL (jsonb operators) is written `\\?`. */
function questionMarked(query: Sql): string {
  return query.strings.map((part) => part.replace(/\?/g, '\\?')).join('?');
}

interface KnexClient {
  acquireConnection(): Promise<pg.PoolClient>;
  releaseConnection(connection: pg.PoolClient): Promise<void>;
}

/**
 * Runs one statement and answers its rows. Outside a transaction it borrows a connection of the
 * ORM's pool and queries it directly; inside one it goes through the transaction's connection.
 */
export async function queryRows<T>(em: EntityManager, query: Sql): Promise<T[]> {
  // pg binds `undefined` as null; knex refuses it. Both paths bind the same values.
  const values = query.values.map((value) => (value === undefined ? null : value));
  const transaction = em.isInTransaction() ? em.getTransactionContext<Knex.Transaction>() : undefined;
  if (transaction) {
    // On the transaction's own connection, values bound (knex numbers the `?`): never `em.execute`,
    // which writes values into the SQL text and reads an array as a list rather than one value.
    try {
      const result = await transaction.raw<pg.QueryResult<T & pg.QueryResultRow>>(questionMarked(query), values as readonly Knex.RawBinding[]);
      return result.rows;
    } catch (error) {
      throw error instanceof Error ? em.getDriver().convertException(error) : error;
    }
  }
  const knex = em.getConnection().getKnex();
  const client = knex.client as unknown as KnexClient;
  const text = numbered(query);
  let connection: pg.PoolClient | undefined;
  try {
    connection = await client.acquireConnection();
    // Announced as knex announces its own, so whatever counts or traces statements sees these too.
    knex.emit('query', { sql: text, bindings: values, method: 'raw' });
    const result = await connection.query<T & pg.QueryResultRow>(text, values);
    return result.rows;
  } catch (error) {
    throw error instanceof Error ? em.getDriver().convertException(error) : error;
  } finally {
    if (connection) await client.releaseConnection(connection);
  }
}

/**
 * A timestamptz column as the API writes it (ISO 8601 UTC with milliseconds), made by PostgreSQL:
 * the same text whatever type parsers the connection has.
 */
export function isoTimestamp(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
