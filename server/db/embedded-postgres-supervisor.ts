import type { ChildProcess } from 'node:child_process';
import type { Logger } from '../logger.js';
import { describeError, runningPostmaster } from './embedded-postgres-cluster.js';

/**
 * Keeps the embedded cluster running under a server that holds it. A postmaster that dies (a
 * crash, the OOM killer, a stray `kill`) would otherwise leave every route answering 503 until
 * someone restarted it by hand. The server notices (the exit of the postmaster it spawned, or
 * the periodic check of PostgreSQL's own `postmaster.pid` for a cluster it attached to) and
 * starts it again on the same port, so its pool, its worker and the admin CLI (which reads the
 * port from `postgres.json`) reconnect to the address they already know.
 *
 * Attempts back off exponentially (0.5 s doubling to 30 s); the delay starts again from 0.5 s once
 * the cluster has stayed up for a while, so a cluster that keeps crashing is not restarted in a
 * tight loop. Each attempt is logged at warn with its reason.
 */

export interface SupervisorTiming {
  firstDelayMs: number;
  maxDelayMs: number;
  /** A cluster up this long after a restart is healthy again: the next crash starts the backoff afresh. */
  healthyPeriodMs: number;
  /** How often the postmaster's pid file is checked (reading a small file and /proc: cheap). */
  checkIntervalMs: number;
}

export const SUPERVISOR_TIMING: SupervisorTiming = { firstDelayMs: 500, maxDelayMs: 30_000, healthyPeriodMs: 60_000, checkIntervalMs: 1000 };

export interface PostmasterSupervisor {
  /** Stops watching and restarting (the process is shutting down or leaving the cluster). */
  stop(): void;
}

export interface SuperviseOptions {
  clusterDir: string;
  logger: Logger;
  /** The postmaster this process spawned, if it did: its exit is noticed at once. */
  child?: ChildProcess;
  /**
   * Starts the postmaster again (under the cluster's lock, on the recorded port). Resolves with
   * the new child, or undefined when another process holding the cluster restarted it first.
   */
  restart: () => Promise<ChildProcess | undefined>;
  /** SUPERVISOR_TIMING unless a test shortens it. */
  timing?: Partial<SupervisorTiming>;
}

export function superviseEmbeddedPostgres(options: SuperviseOptions): PostmasterSupervisor {
  const { clusterDir, logger, restart } = options;
  const timing = { ...SUPERVISOR_TIMING, ...options.timing };
  let stopped = false;
  let recovering = false;
  /** Attempts since the cluster was last healthy for `healthyPeriodMs`. */
  let attempts = 0;
  let upSince = Date.now();
  let wakeUp: (() => void) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      // The process must not stay alive for a restart nobody will need.
      timer.unref();
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const recover = async (firstReason: string) => {
    if (Date.now() - upSince >= timing.healthyPeriodMs) attempts = 0;
    let reason = firstReason;
    while (!stopped) {
      const delayMs = Math.min(timing.firstDelayMs * 2 ** attempts, timing.maxDelayMs);
      attempts += 1;
      logger.warn({ reason, attempt: attempts, inMs: delayMs, clusterDir }, 'restarting the embedded PostgreSQL');
      await sleep(delayMs);
      if (stopped) return;
      try {
        const child = await restart();
        upSince = Date.now();
        recovering = false;
        if (child) {
          logger.warn({ attempt: attempts, pid: child.pid }, 'embedded PostgreSQL restarted');
          watchChild(child);
        } else {
          logger.info('embedded PostgreSQL was restarted by another process holding it');
        }
        return;
      } catch (error) {
        reason = describeError(error);
      }
    }
  };

  const down = (reason: string) => {
    if (stopped || recovering) return;
    recovering = true;
    void recover(reason);
  };

  const watchChild = (child: ChildProcess) => {
    child.once('exit', (code, signal) => down(`the postmaster (pid ${child.pid}) exited (${signal ?? `code ${code}`})`));
  };
  if (options.child) watchChild(options.child);

  // Also for a postmaster this process did not spawn, or whose exit was missed.
  let checking = false;
  const check = setInterval(() => {
    if (stopped || recovering || checking) return;
    checking = true;
    void runningPostmaster(clusterDir)
      .then((running) => {
        if (!running) down('the postmaster is not running (no live PostgreSQL process in postmaster.pid)');
      })
      .catch(() => undefined)
      .finally(() => {
        checking = false;
      });
  }, timing.checkIntervalMs);
  check.unref();

  return {
    stop() {
      stopped = true;
      clearInterval(check);
      wakeUp?.();
    },
  };
}
