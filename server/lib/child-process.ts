import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';

export interface CommandResult {
  code: number | null;
  stderr: string;
}

/** The command could not be started at all (missing, not executable). */
export class CommandStartError extends Error {}

/** Output the tools print is small; a runaway is cut rather than buffered. */
const MAX_STDERR = 64 * 1024;

/**
 * Runs a command with an argument array (no shell). The child is killed when `signal` aborts
 * (deadline or caller), and the promise settles only once it has exited, so the caller's clean-up
 * never races it. Rejects with the signal's reason on abort, CommandStartError when it cannot start.
 */
export function runCommand(command: string, args: string[], signal: AbortSignal): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], signal, killSignal: 'SIGKILL' });
    let settled = false;
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < MAX_STDERR) stderr += chunk;
    });
    child.on('error', (error) => {
      // An abort of a running child is followed by 'close' once it is gone.
      if (settled || (signal.aborted && child.pid !== undefined)) return;
      settled = true;
      reject(signal.aborted ? signal.reason : new CommandStartError(`cannot run ${path.basename(command)}: ${error.message}`, { cause: error }));
    });
    child.on('close', (code) => {
      if (settled) return;
      settled = true;
      if (signal.aborted) reject(signal.reason);
      else resolve({ code, stderr });
    });
  });
}

/** The last line a tool printed, for an error message. */
export function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 300) || 'no message';
}

/** The executable's path on PATH, or null. */
export async function findExecutable(name: string): Promise<string | null> {
  for (const dir of (process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}
