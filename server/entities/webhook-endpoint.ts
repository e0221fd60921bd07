import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { WEBHOOK_DESIGNS, WEBHOOK_ENDPOINT_STATUSES, WEBHOOK_SIGNATURE_SCHEMES } from '../../shared/schemas/webhooks.js';
import { timestampProperties } from './base.js';
import { Organization } from './organization.js';

/**
 * Where an organization's events go. The signing secret is kept sealed (AES-GCM under a key
 * derived from SIGNING_SECRET): it must be readable to sign. With SIGNING_SECRET set in the
 * environment, a database copy alone does not let anyone forge deliveries; without it the key is
 * generated and kept in the database too, and sealing only keeps secrets out of casual reads.
 */
export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  indexes: [{ properties: ['organization', 'createdAt'] }],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    url: p.string().columnType('text'),
    events: p.json<string[]>(),
    design: p.enum([...WEBHOOK_DESIGNS]),
    /** Read at each attempt (as the secret is): a change applies to the attempts after it. */
    signatureScheme: p.enum([...WEBHOOK_SIGNATURE_SCHEMES]),
    description: p.string().columnType('text').nullable(),
    status: p.enum([...WEBHOOK_ENDPOINT_STATUSES]),
    disabledReason: p.enum(['gone', 'manual'] as const).nullable(),
    sealedSecret: p.string().columnType('text'),
    /** After a rotation (Design B, or Standard Webhooks signing): the old secret, also signing every delivery until previousSecretExpiresAt. */
    sealedPreviousSecret: p.string().columnType('text').nullable(),
    previousSecretExpiresAt: p.datetime(3).nullable(),
    secretRotatedAt: p.datetime(3).nullable(),
    ...timestampProperties,
  },
});

export type WebhookEndpoint = InferEntity<typeof WebhookEndpoint>;
