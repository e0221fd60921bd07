import { type FilterQuery, type QueryOrderMap, raw } from '@mikro-orm/core';
import type { Page } from '../../../shared/schemas/common.js';
import type { TListSessionsInput, TSession } from '../../../shared/schemas/sessions.js';
import { Session } from '../../entities/index.js';
import { loadCampaign } from '../campaigns/index.js';
import { AppError } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { findPage, NEWEST_FIRST, pageFrom } from '../common/keyset-page.js';
import { toSessionDto } from './serialize.js';
import { turnTakingSummaries } from './turn-timing.js';

/** Duration as the record shows it: time in progress, the running stretch of a session in progress included. */
const LIVE_DURATION = raw('floor(active_seconds + coalesce(extract(epoch from (now() - active_since)), 0))');

const SORT_COLUMNS = { completedAt: 'completedAt', duration: LIVE_DURATION } as const;

/** A campaign's sessions, filtered by status and creation time; unfinished sessions sort last by completedAt. */
export async function listSessions({ em }: Pick<Deps, 'em'>, caller: Caller, input: TListSessionsInput): Promise<Page<TSession>> {
  const { organizationId } = caller;
  await loadCampaign(em, caller, { campaignId: input.campaignId });
  const createdAt = {
    ...(input.from ? { $gte: new Date(input.from) } : {}),
    ...(input.to ? { $lt: new Date(input.to) } : {}),
  };
  const where: FilterQuery<Session> = {
    campaign: input.campaignId,
    organization: organizationId,
    preview: false,
    ...(input.status ? { status: input.status } : {}),
    ...(input.from || input.to ? { createdAt } : {}),
  };
  const now = new Date();
  if (input.sort === 'createdAt') {
    const page = await findPage(em, Session, where, input, { ...NEWEST_FIRST, direction: input.order }, { disableIdentityMap: true });
    const turnTaking = await turnTakingSummaries(em, caller, { sessionIds: page.items.map((session) => session.id) });
    return pageFrom(
      page,
      page.items.map((session) => toSessionDto(session, turnTaking.get(session.id) ?? null, now)),
    );
  }
  // completedAt is null until a session ends and a duration grows while it runs: no keyset holds.
  if (input.startingAfter !== undefined) {
    throw new AppError('INVALID_REQUEST', 'startingAfter needs sort=createdAt: completedAt and duration change while sessions run.', {
      fields: [{ path: 'startingAfter', message: 'needs sort=createdAt' }],
    });
  }
  const direction = input.order === 'asc' ? 'asc nulls last' : 'desc nulls last';
  // The id breaks ties so pages never overlap or skip when sort values repeat.
  const orderBy = { [SORT_COLUMNS[input.sort]]: direction, id: input.order } as QueryOrderMap<Session>;
  const [sessions, total] = await em.findAndCount(Session, where, {
    orderBy,
    limit: input.limit,
    offset: input.offset,
    disableIdentityMap: true,
  });
  const hasMore = input.offset + sessions.length < total;
  const turnTaking = await turnTakingSummaries(em, caller, { sessionIds: sessions.map((session) => session.id) });
  return {
    data: sessions.map((session) => toSessionDto(session, turnTaking.get(session.id) ?? null, now)),
    pagination: { total, limit: input.limit, offset: input.offset, hasMore, nextCursor: null },
  };
}
