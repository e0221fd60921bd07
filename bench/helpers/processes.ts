import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** One line a server child logged for a finished request (pino's `request` line). */
export interface RequestLine {
  requestId: string;
  route: string;
  status: number;
  durationMs: number;
}

export interface NodeChild {
  child: ChildProcess;
  /** Everything the child wrote, for error messages. */
  output(): string;
  /** The `request` lines logged so far, by request id. */
  requests: Map<string, RequestLine>;
}

/**
 * `node --import tsx <script> …` from the checkout's root, its JSON log lines collected. The
 * environment is ours minus what would change its database or make it load other code.
 */
export function startNode(script: string, args: string[], env: Record<string, string>, nodeFlags: string[] = []): NodeChild {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.NODE_OPTIONS;
  const child = spawn('node', [...nodeFlags, '--import', 'tsx', script, ...args], { cwd: ROOT, env: { ...base, ...env } });
  let output = '';
  let pending = '';
  const requests = new Map<string, RequestLine>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('{')) {
        output += `${line}\n`;
        continue;
      }
      const entry = JSON.parse(line) as Partial<RequestLine> & { msg?: string };
      if (entry.msg === 'request' && entry.requestId && typeof entry.durationMs === 'number') {
        requests.set(entry.requestId, entry as RequestLine);
      } else {
        output += `${line}\n`;
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return { child, output: () => output, requests };
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Resolves once `GET /healthz` answers 200; fails at once if the child exits first. */
export async function waitForHealthy(server: NodeChild, port: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void exitOf(server.child).then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`The server exited before it was healthy:\n${server.output()}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server was not healthy after ${timeoutMs} ms:\n${server.output()}`);
}

/** SIGTERM, then the exit (the server's own graceful shutdown; a CPU profile is written then). */
export async function stopChild(server: NodeChild): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  await exitOf(server.child);
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU milliseconds (user + system) a process has used, from /proc (Linux only; 0 elsewhere). */
export function processCpuMs(pid: number): number {
  return ((procStat(pid)?.ticks ?? 0) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * CPU milliseconds of a process and of the children it has reaped (cutime, cstime): a server's
 * own work and that of the speech processes it ran and waited for.
 */
export function processTreeCpuMs(pid: number): number {
  const stat = procStat(pid);
  return stat ? ((stat.ticks + stat.childTicks) * 1000) / CLOCK_TICKS_PER_SECOND : 0;
}

interface ProcStat {
  ppid: number;
  /** utime + stime, and cutime + cstime (reaped children), in clock ticks. */
  ticks: number;
  childTicks: number;
}

function procStat(pid: number | string): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at index 2 (state).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), childTicks: Number(fields[13]) + Number(fields[14]) };
  } catch {
    return undefined;
  }
}

/** The parent of a process (for a PostgreSQL backend: its postmaster), from /proc. */
export function parentPid(pid: number): number | undefined {
  return procStat(pid)?.ppid;
}

/**
 * CPU milliseconds used by one PostgreSQL cluster: its postmaster, the processes it started
 * (backends, checkpointer, WAL writer, …) and the children it has reaped (cutime, cstime).
 */
export function clusterCpuMs(postmasterPid: number): number {
  const postmaster = procStat(postmasterPid);
  if (!postmaster) return 0;
  let ticks = postmaster.ticks + postmaster.childTicks;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry);
    if (stat?.ppid === postmasterPid) ticks += stat.ticks;
  }
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * CPU milliseconds of the whole machine (all cores), from /proc/stat: busy (steal included),
 * stolen by the hypervisor for other guests, and total.
 */
export function machineCpuMs(): { busy: number; steal: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    const total = ticks.slice(0, 8).reduce((sum, value) => sum + value, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    const ms = (value: number) => (value * 1000) / CLOCK_TICKS_PER_SECOND;
    return { busy: ms(total - idle), steal: ms(ticks[7] ?? 0), total: ms(total) };
  } catch {
    return { busy: 0, steal: 0, total: 0 };
  }
}

/** The PostgreSQL server's postmaster, when it runs on this machine (the parent of our backend). */
export async function postmasterPid(url: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    return parentPid(Number(rows[0]!.pid));
  } finally {
    await client.end();
  }
}
