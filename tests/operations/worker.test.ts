import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkerUtils, type WorkerUtils } from 'graphile-worker';
import pg from 'pg';
import { consumeRateLimit } from '../../server/platform/rate-limit.js';
import { createJobRunnerPool } from '../../worker/job-runner-pool.js';
import { startWorker } from '../../worker/worker.js';
import { recoverStaleLocks } from '../../worker/tasks/maintenance__recover_stale_locks.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { recordingLogger } from '../helpers/recording-logger.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let utils: WorkerUtils;
let em: () => EntityManager;

beforeAll(async () => {
  t = await startTestApp();
  utils = await makeWorkerUtils({ connectionString: t.database.url });
  em = () => t.em();
});
afterAll(async () => {
  await utils?.release();
  await t?.close();
});

async function lockJob(workerId: string, lockedSecondsAgo: number): Promise<string> {
  const job = await utils.addJob('maintenance__purge_rate_limits', {});
  await em().execute(`update graphile_worker._private_jobs set locked_by = ?, locked_at = now() - make_interval(secs => ?) where id = ?`, [
    workerId,
    lockedSecondsAgo,
    job.id,
  ]);
  return job.id;
}

async function lockedBy(jobId: string): Promise<string | null> {
  const [row] = await em().execute<{ locked_by: string | null }[]>(`select locked_by from graphile_worker._private_jobs where id = ?`, [jobId]);
  return row!.locked_by;
}

describe('crash recovery', () => {
  it('unlocks jobs held by worker ids that no live process claims', async () => {
    const dead1 = await lockJob('worker-dead-1', 600);
    const dead2 = await lockJob('worker-dead-2', 600);
    await em().execute(`insert into worker_processes (id, worker_ids, started_at, last_seen_at) values ('alive', '["worker-alive"]', now(), now())`);
    const alive = await lockJob('worker-alive', 600);
    const fresh = await lockJob('worker-just-started', 5);

    const unlocked = await recoverStaleLocks(em());

    expect(unlocked.sort()).toEqual(['worker-dead-1', 'worker-dead-2']);
    expect(await lockedBy(dead1)).toBeNull();
    expect(await lockedBy(dead2)).toBeNull();
    expect(await lockedBy(alive)).toBe('worker-alive');
    expect(await lockedBy(fresh)).toBe('worker-just-started');
    await em().execute(`delete from graphile_worker._private_jobs`);
  });

  it("a running worker records the id it locks jobs under; its jobs, however long they run, are not taken for a dead worker's", async () => {
    const worker = await startWorker(t.runtime.services, t.database.url);
    const [row] = await em().execute<{ worker_ids: string[] }[]>(`select worker_ids from worker_processes where id <> 'alive'`);
    // graphile-worker locks a job with its pool's id: that is what a live process must claim.
    expect(row!.worker_ids).toEqual([expect.stringMatching(/^pool-/)]);
    const job = await utils.addJob('maintenance__purge_rate_limits', {}, { runAt: new Date(Date.now() + 3_600_000) });
    await em().execute(`update graphile_worker._private_jobs set locked_by = ?, locked_at = now() - interval '10 minutes' where id = ?`, [
      row!.worker_ids[0],
      job.id,
    ]);
    expect(await recoverStaleLocks(em())).toEqual([]);
    expect(await lockedBy(job.id)).toBe(row!.worker_ids[0]);
    await em().execute(`delete from graphile_worker._private_jobs where id = ?`, [job.id]);
    await worker.stop();
    expect(await em().execute(`select 1 from worker_processes where id <> 'alive'`)).toEqual([]);
  });
});

describe('maintenance tasks', () => {
  it('purging removes ended rate-limit windows and keeps the current one', async () => {
    await consumeRateLimit(em(), 'key:current', 10);
    await em().execute(`insert into rate_limit_counters (bucket, window_start, count) values ('key:old', now() - interval '10 minutes', 3)`);
    await utils.addJob('maintenance__purge_rate_limits', {});
    await runJobsOnce(t);
    const buckets = await em().execute<{ bucket: string }[]>(`select bucket from rate_limit_counters order by bucket`);
    expect(buckets.map((row) => row.bucket)).toEqual(['key:current']);
    expect(await em().execute(`select 1 from graphile_worker._private_jobs`)).toEqual([]);
  });
});

