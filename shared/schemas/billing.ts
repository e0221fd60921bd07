import { z } from 'zod';
import { PLAN_NAMES } from '../plans.js';
import { ZPage, ZPaginationQuery, ZPathId, ZTimestamp } from './common.js';

/** Money is in the currency's minor unit (cents for usd), as Stripe counts it. */
const ZMinorAmount = z.number().int().meta({ description: "In the currency's minor unit (cents for usd)." });
const ZCurrency = z.string().meta({ description: 'ISO 4217 code, lowercase (as Stripe writes it).', example: 'usd' });

export const ZBillingPlan = z
  .object({
    plan: z.enum(PLAN_NAMES),
    status: z.enum(['active', 'past_due']).meta({ description: '`past_due` while an invoice is open (unpaid).' }),
    credits: z
      .object({
        balance: z.number().meta({ description: 'Credits available now.' }),
        included: z.number().meta({ description: "The plan's credits booked in this billing period." }),
        purchased: z.number().meta({ description: 'Credits bought in this billing period.' }),
        used: z.number().meta({ description: 'Credits charged for interviews in this billing period.' }),
        owed: z.number().meta({ description: 'Interview credits beyond the balance, billed on the next invoice.' }),
      })
      .meta({ id: 'BillingCredits' }),
    billingPeriod: z.object({ start: ZTimestamp, end: ZTimestamp }).meta({ description: 'Calendar month (UTC); `end` is exclusive.' }),
    nextInvoice: z
      .object({ date: ZTimestamp, amount: ZMinorAmount, currency: ZCurrency })
      .meta({ description: 'Issued at the end of the period for the credits owed (amount 0 when nothing is owed).' }),
    freeMinutes: z.object({ included: z.number().int(), used: z.number().int() }).meta({ description: "The plan's free interview minutes this period." }),
    pricing: z
      .object({
        pricePerMinuteCredits: z.number(),
        pricePerCreditMinor: ZMinorAmount.meta({ description: 'Price of one credit in the minor unit.' }),
        currency: ZCurrency,
        rateLimitPerMinute: z.number().int(),
      })
      .meta({ id: 'BillingPricing' }),
  })
  .meta({ id: 'BillingPlan' });
export type TBillingPlan = z.infer<typeof ZBillingPlan>;

export const USAGE_GROUPS = ['day', 'week', 'month', 'campaign'] as const;
export const MAX_USAGE_RANGE_DAYS = 366;

export const ZUsageInput = z.strictObject({
  from: z.iso.datetime({ offset: true }).meta({ description: 'Start of the range (inclusive), ISO 8601.' }),
  to: z.iso.datetime({ offset: true }).meta({ description: `End of the range (exclusive), ISO 8601; at most ${MAX_USAGE_RANGE_DAYS} days after from.` }),
  group_by: z.enum(USAGE_GROUPS).default('day').meta({ description: 'UTC periods (weeks start on Monday) or campaigns (default day).' }),
});
export type TUsageInput = z.infer<typeof ZUsageInput>;

const ZUsageFigures = {
  sessions: z.number().int().meta({ description: 'Interviews that finished in the period.' }),
  minutes: z.number().int().meta({ description: 'Their interview minutes (each session rounded up to a whole minute).' }),
  credits: z.number().meta({ description: 'Credits charged on the ledger in the period (interviews, and minutes owed settled).' }),
};

export const ZUsageRow = z
  .object({
    period: ZTimestamp.optional().meta({ description: 'Start of the period (group_by day, week, month).' }),
    campaignId: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'group_by campaign; null for credits that settled minutes owed, which no campaign carries.' }),
    ...ZUsageFigures,
  })
  .meta({ id: 'UsageRow' });

export const ZUsage = z
  .object({
    from: ZTimestamp,
    to: ZTimestamp,
    groupBy: z.enum(USAGE_GROUPS),
    rows: z.array(ZUsageRow),
    totals: z.object(ZUsageFigures),
  })
  .meta({ id: 'Usage' });
export type TUsage = z.infer<typeof ZUsage>;

export const MAX_PURCHASE_CREDITS = 1_000_000;

export const ZPurchaseCreditsInput = z.strictObject({
  amount: z
    .number()
    .int('must be a whole number of credits')
    .min(1, 'must be at least 1')
    .max(MAX_PURCHASE_CREDITS, `must be at most ${MAX_PURCHASE_CREDITS}`)
    .meta({ description: 'Number of credits to buy.' }),
  paymentMethodId: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .optional()
    .meta({ description: "A payment method at the payment provider (Stripe: `pm_…`); the organization's default when omitted." }),
});
export type TPurchaseCreditsInput = z.infer<typeof ZPurchaseCreditsInput>;

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void'] as const;

export const ZInvoiceLine = z
  .object({
    description: z.string(),
    quantity: z.number(),
    unitAmount: ZMinorAmount,
    amount: ZMinorAmount,
  })
  .meta({ id: 'InvoiceLine' });
export type TInvoiceLine = z.infer<typeof ZInvoiceLine>;

export const ZInvoice = z
  .object({
    id: z.string(),
    number: z.string().meta({ example: 'INV-2026-000042' }),
    status: z.enum(INVOICE_STATUSES),
    kind: z
      .enum(['purchase', 'usage'])
      .meta({ description: '`purchase`: credits bought (paid at once); `usage`: interview minutes owed at the end of a period.' }),
    amount: ZMinorAmount,
    currency: ZCurrency,
    periodStart: ZTimestamp,
    periodEnd: ZTimestamp,
    lines: z.array(ZInvoiceLine),
    issuedAt: ZTimestamp,
    paidAt: ZTimestamp.nullable(),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'Invoice' });
export type TInvoice = z.infer<typeof ZInvoice>;

export const ZListInvoicesInput = z.strictObject({ ...ZPaginationQuery });
export const ZInvoicePage = ZPage(ZInvoice);
export const ZInvoiceIdInput = z.strictObject({ invoiceId: ZPathId });

export const ZCreditPurchase = z
  .object({
    credits: z.number().int().meta({ description: 'Credits bought.' }),
    balance: z.number().meta({ description: 'The balance after the purchase (minutes owed are settled first).' }),
    transactionId: z.string().meta({ description: 'The ledger row (`txn_…`).' }),
    paymentId: z.string().meta({ description: "The payment at the provider (Stripe: the PaymentIntent's id)." }),
    invoice: ZInvoice,
  })
  .meta({ id: 'CreditPurchase' });
export type TCreditPurchase = z.infer<typeof ZCreditPurchase>;
