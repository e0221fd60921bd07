import { defineQuery } from '../../db/query.js';
import { rawSql, sql } from '../../db/sql.js';

/** A ledger row; its unique (organization, source) makes a repeated movement answer no row. */
export const insertCreditTransaction = defineQuery({
  columns: { id: 'text' },
  statement: (p: { id: string; organizationId: string; kind: string; amount: number; source: string | null; description: string | null }) =>
    sql`insert into credit_transactions (id, organization_id, kind, amount, balance_after, source, description, created_at)
     values (${p.id}, ${p.organizationId}, ${p.kind}, ${p.amount}, 0, ${p.source}, ${p.description}, now())
     on conflict (organization_id, source) do nothing
     returning id`,
  example: {
    id: 'txn_example',
    organizationId: 'org_example',
    kind: 'grant',
    amount: 1,
    source: 'grant:example' as string | null,
    description: 'example' as string | null,
  },
});

/** The movement a source already booked, with the organization's balance now. */
export const bookedCreditTransaction = defineQuery({
  columns: { id: 'text', balance: 'numeric' },
  statement: ({ organizationId, source }: { organizationId: string; source: string | null }) =>
    sql`select t.id, o.credit_balance as balance from credit_transactions t join organizations o on o.id = t.organization_id
       where t.organization_id = ${organizationId} and t.source = ${source}`,
  example: { organizationId: 'org_example', source: 'grant:example' as string | null },
});

/** Moves the balance unless it would go below zero (then no row); with the alert threshold the move is checked against. */
export const moveCreditBalance = defineQuery({
  columns: { credit_balance: 'numeric', credits_low_threshold: 'numeric | null' },
  statement: ({ organizationId, amount }: { organizationId: string; amount: number }) =>
    sql`update organizations set credit_balance = credit_balance + ${amount}, updated_at = now()
     where id = ${organizationId} and credit_balance + ${amount} >= 0
     returning credit_balance, (settings ->> 'creditsLowThreshold')::numeric as credits_low_threshold`,
  example: { organizationId: 'org_example', amount: 1 },
});

export const setCreditTransactionBalance = defineQuery({
  columns: {},
  statement: ({ transactionId, balance }: { transactionId: string; balance: number }) =>
    sql`update credit_transactions set balance_after = ${balance} where id = ${transactionId}`,
  example: { transactionId: 'txn_example', balance: 1 },
});

/** The organization's row lock (no key update), and what is owed against the balance. */
export const lockOrganizationCredits = defineQuery({
  columns: { credit_balance: 'numeric', credits_owed: 'numeric' },
  statement: ({ organizationId }: { organizationId: string }) =>
    sql`select credit_balance, credits_owed from organizations where id = ${organizationId} for no key update`,
  example: { organizationId: 'org_example' },
});

export const reduceCreditsOwed = defineQuery({
  columns: {},
  statement: ({ organizationId, credits }: { organizationId: string; credits: number }) =>
    sql`update organizations set credits_owed = credits_owed - ${credits}, updated_at = now() where id = ${organizationId}`,
  example: { organizationId: 'org_example', credits: 1 },
});

