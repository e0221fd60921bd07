import { createHash, randomUUID } from 'node:crypto';
import { type Plan, PLANS } from '../../../shared/plans.js';
import type { TCreditPurchase, TPurchaseCreditsInput } from '../../../shared/schemas/billing.js';
import { PaymentProviderUnavailableError } from '../../billing/payment-provider.js';
import { BuiltinPaymentProvider } from '../../billing/builtin-payment-provider.js';
import { isTestWorld, Organization } from '../../entities/index.js';
import { AppError, notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { billingPeriodOf } from './billing-period.js';
import { bookCreditMovement } from './book-credit-movement.js';
import { issueInvoice } from './issue-invoice.js';
import { creditBalance, lockOrganizationForBilling } from './queries.js';
import { settleOwedCredits } from './settle-owed-credits.js';

/** What a test world pays with (test mode), whatever provider the service is configured with. */
const TEST_MODE_PAYMENTS = new BuiltinPaymentProvider();
import { toInvoiceDto } from './serialize.js';

/**
 * `POST /v1/billing/credits/purchase`: charges the payment provider, then books the credits (one
 * ledger row) and a paid invoice in one transaction. A decline books nothing (402 with the
 * provider's reason). The request's Idempotency-Key becomes the provider's, so a retry after a
 * lost answer charges once: Stripe answers the first PaymentIntent again, and the ledger and
 * invoice rows are unique per payment.
 */
export async function purchaseCredits(
  { em, services }: Deps,
  caller: Caller,
  input: TPurchaseCreditsInput & { idempotencyKey?: string | undefined },
): Promise<TCreditPurchase> {
  const { organizationId } = caller;
  const { idempotencyKey } = input;
  const organization = await em.findOne(Organization, { id: organizationId });
  if (!organization) throw notFound('organization', organizationId);
  // Test mode: a test world pays with the built-in provider (Stripe's test cards decline as
  // there), never the service's own, and books test credits in the test world only.
  const payments = isTestWorld(organization) ? TEST_MODE_PAYMENTS : services.payments;
  const plan: Plan = organization.plan;
  const terms = PLANS[plan];
  const unitAmount = terms.pricePerCreditMinor;
  const providerKey = `credits-purchase:${organizationId}:${idempotencyKey ? createHash('sha256').update(idempotencyKey).digest('hex') : randomUUID()}`;
  let outcome;
  try {
    outcome = await payments.charge({
      organizationId,
      amount: input.amount * unitAmount,
      currency: terms.currency,
      paymentMethodId: input.paymentMethodId ?? null,
      customerId: organization.paymentCustomerId ?? null,
      description: `${input.amount} interview credits`,
      idempotencyKey: providerKey,
      metadata: { organizationId, credits: String(input.amount) },
    });
  } catch (error) {
    if (error instanceof PaymentProviderUnavailableError) {
      throw new AppError(
        'PAYMENT_PROVIDER_UNAVAILABLE',
        'The payment provider could not be reached; nothing was charged or booked. Retry with the same Idempotency-Key.',
        {
          provider: error.provider,
        },
      );
    }
    throw error;
  }
  if (outcome.status === 'declined') {
    throw new AppError('PAYMENT_DECLINED', `The payment was declined: ${outcome.reason}`, {
      code: outcome.code,
      reason: outcome.reason,
      provider: payments.name,
    });
  }
  const paymentId = outcome.paymentId;
  return em.transactional(async (tx) => {
    const now = new Date();
    // The row lock orders this with rollovers and other purchases of the organization.
    await lockOrganizationForBilling.rows(tx, { organizationId });
    const booked = await bookCreditMovement({ em: tx }, caller, {
      amount: input.amount,
      kind: 'purchase',
      source: `purchase:${paymentId}`,
      description: `Bought ${input.amount} credits (payment ${paymentId})`,
    });
    // Minutes owed are paid first from what was bought, as with any top-up.
    if (!booked.duplicate) await settleOwedCredits({ em: tx }, caller, { reference: booked.transactionId });
    const invoice = await issueInvoice(tx, {
      organizationId,
      kind: 'purchase',
      status: 'paid',
      currency: terms.currency,
      period: billingPeriodOf(now),
      lines: [{ description: `Interview credits (${plan} plan)`, quantity: input.amount, unitAmount, amount: input.amount * unitAmount }],
      issuedAt: now,
      paymentId,
      source: `purchase:${paymentId}`,
      testMode: isTestWorld(organization),
    });
    const balance = await creditBalance.first(tx, { organizationId });
    return {
      credits: input.amount,
      balance: Number(balance!.credit_balance),
      transactionId: booked.transactionId,
      paymentId,
      invoice: toInvoiceDto(invoice),
    };
  });
}
