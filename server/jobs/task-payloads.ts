import type { Task } from 'graphile-worker';
import { z } from 'zod';

/**
 * The payload of every task the service enqueues itself (cron tasks take none), once: the zod
 * schema validates a job at the task's entry, and its type is declared to graphile-worker
 * (`GraphileWorker.Tasks`), so `addJobs` and the task functions agree at compile time.
 */
export const TASK_PAYLOADS = {
  invite__send_email: z.strictObject({ inviteId: z.string().min(1) }),
} as const;

export type TaskName = keyof typeof TASK_PAYLOADS;
export type TaskPayload<T extends TaskName> = z.infer<(typeof TASK_PAYLOADS)[T]>;

declare global {
  namespace GraphileWorker {
    interface Tasks {
      invite__send_email: TaskPayload<'invite__send_email'>;
    }
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
      throw new Error(`Malformed payload for ${name}: ${problems}`);
    }
    await run(parsed.data as TaskPayload<T>, helpers);
  };
}
