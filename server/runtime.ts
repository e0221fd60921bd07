import type { Config } from './config.js';
import { openEmbeddedPostgres } from './db/embedded-postgres.js';
import { migrateDatabase } from './db/migrate.js';
import { createOrm, type Orm } from './db/orm.js';
import type { Logger } from './logger.js';
import { type AppServices, createServices } from './services.js';

/** A process's connection to its database, migrated and ready, with the services built on it. */
export interface Runtime {
  databaseUrl: string;
  orm: Orm;
  services: AppServices;
  /** From now on a dead embedded cluster stays dead: the process is shutting down. */
  stopRestartingDatabase(): void;
  /** Closes the ORM pool, then leaves the embedded cluster (stopping it when no other live process holds it). */
  close(): Promise<void>;
}

/**
 * Opens the configured database (DATABASE_URL, or the embedded cluster under DATA_DIR, started
 * or attached to), applies migrations and builds the services. Shared by the server, the worker
 * and the admin CLI so they always see the same database.
 */
export async function openRuntime(config: Config, logger: Logger, options: { restartEmbeddedPostgres?: boolean } = {}): Promise<Runtime> {
  // A PostgreSQL of DATABASE_URL is someone else's to run: only the embedded one is restarted.
  const database = config.databaseUrl
    ? { url: config.databaseUrl, stopRestarting: () => undefined, stop: async () => undefined }
    : await openEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPostgresPort, logger, restartOnCrash: options.restartEmbeddedPostgres });
  let orm: Orm | undefined;
  try {
    // Migrations run on a connection of their own, without the statement timeout (one may rewrite a large table).
    const migrationOrm = await createOrm({ url: database.url, poolSize: 1, logger });
    try {
      await migrateDatabase(migrationOrm, database.url, logger);
    } finally {
      await migrationOrm.close(true);
    }
    orm = await createOrm({ url: database.url, poolSize: config.databasePoolSize, statementTimeoutMs: config.databaseStatementTimeoutSeconds * 1000, logger });
    const services = await createServices(config, orm, logger);
    const openedOrm = orm;
    return {
      databaseUrl: database.url,
      orm,
      services,
      stopRestartingDatabase: () => database.stopRestarting(),
      async close() {
        services.mailer.close();
        services.testModeMailer.close();
        await services.reports.close();
        await services.databaseProbe.close();
        await openedOrm.close(true);
        await database.stop();
      },
    };
  } catch (error) {
    await orm?.close(true).catch(() => undefined);
    await database.stop().catch(() => undefined);
    throw error;
  }
}
