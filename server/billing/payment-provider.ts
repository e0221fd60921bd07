import { BuiltinPaymentProvider } from './builtin-payment-provider.js';
import { StripePaymentProvider } from './stripe-payment-provider.js';

export interface PaymentRequest {
  organizationId: string;
  /** In the currency's minor unit (cents). Positive integer. */
  amount: number;
  /** Lowercase ISO 4217, e.g. 'usd'. */
  currency: string;
  /** A payment method at the provider; null: the customer's default. */
  paymentMethodId: string | null;
  /** The organization's customer at the provider (Stripe `cus_…`); null when none is on file. */
  customerId: string | null;
  description: string;
  /** The same key charges once at the provider (Stripe's Idempotency-Key). */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** A decline is an answer, not a failure: the customer can fix it (another card, authentication). */
export type PaymentOutcome = { status: 'succeeded'; paymentId: string } | { status: 'declined'; code: string; reason: string };

export interface PaymentProvider {
  readonly name: 'builtin' | 'stripe';
  charge(request: PaymentRequest): Promise<PaymentOutcome>;
}

/**
 * The provider could not be reached or answered with an error that is not a decline (auth, 5xx,
 * network): nothing is known to be charged. The message never contains credentials.
 */
export class PaymentProviderUnavailableError extends Error {
  override readonly name = 'PaymentProviderUnavailableError';
  constructor(
    readonly provider: PaymentProvider['name'],
    message: string,
    /** The provider's HTTP status, when it answered at all. */
    readonly statusCode?: number,
  ) {
    super(message);
  }
}

/** Stripe when a secret key is configured; otherwise the built-in provider, which needs no network. */
export function createPaymentProvider(config: { stripeSecretKey?: string; stripeApiUrl?: string }): PaymentProvider {
  if (config.stripeSecretKey) {
    return new StripePaymentProvider({ secretKey: config.stripeSecretKey, apiUrl: config.stripeApiUrl });
  }
  return new BuiltinPaymentProvider();
}
