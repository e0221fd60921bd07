/**
 * Billing plans: the spec fixes the rate limits; the included credits are this project's
 * defaults (one credit buys one interview minute at the default price).
 */
export const PLANS = {
  free: { rateLimitPerMinute: 60, includedCredits: 30 },
  starter: { rateLimitPerMinute: 300, includedCredits: 500 },
  professional: { rateLimitPerMinute: 1000, includedCredits: 2000 },
  enterprise: { rateLimitPerMinute: 10000, includedCredits: 10000 },
} as const;

export type Plan = keyof typeof PLANS;

export const PLAN_NAMES = Object.keys(PLANS) as Plan[];

/** Enterprise contracts set a custom limit, capped by the spec at 10,000 per minute. */
export const MAX_CUSTOM_RATE_LIMIT_PER_MINUTE = 10000;

export function isPlan(value: string): value is Plan {
  return value in PLANS;
}

/** The per-key budget per minute: a custom limit only applies to the enterprise plan. */
export function rateLimitFor(plan: Plan, customLimit: number | null): number {
  if (plan === 'enterprise' && customLimit !== null) return customLimit;
  return PLANS[plan].rateLimitPerMinute;
}
