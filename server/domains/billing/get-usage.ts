import type { EntityManager } from '@mikro-orm/postgresql';
import { MAX_USAGE_RANGE_DAYS, type TUsage, type TUsageInput } from '../../../shared/schemas/billing.js';
import { AppError } from '../../errors.js';
import { roundCredits } from './serialize.js';

function invalidRange(path: 'from' | 'to', message: string): AppError {
  return new AppError('INVALID_REQUEST', `${path} ${message}.`, { fields: [{ path, message }] });
}

interface UsageRow {
  bucket: Date | string | null;
  sessions: string;
  minutes: string;
  credits: string;
}

/**
 * `GET /v1/billing/usage`: sessions and minutes of the interviews that finished in [from, to),
 * and the credits the ledger charged in it, per UTC day, ISO week (from Monday) or month, or per
 * campaign. Credits come from the ledger itself, so the totals equal its charges for the range;
 * minutes owed that a later top-up settled are charges no campaign carries (campaignId null).
 */
export async function getUsage(em: EntityManager, organizationId: string, input: TUsageInput): Promise<TUsage> {
  const from = new Date(input.from);
  const to = new Date(input.to);
  if (from.getTime() > to.getTime()) throw invalidRange('to', 'must not be before from');
  if (to.getTime() - from.getTime() > MAX_USAGE_RANGE_DAYS * 86_400_000) throw invalidRange('to', `must be at most ${MAX_USAGE_RANGE_DAYS} days after from`);

  const byCampaign = input.group_by === 'campaign';
  const unit = byCampaign ? 'day' : input.group_by;
  const sessionBucket = byCampaign ? 's.campaign_id' : `date_trunc('${unit}', s.completed_at at time zone 'UTC') at time zone 'UTC'`;
  const chargeBucket = byCampaign ? 'cs.campaign_id' : `date_trunc('${unit}', t.created_at at time zone 'UTC') at time zone 'UTC'`;
  // Time groups are dense (a period without activity answers zeros), so charts need no gap filling.
  const buckets = byCampaign
    ? `select distinct bucket from (select bucket from finished union all select bucket from charged) as b`
    : `select generate_series(date_trunc('${unit}', ?::timestamptz at time zone 'UTC'), (?::timestamptz - interval '1 microsecond') at time zone 'UTC', interval '1 ${unit}') at time zone 'UTC' as bucket`;
  const rows = await em.execute<UsageRow[]>(
    `with finished as (
       select ${sessionBucket} as bucket, count(*) as sessions, coalesce(sum((s.billing->>'totalMinutes')::int), 0) as minutes
       from sessions s
       where s.organization_id = ? and s.billing is not null and not s.preview and s.completed_at >= ? and s.completed_at < ?
       group by 1),
     charged as (
       select ${chargeBucket} as bucket, -sum(t.amount) as credits
       from credit_transactions t
       left join sessions cs on t.source = 'session:' || cs.id and cs.organization_id = t.organization_id
       where t.organization_id = ? and t.kind = 'charge' and t.created_at >= ? and t.created_at < ?
       group by 1),
     buckets as (${buckets})
     select b.bucket, coalesce(f.sessions, 0) as sessions, coalesce(f.minutes, 0) as minutes, coalesce(c.credits, 0) as credits
     from buckets b
     left join finished f on f.bucket is not distinct from b.bucket
     left join charged c on c.bucket is not distinct from b.bucket
     order by b.bucket nulls last`,
    [organizationId, from, to, organizationId, from, to, ...(byCampaign ? [] : [from, to])],
  );
  const data = rows.map((row) => {
    const figures = { sessions: Number(row.sessions), minutes: Number(row.minutes), credits: roundCredits(Number(row.credits)) };
    return byCampaign
      ? { campaignId: (row.bucket as string | null) ?? null, ...figures }
      : { period: new Date(row.bucket as Date | string).toISOString(), ...figures };
  });
  const totals = data.reduce(
    (sum, row) => ({ sessions: sum.sessions + row.sessions, minutes: sum.minutes + row.minutes, credits: roundCredits(sum.credits + row.credits) }),
    { sessions: 0, minutes: 0, credits: 0 },
  );
  return { from: from.toISOString(), to: to.toISOString(), groupBy: input.group_by, rows: data, totals };
}
