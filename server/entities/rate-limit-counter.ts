import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * Fixed one-minute windows per bucket (`key:<apiKeyId>`, `ip:<address>`), counted with one
 * atomic upsert per request so every API process shares the same budget.
 */
export const RateLimitCounter = defineEntity({
  name: 'RateLimitCounter',
  tableName: 'rate_limit_counters',
  properties: {
    bucket: p.string().primary().columnType('text'),
    windowStart: p.datetime(0).primary(),
    count: p.integer(),
  },
});

export type RateLimitCounter = InferEntity<typeof RateLimitCounter>;
