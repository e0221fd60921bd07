import type { Task } from 'graphile-worker';
import { z } from 'zod';

/**
 * The payload of every task the service enqueues itself (cron tasks take none), once: the zod
 * schema validates a job at the task's entry, and its type is declared to graphile-worker
 * (`GraphileWorker.Tasks`), so `addJobs` and the task functions agree at compile time.
 */
const ZSessionJob = z.strictObject({ sessionId: z.string().min(1) });

const TASK_PAYLOADS = {
  invite__send_email: z.strictObject({ inviteId: z.string().min(1) }),
  /** The invitation's token travels sealed: only its hash is stored with the member. */
  member__send_invitation: z.strictObject({ memberId: z.string().min(1), sealedToken: z.string().min(1) }),
  session__time_out: ZSessionJob,
  session__abandon_idle: ZSessionJob,
  session__generate_transcript: ZSessionJob,
  session__generate_insights: ZSessionJob,
  session__announce_completion: ZSessionJob,
  session__announce_start: ZSessionJob,
  session__prepare_files: ZSessionJob,
  session__prepare_exports: ZSessionJob,
  /** A retry (the second attempt on), or a first attempt queued before drains. */
  webhook__deliver: z.strictObject({ deliveryId: z.string().min(1), attempt: z.number().int().min(1) }),
  /** An endpoint's first attempts, sent in batches (deliver-webhook.ts, `drainWebhookEndpoint`). */
  webhook__drain: z.strictObject({ endpointId: z.string().min(1) }),
  /** Storage keys a committed rewrite replaced, deleted after the commit (a handful per rewrite). */
  storage__delete_files: z.strictObject({ keys: z.array(z.string().min(1)).min(1).max(1000) }),
} as const;

export type TaskName = keyof typeof TASK_PAYLOADS;
export type TaskPayload<T extends TaskName> = z.infer<(typeof TASK_PAYLOADS)[T]>;

type TaskPayloads = { [T in TaskName]: TaskPayload<T> };

declare global {
  namespace GraphileWorker {
    // Merged into graphile-worker's own declaration.
    interface Tasks extends TaskPayloads {}
  }
}

/**
 * A task whose payload is checked before `run` sees it. A malformed payload (a job added by
 * hand, or by an older version) fails the job with an error naming the bad fields, which
 * graphile-worker records; the worker itself carries on.
 */
export function typedTask<T extends TaskName>(name: T, run: (payload: TaskPayload<T>, helpers: Parameters<Task>[1]) => Promise<void>): Task<T> {
  return async (payload, helpers) => {
    const parsed = TASK_PAYLOADS[name].safeParse(payload);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'payload'}: ${issue.message}`).join('; ');
      // Retrying cannot fix a payload: this attempt is made its last, so the job fails once and
      // shows in failed_jobs with the reason instead of retrying for days.
      await helpers.withPgClient((client) => client.query('update graphile_worker._private_jobs set max_attempts = attempts where id = $1', [helpers.job.id]));
      throw new Error(`Malformed payload for ${name}: ${problems}`);
    }
    await run(parsed.data as TaskPayload<T>, helpers);
  };
}
