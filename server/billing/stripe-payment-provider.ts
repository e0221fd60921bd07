import Stripe from 'stripe';
import { PaymentProviderUnavailableError, type PaymentOutcome, type PaymentProvider, type PaymentRequest } from './payment-provider.js';

export interface StripePaymentProviderOptions {
  secretKey: string;
  /** Another API host, e.g. `http://127.0.0.1:4010` for a local stand-in; default Stripe's. */
  apiUrl?: string | undefined;
  /** Retries of connection errors, 409 and 5xx (same idempotency key); tests lower it. */
  maxNetworkRetries?: number;
}

const PAYMENT_METHOD_REQUIRED: PaymentOutcome = {
  status: 'declined',
  code: 'payment_method_required',
  reason: 'No payment method given and none is on file.',
};

/** Stripe key shapes (secret and restricted), in case a message quotes one we were not given. */
const STRIPE_KEY_PATTERN = /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]+/g;

/** Charges off-session with a confirmed PaymentIntent, through the official client. */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly #stripe: Stripe;
  readonly #secretKey: string;

  constructor(options: StripePaymentProviderOptions) {
    this.#secretKey = options.secretKey;
    const config: Stripe.StripeConfig = {
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      timeout: 20_000,
      telemetry: false,
    };
    if (options.apiUrl) {
      const url = new URL(options.apiUrl);
      const protocol = url.protocol === 'http:' ? 'http' : 'https';
      config.protocol = protocol;
      config.host = url.hostname.replace(/^\[(.*)\]$/, '$1'); // node:http wants [::1] bare
      config.port = url.port || (protocol === 'http' ? 80 : 443);
    }
    this.#stripe = new Stripe(options.secretKey, config);
  }

  async charge(request: PaymentRequest): Promise<PaymentOutcome> {
    try {
      let paymentMethod = request.paymentMethodId;
      if (paymentMethod === null) {
        if (request.customerId === null) return { ...PAYMENT_METHOD_REQUIRED };
        paymentMethod = await this.#defaultPaymentMethod(request.customerId);
        if (paymentMethod === null) return { ...PAYMENT_METHOD_REQUIRED };
      }
      const intent = await this.#stripe.paymentIntents.create(
        {
          amount: request.amount,
          currency: request.currency,
          ...(request.customerId === null ? {} : { customer: request.customerId }),
          payment_method: paymentMethod,
          confirm: true,
          off_session: true,
          description: request.description,
          metadata: request.metadata,
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return outcomeOf(intent);
    } catch (error) {
      // A card error is a decline the customer can act on; anything else means Stripe could not answer.
      if (error instanceof Stripe.errors.StripeCardError) {
        // `||`: the client sets decline_code to '' when Stripe sent none.
        return { status: 'declined', code: error.decline_code || error.code || 'card_declined', reason: this.#redact(error.message) };
      }
      throw this.#unavailable(error);
    }
  }

  async #defaultPaymentMethod(customerId: string): Promise<string | null> {
    const customer = await this.#stripe.customers.retrieve(customerId);
    if ('deleted' in customer && customer.deleted) return null;
    const method = customer.invoice_settings.default_payment_method;
    if (method === null) return null;
    return typeof method === 'string' ? method : method.id;
  }

  #unavailable(error: unknown): PaymentProviderUnavailableError {
    if (error instanceof Stripe.errors.StripeError) {
      const status = error.statusCode === undefined ? '' : ` (HTTP ${error.statusCode})`;
      const requestId = error.requestId ? ` [request ${error.requestId}]` : '';
      const message = this.#redact(`Stripe ${error.type}${status}: ${error.message}${requestId}`);
      return new PaymentProviderUnavailableError('stripe', message, error.statusCode);
    }
    const name = error instanceof Error ? error.name : typeof error;
    return new PaymentProviderUnavailableError('stripe', `Stripe request failed unexpectedly (${name}).`);
  }

  #redact(text: string): string {
    return text.split(this.#secretKey).join('[redacted]').replace(STRIPE_KEY_PATTERN, '[redacted]');
  }
}

/**
 * Off-session confirmation ends in one of these. `processing` (some bank debits, rare for cards)
 * may still succeed later; without a webhook to book it then, it is reported as a decline and
 * nothing is booked now. A later success would then be charged but not credited: reconcile from
 * Stripe's `payment_intent.succeeded` events if non-card methods are ever allowed.
 */
function outcomeOf(intent: Stripe.PaymentIntent): PaymentOutcome {
  switch (intent.status) {
    case 'succeeded':
      return { status: 'succeeded', paymentId: intent.id };
    case 'requires_action':
      return {
        status: 'declined',
        code: 'authentication_required',
        reason: 'The card requires authentication by the cardholder, which is not possible for this payment. Use another card.',
      };
    case 'requires_payment_method':
      return {
        status: 'declined',
        code: 'payment_failed',
        reason: intent.last_payment_error?.message ?? 'The payment failed. Use another payment method.',
      };
    case 'processing':
      return {
        status: 'declined',
        code: 'processing',
        reason: 'The payment is still processing at Stripe; nothing was booked. Try again later or use a card.',
      };
    default:
      return { status: 'declined', code: 'payment_failed', reason: `The payment ended in the unexpected state ${intent.status}.` };
  }
}
