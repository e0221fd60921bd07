import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';

/**
 * One `Idempotency-Key` of an organization (design.md "Limits and platform"): the request's
 * fingerprint, and once finished the response to replay. Kept 24 hours.
 */
export const IdempotencyKey = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    organization: () => p.manyToOne(Organization).primary().deleteRule('cascade'),
    key: p.string().primary().columnType('text'),
    /** SHA-256 of method, path and canonical body: a different request under the same key is refused. */
    requestHash: p.string().columnType('text'),
    status: p.enum(['in_flight', 'completed'] as const),
    /** While in flight: after this the request is presumed dead (its process crashed) and the key can be taken over. */
    lockedUntil: p.datetime(3).nullable(),
    responseStatus: p.integer().nullable(),
    responseHeaders: p.json<Record<string, string>>().nullable(),
    responseBody: p.string().columnType('text').nullable(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    expiresAt: p.datetime(3).index(),
  },
});

export type IdempotencyKey = InferEntity<typeof IdempotencyKey>;
