import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, type Sql } from './sql.js';

/**
 * A statement of a domain's `queries.ts`: its SQL (the `sql` tag, every value bound), the columns
 * it answers with their PostgreSQL types, and an example of its parameters. The row type is
 * derived from the declared columns, and tests/db/queries.test.ts runs every declared statement
 * with its example against the migrated schema (reads under `limit 0`, writes rolled back) and
 * compares the columns PostgreSQL describes with the declaration: a renamed column, a changed type
 * or a row type written by hand out of step fails there, not in production.
 *
 * Where it fits (docs/architecture.md, "Reaching the database"): entities and the unit of work
 * for a write that loads and changes an aggregate with rules; a declared statement for every
 * other read and for set-based writes.
 */

/**
 * The column types statements answer with, as PostgreSQL's `format_type` names them, and what the
 * driver makes of each (`bigint` and `numeric` arrive as text: they may not fit a JS number).
 * Statements run on the ORM's connections, whose type parsers leave dates and timestamps as
 * PostgreSQL's text (`2026-11-28 23:37:00.123+00`): a value that must be a `Date` is made one
 * where it is used.
 */
export interface ColumnValues {
  uuid: string;
  text: string;
  'character varying': string;
  boolean: boolean;
  smallint: number;
  integer: number;
  bigint: string;
  numeric: string;
  real: number;
  'double precision': number;
  'timestamp with time zone': string;
  date: string;
  interval: unknown;
  jsonb: unknown;
  json: unknown;
  bytea: Buffer;
  'uuid[]': string[];
  'text[]': string[];
  'integer[]': number[];
  'bigint[]': string[];
  /** What a function called for its effect answers (`select graphile_worker.force_unlock_workers(…)`): empty text. */
  void: string;
}

export type ColumnType = keyof ColumnValues;

/** A column's declared type; `| null` where it may be null (PostgreSQL does not describe nullability, so this is not checked). */
export type ColumnSpec = ColumnType | `${ColumnType} | null`;

export type RowSpec = Record<string, ColumnSpec>;

type ValueOf<S extends ColumnSpec> = S extends `${infer Base extends ColumnType} | null`
  ? ColumnValues[Base] | null
  : S extends ColumnType
    ? ColumnValues[S]
    : never;

/** The row type a declaration describes. */
export type RowOf<S extends RowSpec> = { -readonly [K in keyof S]: ValueOf<S[K]> };

const QUERY = Symbol('declared query');

export interface Query<Params, Spec extends RowSpec> {
  readonly [QUERY]: true;
  /** The columns each row has, with their types. `{}` for a statement that answers no rows. */
  readonly columns: Spec;
  readonly statement: (params: Params) => Sql;
  /** Parameters the schema check runs the statement with (they need not match any row). */
  readonly example: Params;
  /** Runs the statement on `em`'s connection (its transaction when there is one). */
  rows(em: EntityManager, params: Params): Promise<RowOf<Spec>[]>;
  /** The first row, or undefined. */
  first(em: EntityManager, params: Params): Promise<RowOf<Spec> | undefined>;
}

export interface QueryDeclaration<Params, Spec extends RowSpec> {
  columns: Spec;
  statement: (params: Params) => Sql;
  example: Params;
}

export function defineQuery<Params, const Spec extends RowSpec>(declaration: QueryDeclaration<Params, Spec>): Query<Params, Spec> {
  const { columns, statement, example } = declaration;
  return {
    [QUERY]: true,
    columns,
    statement,
    example,
    rows: (em, params) => queryRows<RowOf<Spec>>(em, statement(params)),
    first: async (em, params) => (await queryRows<RowOf<Spec>>(em, statement(params)))[0],
  };
}

/** Whether a module's export is a declared statement (for the schema check). */
export function isQuery(value: unknown): value is Query<unknown, RowSpec> {
  return typeof value === 'object' && value !== null && QUERY in value;
}
