import pg from 'pg';
/** Where the pool reports failures it absorbs (the service's logger). */
interface Warn {
  warn(details: Record<string, unknown>, message: string): void;
}

/** graphile-worker's own default pool size; more when the configured concurrency needs it. */
const DEFAULT_POOL_SIZE = 10;

/**
 * The connection pool graphile-worker runs on: one per process, kept across runner restarts
 * and ended by the worker's `stop`.
 *
 * It is ours, not graphile-worker's, for one reason: when the database goes away while the
 * runner shuts down, graphile-worker 0.17 and 0.18 can release its LISTEN client twice (once
 * from the client's error, once from the shutdown's UNLISTEN), and pg-pool answers a second
 * release by throwing from inside a promise nobody awaits. That unhandled rejection ended the
 * whole process (API included) on a PostgreSQL restart (`tests/db/database-restart.test.ts`).
 * Here a second release of the same checkout is logged and ignored: the first one has already
 * returned (or destroyed) the client, so there is nothing left to do.
 *
 * The error listeners are permanent: graphile-worker removes its own when a runner ends, and
 * an idle client that errors between two runners must not crash the process either.
 */
export function createJobRunnerPool(connectionString: string, concurrency: number, logger: Warn): pg.Pool {
  const pool = new JobRunnerPool({ connectionString, max: Math.max(DEFAULT_POOL_SIZE, concurrency + 2) }, logger);
  pool.on('error', (error) => logger.warn({ err: error }, 'job runner pool: an idle connection failed'));
  pool.on('connect', (client) => {
    client.on('error', (error) => logger.warn({ err: error }, 'job runner pool: a connection in use failed'));
  });
  return pool;
}

type Release = (error?: Error | boolean) => void;

class JobRunnerPool extends pg.Pool {
  readonly #logger: Warn;

  constructor(config: pg.PoolConfig, logger: Warn) {
    super(config);
    this.#logger = logger;
  }

  // Both of pg-pool's forms: graphile-worker takes its LISTEN client by callback, the others by promise.
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (error: Error | undefined, client: pg.PoolClient | undefined, done: Release) => void): void;
  override connect(callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: Release) => void): Promise<pg.PoolClient> | void {
    if (!callback) return super.connect().then((client) => this.#releasableOnce(client));
    super.connect((error, client, done) => {
      if (error || !client) return callback(error, client, done);
      const checkedOut = this.#releasableOnce(client);
      callback(undefined, checkedOut, checkedOut.release);
    });
  }

  #releasableOnce(client: pg.PoolClient): pg.PoolClient {
    const release = client.release.bind(client) as Release;
    let released = false;
    client.release = (error?: Error | boolean) => {
      if (released) {
        this.#logger.warn({}, 'job runner pool: a connection was released twice; the second release is ignored');
        return;
      }
      released = true;
      release(error);
    };
    return client;
  }
}
