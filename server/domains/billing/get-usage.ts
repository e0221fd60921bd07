import { MAX_USAGE_RANGE_DAYS, type TUsage, type TUsageInput } from '../../../shared/schemas/billing.js';
import { AppError } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { usageByCampaign, usageByPeriod } from './queries.js';
import { roundCredits } from './serialize.js';

function invalidRange(path: 'from' | 'to', message: string): AppError {
  return new AppError('INVALID_REQUEST', `${path} ${message}.`, { fields: [{ path, message }] });
}

/**
 * `GET /v1/billing/usage`: sessions and minutes of the interviews that finished in [from, to),
 * and the credits the ledger charged in it, per UTC day, ISO week (from Monday) or month, or per
 * campaign. Credits come from the ledger itself, so the totals equal its charges for the range;
 * minutes owed that a later top-up settled are charges no campaign carries (campaignId null).
 */
export async function getUsage({ em }: Pick<Deps, 'em'>, caller: Caller, input: TUsageInput): Promise<TUsage> {
  const { organizationId } = caller;
  const from = new Date(input.from);
  const to = new Date(input.to);
  if (from.getTime() > to.getTime()) throw invalidRange('to', 'must not be before from');
  if (to.getTime() - from.getTime() > MAX_USAGE_RANGE_DAYS * 86_400_000) throw invalidRange('to', `must be at most ${MAX_USAGE_RANGE_DAYS} days after from`);

  const figuresOf = (row: { sessions: string; minutes: string; credits: string }) => ({
    sessions: Number(row.sessions),
    minutes: Number(row.minutes),
    credits: roundCredits(Number(row.credits)),
  });
  const data =
    input.group_by === 'campaign'
      ? (await usageByCampaign.rows(em, { organizationId, from, to })).map((row) => ({ campaignId: row.bucket ?? null, ...figuresOf(row) }))
      : (await usageByPeriod.rows(em, { organizationId, from, to, unit: input.group_by })).map((row) => ({
          period: new Date(row.bucket).toISOString(),
          ...figuresOf(row),
        }));
  const totals = data.reduce(
    (sum, row) => ({ sessions: sum.sessions + row.sessions, minutes: sum.minutes + row.minutes, credits: roundCredits(sum.credits + row.credits) }),
    { sessions: 0, minutes: 0, credits: 0 },
  );
  return { from: from.toISOString(), to: to.toISOString(), groupBy: input.group_by, rows: data, totals };
}
