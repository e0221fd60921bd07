import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { chown, copyFile, link, lstat, mkdir, mkdtemp, open, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { z } from 'zod';
import { MIGRATIONS } from '../../migrations/index.js';
import {
  fileExists,
  packagedPostgresMajor,
  placeCluster,
  postgresUser,
  prepareClusterDir,
  signalPostmasterSync,
  type ClusterPlacement,
  type PostgresUser,
} from '../db/embedded-postgres-cluster.js';
import { openEmbeddedPostgres } from '../db/embedded-postgres.js';
import { pidExists } from '../db/embedded-postgres-ownership.js';
import type { Logger } from '../logger.js';
import { BackupArchiveError, BackupArchiveWriter, extractArchive, type ArchivedEntry } from './backup-archive.js';
import { FILE_DELETION_LOCK_ID } from './file-deletion-lock.js';

/**
 * Backups of the embedded cluster (issue "Backups and restore"): PostgreSQL's low-level base
 * backup API while the service runs, then the WAL that makes the copy consistent, packed with
 * DATA_DIR/files into one archive. Every backup is restored once as it is made (a temporary
 * cluster replays its WAL), so its manifest states what a restore yields, row for row.
 */

export const BACKUP_FORMAT = 'interview-service-backup';

const ZManifest = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.literal(1),
  startedAt: z.string(),
  finishedAt: z.string(),
  postgres: z.object({ version: z.string(), systemIdentifier: z.string(), startLsn: z.string(), stopLsn: z.string(), walSegments: z.array(z.string()) }),
  migrations: z.array(z.string()),
  tables: z.record(z.string(), z.number().int().nonnegative()),
  files: z.object({
    count: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    /** Stored files a record names that were already missing from DATA_DIR/files when the backup was made. */
    missing: z.number().int().nonnegative(),
  }),
  entries: z.array(z.object({ path: z.string(), size: z.number().int().nonnegative(), sha256: z.string() })),
});
export type BackupManifest = z.infer<typeof ZManifest>;

/** The embedded cluster's credentials file (`DATA_DIR/postgres.json`). */
const ZCredentials = z.object({ user: z.string(), password: z.string(), database: z.string(), port: z.number().optional(), clusterDir: z.string().optional() });
type Credentials = z.infer<typeof ZCredentials>;

/** A backup that cannot be made, or an archive that does not restore: the message says why. */
export class BackupError extends Error {
  constructor(
    readonly code: 'BACKUP_FAILED' | 'BACKUP_INVALID' | 'BACKUP_NOT_SUPPORTED' | 'DATA_DIR_NOT_EMPTY' | 'NOTHING_TO_BACK_UP',
    message: string,
  ) {
    super(message);
  }
}

/**
 * What pg_basebackup leaves out of a cluster copy (PostgreSQL's "Making a Base Backup Using the
 * Low Level API"): files of the running server and directories whose contents are rebuilt at
 * start. `pg_wal` is copied apart, only the segments the backup needs.
 */
