import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_DESIGNS, type TDeliveryAttempt } from '../../shared/schemas/webhooks.js';
import { timestampProperties } from './base.js';
import { Organization } from './organization.js';
import { WebhookEndpoint } from './webhook-endpoint.js';
import { WebhookEvent } from './webhook-event.js';

/** One event on its way to one endpoint, with every attempt made (design.md's delivery record). */
export const WebhookDelivery = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  indexes: [
    { properties: ['endpoint', 'createdAt'] },
    { properties: ['organization', 'status'] },
    // What an endpoint's drain reads: its deliveries with no attempt yet (deliver-webhook.ts).
    {
      name: 'webhook_deliveries_first_attempt_due',
      expression: `create index "webhook_deliveries_first_attempt_due" on "webhook_deliveries" ("endpoint_id", "created_at") where "status" = 'pending' and "attempt_count" = 0`,
    },
  ],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    endpoint: () => p.manyToOne(WebhookEndpoint).deleteRule('cascade'),
    event: () => p.manyToOne(WebhookEvent).deleteRule('cascade').index(),
    status: p.enum([...WEBHOOK_DELIVERY_STATUSES]),
    /** The endpoint's design when the delivery began: its payload and schedule stay one design to the end. */
    design: p.enum([...WEBHOOK_DESIGNS]),
    attempts: p.json<TDeliveryAttempt[]>(),
    attemptCount: p.integer().default(0),
    nextAttemptAt: p.datetime(3).nullable(),
    redeliveryOf: p.string().columnType('text').nullable(),
    ...timestampProperties,
  },
});

export type WebhookDelivery = InferEntity<typeof WebhookDelivery>;
