import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import { MIGRATIONS } from '../../migrations/index.js';
import { ENTITIES } from '../entities/index.js';
import { BoundPostgreSqlDriver } from './bound-connection.js';
import { HIDE_PARAMETERS_FROM_LOG } from './database-server.js';
import type { Logger } from '../logger.js';

interface PooledConnection {
  query(sql: string, done: (error: Error | null) => void): void;
}

/** Its `em` (and every fork) is the PostgreSQL EntityManager the domain functions take. */
export type Orm = MikroORM;

export interface CreateOrmOptions {
  url: string;
  poolSize?: number;
  /** `statement_timeout` of every pooled connection, in milliseconds (0: none). */
  statementTimeoutMs?: number;
  debug?: boolean;
  logger?: Logger;
}

/**
 * One ORM per process. Requests and jobs work on forks of its EntityManager
 * (`orm.em.fork()`); the global one is never used directly (`allowGlobalContext: false`).
 */
export async function createOrm(options: CreateOrmOptions): Promise<Orm> {
  return MikroORM.init({
    // Every value bound, never written into the statement's text (see bound-connection.ts).
    driver: BoundPostgreSqlDriver,
    clientUrl: options.url,
    entities: ENTITIES,
    extensions: [Migrator],
    migrations: {
      tableName: 'mikro_orm_migrations',
      // Listed explicitly: file discovery breaks under bundlers and vitest on Node 20.
      migrationsList: MIGRATIONS,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
    },
    pool: {
      min: 0,
      max: options.poolSize ?? 10,
      // Set once per connection (not per query): no statement's values in PostgreSQL's log where
      // the role may say so, and one slow statement cannot hold a pooled connection for long.
      afterCreate: (connection: PooledConnection, done: (error: Error | null, connection: unknown) => void) => {
        const settings = [HIDE_PARAMETERS_FROM_LOG];
        if (options.statementTimeoutMs) settings.push(`set statement_timeout = ${Math.trunc(options.statementTimeoutMs)}`);
        const next = (error: Error | null): void => {
          const statement = settings.shift();
          if (error || !statement) done(error, connection);
          else connection.query(statement, next);
        };
        next(null);
      },
    },
    // knex writes connection trouble to the console by default: into our structured log instead.
    driverOptions: {
      log: {
        warn: (message: unknown) => options.logger?.warn({ knex: String(message) }, 'database connection'),
        error: (message: unknown) => options.logger?.error({ knex: String(message) }, 'database connection'),
        deprecate: (message: unknown) => options.logger?.debug({ knex: String(message) }, 'knex deprecation'),
        debug: (message: unknown) => options.logger?.debug({ knex: String(message) }, 'knex'),
      },
    },
    allowGlobalContext: false,
    debug: options.debug ?? false,
    logger: (message) => options.logger?.debug({ orm: message.replace(/\x1b\[[0-9;]*m/g, '') }, 'mikro-orm'),
    discovery: { warnWhenNoEntities: true },
    // JSON numbers from numeric columns come back as numbers, not strings.
    forceEntityConstructor: false,
  });
}
