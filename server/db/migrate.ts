import { Logger as GraphileLogger, runMigrations as runWorkerMigrations } from 'graphile-worker';
import pg from 'pg';
import type { Logger } from '../logger.js';
import { checkDatabaseServer } from './database-server.js';
import type { Orm } from './orm.js';

/** Arbitrary constant: serialises migrations of every process starting on one database. */
const MIGRATION_LOCK_ID = 7_202_611_22;

/**
 * Applies the checked-in migrations and graphile-worker's schema. Processes starting together
 * (API, worker, admin CLI) take turns on an advisory lock, so each migration runs once.
 */
/** Jobs that used up their attempts and will not run again (docs/operations.md, "Observability"). */
const FAILED_JOBS_VIEW = `create view failed_jobs as
  select j.id, t.identifier as task, j.key, j.payload, j.attempts, j.max_attempts, j.last_error, j.created_at, j.updated_at
  from graphile_worker._private_jobs j
  join graphile_worker._private_tasks t on t.id = j.task_id
  where j.attempts >= j.max_attempts and j.locked_at is null`;

export async function migrateDatabase(orm: Orm, url: string, logger: Logger): Promise<void> {
  const lockClient = new pg.Client({ connectionString: url });
  await lockClient.connect();
  try {
    // Before anything else: an unsupported server is refused with its reason, not met by a failed migration.
    await checkDatabaseServer(lockClient, logger);
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    // The operators' view reads graphile-worker's own tables: dropped while its migrations run (a
    // future one may rebuild those tables), created again after.
    await lockClient.query('drop view if exists failed_jobs');
    await runWorkerMigrations({ connectionString: url, logger: graphileLogger(logger) });
    const applied = await orm.getMigrator().up();
    if (applied.length > 0) logger.info({ migrations: applied.map((m) => m.name) }, 'applied database migrations');
    await lockClient.query(FAILED_JOBS_VIEW);
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await lockClient.end();
  }
}

/** Routes graphile-worker's logging into our structured logger. */
export function graphileLogger(logger: Logger): GraphileLogger {
  return new GraphileLogger((scope) => (level, message, meta) => {
    const fields = { scope, ...(meta ?? {}) };
    if (level === 'error') logger.error(fields, message);
    else if (level === 'warning') logger.warn(fields, message);
    // graphile-worker reports every job at info; those belong at debug in our logs.
    else logger.debug(fields, message);
  });
}
