import type { TEvent } from '../../../shared/schemas/events.js';
import { WebhookEvent } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { retainedSince, toEventDto } from './event-resource.js';

/** The organization's event of the last 30 days, or 404 (older, another organization's, or none). */
export async function findRetainedEvent(em: Deps['em'], caller: Caller, eventId: string, now: Date): Promise<WebhookEvent> {
  const event = await em.findOne(
    WebhookEvent,
    { id: eventId, organization: caller.organizationId, occurredAt: { $gte: retainedSince(now) } },
    { disableIdentityMap: true },
  );
  if (!event) throw notFound('event', eventId);
  return event;
}

/** `GET /v1/events/{eventId}`: one event of the last 30 days, its links signed now. */
export async function getEvent({ em, services }: Deps, caller: Caller, input: { eventId: string }): Promise<TEvent> {
  const now = new Date();
  return toEventDto(services, await findRetainedEvent(em, caller, input.eventId, now), now);
}