const SKIPPED_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map', 'postgresql.auto.conf.tmp', 'current_logfiles.tmp']);
const EMPTIED_DIRS = new Set(['pg_wal', 'pg_stat_tmp', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_subtrans']);

function skippedFile(name: string): boolean {
  return SKIPPED_FILES.has(name) || name.startsWith('pg_internal.init') || name.startsWith('pgsql_tmp');
}

/** A WAL segment's file name: timeline, log and segment, 8 hex digits each. */
const WAL_SEGMENT = /^[0-9A-F]{24}$/;

interface BaseBackup {
  startLsn: string;
  stopLsn: string;
  walSegments: string[];
}

/**
 * Copies the running cluster into `target` between pg_backup_start and pg_backup_stop on one
 * session, then writes the backup_label PostgreSQL returns and the WAL segments from the start
 * to the stop position. A temporary replication slot taken first keeps those segments from being
 * recycled while the copy runs; it goes with the session.
 */
async function copyRunningCluster(
  databaseUrl: string,
  source: string,
  target: string,
  user: PostgresUser | undefined,
  afterStop: () => Promise<void>,
): Promise<BaseBackup> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('select pg_create_physical_replication_slot($1, true, true)', [`backup_${randomBytes(6).toString('hex')}`]);
    const started = await client.query<{ lsn: string; wal: string }>(`select lsn::text, pg_walfile_name(lsn) as wal from pg_backup_start($1, true) as lsn`, [
      `interview-service ${new Date().toISOString()}`,
    ]);
    await copyClusterTree(source, target, '', user);
    // Deletions of file records wait from here until the files are linked (file-deletion-lock.ts).
    await client.query('select pg_advisory_lock($1)', [FILE_DELETION_LOCK_ID]);
    const stopped = await client.query<{ lsn: string; labelfile: string; spcmapfile: string | null; wal: string }>(
      `select lsn::text, labelfile, spcmapfile, pg_walfile_name(lsn) as wal from pg_backup_stop(false)`,
    );
    await afterStop();
    await client.query('select pg_advisory_unlock($1)', [FILE_DELETION_LOCK_ID]);
    const stop = stopped.rows[0]!;
    const start = started.rows[0]!;
    await writeOwned(path.join(target, 'backup_label'), stop.labelfile, user);
    if (stop.spcmapfile) await writeOwned(path.join(target, 'tablespace_map'), stop.spcmapfile, user);
    const walSegments = (await readdir(path.join(source, 'pg_wal'))).filter((name) => WAL_SEGMENT.test(name) && name >= start.wal && name <= stop.wal).sort();
    if (walSegments[0] !== start.wal || walSegments.at(-1) !== stop.wal) {
      throw new BackupError('BACKUP_FAILED', `the WAL of the backup (${start.wal} to ${stop.wal}) is no longer in ${path.join(source, 'pg_wal')}`);
    }
    for (const segment of walSegments) await copyOwned(path.join(source, 'pg_wal', segment), path.join(target, 'pg_wal', segment), user);
    return { startLsn: start.lsn, stopLsn: stop.lsn, walSegments };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function copyClusterTree(source: string, target: string, relative: string, user: PostgresUser | undefined): Promise<void> {
  // A database dropped while it was being copied has no directory: WAL replay drops it again.
  for (const name of await namesIn(path.join(source, relative))) {
    const inner = path.join(relative, name);
    let info;
    try {
      info = await lstat(path.join(source, inner));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if (info.isSymbolicLink())
      throw new BackupError(
        'BACKUP_FAILED',
        `${path.join(source, inner)} is a symbolic link (a tablespace or a moved pg_wal): not supported by the embedded backup`,
      );
    if (info.isDirectory()) {
      await mkdir(path.join(target, inner), { mode: 0o700 });
      if (user) await chown(path.join(target, inner), user.uid, user.gid);
      if (!EMPTIED_DIRS.has(inner)) await copyClusterTree(source, target, inner, user);
      else if (inner === 'pg_wal') {
        for (const kept of ['archive_status', 'summaries']) {
          await mkdir(path.join(target, inner, kept), { mode: 0o700 });
          if (user) await chown(path.join(target, inner, kept), user.uid, user.gid);
        }
      }
    } else if (info.isFile() && !skippedFile(name)) {
      try {
        await copyOwned(path.join(source, inner), path.join(target, inner), user);
      } catch (error) {
        // A relation dropped during the copy: WAL replay removes it anyway.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
}

/** A directory's entries in name order; none when it is gone (removed while being copied). */
async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function copyOwned(from: string, to: string, user: PostgresUser | undefined): Promise<void> {
  await copyFile(from, to);
  if (user) await chown(to, user.uid, user.gid);
}

async function writeOwned(file: string, content: string, user: PostgresUser | undefined): Promise<void> {
  await writeFile(file, content, { mode: 0o600 });
  if (user) await chown(file, user.uid, user.gid);
}

async function readCredentials(dataDir: string): Promise<Credentials | undefined> {
  try {
    return ZCredentials.parse(JSON.parse(await readFile(path.join(dataDir, 'postgres.json'), 'utf8')));
  } catch {
    return undefined;
  }
}

async function writeCredentials(dataDir: string, credentials: Credentials): Promise<void> {
  await writeFile(path.join(dataDir, 'postgres.json'), JSON.stringify(credentials, null, 2), { mode: 0o600 });
}

/**
 * The embedded database of `dataDir`, or NOTHING_TO_BACK_UP: checked before the cluster is opened,
 * so a mistyped DATA_DIR is an error rather than a new empty cluster backed up.
 */
export async function embeddedDatabaseOf(dataDir: string): Promise<{ credentials: Credentials; clusterDir: string }> {
  const credentials = await readCredentials(dataDir);
  const clusterDir = credentials?.clusterDir ?? path.join(dataDir, 'postgres');
  if (!credentials || !(await fileExists(path.join(clusterDir, 'PG_VERSION')))) {
    throw new BackupError('NOTHING_TO_BACK_UP', `${dataDir} holds no embedded database (no postgres.json and cluster): check DATA_DIR`);
  }
  return { credentials, clusterDir };
}

/**
 * Hard links of a directory tree (a snapshot that costs no space: storage writes by rename, so a
 * linked file never changes), or copies where links cannot go. `.partial` files are uploads
 * still being written: not yet anyone's.
 */
async function linkTree(source: string, target: string): Promise<void> {
  const info = await stat(source).catch(() => undefined);
  if (!info?.isDirectory()) return;
  await mkdir(target, { recursive: true, mode: info.mode & 0o777 });
  for (const name of await namesIn(source)) {
    if (name.endsWith('.partial')) continue;
    const from = path.join(source, name);
    const entry = await lstat(from).catch(() => undefined);
    if (entry?.isDirectory()) await linkTree(from, path.join(target, name));
    else if (entry?.isFile()) {
      await link(from, path.join(target, name)).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return;
        if (error.code !== 'EXDEV' && error.code !== 'EPERM') throw error;
        await copyFile(from, path.join(target, name)).catch((copyError: NodeJS.ErrnoException) => {
          if (copyError.code !== 'ENOENT') throw copyError;
        });
      });
    }
  }
}

/** Adds a directory tree to the archive under `prefix`, in name order; returns the files and bytes added. */
async function packTree(writer: BackupArchiveWriter, prefix: string, root: string): Promise<{ count: number; bytes: number }> {
  const totals = { count: 0, bytes: 0 };
  const walk = async (relative: string) => {
    for (const name of await namesIn(path.join(root, relative))) {
      const inner = path.join(relative, name);
      const info = await lstat(path.join(root, inner)).catch(() => undefined);
      if (!info) continue;
      const entryName = path.posix.join(prefix, ...inner.split(path.sep));
      if (info.isDirectory()) {
        await writer.directory(entryName, info.mode & 0o777);
        await walk(inner);
      } else if (info.isFile()) {
        const size = await writer.file(entryName, path.join(root, inner), info.mode & 0o777);
        if (size === undefined) continue;
        totals.count += 1;
        totals.bytes += size;
      }
    }
  };
  const top = await stat(root).catch(() => undefined);
  if (top?.isDirectory()) {
    await writer.directory(prefix, top.mode & 0o777);
    await walk('');
  }
  return totals;
}

export interface ClusterContents {
  version: string;
  systemIdentifier: string;
  migrations: string[];
  /** Rows per table (`schema.table`), every schema but PostgreSQL's own. */
  tables: Record<string, number>;
  /** Stored files that records name (any `storage_key` column) and that are not under `files/`. */
  missingFiles: string[];
}

/**
 * Starts the cluster of `dataDir` (replaying its WAL if it is a restored backup), reads what it
 * holds and whether every file its records name is under `dataDir/files`, then stops it.
 */
async function openAndRead(dataDir: string, logger: Logger): Promise<ClusterContents> {
  const database = await openEmbeddedPostgres({ dataDir, logger });
  try {
    const client = new pg.Client({ connectionString: database.url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const facts = await client.query<{ version: string; system_identifier: string }>(
        `select current_setting('server_version') as version, system_identifier::text from pg_control_system()`,
      );
      const hasMigrations = await client.query(`select 1 from pg_tables where schemaname = 'public' and tablename = 'mikro_orm_migrations'`);
      const migrations = hasMigrations.rowCount
        ? (await client.query<{ name: string }>('select name from mikro_orm_migrations order by id')).rows.map((row) => row.name)
        : [];
      const relations = await client.query<{ schema: string; name: string }>(
        `select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'
          order by 1, 2`,
      );
      const tables: Record<string, number> = {};
      for (const { schema, name } of relations.rows) {
        const counted = await client.query<{ count: string }>(
          `select count(*) as count from ${client.escapeIdentifier(schema)}.${client.escapeIdentifier(name)}`,
        );
        tables[`${schema}.${name}`] = Number(counted.rows[0]!.count);
      }
      const fileTables = await client.query<{ name: string }>(
        `select table_name as name from information_schema.columns where table_schema = 'public' and column_name = 'storage_key' order by 1`,
      );
      const missingFiles: string[] = [];
      for (const { name } of fileTables.rows) {
        const keys = await client.query<{ storage_key: string }>(`select storage_key from ${client.escapeIdentifier(name)} where storage_key is not null`);
        for (const { storage_key: key } of keys.rows) {
          if (!(await fileExists(path.join(dataDir, 'files', ...key.split('/'))))) missingFiles.push(key);
        }
      }
      return { version: facts.rows[0]!.version, systemIdentifier: facts.rows[0]!.system_identifier, migrations, tables, missingFiles };
    } finally {
      await client.end().catch(() => undefined);
    }
  } finally {
    await database.stop();
  }
}

/** A DATA_DIR (and its cluster, wherever it was placed) made for a backup's work, removed after. */
interface ScratchDataDir {
  dataDir: string;
  placement: ClusterPlacement;
  user: PostgresUser | undefined;
  remove(): Promise<void>;
}

/**
 * Work in progress of this process (staging copies, partial archives), removed if the process
 * exits mid-way (Ctrl-C of the CLI, a worker stopped by force): its temporary postmaster is
 * stopped by the embedded cluster's own exit handler. What a kill -9 leaves is removed by the
 * next backup (removeAbandoned).
 */
const inProgress = new Set<{ paths: string[]; clusterDir?: string }>();
let exitHookInstalled = false;

function trackWork(work: { paths: string[]; clusterDir?: string }): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const item of inProgress) {
        if (item.clusterDir) signalPostmasterSync(item.clusterDir);
        for (const target of item.paths) rmSync(target, { recursive: true, force: true });
      }
    });
  }
  inProgress.add(work);
  return () => inProgress.delete(work);
}

