import { JsonProperty, Utils, type Configuration } from '@mikro-orm/core';
import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';

/**
 * MikroORM 6 writes every value of a statement into its SQL text (`Platform.formatQuery`) before
 * handing it to knex, for entity reads and writes and for `em.execute` alike. PostgreSQL then
 * logs the values with the statement (`log_statement`, `log_min_duration_statement`): signing
 * secrets, key hashes, emails and answers in the server log, and no plan can be reused. This
 * connection sends the same statements with bound parameters instead (`$1`, `$2`, … and the
 * values apart), keeping MikroORM's placeholder grammar:
 *
 * - `?` a value: bound. An array is a list (`in (?)` with `[a, b]` binds `a` and `b`), as the
 *   ORM has always read it; a plain object (or a value marked JSON) is bound as its JSON text.
 * - `??` an identifier: quoted into the text (identifiers are ours, never a caller's value).
 * - `\\?` a literal question mark (jsonb's `?` operators).
 * - a raw fragment (`raw()`, knex's `raw`/`ref`) as a value: spliced in, its own values bound.
 *
 * The statement text keeps knex's `?` placeholders; knex numbers them (`$n`) when it runs the
 * statement on the pool or on the transaction's own connection.
 */
interface BoundStatement {
  sql: string;
  bindings: unknown[];
}

interface KnexFragment {
  toSQL(): { sql: string; bindings?: readonly unknown[] };
}

function isKnexFragment(value: unknown): value is KnexFragment {
  return (
    typeof value === 'object' &&
    value !== null &&
    'client' in value &&
    ['Ref', 'Raw'].includes((value as object).constructor.name) &&
    typeof (value as Partial<KnexFragment>).toSQL === 'function'
  );
}

function quoteIdentifier(id: unknown): string {
  const escaped = String(id).replaceAll('"', '""');
  return `"${escaped.replace('.', '"."')}"`;
}

/** Appends the placeholder(s) for one value to `out` and its bound value(s) to `bindings`. */
function placeValue(value: unknown, out: string[], bindings: unknown[]): void {
  if (Utils.isRawSql(value)) {
    const fragment = bindStatement(value.sql, (value.params ?? []) as unknown[]);
    out.push(fragment.sql);
    bindings.push(...fragment.bindings);
  } else if (isKnexFragment(value)) {
    const compiled = value.toSQL();
    out.push(compiled.sql);
    bindings.push(...(compiled.bindings ?? []));
  } else if (Utils.isPlainObject(value) || (typeof value === 'object' && value !== null && JsonProperty in value)) {
    out.push('?');
    bindings.push(JSON.stringify(value));
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => {
      if (index > 0) out.push(', ');
      placeValue(item, out, bindings);
    });
  } else {
    out.push('?');
    bindings.push(value === undefined ? null : value);
  }
}

/** MikroORM's `(sql, params)` as knex's `?` text with bound values (see above). */
export function bindStatement(sql: string, params: readonly unknown[]): BoundStatement {
  const out: string[] = [];
  const bindings: unknown[] = [];
  let next = 0;
  let from = 0;
  for (let at = sql.indexOf('?'); at !== -1; at = sql.indexOf('?', from)) {
    if (at > 0 && sql[at - 1] === '\\') {
      // Already knex's escape for a literal question mark: kept as it is.
      out.push(sql.slice(from, at + 1));
      from = at + 1;
    } else if (sql[at + 1] === '?') {
      out.push(sql.slice(from, at), quoteIdentifier(params[next++]));
      from = at + 2;
    } else {
      out.push(sql.slice(from, at));
      placeValue(params[next++], out, bindings);
      from = at + 1;
    }
  }
  out.push(sql.slice(from));
  return { sql: out.join(''), bindings };
}

/** The parts of MikroORM's connection this one uses that its typings keep private. */
interface ConnectionInternals {
  getSql(query: string, formatted: string, context?: unknown): string;
}

type KnexStatement = { client: { transacting?: boolean }; toSQL(): { sql: string; bindings?: unknown[] } };
type Bindings = Parameters<ReturnType<PostgreSqlConnection['getKnex']>['raw']>[1];

export class BoundPostgreSqlConnection extends PostgreSqlConnection {
  override async execute<T>(
    queryOrKnex: unknown,
    params: readonly unknown[] = [],
    method: 'all' | 'get' | 'run' = 'all',
    ctx?: unknown,
    loggerContext?: object,
  ): Promise<T> {
    await this.ensureConnection();
    let text: string;
    if (Utils.isObject<KnexStatement>(queryOrKnex)) {
      ctx ??= queryOrKnex.client.transacting ? queryOrKnex : null;
      const compiled = queryOrKnex.toSQL();
      text = compiled.sql;
      params = compiled.bindings ?? [];
    } else {
      text = queryOrKnex as string;
    }
    text = this.config.get('onQuery')(text, [...params]);
    // Without parameters the text is sent exactly as written, as MikroORM sends it: a `?` in it
    // (a comment, a literal, a migration's jsonb operator) is not a placeholder then.
    const statement = params.length > 0 ? bindStatement(text, params) : { sql: text, bindings: [] };
    // The ORM's own query log shows the text with placeholders, never the values.
    const logged = (this as unknown as ConnectionInternals).getSql(text, text, loggerContext);
    return this.executeQuery<T>(
      logged,
      async () => {
        // Without values knex reads no `?` (MikroORM's patched client sends such a text unparsed).
        // A statement whose parameters were all identifiers or fragments comes out with none too:
        // its `\\?` escapes are literal question marks then.
        const knex = this.getKnex();
        const query =
          statement.bindings.length > 0
            ? knex.raw(statement.sql, statement.bindings as Bindings)
            : knex.raw(params.length > 0 ? statement.sql.replaceAll('\\?', '?') : statement.sql);
        if (ctx) query.transacting(ctx as never);
        const result = await query;
        return this.transformRawResult<T>(result, method);
      },
      { query: text, params: [], ...loggerContext },
    );
  }
}

/** The PostgreSQL driver on a connection that binds every value (see `BoundPostgreSqlConnection`). */
export class BoundPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    const self = this as unknown as {
      connection: BoundPostgreSqlConnection;
      replicas: BoundPostgreSqlConnection[];
      createReplicas: (make: (conf: unknown) => BoundPostgreSqlConnection) => BoundPostgreSqlConnection[];
    };
    self.connection = new BoundPostgreSqlConnection(this.config);
    self.replicas = self.createReplicas((conf) => new BoundPostgreSqlConnection(this.config, conf as never, 'read'));
  }
}
