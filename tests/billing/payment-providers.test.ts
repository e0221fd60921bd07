import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BuiltinPaymentProvider } from '../../server/billing/builtin-payment-provider.js';
import { createPaymentProvider, PaymentProviderUnavailableError, type PaymentRequest } from '../../server/billing/payment-provider.js';
import { StripePaymentProvider } from '../../server/billing/stripe-payment-provider.js';
import { customer, FakeStripe, paymentIntent } from '../helpers/fake-stripe.js';

function paymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  return {
    organizationId: 'org_1',
    amount: 1000,
    currency: 'usd',
    paymentMethodId: 'pm_card_visa',
    customerId: null,
    description: '1,000 interview credits',
    idempotencyKey: `credits-${randomBytes(8).toString('hex')}`,
    metadata: { organizationId: 'org_1', credits: '1000' },
    ...overrides,
  };
}

async function unavailable(work: Promise<unknown>): Promise<PaymentProviderUnavailableError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PaymentProviderUnavailableError);
  return error as PaymentProviderUnavailableError;
}

describe('builtin payment provider', () => {
  const provider = new BuiltinPaymentProvider();

  it('approves a charge with or without a payment method', async () => {
    for (const paymentMethodId of ['pm_card_visa', null]) {
      const outcome = await provider.charge(paymentRequest({ paymentMethodId }));
      expect(outcome).toEqual({ status: 'succeeded', paymentId: expect.stringMatching(/^pay_[A-Za-z0-9_-]{24}$/) });
    }
  });

  it('gives the same payment id for the same idempotency key and another for another key', async () => {
    const first = await provider.charge(paymentRequest({ idempotencyKey: 'key-1' }));
    const again = await provider.charge(paymentRequest({ idempotencyKey: 'key-1', amount: 5000 }));
    const other = await provider.charge(paymentRequest({ idempotencyKey: 'key-2' }));
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    // pay_ + base64url(sha256('key-1')) cut to 24 characters.
    expect(first).toEqual({ status: 'succeeded', paymentId: 'pay_vil0VGl443OebW2oXEvp8zTO' });
  });

  it.each([
    ['pm_card_chargeDeclined', 'card_declined', 'Your card was declined.'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['pm_card_chargeDeclinedExpiredCard', 'expired_card', 'Your card has expired.'],
  ])('declines Stripe test method %s with %s like Stripe test mode', async (paymentMethodId, code, reason) => {
    expect(await provider.charge(paymentRequest({ paymentMethodId }))).toEqual({ status: 'declined', code, reason });
  });

  it('does not mistake inherited object keys for test methods', async () => {
    const outcome = await provider.charge(paymentRequest({ paymentMethodId: 'constructor' }));
    expect(outcome.status).toBe('succeeded');
  });
});

describe('createPaymentProvider', () => {
  it('chooses Stripe when a secret key is configured, the builtin provider otherwise', () => {
    expect(createPaymentProvider({}).name).toBe('builtin');
    expect(createPaymentProvider({ stripeSecretKey: '' }).name).toBe('builtin');
    expect(createPaymentProvider({ stripeSecretKey: 'sk_test_x', stripeApiUrl: 'http://127.0.0.1:9' }).name).toBe('stripe');
  });
});

describe('Stripe payment provider', () => {
  const fake = new FakeStripe();
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  let apiUrl = '';
  let provider: StripePaymentProvider;

  beforeAll(async () => {
    apiUrl = await fake.start();
    provider = new StripePaymentProvider({ secretKey, apiUrl });
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('charges an explicit payment method with a confirmed off-session PaymentIntent', async () => {
    fake.routes.set('POST /v1/payment_intents', (request) => paymentIntent(request, 'succeeded'));
    const request = paymentRequest({ customerId: 'cus_1', paymentMethodId: 'pm_card_visa' });

    const outcome = await provider.charge(request);

    expect(outcome).toEqual({ status: 'succeeded', paymentId: `pi_${request.idempotencyKey}` });
    expect(fake.received).toHaveLength(1);
    const [received] = fake.received;
    expect(received).toMatchObject({ method: 'POST', path: '/v1/payment_intents' });
    expect(received!.headers.authorization).toBe(`Bearer ${secretKey}`);
    expect(received!.headers['idempotency-key']).toBe(request.idempotencyKey);
    expect(received!.form).toEqual({
      amount: '1000',
      currency: 'usd',
      customer: 'cus_1',
      payment_method: 'pm_card_visa',
      confirm: 'true',
      off_session: 'true',
      description: '1,000 interview credits',
      'metadata[organizationId]': 'org_1',
      'metadata[credits]': '1000',
    });
  });

  it('sends no customer when none is on file', async () => {
    fake.routes.set('POST /v1/payment_intents', (request) => paymentIntent(request, 'succeeded'));
    await provider.charge(paymentRequest({ customerId: null }));
    expect(fake.received[0]!.form).not.toHaveProperty('customer');
    expect(fake.received[0]!.form.payment_method).toBe('pm_card_visa');
  });

  it.each([
    ['an id', 'pm_default'],
    ['an expanded object', { id: 'pm_default', object: 'payment_method' }],
  ])("uses the customer's default payment method given as %s", async (_label, defaultPaymentMethod) => {
    fake.routes.set('GET /v1/customers/cus_1', customer('cus_1', defaultPaymentMethod));
    fake.routes.set('POST /v1/payment_intents', (request) => paymentIntent(request, 'succeeded'));

    const outcome = await provider.charge(paymentRequest({ customerId: 'cus_1', paymentMethodId: null }));

    expect(outcome.status).toBe('succeeded');
    expect(fake.received.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/customers/cus_1', 'POST /v1/payment_intents']);
    expect(fake.received[0]!.headers.authorization).toBe(`Bearer ${secretKey}`);
    expect(fake.received[1]!.form).toMatchObject({ customer: 'cus_1', payment_method: 'pm_default', confirm: 'true', off_session: 'true' });
  });

  it('declines without a PaymentIntent when the customer has no default payment method', async () => {
    fake.routes.set('GET /v1/customers/cus_1', customer('cus_1', null));
    const outcome = await provider.charge(paymentRequest({ customerId: 'cus_1', paymentMethodId: null }));
    expect(outcome).toEqual({ status: 'declined', code: 'payment_method_required', reason: 'No payment method given and none is on file.' });
    expect(fake.received.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/customers/cus_1']);
  });

  it('declines without a PaymentIntent when the customer was deleted', async () => {
    fake.routes.set('GET /v1/customers/cus_1', { status: 200, body: { id: 'cus_1', object: 'customer', deleted: true } });
    const outcome = await provider.charge(paymentRequest({ customerId: 'cus_1', paymentMethodId: null }));
    expect(outcome).toMatchObject({ status: 'declined', code: 'payment_method_required' });
    expect(fake.received).toHaveLength(1);
  });

  it('declines without calling Stripe when there is neither a payment method nor a customer', async () => {
    const outcome = await provider.charge(paymentRequest({ customerId: null, paymentMethodId: null }));
    expect(outcome).toEqual({ status: 'declined', code: 'payment_method_required', reason: 'No payment method given and none is on file.' });
    expect(fake.received).toHaveLength(0);
  });

  it("declines a card error with the issuer's decline code and Stripe's message", async () => {
    fake.routes.set('POST /v1/payment_intents', (request) => ({
      status: 402,
      body: {
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'insufficient_funds',
          message: 'Your card has insufficient funds.',
          payment_intent: paymentIntent(request, 'requires_payment_method').body,
        },
      },
    }));

    const outcome = await provider.charge(paymentRequest());

    expect(outcome).toEqual({ status: 'declined', code: 'insufficient_funds', reason: 'Your card has insufficient funds.' });
    expect(fake.received).toHaveLength(1);
  });

  it.each([
    ['the error code', { code: 'expired_card' }, 'expired_card'],
    ['card_declined', {}, 'card_declined'],
  ])('falls back to %s when a card error has no decline code', async (_label, codes, expected) => {
    fake.routes.set('POST /v1/payment_intents', {
      status: 402,
      body: { error: { type: 'card_error', ...codes, message: 'Your card was declined.' } },
    });
    expect(await provider.charge(paymentRequest())).toEqual({ status: 'declined', code: expected, reason: 'Your card was declined.' });
  });

  it.each([
    ['requires_action', 'authentication_required'],
    ['requires_payment_method', 'payment_failed'],
    ['processing', 'processing'],
  ])('reports a PaymentIntent left in %s as declined with %s', async (status, code) => {
    fake.routes.set('POST /v1/payment_intents', (request) => paymentIntent(request, status));
    const outcome = await provider.charge(paymentRequest());
    expect(outcome).toMatchObject({ status: 'declined', code, reason: expect.any(String) });
    if (status === 'processing') expect(outcome).toMatchObject({ reason: expect.stringContaining('nothing was booked') });
  });

  it('turns a rejected API key into PaymentProviderUnavailableError without the key, and does not retry', async () => {
    fake.routes.set('POST /v1/payment_intents', {
      status: 401,
      body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_***' } },
    });

    const error = await unavailable(provider.charge(paymentRequest()));

    expect(error.statusCode).toBe(401);
    expect(error.provider).toBe('stripe');
    expect(error.message).toContain('Invalid API Key provided');
    expect(error.message).not.toContain(secretKey);
    expect(fake.received).toHaveLength(1);
  });

  it('keeps the key out of the message even when the answer quotes it', async () => {
    fake.routes.set('POST /v1/payment_intents', {
      status: 401,
      body: { error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${secretKey}` } },
    });
    const error = await unavailable(provider.charge(paymentRequest()));
    expect(error.message).not.toContain(secretKey);
    expect(error.message).not.toContain(secretKey.slice(8));
  });

  it('retries a 500 twice with the same idempotency key, then reports Stripe unavailable', async () => {
    fake.routes.set('POST /v1/payment_intents', {
      status: 500,
      body: { error: { type: 'api_error', message: 'An unknown error occurred' } },
    });
    const request = paymentRequest();

    const error = await unavailable(provider.charge(request));

    expect(error.statusCode).toBe(500);
    expect(error.message).not.toContain(secretKey);
    expect(fake.received).toHaveLength(3);
    expect(new Set(fake.received.map((r) => r.headers['idempotency-key']))).toEqual(new Set([request.idempotencyKey]));
  });

  it('succeeds when a retry after a 500 succeeds', async () => {
    let calls = 0;
    fake.routes.set('POST /v1/payment_intents', (request) =>
      ++calls === 1 ? { status: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred' } } } : paymentIntent(request, 'succeeded'),
    );
    const outcome = await provider.charge(paymentRequest());
    expect(outcome.status).toBe('succeeded');
    expect(fake.received).toHaveLength(2);
  });

  it('reports Stripe unavailable when nothing listens', async () => {
    const closed = new FakeStripe();
    const closedUrl = await closed.start();
    await closed.stop();
    const offline = new StripePaymentProvider({ secretKey, apiUrl: closedUrl, maxNetworkRetries: 0 });

    const error = await unavailable(offline.charge(paymentRequest()));

    expect(error.statusCode).toBeUndefined();
    expect(error.message).not.toContain(secretKey);
  });

  it('sends the same Idempotency-Key for the same request key', async () => {
    fake.routes.set('POST /v1/payment_intents', (request) => paymentIntent(request, 'succeeded'));
    const request = paymentRequest();

    const first = await provider.charge(request);
    const second = await provider.charge({ ...request });
    await provider.charge(paymentRequest());

    expect(second).toEqual(first);
    const keys = fake.received.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toBe(request.idempotencyKey);
    expect(keys[1]).toBe(request.idempotencyKey);
    expect(keys[2]).not.toBe(request.idempotencyKey);
  });
});