/** Names of work in progress carry the process id, so a later run can tell what a dead process left. */
const WORK_NAME = /^(?:\.backup-staging|interview-verify)-(\d+)-|\.partial-(\d+)-[0-9a-f]+$/;

/** Removes what dead processes' backups left in these directories (staging copies, partial archives). */
async function removeAbandoned(dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    for (const name of await namesIn(dir)) {
      const match = WORK_NAME.exec(name);
      const pid = Number(match?.[1] ?? match?.[2]);
      if (!match || pid === process.pid || pidExists(pid)) continue;
      const abandoned = path.join(dir, name);
      // A killed backup's temporary postmaster (started detached) may still run: stop it first.
      const recorded = await readCredentials(abandoned);
      if (recorded?.clusterDir) {
        signalPostmasterSync(recorded.clusterDir);
        const placedOutside = !recorded.clusterDir.startsWith(`${abandoned}${path.sep}`);
        if (placedOutside) await rm(path.dirname(recorded.clusterDir), { recursive: true, force: true });
      }
      await rm(abandoned, { recursive: true, force: true });
    }
  }
}

async function scratchDataDir(parent: string, prefix: string): Promise<ScratchDataDir> {
  const dataDir = await mkdtemp(path.join(parent, prefix));
  return claimDataDir(dataDir, async () => rm(dataDir, { recursive: true, force: true }));
}

