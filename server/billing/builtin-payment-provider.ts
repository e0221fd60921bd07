import { createHash } from 'node:crypto';
import type { PaymentOutcome, PaymentProvider, PaymentRequest } from './payment-provider.js';

/**
 * Stripe's test payment methods that decline, with the codes and messages Stripe's test mode
 * answers, so flows built against the builtin provider behave the same against Stripe test keys.
 */
const TEST_DECLINES = new Map<string, { code: string; reason: string }>([
  ['pm_card_chargeDeclined', { code: 'card_declined', reason: 'Your card was declined.' }],
  ['pm_card_chargeDeclinedInsufficientFunds', { code: 'insufficient_funds', reason: 'Your card has insufficient funds.' }],
  ['pm_card_chargeDeclinedExpiredCard', { code: 'expired_card', reason: 'Your card has expired.' }],
]);

/** Approves without any network, for self-hosted installs and tests. */
export class BuiltinPaymentProvider implements PaymentProvider {
  readonly name = 'builtin' as const;

  async charge(request: PaymentRequest): Promise<PaymentOutcome> {
    const decline = request.paymentMethodId === null ? undefined : TEST_DECLINES.get(request.paymentMethodId);
    if (decline) return { status: 'declined', ...decline };
    // Derived from the idempotency key so a retried charge reports the same payment, as at Stripe.
    const digest = createHash('sha256').update(request.idempotencyKey).digest('base64url');
    return { status: 'succeeded', paymentId: `pay_${digest.slice(0, 24)}` };
  }
}
