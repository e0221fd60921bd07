import { z } from 'zod';
import {
  ZBillingPlan,
  ZCreditPurchase,
  ZInvoice,
  ZInvoiceIdInput,
  ZInvoicePage,
  ZListInvoicesInput,
  ZPurchaseCreditsInput,
  ZUsage,
  ZUsageInput,
} from '../../../shared/schemas/billing.js';
import { apiProcedure, router } from '../../trpc/trpc.js';
import { getBillingPlan } from './get-billing-plan.js';
import { getUsage } from './get-usage.js';
import { getInvoice, listInvoices } from './list-invoices.js';
import { purchaseCredits } from './purchase-credits.js';

const tags = ['Billing'];

/** The plan, usage, credit purchases and invoices (design.md "Records of the product"). */
export const billingRouter = router({
  plan: apiProcedure
    .meta({
      openapi: { method: 'GET', path: '/v1/billing/plan', tags, summary: "Get the plan, this period's credits and the next invoice" },
      permission: 'billing:read',
    })
    .input(z.strictObject({}))
    .output(ZBillingPlan)
    .query(({ ctx }) => getBillingPlan(ctx, ctx.auth)),

  usage: apiProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/v1/billing/usage',
        tags,
        summary: 'Sessions, minutes and credits for a range, per day, week, month or campaign',
        description: 'UTC periods; weeks start on Monday. `from` and `to` are required, `to` not before `from` and at most 366 days after it (else 400).',
      },
      permission: 'billing:read',
    })
    .input(ZUsageInput)
    .output(ZUsage)
    .query(({ ctx, input }) => getUsage(ctx, ctx.auth, input)),

  purchaseCredits: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/v1/billing/credits/purchase',
        tags,
        summary: 'Buy credits',
        description:
          "Charges the payment method (the organization's default when omitted), then books the credits and a paid invoice. Send an `Idempotency-Key`: a retry then charges once. 402 PAYMENT_DECLINED books nothing.",
      },
      permission: 'billing:write',
      successStatus: 201,
      errors: ['PAYMENT_DECLINED', 'PAYMENT_PROVIDER_UNAVAILABLE'],
    })
    .input(ZPurchaseCreditsInput)
    .output(ZCreditPurchase)
    .mutation(({ ctx, input }) => purchaseCredits(ctx, ctx.auth, { ...input, idempotencyKey: ctx.idempotencyKey() })),

  invoices: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/billing/invoices', tags, summary: 'List invoices, newest first' }, permission: 'billing:read' })
    .input(ZListInvoicesInput)
    .output(ZInvoicePage)
    .query(({ ctx, input }) => listInvoices(ctx, ctx.auth, input)),

  invoice: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/billing/invoices/{invoiceId}', tags, summary: 'Get an invoice' }, permission: 'billing:read' })
    .input(ZInvoiceIdInput)
    .output(ZInvoice)
    .query(({ ctx, input }) => getInvoice(ctx, ctx.auth, input)),
});
