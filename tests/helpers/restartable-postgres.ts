import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedPostgres, runningPostmaster, type EmbeddedPostgres } from '../../server/db/embedded-postgres.js';
import { createLogger, type Logger } from '../../server/logger.js';

/**
 * A private embedded PostgreSQL cluster that a test may stop (fast shutdown: open sessions are
 * ended) and start again on the same port and data directory, so the URL an app's pool keeps
 * stays valid. Never the cluster the other test files share (`tests/setup/global-setup.ts`).
 *
 * Its directory carries global-setup's prefix, so a cluster left behind by a crashed run is
 * removed by a later run.
 */
export interface RestartablePostgres {
  /** Superuser URL of the cluster's database; the same before and after a restart. */
  readonly url: string;
  readonly port: number;
  readonly running: boolean;
  /** Fast shutdown (SIGINT to the postmaster); resolves once it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data directory; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it if running and removes its directory. Never throws. */
  destroy(): Promise<void>;
}

export async function startRestartablePostgres(logger: Logger = createLogger('silent')): Promise<RestartablePostgres> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'interview-test-pg-'));
  let handle: EmbeddedPostgres | undefined;
  try {
    handle = await openEmbeddedPostgres({ dataDir, logger });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const url = handle.url;
  const port = Number(new URL(url).port);

  return {
    url,
    port,
    get running() {
      return handle !== undefined;
    },
    async stop() {
      const current = handle;
      handle = undefined;
      await current?.stop();
    },
    async start() {
      if (handle) return;
      const reopened = await openEmbeddedPostgres({ dataDir, port, logger });
      if (reopened.url !== url) {
        await reopened.stop();
        throw new Error(`the cluster came back at ${reopened.url}, not at ${url}`);
      }
      handle = reopened;
    },
    async destroy() {
      const current = handle;
      handle = undefined;
      await current?.stop().catch(() => undefined);
      // A start that failed half-way may have left a postmaster without a handle.
      const leftover = await runningPostmaster(path.join(dataDir, 'postgres')).catch(() => undefined);
      if (leftover) {
        try {
          process.kill(leftover.pid, 'SIGQUIT');
        } catch {
          // already gone
        }
      }
      await rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