/** Places the cluster of `dataDir` as the service will look for it, and prepares its directory. */
async function claimDataDir(dataDir: string, removeDataDir: () => Promise<void>): Promise<ScratchDataDir> {
  const user = await postgresUser();
  const placement = await placeCluster(dataDir, user, undefined);
  await prepareClusterDir(placement, dataDir, user);
  return {
    dataDir,
    placement,
    user,
    async remove() {
      if (placement.externalDir) await rm(placement.externalDir, { recursive: true, force: true });
      await removeDataDir();
    },
  };
}

/** Operating-system failures (a full disk, a permission) as a BackupError naming what failed. */
function asBackupFailure(error: unknown, doing: string): unknown {
  if (error instanceof BackupError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return error;
  const hint = code === 'ENOSPC' ? ": the disk is full (a backup needs about the database's size free in DATA_DIR while it is made)" : '';
  return new BackupError('BACKUP_FAILED', `${doing} failed: ${(error as Error).message}${hint}`);
}

export interface CreatedBackup {
  file: string;
  size: number;
  manifest: BackupManifest;
}

/**
 * An online backup of the embedded cluster of `dataDir` (reached at `databaseUrl`) into `out`,
 * which must not exist. The cluster is copied (and the files hard-linked) into a staging
 * directory inside DATA_DIR, packed, then replayed in a temporary cluster for the manifest;
 * `out` appears only when whole (written, synced, then linked into place).
 */
export async function createBackup(options: { dataDir: string; databaseUrl: string; out: string; logger: Logger }): Promise<CreatedBackup> {
  const out = path.resolve(options.out);
  const { credentials, clusterDir: source } = await embeddedDatabaseOf(options.dataDir);
  if (await fileExists(out)) throw new BackupError('BACKUP_FAILED', `${out} exists; backups never overwrite a file`);
  try {
    await mkdir(path.dirname(out), { recursive: true });
    await removeAbandoned([options.dataDir, path.dirname(out)]);
  } catch (error) {
    throw asBackupFailure(error, `preparing ${path.dirname(out)}`);
  }
  const startedAt = new Date();
  const scratch = await scratchDataDir(options.dataDir, `.backup-staging-${process.pid}-`).catch((error: unknown) => {
    throw asBackupFailure(error, `making a staging directory in ${options.dataDir}`);
  });
  const partial = `${out}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  const untrack = trackWork({
    paths: [scratch.dataDir, partial, ...(scratch.placement.externalDir ? [scratch.placement.externalDir] : [])],
    clusterDir: scratch.placement.clusterDir,
  });
  try {
    const stagedFiles = path.join(scratch.dataDir, 'files');
    const base = await copyRunningCluster(options.databaseUrl, source, scratch.placement.clusterDir, scratch.user, () =>
      linkTree(path.join(options.dataDir, 'files'), stagedFiles),
    );
    const writer = new BackupArchiveWriter(partial);
    try {
      await packTree(writer, 'postgres', scratch.placement.clusterDir);
      const files = await packTree(writer, 'files', stagedFiles);
      const kept = { user: credentials.user, password: credentials.password, database: credentials.database };
      await writer.buffer('postgres.json', Buffer.from(JSON.stringify(kept, null, 2)));

      await writeCredentials(scratch.dataDir, { ...kept, port: 0, clusterDir: scratch.placement.clusterDir });
      const contents = await openAndRead(scratch.dataDir, options.logger);
      if (contents.missingFiles.length > 0) {
        options.logger.warn(
          { missing: contents.missingFiles.length, examples: contents.missingFiles.slice(0, 5) },
          'records name stored files that DATA_DIR/files does not have; the backup records how many',
        );
      }
      const manifest: BackupManifest = {
        format: BACKUP_FORMAT,
        formatVersion: 1,
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        postgres: { version: contents.version, systemIdentifier: contents.systemIdentifier, ...base },
        migrations: contents.migrations,
        tables: contents.tables,
        files: { ...files, missing: contents.missingFiles.length },
        entries: writer.entries,
      };
      await writer.buffer('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)));
      await writer.finish();
      await syncFile(partial);
      // link() fails when `out` appeared meanwhile: never an overwrite.
      await link(partial, out).catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'EEXIST' ? new BackupError('BACKUP_FAILED', `${out} exists; backups never overwrite a file`) : error;
      });
      await syncFile(path.dirname(out));
      return { file: out, size: (await stat(out)).size, manifest };
    } catch (error) {
      await writer.abort();
      throw error;
    }
  } catch (error) {
    throw asBackupFailure(error, `backing up to ${out}`);
  } finally {
    await unlink(partial).catch(() => undefined);
    await scratch.remove();
    untrack();
  }
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export interface RestoredBackup {
  manifest: BackupManifest;
  contents: ClusterContents;
  /** Migrations this version applies at its next start. */
  pendingMigrations: string[];
}

/**
 * What an archive's cluster may not bring along: signal files (recovery or standby would run its
 * restore_command) and configuration. The archive's checksums prove it is whole, not where it
 * came from, so its configuration is replaced: PostgreSQL's access rules as initdb writes them for
 * this service, no ALTER SYSTEM settings, and postgresql.conf reduced to the settings initdb sets.
 */
const REFUSED_CLUSTER_FILES = new Set(['recovery.signal', 'standby.signal', 'recovery.conf']);
const INITDB_SETTINGS = new Set([
  'max_connections',
  'shared_buffers',
  'dynamic_shared_memory_type',
  'max_wal_size',
  'min_wal_size',
  'log_timezone',
  'datestyle',
  'timezone',
  'lc_messages',
  'lc_monetary',
  'lc_numeric',
  'lc_time',
  'default_text_search_config',
]);
const PG_HBA = `# Written by restore: the service connects over 127.0.0.1 with a password.
local   all             all                                     scram-sha-256
host    all             all             127.0.0.1/32            scram-sha-256
host    all             all             ::1/128                 scram-sha-256
`;

async function neutraliseConfiguration(clusterDir: string, user: PostgresUser | undefined): Promise<void> {
  const conf = await readFile(path.join(clusterDir, 'postgresql.conf'), 'utf8').catch(() => '');
  const kept = conf.split('\n').filter((line) => INITDB_SETTINGS.has(/^\s*([a-z_]+)\s*=/i.exec(line)?.[1]?.toLowerCase() ?? ''));
  await writeOwned(path.join(clusterDir, 'postgresql.conf'), `# Reduced by restore to the settings initdb writes.\n${kept.join('\n')}\n`, user);
  await writeOwned(path.join(clusterDir, 'postgresql.auto.conf'), '# Emptied by restore.\n', user);
  await writeOwned(path.join(clusterDir, 'pg_hba.conf'), PG_HBA, user);
  await writeOwned(path.join(clusterDir, 'pg_ident.conf'), '# Emptied by restore.\n', user);
}

/** The last lines of the restored cluster's log: why it did not start, before its directory goes. */
async function logTail(dataDir: string): Promise<string> {
  const log = await readFile(path.join(dataDir, 'postgres.log'), 'utf8').catch(() => '');
  return log.trim().split('\n').slice(-4).join(' | ');
}

/**
 * Unpacks `file` into `target` (its cluster where the service will look for it), checks every
 * entry against the manifest, starts the cluster once (PostgreSQL replays the backup's WAL),
 * and checks its migrations, its rows per table and its files against the manifest.
 */
async function restoreInto(file: string, target: ScratchDataDir, logger: Logger): Promise<RestoredBackup> {
  const { dataDir, placement, user } = target;
  const owner = user ? { uid: user.uid, gid: user.gid } : undefined;
  const extracted = await extractArchive(file, {
    destination(entry) {
      if (entry === 'postgres' || entry.startsWith('postgres/')) {
        if (REFUSED_CLUSTER_FILES.has(entry.slice('postgres/'.length)))
          throw new BackupArchiveError(`the archive holds ${entry}, which no backup of this service has`);
        return path.join(placement.clusterDir, entry.slice('postgres'.length));
      }
      if (entry === 'files' || entry.startsWith('files/')) return path.join(dataDir, entry);
      if (entry === 'postgres.json' || entry === 'manifest.json') return undefined;
      throw new BackupArchiveError(`the archive holds ${entry}, which no backup of this service has`);
    },
    owner: (entry) => (entry.startsWith('postgres') && entry !== 'postgres.json' ? owner : undefined),
  }).catch((error: unknown) => {
    if (error instanceof BackupArchiveError) throw new BackupError('BACKUP_INVALID', error.message);
    throw error;
  });
  const manifestBytes = extracted.held.get('manifest.json');
  if (!manifestBytes) throw new BackupError('BACKUP_INVALID', 'the archive has no manifest.json: it was cut short, or is not a backup of this service');
  let manifest: BackupManifest;
  try {
    manifest = ZManifest.parse(JSON.parse(manifestBytes.toString('utf8')));
  } catch {
    throw new BackupError('BACKUP_INVALID', "the archive's manifest.json is not a manifest of this service's backups");
  }
  const problems = entryProblems(manifest.entries, extracted.entries);
  if (problems.length > 0) throw new BackupError('BACKUP_INVALID', `the archive does not match its manifest: ${problems.slice(0, 5).join('; ')}`);
  const major = (await readFile(path.join(placement.clusterDir, 'PG_VERSION'), 'utf8')).trim();
  const ours = await packagedPostgresMajor();
  if (major !== ours)
    throw new BackupError(
      'BACKUP_INVALID',
      `the backup is of PostgreSQL ${manifest.postgres.version} and this checkout runs PostgreSQL ${ours}: restore it with a checkout of the same major version`,
    );

  const credentialBytes = extracted.held.get('postgres.json');
  const credentials = credentialBytes ? ZCredentials.safeParse(JSON.parse(credentialBytes.toString('utf8'))) : undefined;
  if (!credentials?.success) throw new BackupError('BACKUP_INVALID', "the archive has no readable postgres.json (the database's credentials)");
  await neutraliseConfiguration(placement.clusterDir, user);
  await writeCredentials(dataDir, { ...credentials.data, port: 0, clusterDir: placement.clusterDir });
  let contents: ClusterContents;
  try {
    contents = await openAndRead(dataDir, logger);
  } catch (error) {
    const reason = (await logTail(dataDir)) || (error as Error).message;
    throw new BackupError('BACKUP_INVALID', `the restored database does not start: ${reason}`);
  }
  const differences = Object.entries(manifest.tables)
    .filter(([table, rows]) => contents.tables[table] !== rows)
    .map(([table, rows]) => `${table}: ${contents.tables[table] ?? 'missing'} rows, manifest ${rows}`);
  if (differences.length > 0) throw new BackupError('BACKUP_INVALID', `the restored database differs from the manifest: ${differences.slice(0, 5).join('; ')}`);
  if (contents.migrations.join('\n') !== manifest.migrations.join('\n'))
    throw new BackupError('BACKUP_INVALID', "the restored database's migrations differ from the manifest");
  if (contents.missingFiles.length > manifest.files.missing) {
    throw new BackupError(
      'BACKUP_INVALID',
      `${contents.missingFiles.length} stored files that records name are missing (the backup had ${manifest.files.missing}), e.g. ${contents.missingFiles[0]}`,
    );
  }
  const known = new Set(MIGRATIONS.map((migration) => migration.name));
  const unknown = contents.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new BackupError(
      'BACKUP_INVALID',
      `the backup was made by a newer version of the service (migrations ${unknown.join(', ')} are unknown here): restore it with that version`,
    );
  }
  const applied = new Set(contents.migrations);
  return { manifest, contents, pendingMigrations: [...known].filter((name) => !applied.has(name)) };
}

