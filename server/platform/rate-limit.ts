import type { EntityManager } from '@mikro-orm/postgresql';
import type { Response } from 'express';
import { AppError } from '../errors.js';
import { countRateLimitUnits, deleteExpiredRateLimitWindows } from './queries.js';

export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateLimitState {
  limit: number;
  /** Requests counted in the current window, this one included. */
  count: number;
  remaining: number;
  /** Unix seconds at which the current window ends. */
  resetAt: number;
  exceeded: boolean;
}

/**
 * Counts one request (`units` calls; a tRPC batch is several) against `bucket` in the current one-minute window with a single atomic
 * upsert, so any number of processes share the same budget. Windows are aligned to the minute
 * by the database clock, the same for every process.
 */
export async function consumeRateLimit(em: EntityManager, bucket: string, limit: number, units = 1): Promise<RateLimitState> {
  const [state] = await consumeRateLimits(em, [{ bucket, limit, units }]);
  return state!;
}

/** Several buckets counted in one statement (a participant's address and token); states in the order given. */
export async function consumeRateLimits(em: EntityManager, budgets: { bucket: string; limit: number; units?: number }[]): Promise<RateLimitState[]> {
  const rows = await countRateLimitUnits.rows(em, {
    budgets: JSON.stringify(budgets.map((budget) => ({ bucket: budget.bucket, units: budget.units ?? 1 }))),
  });
  const byBucket = new Map(rows.map((row) => [row.bucket, row]));
  return budgets.map(({ bucket, limit }) => {
    const row = byBucket.get(bucket)!;
    const count = Number(row.count);
    return {
      limit,
      count,
      remaining: Math.max(0, limit - count),
      resetAt: Number(row.window_start) + RATE_LIMIT_WINDOW_SECONDS,
      exceeded: count > limit,
    };
  });
}

export function setRateLimitHeaders(res: Response, state: RateLimitState): void {
  res.setHeader('X-RateLimit-Limit', String(state.limit));
  res.setHeader('X-RateLimit-Remaining', String(state.remaining));
  res.setHeader('X-RateLimit-Reset', String(state.resetAt));
}

export function rateLimitedError(state: RateLimitState, nowSeconds = Date.now() / 1000): AppError {
  const retryAfter = Math.max(1, Math.ceil(state.resetAt - nowSeconds));
  return new AppError(
    'RATE_LIMITED',
    `Rate limit of ${state.limit} requests per minute exceeded. Retry in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
    { limit: state.limit, retryAfter },
    { 'Retry-After': String(retryAfter) },
  );
}

/** Old windows are useless after they end; the worker deletes them periodically. */
export async function purgeExpiredRateLimitWindows(em: EntityManager): Promise<number> {
  const deleted = await deleteExpiredRateLimitWindows.first(em, {});
  return Number(deleted?.count ?? 0);
}
