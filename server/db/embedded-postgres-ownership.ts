import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';

/**
 * Who uses an embedded cluster. Every process that opens it (server roles, admin CLI, test setup)
 * is recorded as a holder in `DATA_DIR/postgres.holders.json`; a process leaving stops the
 * postmaster only when no other live holder remains. A pid alone is not an identity (pids are
 * reused), so a holder is its pid plus its start time (/proc/<pid>/stat field 22): a recorded
 * holder whose pid now belongs to another process counts as gone.
 *
 * The record is read and written only under `DATA_DIR/postgres.lock`, a file created with
 * O_EXCL; a lock left by a dead process is broken (see `acquireLockOnce`). All file operations
 * here are synchronous so that the same code can run in an `exit` handler.
 */

export interface ProcessIdentity {
  pid: number;
  /** /proc/<pid>/stat field 22 (clock ticks after boot); null where there is no /proc. */
  startTime: string | null;
}

export interface Holder extends ProcessIdentity {
  /** Tells apart two handles of one process (the test setup and a test may both open a cluster). */
  token: string;
}

export interface HoldersRecord {
  holders: Holder[];
}

/** Start time of a process, or null when it does not exist or the platform has no /proc. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** The parent pid of a process (Linux only). */
export function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(parent) ? parent : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists (EPERM: it does, as another user's). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function currentProcess(): ProcessIdentity {
  return { pid: process.pid, startTime: processStartTime(process.pid) };
}

export function isLive(identity: ProcessIdentity): boolean {
  if (!Number.isInteger(identity.pid) || identity.pid <= 0 || !pidExists(identity.pid)) return false;
  if (identity.startTime === null) return true;
  const now = processStartTime(identity.pid);
  // No /proc now although there was one when recorded: trust the pid.
  return now === null || now === identity.startTime;
}

export function newHolder(): Holder {
  return { ...currentProcess(), token: randomBytes(9).toString('base64url') };
}

export interface OwnershipFiles {
  lock: string;
  record: string;
}

/** Undefined when there is no record (a cluster started before holders were recorded). */
export function readHolders(files: OwnershipFiles): HoldersRecord | undefined {
  let text: string;
  try {
    text = readFileSync(files.record, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as Partial<HoldersRecord>;
    const holders = Array.isArray(parsed.holders) ? parsed.holders : [];
    return {
      holders: holders.filter(
        (holder): holder is Holder =>
          Number.isInteger(holder?.pid) && typeof holder.token === 'string' && (holder.startTime === null || typeof holder.startTime === 'string'),
      ),
    };
  } catch {
    // A torn record cannot happen (written by rename), but a hand-edited one can: nobody is
    // known to hold the cluster then, which at worst lets the next leaver stop it.
    return { holders: [] };
  }
}

export function writeHolders(files: OwnershipFiles, record: HoldersRecord): void {
  const temporary = `${files.record}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, files.record);
  } catch (error) {
    unlinkQuietly(temporary);
    throw error;
  }
}

interface LockContent extends ProcessIdentity {
  token: string;
}

/** A lock file with no readable content yet is being written; only after this long is it junk. */
const UNREADABLE_LOCK_GRACE_MS = 10_000;
/** Breaking a stale lock takes microseconds; a breaker file older than this belongs to a dead process. */
const BREAKER_STALE_MS = 10_000;

function readLock(file: string): LockContent | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as LockContent;
    return Number.isInteger(parsed.pid) && typeof parsed.token === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function ageMs(file: string): number | undefined {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

export interface HeldLock {
  release(): void;
}

/**
 * One attempt: true when the lock is now ours. A lock whose owner is dead is broken, but
 * breaking must not remove a fresh lock that another process created after the dead one's was
 * removed: breakers take turns through a second O_EXCL file and only unlink the lock if it still
 * holds the very content that was judged stale.
 */
function acquireLockOnce(file: string, token: string): { acquired: true } | { acquired: false; owner?: LockContent } {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = readLock(file);
    if (owner ? isLive(owner) : (ageMs(file) ?? 0) < UNREADABLE_LOCK_GRACE_MS) return { acquired: false, owner };
    breakStaleLock(file, owner?.token);
    return { acquired: false, owner };
  }
  try {
    writeSync(fd, JSON.stringify({ ...currentProcess(), token } satisfies LockContent));
  } finally {
    closeSync(fd);
  }
  return { acquired: true };
}

function breakStaleLock(file: string, staleToken: string | undefined): void {
  const breaker = `${file}.break`;
  let fd: number;
  try {
    fd = openSync(breaker, 'wx', 0o600);
  } catch {
    if ((ageMs(breaker) ?? 0) > BREAKER_STALE_MS) unlinkQuietly(breaker);
    return;
  }
  try {
    closeSync(fd);
    if (readLock(file)?.token === staleToken) unlinkQuietly(file);
  } finally {
    unlinkQuietly(breaker);
  }
}

function releaser(file: string, token: string): HeldLock {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      if (readLock(file)?.token === token) unlinkQuietly(file);
    },
  };
}

export class LockTimeoutError extends Error {
  constructor(
    readonly file: string,
    readonly owner: ProcessIdentity | undefined,
  ) {
    super(`${file} stayed locked${owner ? ` by process ${owner.pid}` : ''}`);
  }
}

export async function acquireLock(file: string, timeoutMs: number): Promise<HeldLock> {
  const token = randomBytes(9).toString('base64url');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const attempt = acquireLockOnce(file, token);
    if (attempt.acquired) return releaser(file, token);
    if (Date.now() > deadline) throw new LockTimeoutError(file, attempt.owner);
    await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 50));
  }
}

/** For `exit` handlers, where nothing asynchronous runs any more; undefined on timeout. */
export function acquireLockSync(file: string, timeoutMs: number): HeldLock | undefined {
  const token = randomBytes(9).toString('base64url');
  const deadline = Date.now() + timeoutMs;
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    if (acquireLockOnce(file, token).acquired) return releaser(file, token);
    if (Date.now() > deadline) return undefined;
    Atomics.wait(sleeper, 0, 0, 25);
  }
}

/** The live holders other than `self`, from a record (dead and departed ones dropped). */
export function otherLiveHolders(record: HoldersRecord | undefined, self: Holder): Holder[] {
  return (record?.holders ?? []).filter((holder) => holder.token !== self.token && isLive(holder));
}
