import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { parseCrontab, run, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import { loadLastBackupMetrics } from '../server/backup/scheduled-backup.js';
import { graphileLogger } from '../server/db/migrate.js';
import type { AppServices } from '../server/services.js';
import type { Config } from '../server/config.js';
import { expireInvitesTask } from './tasks/invite__expire.js';
import { sendInviteEmailTask } from './tasks/invite__send_email.js';
import { backupTask } from './tasks/maintenance__backup.js';
import { rollOverBillingPeriodsTask } from './tasks/billing__roll_over_periods.js';
import { sendMemberInvitationTask } from './tasks/member__send_invitation.js';
import { purgeIdempotencyKeysTask } from './tasks/maintenance__purge_idempotency_keys.js';
import { purgeRateLimitsTask } from './tasks/maintenance__purge_rate_limits.js';
import { pruneTtsCacheTask } from './tasks/maintenance__prune_tts_cache.js';
import { recoverStaleLocks, recoverStaleLocksTask } from './tasks/maintenance__recover_stale_locks.js';
import { sweepOrphanFilesTask } from './tasks/maintenance__sweep_orphan_files.js';
import { abandonIdleSessionTask } from './tasks/session__abandon_idle.js';
import { announceCompletionTask } from './tasks/session__announce_completion.js';
import { announceStartTask } from './tasks/session__announce_start.js';
import { generateInsightsTask } from './tasks/session__generate_insights.js';
import { generateTranscriptTask } from './tasks/session__generate_transcript.js';
import { prepareSessionFilesTask } from './tasks/session__prepare_files.js';
import { prepareSessionExportsTask } from './tasks/session__prepare_exports.js';
import { timeOutSessionTask } from './tasks/session__time_out.js';
import { deleteFilesTask } from './tasks/storage__delete_files.js';
import { deliverWebhookTask } from './tasks/webhook__deliver.js';
import { drainWebhookEndpointTask } from './tasks/webhook__drain.js';
import { wakeStalledDrainsTask } from './tasks/webhook__wake_stalled_drains.js';
import { createJobRunnerPool } from './job-runner-pool.js';
import { deleteWorkerProcess, forceUnlockWorkers, recordWorkerHeartbeat } from './queries.js';

const HEARTBEAT_SECONDS = 30;
/** How long a runner that stopped on its own may take to end before its jobs are unlocked for the new one. */
const OLD_RUNNER_GRACE_MS = 5_000;

/** Every task, named `entity__action` after its file. */
export function createTaskList(services: AppServices): TaskList {
  return {
    invite__send_email: sendInviteEmailTask(services),
    invite__expire: expireInvitesTask(services),
    member__send_invitation: sendMemberInvitationTask(services),
    billing__roll_over_periods: rollOverBillingPeriodsTask(services),
    maintenance__purge_idempotency_keys: purgeIdempotencyKeysTask(services),
    maintenance__purge_rate_limits: purgeRateLimitsTask(services),
    maintenance__recover_stale_locks: recoverStaleLocksTask(services),
    maintenance__sweep_orphan_files: sweepOrphanFilesTask(services),
    maintenance__prune_tts_cache: pruneTtsCacheTask(services),
    maintenance__backup: backupTask(services),
    session__time_out: timeOutSessionTask(services),
    session__abandon_idle: abandonIdleSessionTask(services),
    session__generate_transcript: generateTranscriptTask(services),
    session__generate_insights: generateInsightsTask(services),
    session__announce_completion: announceCompletionTask(services),
    session__announce_start: announceStartTask(services),
    session__prepare_files: prepareSessionFilesTask(services),
    session__prepare_exports: prepareSessionExportsTask(services),
    webhook__deliver: deliverWebhookTask(services),
    webhook__drain: drainWebhookEndpointTask(services),
    webhook__wake_stalled_drains: wakeStalledDrainsTask(services),
    storage__delete_files: deleteFilesTask(services),
  };
}

const CRONTAB = [
  '* * * * * invite__expire ?max=1',
  '17 * * * * maintenance__purge_idempotency_keys ?max=1',
  '*/5 * * * * maintenance__purge_rate_limits ?max=1',
  '* * * * * maintenance__recover_stale_locks ?max=1',
  '* * * * * webhook__wake_stalled_drains ?max=1',
  '43 4 * * * maintenance__sweep_orphan_files ?max=1',
  '13 4 * * * maintenance__prune_tts_cache ?max=1',
  // Hourly, so a period rolls over within the hour of its start even after downtime; each run books a period once.
  '7 * * * * billing__roll_over_periods ?max=1',
];

/** The schedule: the maintenance tasks, and the backup when BACKUP_CRON is set (one attempt: the next run is the retry). */
export function crontabFor(config: Pick<Config, 'backup'>): string {
  return [...CRONTAB, ...(config.backup ? [`${config.backup.cron} maintenance__backup ?max=1`] : [])].join('\n');
}

export interface RunningWorker {
  stop(): Promise<void>;
}

/**
 * The graphile-worker runner plus its liveness heartbeat. Shutdown (`stop`) lets running jobs
 * finish, then removes this process's heartbeat so its lock holder ids read as gone.
 */
export async function startWorker(services: AppServices, connectionString: string): Promise<RunningWorker> {
  const processId = randomUUID();
  const em = () => services.orm.em.fork();
  /**
   * The ids this process locks jobs under. graphile-worker 0.17 locks a job with its worker
   * pool's id (`pool-…`), not the id of the worker running it: recording the workers' ids let
   * the stale-lock recovery take a live process's long job (over two minutes) for a dead one's.
   */
  const lockHolderIds = new Set<string>();

  const beat = async () => {
    await recordWorkerHeartbeat.rows(em(), { processId, workerIds: JSON.stringify([...lockHolderIds]) });
  };

  await recoverStaleLocks(em());
  // Listen before run(): its pool is created (and announced) before it resolves.
  const events: WorkerEvents = new EventEmitter();
  let currentPoolId: string | undefined;
  events.on('pool:create', ({ workerPool }) => {
    currentPoolId = workerPool.id;
    lockHolderIds.add(workerPool.id);
    void beat().catch((error) => services.logger.warn({ err: error }, 'worker heartbeat failed'));
  });
  const pgPool = createJobRunnerPool(connectionString, services.config.workerConcurrency, services.logger);
  const outcomes = services.metrics.jobOutcomes;
  events.on('job:success', ({ job }) => outcomes.inc({ task: job.task_identifier, outcome: 'success' }));
  // graphile-worker also emits job:error for the final attempt, before job:failed: count it once, as failed.
  events.on('job:error', ({ job }) => {
    if (job.attempts < job.max_attempts) outcomes.inc({ task: job.task_identifier, outcome: 'error' });
  });
  events.on('job:failed', ({ job }) => outcomes.inc({ task: job.task_identifier, outcome: 'failed' }));
  const runOnce = (): Promise<Runner> =>
    run({
      events,
      pgPool,
      concurrency: services.config.workerConcurrency,
      noHandleSignals: true,
      pollInterval: 2000,
      logger: graphileLogger(services.logger),
      taskList: createTaskList(services),
      parsedCronItems: parseCrontab(crontabFor(services.config)),
      // Completions through the batcher (with no delay), which a graceful shutdown flushes. Without
      // it a completion is fire-and-forget, and a job finished just before SIGTERM stayed locked
      // (run again later by recovery, not lost, but not "finished what it held").
      preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    });

  let stopping = false;
  let runner: Runner = await runOnce().catch(async (error: unknown) => {
    await pgPool.end().catch(() => undefined);
    throw error;
  });
  let restarting: Promise<void> | undefined;

  /**
   * graphile-worker ends its pool for good when it cannot record a job's outcome (the database
   * restarting, say: "queue is in an inconsistent state; aborting"). The process would then carry
   * on without a worker, its heartbeat still claiming the dead pool's locks. So an end we did not
   * ask for is answered by unlocking what that pool held (its jobs run again) and starting a new
   * runner, retried with backoff until the database answers.
   */
  const supervise = (current: Runner): void => {
    void current.promise
      .then(
        () => undefined,
        (error: unknown) => error,
      )
      .then((error) => {
        if (current === runner) replaceRunner(current, error);
      });
  };
  /**
   * The pool announces its own shutdown before it is over, and that shutdown can wait on workers
   * whose job's outcome could not be written: the replacement starts from this announcement.
   */
  events.on('pool:gracefulShutdown', ({ workerPool, message }) => {
    if (workerPool.id === currentPoolId) replaceRunner(runner, new Error(message));
  });
  const replaceRunner = (current: Runner, reason: unknown): void => {
    if (stopping || restarting || current !== runner) return;
    services.logger.error({ err: reason }, 'the job runner stopped unexpectedly; starting a new one');
    // Forceful after a moment: the old pool may never finish a graceful shutdown on its own.
    void current.kill().catch(() => undefined);
    restarting = restartRunner(current).finally(() => (restarting = undefined));
  };
  const restartRunner = async (old: Runner): Promise<void> => {
    // Its jobs are unlocked once it has ended, or after a few seconds: a pool that ended this way
    // can stay "shutting down" for good, holding jobs whose outcome it could not write. One of its
    // jobs still running then could run twice; tasks are written to tolerate a repeat, as they
    // must after any crash (graphile-worker runs jobs at least once).
    await Promise.race([
      old.promise.then(
        () => undefined,
        () => undefined,
      ),
      new Promise<void>((resolve) => setTimeout(resolve, OLD_RUNNER_GRACE_MS).unref()),
    ]);
    const deadPools = [...lockHolderIds];
    for (let attempt = 0; !stopping; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** attempt)));
      if (stopping) return;
      try {
        if (deadPools.length > 0) await forceUnlockWorkers.rows(em(), { workerIds: deadPools });
        for (const id of deadPools) lockHolderIds.delete(id);
        runner = await runOnce();
        supervise(runner);
        services.metrics.workerRestarts.inc();
        services.logger.warn({ attempt: attempt + 1, unlockedPools: deadPools }, 'job runner restarted');
        return;
      } catch (error) {
        services.logger.warn({ err: error, attempt: attempt + 1 }, 'job runner could not restart yet; retrying');
      }
    }
  };
  supervise(runner);

  await beat();
  await loadLastBackupMetrics(services);
  services.logger.info({ concurrency: services.config.workerConcurrency, tasks: Object.keys(createTaskList(services)) }, 'worker started');
  const heartbeat = setInterval(() => {
    beat().catch((error) => services.logger.warn({ err: error }, 'worker heartbeat failed'));
  }, HEARTBEAT_SECONDS * 1000);
  heartbeat.unref();

  return {
    async stop() {
      stopping = true;
      clearInterval(heartbeat);
      await restarting;
      await runner.stop().catch((error: unknown) => services.logger.warn({ err: error }, 'job runner stopped with an error'));
      await deleteWorkerProcess.rows(em(), { processId }).catch(() => undefined);
      await pgPool.end().catch(() => undefined);
    },
  };
}
