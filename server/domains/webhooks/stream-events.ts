import type { EntityManager } from '@mikro-orm/postgresql';
import type { TEventStreamQuery, TStreamedEvent } from '../../../shared/schemas/events.js';
import type { TWebhookEventType } from '../../../shared/schemas/webhooks.js';
import type { OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { eventLinks, type StoredEvent, webhookBody } from './event-payloads.js';
import { retainedSince } from './event-resource.js';
import { eventRecordedXid, eventsAfterPosition, eventStreamStart } from './queries.js';

/**
 * The event stream the developer CLI's `listen` reads (`GET /v1/event-stream`): an
 * organization's events as they are written, each as the body an endpoint of the asked design
 * would get. The stream polls: one indexed read per poll, so any API process serves streams of
 * events any process wrote.
 *
 * Transactions commit out of order, so the stream does not read by time. Each event carries the
 * id of the transaction that wrote it (`recorded_xid`), and a poll reads, in (transaction, event)
 * order after its position, only the events of transactions older than the oldest one still
 * running: those are final, and nothing can appear behind the position later. An event is thus
 * sent once its own transaction and every older one have ended (a long transaction elsewhere
 * delays the stream; it loses nothing).
 */

/** At most this many events a poll; the next poll reads on from the last. */
const EVENTS_PER_POLL = 100;

/** Where a stream is: after this (transaction, event) pair; at its start, not what had committed before (`sinceSnapshot`). */
export interface EventStreamPosition {
  afterXid: string;
  afterId: string;
  sinceSnapshot: string | null;
}

/**
 * A position as a stream hands it out (each message's SSE `id`) and takes it back
 * (`Last-Event-ID`): opaque to clients. It only says where to read the caller's own
 * organization's events from: a forged one reads nothing another organization wrote.
 */
export function positionToken(position: EventStreamPosition): string {
  return `pos_${Buffer.from(JSON.stringify([position.afterXid, position.afterId, position.sinceSnapshot])).toString('base64url')}`;
}

function positionOf(token: string): EventStreamPosition | undefined {
  if (!token.startsWith('pos_') || token.length > 2000) return undefined;
  try {
    const [afterXid, afterId, sinceSnapshot] = JSON.parse(Buffer.from(token.slice('pos_'.length), 'base64url').toString('utf8')) as unknown[];
    const snapshotOk = sinceSnapshot === null || (typeof sinceSnapshot === 'string' && /^\d{1,20}:\d{1,20}:(\d{1,20}(,\d{1,20})*)?$/.test(sinceSnapshot));
    if (typeof afterXid !== 'string' || !/^\d{1,20}$/.test(afterXid) || typeof afterId !== 'string' || afterId.length > 200 || !snapshotOk) return undefined;
    return { afterXid, afterId, sinceSnapshot: sinceSnapshot as string | null };
  } catch {
    return undefined;
  }
}

/**
 * Where a stream starts. `resumeFrom` (`Last-Event-ID`) is a position a stream handed out (its
 * `ready` or an event's message), or an event id of the organization's (after that event). Else,
 * or when it is neither, at what had not committed when the stream opened.
 */
export async function startEventStream(em: EntityManager, scope: OrganizationScope, resumeFrom: string | undefined): Promise<EventStreamPosition> {
  const handedOut = resumeFrom ? positionOf(resumeFrom) : undefined;
  if (handedOut) return handedOut;
  if (resumeFrom) {
    const row = await eventRecordedXid.first(em, { organizationId: scope.organizationId, eventId: resumeFrom });
    if (row?.recorded_xid) return { afterXid: row.recorded_xid, afterId: resumeFrom, sinceSnapshot: null };
  }
  const start = (await eventStreamStart.first(em, {}))!;
  // Just before the oldest running transaction: its events, if it writes any, are new.
  return { afterXid: start.xmin, afterId: '', sinceSnapshot: start.snapshot };
}

/** An event as the stream sends it, with the position right after it (its message's SSE `id`). */
export interface StreamedEventAt {
  event: TStreamedEvent;
  resumeToken: string;
}

/**
 * One poll: the events after the position that are final, oldest transaction first, as bodies of
 * the asked design (links signed now, valid 24 hours, as a delivery's are), within the events
 * API's 30 days. Moves the position on.
 */
export async function pollEventStream(
  { em, services }: Pick<Deps, 'em' | 'services'>,
  scope: OrganizationScope,
  query: TEventStreamQuery,
  position: EventStreamPosition,
): Promise<StreamedEventAt[]> {
  const now = new Date();
  const rows = await eventsAfterPosition.rows(em, {
    organizationId: scope.organizationId,
    ...position,
    retainedSince: retainedSince(now),
    types: query.types ?? null,
    limit: EVENTS_PER_POLL,
  });
  const events: StreamedEventAt[] = [];
  for (const row of rows) {
    const event = { id: row.id, type: row.type, occurredAt: new Date(row.occurred_at), facts: row.facts } as StoredEvent;
    const links = await eventLinks(services.signer, services.config.publicUrl, event, now);
    position.afterXid = row.recorded_xid;
    position.afterId = row.id;
    events.push({
      event: { id: row.id, type: row.type as TWebhookEventType, design: query.design, body: webhookBody(query.design, event, links) },
      resumeToken: positionToken(position),
    });
  }
  return events;
}