/** The period's included, purchased and used credits from the ledger, free minutes used and open invoices, in one round trip. */
export const billingPlanFigures = defineQuery({
  columns: { included: 'numeric', purchased: 'numeric', used: 'numeric', free_minutes_used: 'integer', open_invoices: 'bigint' },
  statement: ({ organizationId, start, end }: { organizationId: string; start: Date; end: Date }) =>
    sql`select
       coalesce((select sum(amount) from credit_transactions where organization_id = ${organizationId} and kind = 'plan_included' and created_at >= ${start} and created_at < ${end}), 0) as included,
       coalesce((select sum(amount) from credit_transactions where organization_id = ${organizationId} and kind = 'purchase' and created_at >= ${start} and created_at < ${end}), 0) as purchased,
       coalesce((select -sum(amount) from credit_transactions where organization_id = ${organizationId} and kind = 'charge' and created_at >= ${start} and created_at < ${end}), 0) as used,
       coalesce((select free_minutes_used from billing_usage where organization_id = ${organizationId} and period_start = ${start}), 0) as free_minutes_used,
       (select count(*) from invoices where organization_id = ${organizationId} and status = 'open') as open_invoices`,
  example: { organizationId: 'org_example', start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') },
});

export type UsageUnit = 'day' | 'week' | 'month';

/** Only these words reach the SQL text (the unit of `date_trunc` and of the series' step). */
const UNITS: Record<UsageUnit, true> = { day: true, week: true, month: true };

function unitSql(unit: UsageUnit) {
  if (!UNITS[unit]) throw new Error(`unknown usage unit ${String(unit)}`);
  return rawSql(unit);
}

interface UsageRange {
  organizationId: string;
  from: Date;
  to: Date;
}

/**
 * Sessions and minutes finished, and credits charged, per UTC period of [from, to). The periods
 * are dense (a period without activity answers zeros), so charts need no gap filling.
 */
export const usageByPeriod = defineQuery({
  columns: { bucket: 'timestamp with time zone', sessions: 'bigint', minutes: 'bigint', credits: 'numeric' },
  statement: ({ organizationId, from, to, unit }: UsageRange & { unit: UsageUnit }) =>
    sql`with finished as (
       select date_trunc('${unitSql(unit)}', s.completed_at at time zone 'UTC') at time zone 'UTC' as bucket, count(*) as sessions, coalesce(sum((s.billing->>'totalMinutes')::int), 0) as minutes
       from sessions s
       where s.organization_id = ${organizationId} and s.billing is not null and not s.preview and s.completed_at >= ${from} and s.completed_at < ${to}
       group by 1),
     charged as (
       select date_trunc('${unitSql(unit)}', t.created_at at time zone 'UTC') at time zone 'UTC' as bucket, -sum(t.amount) as credits
       from credit_transactions t
       left join sessions cs on t.source = 'session:' || cs.id and cs.organization_id = t.organization_id
       where t.organization_id = ${organizationId} and t.kind = 'charge' and t.created_at >= ${from} and t.created_at < ${to}
       group by 1),
     buckets as (select generate_series(date_trunc('${unitSql(unit)}', ${from}::timestamptz at time zone 'UTC'), (${to}::timestamptz - interval '1 microsecond') at time zone 'UTC', interval '1 ${unitSql(unit)}') at time zone 'UTC' as bucket)
     select b.bucket, coalesce(f.sessions, 0) as sessions, coalesce(f.minutes, 0) as minutes, coalesce(c.credits, 0) as credits
     from buckets b
     left join finished f on f.bucket is not distinct from b.bucket
     left join charged c on c.bucket is not distinct from b.bucket
     order by b.bucket nulls last`,
  example: { organizationId: 'org_example', from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-12-01T00:00:00Z'), unit: 'day' },
});

/** The same figures per campaign of the finished sessions (charges no campaign carries under a null campaign). */
export const usageByCampaign = defineQuery({
  columns: { bucket: 'text | null', sessions: 'bigint', minutes: 'bigint', credits: 'numeric' },
  statement: ({ organizationId, from, to }: UsageRange) =>
    sql`with finished as (
       select s.campaign_id as bucket, count(*) as sessions, coalesce(sum((s.billing->>'totalMinutes')::int), 0) as minutes
       from sessions s
       where s.organization_id = ${organizationId} and s.billing is not null and not s.preview and s.completed_at >= ${from} and s.completed_at < ${to}
       group by 1),
     charged as (
       select cs.campaign_id as bucket, -sum(t.amount) as credits
       from credit_transactions t
       left join sessions cs on t.source = 'session:' || cs.id and cs.organization_id = t.organization_id
       where t.organization_id = ${organizationId} and t.kind = 'charge' and t.created_at >= ${from} and t.created_at < ${to}
       group by 1),
     buckets as (select distinct bucket from (select bucket from finished union all select bucket from charged) as b)
     select b.bucket, coalesce(f.sessions, 0) as sessions, coalesce(f.minutes, 0) as minutes, coalesce(c.credits, 0) as credits
     from buckets b
     left join finished f on f.bucket is not distinct from b.bucket
     left join charged c on c.bucket is not distinct from b.bucket
     order by b.bucket nulls last`,
  example: { organizationId: 'org_example', from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-12-01T00:00:00Z') },
});

/** The next invoice number of the year (a per-year counter; a rolled-back invoice gives its number back). */
export const nextInvoiceNumber = defineQuery({
  columns: { last_number: 'integer' },
  statement: ({ year }: { year: number }) =>
    sql`insert into invoice_number_counters (year, last_number) values (${year}, 1)
     on conflict (year) do update set last_number = invoice_number_counters.last_number + 1 returning last_number`,
  example: { year: 2026 },
});

/** Orders a write with rollovers and other purchases of the organization. */
export const lockOrganizationForBilling = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId }: { organizationId: string }) => sql`select id from organizations where id = ${organizationId} for no key update`,
  example: { organizationId: 'org_example' },
});

export const creditBalance = defineQuery({
  columns: { credit_balance: 'numeric' },
  statement: ({ organizationId }: { organizationId: string }) => sql`select credit_balance from organizations where id = ${organizationId}`,
  example: { organizationId: 'org_example' },
});

/** Organizations still in a period before `periodStart`, a batch at a time. */
export const organizationsToRollOver = defineQuery({
  columns: { id: 'text' },
  statement: ({ periodStart, limit }: { periodStart: Date; limit: number }) =>
    sql`select id from organizations where current_period_start < ${periodStart} order by id limit ${limit}`,
  example: { periodStart: new Date('2026-11-01T00:00:00Z'), limit: 100 },
});

/** Claims an organization's rollover: of two workers, exactly one gets a row. */
export const claimRollover = defineQuery({
  columns: { plan: 'text', previous_start: 'timestamp with time zone', credits_owed: 'numeric', livemode: 'boolean' },
  statement: ({ organizationId, periodStart }: { organizationId: string; periodStart: Date }) =>
    sql`update organizations o set current_period_start = ${periodStart}, updated_at = now()
       from (select id, current_period_start from organizations where id = ${organizationId} for no key update) as before
       where o.id = before.id and before.current_period_start < ${periodStart}
       returning o.plan, before.current_period_start as previous_start, o.credits_owed, o.live_organization_id is null as livemode`,
  example: { organizationId: 'org_example', periodStart: new Date('2026-11-01T00:00:00Z') },
});

/** Invoiced debt no longer holds back new interviews' credits. */
export const clearInvoicedDebt = defineQuery({
  columns: {},
  statement: ({ organizationId, credits }: { organizationId: string; credits: number }) =>
    sql`update organizations set credits_owed = credits_owed - ${credits} where id = ${organizationId}`,
  example: { organizationId: 'org_example', credits: 1 },
});