describe('failed_jobs view', () => {
  it('lists jobs that used up their attempts, with task, payload and last error, and nothing else', async () => {
    const failed = await utils.addJob('invite__send_email', { inviteId: 'inv_failed' }, { maxAttempts: 2 });
    const waiting = await utils.addJob('invite__send_email', { inviteId: 'inv_waiting' }, { maxAttempts: 2 });
    await em().execute(`update graphile_worker._private_jobs set attempts = 2, last_error = 'SMTP server replied 451' where id = ?`, [failed.id]);
    const rows = await em().execute<{ id: string; task: string; payload: unknown; attempts: number; last_error: string }[]>(
      `select id, task, payload, attempts, last_error from failed_jobs`,
    );
    expect(rows).toEqual([
      { id: failed.id, task: 'invite__send_email', payload: { inviteId: 'inv_failed' }, attempts: 2, last_error: 'SMTP server replied 451' },
    ]);
    await em().execute(`delete from graphile_worker._private_jobs where id in (?, ?)`, [failed.id, waiting.id]);
  });
});

describe('job payloads', () => {
  it('a malformed payload fails its job with an error naming the field, and the other jobs still run', async () => {
    const malformed = await utils.addJob('invite__send_email', { invite: 'inv_typo' } as never);
    await utils.addJob('maintenance__purge_rate_limits', {});
    await runJobsOnce(t);
    const [row] = await em().execute<{ attempts: number; last_error: string }[]>(
      `select attempts, last_error from graphile_worker._private_jobs where id = ?`,
      [malformed.id],
    );
    expect(row!.attempts).toBe(1);
    expect(row!.last_error).toMatch(/^Malformed payload for invite__send_email: inviteId: /);
    // Failed for good at once (a retry could not fix it): it is listed as failed.
    const failed = await em().execute<{ id: string; max_attempts: number }[]>(`select id, max_attempts from failed_jobs where id = ?`, [malformed.id]);
    expect(failed).toEqual([{ id: malformed.id, max_attempts: 1 }]);
    const left = await em().execute<{ id: string }[]>(`select id from graphile_worker._private_jobs`);
    expect(left.map((job) => job.id)).toEqual([malformed.id]);
    await em().execute(`delete from graphile_worker._private_jobs`);
  });
});

describe("the job runner's connection pool", () => {
  it('ignores a second release of the same connection (graphile-worker can release its LISTEN client twice when the database goes away), where pg-pool throws', async () => {
    const logger = recordingLogger();
    const pool = createJobRunnerPool(t.database.url, 2, logger);
    const plain = new pg.Pool({ connectionString: t.database.url, max: 1 });
    try {
      // What pg-pool itself does, so this test fails if the wrapper stops wrapping.
      const bare = await plain.connect();
      bare.release();
      expect(() => bare.release()).toThrow(/already been released/);

      // Promise form (graphile-worker's withPgClient).
      const client = await pool.connect();
      client.release();
      expect(() => client.release()).not.toThrow();
      // Callback form (graphile-worker's LISTEN client), released once through `done`, once through the client.
      const { client: listener, done } = await new Promise<{ client: pg.PoolClient; done: (error?: Error | boolean) => void }>((resolve, reject) =>
        pool.connect((error, checkedOut, release) => (error || !checkedOut ? reject(error) : resolve({ client: checkedOut, done: release }))),
      );
      done();
      expect(() => listener.release()).not.toThrow();
      expect(logger.entries.filter((entry) => entry.msg.includes('released twice'))).toHaveLength(2);

      // The pool is whole: both checkouts came back once, and it still serves queries.
      expect(pool.totalCount - pool.idleCount).toBe(0);
      expect((await pool.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
      // A later checkout of the same client is released normally (the guard is per checkout).
      const again = await pool.connect();
      expect(pool.idleCount).toBe(pool.totalCount - 1);
      again.release();
      expect(pool.idleCount).toBe(pool.totalCount);
    } finally {
      await plain.end();
      await pool.end();
    }
  });
});
