import { startWorker, type RunningWorker } from '../worker/worker.js';
import { ConfigError, loadConfig } from './config.js';
import { UnsupportedPostgresError } from './db/database-server.js';
import { EmbeddedPostgresError } from './db/embedded-postgres.js';
import type { Server } from 'node:http';
import { createApp } from './http/app.js';
import { createWorkerMetricsApp } from './http/observability.js';
import { answerClientError, loadTlsCredentials, startListeners, type Listeners } from './http/listeners.js';
import { createLogger } from './logger.js';
import { openRuntime } from './runtime.js';

type Role = 'all' | 'api' | 'worker';

function roleFromArgs(args: string[]): Role {
  const flag = args.find((arg) => arg.startsWith('--role='));
  const role = flag?.slice('--role='.length) ?? 'all';
  if (role !== 'all' && role !== 'api' && role !== 'worker') throw new ConfigError(`Unknown --role=${role}; use all, api or worker.`);
  return role;
}

/** How long in-flight requests may take to finish after SIGTERM before connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const role = roleFromArgs(process.argv.slice(2));
  const logger = createLogger(config.logLevel);
  // Read before anything starts, so a bad certificate path fails fast and leaves nothing running.
  const tlsCredentials = role === 'worker' ? undefined : loadTlsCredentials(config);
  // A long-running process: should the embedded PostgreSQL it holds die, it starts it again.
  const runtime = await openRuntime(config, logger, { restartEmbeddedPostgres: true });

  let ready = false;
  let worker: RunningWorker | undefined;
  let listeners: Listeners | undefined;

  let workerMetrics: Server | undefined;
  if (role !== 'api') worker = await startWorker(runtime.services, runtime.databaseUrl);
  const metricsPort = config.workerMetricsPort;
  if (role === 'worker' && metricsPort !== undefined) {
    const metricsApp = createWorkerMetricsApp(runtime.services, { isReady: () => ready });
    workerMetrics = await new Promise<Server>((resolve, reject) => {
      const server = metricsApp.listen(metricsPort, config.host, (error?: Error) => (error ? reject(error) : resolve(server)));
      server.on('clientError', answerClientError);
    });
    logger.info({ port: metricsPort }, 'worker health and metrics listening');
  }
  if (role !== 'worker') {
    const app = createApp(runtime.services, { isReady: () => ready });
    listeners = await startListeners(app, config, tlsCredentials);
    const urls = listeners.listeners.map(({ role: serves, url }) => (serves === 'redirect' ? `${url} (redirects to HTTPS)` : url));
    logger.info({ urls, publicUrl: config.publicUrl, role }, `interview service listening on ${urls.join(' and ')}`);
  }
  // Named at start, so an operator sees how audio answers will be transcribed.
  logger.info({ speechToText: runtime.services.speech.description }, runtime.services.speech.description);
  // And how the AI's turns will be spoken (or that the browser speaks them).
  logger.info({ textToSpeech: runtime.services.synthesis.description }, runtime.services.synthesis.description);
  ready = true;

  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    ready = false;
    runtime.stopRestartingDatabase();
    logger.info({ signal }, 'shutting down');
    const forceExit = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + 20_000);
    forceExit.unref();
    try {
      await listeners?.close(SHUTDOWN_GRACE_MS);
      await new Promise<void>((resolve) => (workerMetrics ? workerMetrics.close(() => resolve()) : resolve()));
      await worker?.stop();
      await runtime.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  // Each carries one line that names the cause and the fix; a stack would only bury it.
  if (error instanceof ConfigError || error instanceof EmbeddedPostgresError || error instanceof UnsupportedPostgresError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
