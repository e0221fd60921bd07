import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';
export { findFreePort as freePort } from '../../server/db/embedded-postgres.js';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The environment of a child process: ours minus anything that would change its database or logs. */
export function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  delete base.DATABASE_URL;
  delete base.NODE_OPTIONS;
  delete base.VITEST;
  return { ...base, LOG_LEVEL: 'warn', ...env };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `node … server/main.ts` or `server/cli/admin.ts` in `root`: from this run's bundle of them
 * (global-setup.ts) for this checkout, else (or with `tsx`) through tsx, as `npm start` and
 * `npm run admin` run them.
 */
export function nodeArgs(root: string, program: 'main' | 'admin', args: string[], runner: 'bundle' | 'tsx' = 'bundle'): string[] {
  if (runner === 'bundle' && path.resolve(root) === ROOT) return ['--enable-source-maps', path.join(inject('serviceBundleDir'), `${program}.js`), ...args];
  return ['--import', 'tsx', program === 'main' ? 'server/main.ts' : 'server/cli/admin.ts', ...args];
}

/** Runs the admin CLI (`npm run admin -- …`) as operators do, from this run's bundle of it. */
export function runAdmin(args: string[], env: Record<string, string | undefined>): Promise<RunResult> {
  return runAdminIn(ROOT, args, env);
}

export function lastJsonLine(stdout: string): Record<string, any> {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!);
}

export function startServer(env: Record<string, string | undefined>, args: string[] = []): { child: ChildProcess; output: () => string } {
  return startServerIn(ROOT, env, args);
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, describe: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Timed out: ${describe()}`);
}

/**
 * Resolves with the exit code (null when a signal ended it). A child ended by a signal keeps
 * `exitCode` null, so both fields say whether its 'exit' has already passed: waiting for the
 * event then would wait forever (a SIGKILL often lands before the caller sees its request fail).
 */
export function exitOf(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Kills what a test left running (a failed assertion skips its own clean-up) and waits for each to go. */
export async function killLeftovers(children: ChildProcess[]): Promise<void> {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exitOf(child);
    }
  }
}

/** Resolves when the process exits; fails, with its output, if it has not within `timeoutMs`. */
export async function exitWithin(server: { child: ChildProcess; output: () => string }, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the process did not exit within ${timeoutMs} ms:\n${server.output()}`)), timeoutMs);
  });
  try {
    await Promise.race([exitOf(server.child), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** `startServer` run from another checkout (e.g. a copy of this one), or through tsx as `npm start` runs it. */
export function startServerIn(
  root: string,
  env: Record<string, string | undefined>,
  args: string[] = [],
  runner: 'bundle' | 'tsx' = 'bundle',
): { child: ChildProcess; output: () => string } {
  const child = spawn('node', nodeArgs(root, 'main', args, runner), { cwd: root, env: childEnv(env) });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

/** `runAdmin` run from another checkout. */
export function runAdminIn(root: string, args: string[], env: Record<string, string | undefined>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', nodeArgs(root, 'admin', args), { cwd: root, env: childEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Resolves once `GET /healthz` on the port answers 200; fails at once if the server exits first. */
export async function waitForHealthy(server: { child: ChildProcess; output: () => string }, port: number, timeoutMs: number): Promise<void> {
  let healthy = false;
  await Promise.race([
    waitFor(async () => ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200 ? true : undefined), timeoutMs, server.output).then(() => {
      healthy = true;
    }),
    exitOf(server.child).then((code) => {
      if (!healthy) throw new Error(`The server exited (code ${code}) before it was healthy:\n${server.output()}`);
    }),
  ]);
}
