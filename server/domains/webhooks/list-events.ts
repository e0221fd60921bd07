import type { FilterQuery } from '@mikro-orm/core';
import type { Page } from '../../../shared/schemas/common.js';
import type { TEvent, TListEventsInput } from '../../../shared/schemas/events.js';
import { WebhookEvent } from '../../entities/index.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { findPage, type KeysetSort, pageFrom } from '../common/keyset-page.js';
import { retainedSince, toEventDto } from './event-resource.js';

const NEWEST_EVENT_FIRST: KeysetSort = { property: 'occurredAt', column: 'occurred_at', type: 'timestamptz', direction: 'desc' };

/**
 * `GET /v1/events`: the organization's events of the last 30 days, newest first, by type and time
 * (`from` inclusive, `to` exclusive), with cursors: every event, whether or not any endpoint got it.
 */
export async function listEvents({ em, services }: Deps, caller: Caller, input: TListEventsInput): Promise<Page<TEvent>> {
  const now = new Date();
  const since = retainedSince(now);
  const from = input.from && new Date(input.from) > since ? new Date(input.from) : since;
  const where: FilterQuery<WebhookEvent> = {
    organization: caller.organizationId,
    occurredAt: { $gte: from, ...(input.to ? { $lt: new Date(input.to) } : {}) },
    ...(input.type ? { type: input.type } : {}),
  };
  const page = await findPage(em, WebhookEvent, where, input, NEWEST_EVENT_FIRST, { disableIdentityMap: true });
  return pageFrom(page, await Promise.all(page.items.map((event) => toEventDto(services, event, now))));
}
