/**
 * Billing plans: the spec fixes the rate limits; included credits, free minutes and prices are
 * this project's defaults (one credit buys one interview minute at the free and starter price).
 */
export const PLANS = {
  free: { rateLimitPerMinute: 60, includedCredits: 30, freeMinutesPerMonth: 10, pricePerMinuteCredits: 1, pricePerCreditMinor: 10, currency: 'usd' },
  starter: { rateLimitPerMinute: 300, includedCredits: 500, freeMinutesPerMonth: 60, pricePerMinuteCredits: 1, pricePerCreditMinor: 9, currency: 'usd' },
  professional: {
    rateLimitPerMinute: 1000,
    includedCredits: 2000,
    freeMinutesPerMonth: 300,
    pricePerMinuteCredits: 0.8,
    pricePerCreditMinor: 8,
    currency: 'usd',
  },
  enterprise: {
    rateLimitPerMinute: 10000,
    includedCredits: 10000,
    freeMinutesPerMonth: 1000,
    pricePerMinuteCredits: 0.5,
    pricePerCreditMinor: 6,
    currency: 'usd',
  },
} as const satisfies Record<string, PlanTerms>;

/**
 * What a plan gives and charges. The billing period is the calendar month (UTC): each period
 * books `includedCredits` (unused ones roll over); each finished session is billed
 * `ceil(duration / 60)` minutes, the first `freeMinutesPerMonth` of the period free, the rest
 * `pricePerMinuteCredits` each. A credit bought, or owed at the period's end, costs
 * `pricePerCreditMinor` in the currency's minor unit (cents).
 */
export interface PlanTerms {
  rateLimitPerMinute: number;
  includedCredits: number;
  freeMinutesPerMonth: number;
  pricePerMinuteCredits: number;
  pricePerCreditMinor: number;
  currency: string;
}

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
