import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';
import { Session } from './session.js';

/**
 * Something that happened, once, whatever the number of endpoints it goes to. `facts` holds what
 * the payloads of both designs are built from, fixed when the event happened; links in them
 * (transcript, audio) are signed afresh at each attempt so a late retry still carries valid ones.
 */
export const WebhookEvent = defineEntity({
  name: 'WebhookEvent',
  tableName: 'webhook_events',
  indexes: [{ properties: ['organization', 'occurredAt'] }, { properties: ['organization', 'recordedXid'] }],
  properties: {
    /** A UUID: Design B's envelope `id`, the same on every attempt and redelivery. */
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    type: p.string().columnType('text'),
    /** Deleting the session (with its campaign) deletes its events and their deliveries: no participant data outlives it. */
    session: () => p.manyToOne(Session).nullable().deleteRule('cascade').index(),
    facts: p.json<Record<string, unknown>>(),
    occurredAt: p.datetime(3),
    /**
     * The id of the transaction that wrote the event (`xid8`, as text): the order the event stream
     * reads in (stream-events.ts). Null for events written before the stream existed.
     */
    recordedXid: p.string().columnType('xid8').nullable().defaultRaw('pg_current_xact_id()'),
  },
});

export type WebhookEvent = InferEntity<typeof WebhookEvent>;