/** Every manifest entry is in the archive with its size and SHA-256, and nothing else is (besides the manifest). */
function entryProblems(expected: ArchivedEntry[], found: Map<string, ArchivedEntry>): string[] {
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const entry of expected) {
    listed.add(entry.path);
    const actual = found.get(entry.path);
    if (!actual) problems.push(`${entry.path} is missing`);
    else if (actual.size !== entry.size || actual.sha256 !== entry.sha256) problems.push(`${entry.path} has changed (checksum)`);
  }
  for (const name of found.keys()) if (name !== 'manifest.json' && !listed.has(name)) problems.push(`${name} is not in the manifest`);
  return problems;
}

/** Restores `file` into a temporary DATA_DIR, checks it (restoreInto) and removes it. */
export async function verifyBackup(file: string, logger: Logger): Promise<RestoredBackup> {
  await assertReadable(file);
  await removeAbandoned([tmpdir()]);
  const scratch = await scratchDataDir(tmpdir(), `interview-verify-${process.pid}-`);
  const untrack = trackWork({
    paths: [scratch.dataDir, ...(scratch.placement.externalDir ? [scratch.placement.externalDir] : [])],
    clusterDir: scratch.placement.clusterDir,
  });
  try {
    return await restoreInto(path.resolve(file), scratch, logger);
  } finally {
    await scratch.remove();
    untrack();
  }
}

