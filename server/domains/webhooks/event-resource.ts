import { EVENT_RETENTION_DAYS, type TEvent } from '../../../shared/schemas/events.js';
import type { WebhookEvent } from '../../entities/index.js';
import type { Deps } from '../common/deps.js';
import { eventLinks, type StoredEvent, webhookPayload } from './event-payloads.js';

/** The oldest time an event is still listed and readable. */
export function retainedSince(now: Date): Date {
  return new Date(now.getTime() - EVENT_RETENTION_DAYS * 24 * 3600 * 1000);
}

/** An event as the API shows it: its Design B `data`, links signed now (as an attempt would). */
export async function toEventDto(services: Pick<Deps['services'], 'signer' | 'config'>, event: WebhookEvent, now: Date): Promise<TEvent> {
  // The facts are what the event's type recorded (publish-event.ts), as the delivery job reads them.
  const stored = { id: event.id, type: event.type, occurredAt: event.occurredAt, facts: event.facts } as unknown as StoredEvent;
  const envelope = webhookPayload('B', stored, await eventLinks(services.signer, services.config.publicUrl, stored, now));
  if (!('data' in envelope)) throw new Error('A Design B payload is an envelope.');
  return { id: event.id, type: stored.type, createdAt: event.occurredAt.toISOString(), sessionId: event.session?.id ?? null, data: envelope.data };
}
