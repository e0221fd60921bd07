import type { TWebhookDesign } from '../../../shared/schemas/webhooks.js';

/**
 * The spec's schedules, exactly. Design A: 5 attempts, each retry 2, 4, 8, 16 minutes after the
 * previous failure (about 30 minutes in all). Design B: 7 attempts, at once, then 1 minute, 5
 * minutes, 30 minutes, 2 hours, 8 hours, 24 hours (about 34.5 hours). After the last, `failed`.
 * Receivers have 10 s (A) or 30 s (B) to answer 2xx.
 */
export const DELIVERY_SCHEDULES: Record<TWebhookDesign, { retryDelaysSeconds: readonly number[]; deadlineMs: number }> = {
  A: { retryDelaysSeconds: [120, 240, 480, 960], deadlineMs: 10_000 },
  B: { retryDelaysSeconds: [60, 300, 1800, 7200, 28_800, 86_400], deadlineMs: 30_000 },
};

export function maxAttemptsOf(design: TWebhookDesign): number {
  return DELIVERY_SCHEDULES[design].retryDelaysSeconds.length + 1;
}

/** When attempt `number + 1` is due after attempt `number` failed at `failedAt`; null after the last. */
export function nextAttemptAt(design: TWebhookDesign, number: number, failedAt: Date): Date | null {
  const delay = DELIVERY_SCHEDULES[design].retryDelaysSeconds[number - 1];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay * 1000);
}
