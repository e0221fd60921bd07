import { LockMode } from '@mikro-orm/core';
import type { TEvent } from '../../../shared/schemas/events.js';
import { WebhookEvent } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { retainedSince, toEventDto } from './event-resource.js';

/**
 * The organization's event of the last 30 days, or 404 (older, another organization's, or none);
 * `share`-locked in the caller's transaction when asked, so it cannot be deleted (with its
 * session) before what refers to it commits.
 */
export async function findRetainedEvent(em: Deps['em'], caller: Caller, eventId: string, now: Date, options: { share?: boolean } = {}): Promise<WebhookEvent> {
  const event = await em.findOne(
    WebhookEvent,
    { id: eventId, organization: caller.organizationId, occurredAt: { $gte: retainedSince(now) } },
    { disableIdentityMap: true, ...(options.share ? { lockMode: LockMode.PESSIMISTIC_READ } : {}) },
  );
  if (!event) throw notFound('event', eventId);
  return event;
}

/** `GET /v1/events/{eventId}`: one event of the last 30 days, its links signed now. */
export async function getEvent({ em, services }: Deps, caller: Caller, input: { eventId: string }): Promise<TEvent> {
  const now = new Date();
  return toEventDto(services, await findRetainedEvent(em, caller, input.eventId, now), now);
}