/**
 * Restores `file` into `dataDir`, which must be empty or absent; leaves nothing behind when the
 * archive does not check out. The cluster is stopped after; the service starts on it as usual.
 */
export async function restoreBackup(file: string, dataDir: string, logger: Logger): Promise<RestoredBackup> {
  await assertReadable(file);
  const target = path.resolve(dataDir);
  const existing = await readdir(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing && existing.length > 0) throw new BackupError('DATA_DIR_NOT_EMPTY', `${target} is not empty: restore into an empty or new DATA_DIR`);
  await mkdir(target, { recursive: true });
  // Interrupted, a restore leaves DATA_DIR as it found it (absent, or empty), so it can be run again.
  const made = existing
    ? ['postgres', 'files', 'postgres.json', 'postgres.log', 'postgres.lock', 'postgres.holders.json'].map((name) => path.join(target, name))
    : [target];
  const claimed = await claimDataDir(target, async () => {
    for (const name of await readdir(target)) await rm(path.join(target, name), { recursive: true, force: true });
  });
  if (claimed.placement.externalDir && (await readdir(claimed.placement.clusterDir)).length > 0) {
    throw new BackupError('DATA_DIR_NOT_EMPTY', `${claimed.placement.clusterDir}, where the cluster of ${target} lives, is not empty`);
  }
  const untrack = trackWork({
    paths: [...made, ...(claimed.placement.externalDir ? [claimed.placement.externalDir] : [])],
    clusterDir: claimed.placement.clusterDir,
  });
  try {
    return await restoreInto(path.resolve(file), claimed, logger);
  } catch (error) {
    await claimed.remove();
    throw error;
  } finally {
    untrack();
  }
}

async function assertReadable(file: string): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new BackupError('BACKUP_INVALID', `${file} is not a file`);
}
