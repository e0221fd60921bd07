import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rollOverBillingPeriods } from '../../server/domains/billing/roll-over-billing-periods.js';
import { bookCreditMovement } from '../../server/domains/billing/book-credit-movement.js';
import { systemCaller } from '../../server/domains/common/caller.js';
import { findExecutable } from '../../server/lib/child-process.js';
import { PERMISSIONS } from '../../shared/permissions.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { FakeStripe, paymentIntent } from '../helpers/fake-stripe.js';
import { ONE_QUESTION, PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { completedTextInterview } from '../helpers/results.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * Billing (design.md "Records of the product": Usage, Invoice): the plan's figures from the
 * ledger, usage per period or campaign that adds up to the ledger's charges, purchases through the
 * payment provider (built-in, and Stripe against a local server that speaks its API), invoices
 * with PDFs, and the period rollover, once per period.
 */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(PARTICIPANT_BUDGET);
});
afterAll(() => t?.close());

async function organizationOn(plan: 'free' | 'starter' | 'professional' | 'enterprise' = 'starter'): Promise<{ tenant: TestTenant; api: Api }> {
  const tenant = await t.createTenant({ plan });
  return { tenant, api: apiAs(t.http, tenant) };
}

function monthStart(offset = 0): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
}

async function ledger(organizationId: string): Promise<{ kind: string; amount: number; source: string | null }[]> {
  const rows = await t
    .em()
    .execute<{ kind: string; amount: string; source: string | null }[]>(
      `select kind, amount, source from credit_transactions where organization_id = ? order by created_at, id`,
      [organizationId],
    );
  return rows.map((row) => ({ kind: row.kind, amount: Number(row.amount), source: row.source }));
}

describe('GET /v1/billing/plan', () => {
  it("answers the plan and this period's figures from the ledger", async () => {
    const { api } = await organizationOn('starter');
    const response = await api.get('/v1/billing/plan').expect(200);
    expect(response.body).toEqual({
      plan: 'starter',
      status: 'active',
      credits: { balance: 500, included: 500, purchased: 0, used: 0, owed: 0 },
      billingPeriod: { start: monthStart().toISOString(), end: monthStart(1).toISOString() },
      nextInvoice: { date: monthStart(1).toISOString(), amount: 0, currency: 'usd' },
      freeMinutes: { included: 60, used: 0 },
      pricing: { pricePerMinuteCredits: 1, pricePerCreditMinor: 9, currency: 'usd', rateLimitPerMinute: 300 },
    });
  });

  it('needs billing:read (403) and a key (401)', async () => {
    const { tenant } = await organizationOn();
    const noBilling = apiAs(t.http, await t.createKey(tenant.organizationId, ['campaigns:read']));
    expect((await noBilling.get('/v1/billing/plan').expect(403)).body.error.details.required).toBe('billing:read');
    await t.http.get('/v1/billing/plan').expect(401);
  });

  it('adds up after purchases, interview charges and minutes owed', async () => {
    const { tenant, api } = await organizationOn('free');
    // Free plan: 10 free minutes; use them up so the next interviews cost credits.
    await t
      .em()
      .execute(`insert into billing_usage (organization_id, period_start, minutes, free_minutes_used, sessions) values (?, ?, 10, 10, 1)`, [
        tenant.organizationId,
        monthStart(),
      ]);
    await api.post('/v1/billing/credits/purchase', { amount: 20 }).expect(201);
    await interviewLasting(api, (await oneQuestionCampaign(api)).campaignId, 150);
    await t.em().execute(`update organizations set credits_owed = 2.5 where id = ?`, [tenant.organizationId]);
    const plan = (await api.get('/v1/billing/plan').expect(200)).body;
    const rows = await ledger(tenant.organizationId);
    const sum = (kind: string) => rows.filter((row) => row.kind === kind).reduce((total, row) => total + row.amount, 0);
    // Three minutes (150 s rounded up) at 1 credit each.
    expect(sum('charge')).toBe(-3);
    expect(plan.credits).toEqual({ balance: 47, included: 30, purchased: 20, used: 3, owed: 2.5 });
    expect(plan.nextInvoice).toEqual({ date: monthStart(1).toISOString(), amount: 25, currency: 'usd' });
    expect(plan.freeMinutes).toEqual({ included: 10, used: 10 });
  });
});

/** A finished one-question interview that lasted about `seconds` (its clock is moved on before the answer). */
async function interviewLasting(api: Api, campaignId: string, seconds: number): Promise<string> {
  const invite = await api
    .post(`/v1/campaigns/${campaignId}/invites`, { email: `p-${randomBytes(4).toString('hex')}@example.com`, sendEmail: false })
    .expect(201);
  const participant = participantAs(t.http, invite.body.token);
  const started = await participant.start().expect(201);
  await t.em().execute(`update sessions set active_seconds = ? where id = ?`, [seconds, started.body.session.id]);
  const answered = await participant.answer('Faster exports, please.').expect(200);
  expect(answered.body.session.status).toBe('completed');
  return started.body.session.id as string;
}

async function oneQuestionCampaign(api: Api): Promise<{ campaignId: string }> {
  const script = await api
    .post('/v1/scripts', { name: `One ${randomBytes(3).toString('hex')}`, systemPrompt: 'Be brief.', questions: ONE_QUESTION })
    .expect(201);
  await api.post(`/v1/scripts/${script.body.id}/publish`, {}).expect(200);
  const campaign = await api.post('/v1/campaigns', { name: `Campaign ${randomBytes(3).toString('hex')}`, scriptId: script.body.id }).expect(201);
  return { campaignId: campaign.body.id };
}

describe('GET /v1/billing/usage', () => {
  it('400 without from or to, with from after to, over 366 days or with an unknown group_by', async () => {
    const { api } = await organizationOn();
    for (const query of [
      'to=2026-11-01T00:00:00Z',
      'from=2026-11-01T00:00:00Z',
      'from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z',
      'from=2025-01-01T00:00:00Z&to=2026-01-03T00:00:00Z',
      'from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&group_by=year',
      'from=yesterday&to=2026-11-02T00:00:00Z',
    ]) {
      const response = await api.get(`/v1/billing/usage?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error.code, query).toBe('INVALID_REQUEST');
      expect(response.body.error.details.fields.length, query).toBeGreaterThan(0);
    }
    await api.get('/v1/billing/usage?from=2025-01-01T00:00:00Z&to=2026-01-02T00:00:00Z').expect(200);
  });

  it('groups sessions with known durations per UTC day, ISO week, month and campaign; totals equal the ledger charges', async () => {
    const { tenant, api } = await organizationOn('professional');
    const first = await oneQuestionCampaign(api);
    const second = await oneQuestionCampaign(api);
    // Four finished interviews, then given known times, minutes and charges.
    const known = [
      { campaign: first, at: '2026-03-01T23:59:00.000Z', minutes: 3, credits: 2.4 },
      { campaign: first, at: '2026-03-02T00:10:00.000Z', minutes: 5, credits: 4 },
      { campaign: second, at: '2026-03-08T12:00:00.000Z', minutes: 1, credits: 0 },
      { campaign: second, at: '2026-04-01T08:00:00.000Z', minutes: 10, credits: 8 },
    ];
    for (const item of known) {
      const { sessionId } = await completedTextInterview(t, api, ['Better search.'], { runJobs: false, campaignId: item.campaign.campaignId });
      await t.em().execute(`delete from credit_transactions where source = ?`, [`session:${sessionId}`]);
      await t
        .em()
        .execute(`update sessions set completed_at = ?, duration_seconds = ?, billing = jsonb_set(billing, '{totalMinutes}', to_jsonb(?::int)) where id = ?`, [
          item.at,
          item.minutes * 60,
          item.minutes,
          sessionId,
        ]);
      if (item.credits > 0) {
        const em = t.em();
        await em.transactional((tx) =>
          bookCreditMovement({ em: tx }, systemCaller(tenant.organizationId), { amount: -item.credits, kind: 'charge', source: `session:${sessionId}` }),
        );
        await t.em().execute(`update credit_transactions set created_at = ? where source = ?`, [item.at, `session:${sessionId}`]);
      }
    }
    // Minutes owed settled by a top-up: a charge no campaign carries.
    await t
      .em()
      .transactional((tx) => bookCreditMovement({ em: tx }, systemCaller(tenant.organizationId), { amount: -1.5, kind: 'charge', source: 'debt:test' }));
    await t.em().execute(`update credit_transactions set created_at = '2026-03-15T10:00:00Z' where source = 'debt:test'`);

    const range = 'from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z';
    const byDay = (await api.get(`/v1/billing/usage?${range}&group_by=day`).expect(200)).body;
    expect(byDay.groupBy).toBe('day');
    expect(byDay.rows).toHaveLength(31);
    expect(byDay.rows[0]).toEqual({ period: '2026-03-01T00:00:00.000Z', sessions: 1, minutes: 3, credits: 2.4 });
    expect(byDay.rows[1]).toEqual({ period: '2026-03-02T00:00:00.000Z', sessions: 1, minutes: 5, credits: 4 });
    expect(byDay.rows[7]).toEqual({ period: '2026-03-08T00:00:00.000Z', sessions: 1, minutes: 1, credits: 0 });
    expect(byDay.rows[14]).toEqual({ period: '2026-03-15T00:00:00.000Z', sessions: 0, minutes: 0, credits: 1.5 });
    expect(byDay.totals).toEqual({ sessions: 3, minutes: 9, credits: 7.9 });

    // ISO weeks start on Monday: 1 March 2026 is a Sunday, 2 March a Monday.
    const byWeek = (await api.get(`/v1/billing/usage?${range}&group_by=week`).expect(200)).body;
    expect(byWeek.rows.slice(0, 3)).toEqual([
      { period: '2026-02-23T00:00:00.000Z', sessions: 1, minutes: 3, credits: 2.4 },
      { period: '2026-03-02T00:00:00.000Z', sessions: 2, minutes: 6, credits: 4 },
      { period: '2026-03-09T00:00:00.000Z', sessions: 0, minutes: 0, credits: 1.5 },
    ]);

    const byMonth = (await api.get('/v1/billing/usage?from=2026-01-01T00:00:00Z&to=2026-05-01T00:00:00Z&group_by=month').expect(200)).body;
    expect(byMonth.rows).toEqual([
      { period: '2026-01-01T00:00:00.000Z', sessions: 0, minutes: 0, credits: 0 },
      { period: '2026-02-01T00:00:00.000Z', sessions: 0, minutes: 0, credits: 0 },
      { period: '2026-03-01T00:00:00.000Z', sessions: 3, minutes: 9, credits: 7.9 },
      { period: '2026-04-01T00:00:00.000Z', sessions: 1, minutes: 10, credits: 8 },
    ]);

    const byCampaign = (await api.get(`/v1/billing/usage?from=2026-03-01T00:00:00Z&to=2026-05-01T00:00:00Z&group_by=campaign`).expect(200)).body;
    expect(byCampaign.rows).toEqual(
      expect.arrayContaining([
        { campaignId: first.campaignId, sessions: 2, minutes: 8, credits: 6.4 },
        { campaignId: second.campaignId, sessions: 2, minutes: 11, credits: 8 },
        { campaignId: null, sessions: 0, minutes: 0, credits: 1.5 },
      ]),
    );
    expect(byCampaign.rows).toHaveLength(3);

    // The totals are the ledger's charges for the range, whatever the grouping.
    const [charged] = await t
      .em()
      .execute<{ credits: string }[]>(
        `select -sum(amount) as credits from credit_transactions where organization_id = ? and kind = 'charge' and created_at >= '2026-03-01T00:00:00Z' and created_at < '2026-05-01T00:00:00Z'`,
        [tenant.organizationId],
      );
    expect(byCampaign.totals).toEqual({ sessions: 4, minutes: 19, credits: Number(charged!.credits) });
    expect(byMonth.totals.credits).toBe(Number(charged!.credits));
  });

  it('real interviews: the totals equal the sessions and the ledger', async () => {
    const { tenant, api } = await organizationOn('free');
    await t
      .em()
      .execute(`insert into billing_usage (organization_id, period_start, minutes, free_minutes_used, sessions) values (?, ?, 10, 10, 1)`, [
        tenant.organizationId,
        monthStart(),
      ]);
    const campaign = await oneQuestionCampaign(api);
    for (const seconds of [30, 61, 200]) await interviewLasting(api, campaign.campaignId, seconds);
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const usage = (await api.get(`/v1/billing/usage?from=${from}&to=${to}&group_by=campaign`).expect(200)).body;
    const [sessions] = await t
      .em()
      .execute<{ count: string; minutes: string }[]>(
        `select count(*) as count, sum((billing->>'totalMinutes')::int) as minutes from sessions where organization_id = ? and billing is not null`,
        [tenant.organizationId],
      );
    const charges = (await ledger(tenant.organizationId)).filter((row) => row.kind === 'charge');
    // 1 + 2 + 4 minutes, at the free plan's 1 credit a minute.
    expect(Number(sessions!.minutes)).toBe(7);
    expect(usage.totals).toEqual({ sessions: 3, minutes: 7, credits: 7 });
    expect(-charges.reduce((sum, row) => sum + row.amount, 0)).toBe(7);
    expect(usage.rows).toEqual([{ campaignId: campaign.campaignId, ...usage.totals }]);
  });
});

describe('POST /v1/billing/credits/purchase (built-in provider)', () => {
  it('books one ledger row and one paid invoice, and answers both', async () => {
    const { tenant, api } = await organizationOn('starter');
    const response = await api.post('/v1/billing/credits/purchase', { amount: 250 }).expect(201);
    expect(response.body).toEqual({
      credits: 250,
      balance: 750,
      transactionId: expect.stringMatching(/^txn_/),
      paymentId: expect.stringMatching(/^pay_/),
      invoice: {
        id: expect.stringMatching(/^ivc_/),
        number: expect.stringMatching(new RegExp(`^INV-${new Date().getUTCFullYear()}-\\d{6}$`)),
        status: 'paid',
        kind: 'purchase',
        amount: 2250,
        currency: 'usd',
        periodStart: monthStart().toISOString(),
        periodEnd: monthStart(1).toISOString(),
        lines: [{ description: 'Interview credits (starter plan)', quantity: 250, unitAmount: 9, amount: 2250 }],
        issuedAt: expect.any(String),
        paidAt: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        livemode: true,
      },
    });
    const purchases = (await ledger(tenant.organizationId)).filter((row) => row.kind === 'purchase');
    expect(purchases).toEqual([{ kind: 'purchase', amount: 250, source: `purchase:${response.body.paymentId}` }]);
    const invoices = (await api.get('/v1/billing/invoices').expect(200)).body;
    expect(invoices.data).toEqual([response.body.invoice]);
    expect(invoices.pagination).toMatchObject({ total: 1, hasMore: false });
    expect((await api.get(`/v1/billing/invoices/${response.body.invoice.id}`).expect(200)).body).toEqual(response.body.invoice);
  });

  it('a declined payment books nothing (402 PAYMENT_DECLINED with the reason)', async () => {
    const { tenant, api } = await organizationOn();
    const before = await ledger(tenant.organizationId);
    const declined = await api.post('/v1/billing/credits/purchase', { amount: 100, paymentMethodId: 'pm_card_chargeDeclinedInsufficientFunds' }).expect(402);
    expect(declined.body.error).toMatchObject({
      code: 'PAYMENT_DECLINED',
      details: { code: 'insufficient_funds', reason: 'Your card has insufficient funds.', provider: 'builtin' },
    });
    expect(await ledger(tenant.organizationId)).toEqual(before);
    expect((await api.get('/v1/billing/invoices').expect(200)).body.data).toEqual([]);
  });

  it('validates amount (400 missing, 422 not a whole positive number) and needs billing:write', async () => {
    const { tenant, api } = await organizationOn();
    expect((await api.post('/v1/billing/credits/purchase', {}).expect(400)).body.error.details.fields[0].path).toBe('amount');
    for (const amount of [0, -5, 1.5, 2_000_000, '10']) {
      const response = await api.post('/v1/billing/credits/purchase', { amount });
      expect(response.status, String(amount)).toBe(422);
      expect(response.body.error.details.fields[0].path).toBe('amount');
    }
    const readOnly = apiAs(
      t.http,
      await t.createKey(
        tenant.organizationId,
        PERMISSIONS.filter((permission) => permission !== 'billing:write'),
      ),
    );
    expect((await readOnly.post('/v1/billing/credits/purchase', { amount: 5 }).expect(403)).body.error.details.required).toBe('billing:write');
  });

  it('minutes owed are settled first from what was bought', async () => {
    const { tenant, api } = await organizationOn('starter');
    await t.em().execute(`update organizations set credits_owed = 7 where id = ?`, [tenant.organizationId]);
    const bought = await api.post('/v1/billing/credits/purchase', { amount: 10 }).expect(201);
    expect(bought.body.balance).toBe(503);
    const [organization] = await t.em().execute<{ credits_owed: string }[]>(`select credits_owed from organizations where id = ?`, [tenant.organizationId]);
    expect(Number(organization!.credits_owed)).toBe(0);
  });

  it("another organization's invoice is 404, as JSON and as PDF", async () => {
    const first = await organizationOn();
    const second = await organizationOn();
    const invoice = (await first.api.post('/v1/billing/credits/purchase', { amount: 1 }).expect(201)).body.invoice;
    await second.api.get(`/v1/billing/invoices/${invoice.id}`).expect(404);
    expect((await second.api.get(`/v1/billing/invoices/${invoice.id}/pdf`).expect(404)).body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  const pdftotext = findExecutable('pdftotext');
  it("GET /v1/billing/invoices/{id}/pdf is a PDF with the organization's name and the invoice", async (context) => {
    const tool = await pdftotext;
    if (!tool) {
      console.log('skipped: pdftotext (poppler-utils) is not installed');
      context.skip();
    }
    const { api } = await organizationOn('starter');
    await api.patch('/v1/organization', { name: 'Globex Research' }).expect(200);
    const invoice = (await api.post('/v1/billing/credits/purchase', { amount: 40 }).expect(201)).body.invoice;
    const response = await api
      .get(`/v1/billing/invoices/${invoice.id}/pdf`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${invoice.number}.pdf"`);
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(`${tmpdir()}/invoice-`);
    await writeFile(`${dir}/invoice.pdf`, response.body as Buffer);
    const { stdout } = await promisify(execFile)(tool!, [`${dir}/invoice.pdf`, '-']);
    expect(stdout).toContain('Globex Research');
    expect(stdout).toContain(invoice.number);
    expect(stdout).toContain('$3.60');
    expect(stdout).toContain('Interview credits (starter plan)');
  });
});

describe('purchases through Stripe', () => {
  const fake = new FakeStripe();
  let stripeApp: TestApp;
  let tenant: TestTenant;
  let api: Api;
  const secretKey = `sk_test_${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    const apiUrl = await fake.start();
    stripeApp = await startTestApp({ STRIPE_SECRET_KEY: secretKey, STRIPE_API_URL: apiUrl });
    tenant = await stripeApp.createTenant({ plan: 'professional' });
    api = apiAs(stripeApp.http, tenant);
    await stripeApp.em().execute(`update organizations set payment_customer_id = 'cus_Globex' where id = ?`, [tenant.organizationId]);
  });
  afterAll(async () => {
    await stripeApp?.close();
    await fake.stop();
  });
  beforeEach(() => fake.reset());

  it("charges the customer's default method with a PaymentIntent, and books what Stripe confirmed", async () => {
    fake.routes.set('GET /v1/customers/cus_Globex', {
      status: 200,
      body: { id: 'cus_Globex', object: 'customer', invoice_settings: { default_payment_method: 'pm_default' } },
    });
    fake.routes.set('POST /v1/payment_intents', (request) => paymentIntent(request, 'succeeded'));
    const response = await api.post('/v1/billing/credits/purchase', { amount: 100 }).set('Idempotency-Key', 'buy-100').expect(201);
    const intent = fake.received.find((request) => request.path === '/v1/payment_intents')!;
    expect(intent.headers.authorization).toBe(`Bearer ${secretKey}`);
    expect(intent.form).toMatchObject({
      amount: '800',
      currency: 'usd',
      customer: 'cus_Globex',
      payment_method: 'pm_default',
      confirm: 'true',
      off_session: 'true',
    });
    expect(intent.headers['idempotency-key']).toMatch(/^credits-purchase:org_/);
    expect(response.body.paymentId).toBe(`pi_${intent.headers['idempotency-key']}`);
    expect(response.body.invoice).toMatchObject({ amount: 800, status: 'paid', lines: [{ quantity: 100, unitAmount: 8, amount: 800 }] });
  });

  it('two concurrent purchases with one Idempotency-Key charge once and book once', async () => {
    fake.routes.set('POST /v1/payment_intents', (request) => paymentIntent(request, 'succeeded'));
    const before = (
      await stripeApp
        .em()
        .execute<{ count: string }[]>(`select count(*) as count from credit_transactions where organization_id = ? and kind = 'purchase'`, [
          tenant.organizationId,
        ])
    )[0]!.count;
    const send = () => api.post('/v1/billing/credits/purchase', { amount: 30, paymentMethodId: 'pm_card_visa' }).set('Idempotency-Key', 'twice-at-once');
    const answers = await Promise.all([send(), send()]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect([
      [201, 201],
      [201, 409],
    ]).toContainEqual(statuses);
    const replay = await send().expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(fake.received.filter((request) => request.path === '/v1/payment_intents')).toHaveLength(1);
    const after = (
      await stripeApp
        .em()
        .execute<{ count: string }[]>(`select count(*) as count from credit_transactions where organization_id = ? and kind = 'purchase'`, [
          tenant.organizationId,
        ])
    )[0]!.count;
    expect(Number(after) - Number(before)).toBe(1);
  });

  it("a card decline is 402 PAYMENT_DECLINED with Stripe's reason; an outage is 502; neither books anything", async () => {
    fake.routes.set('POST /v1/payment_intents', {
      status: 402,
      body: { error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' } },
    });
    const count = async () =>
      Number(
        (
          await stripeApp
            .em()
            .execute<{ count: string }[]>(`select count(*) as count from credit_transactions where organization_id = ?`, [tenant.organizationId])
        )[0]!.count,
      );
    const before = await count();
    const declined = await api.post('/v1/billing/credits/purchase', { amount: 10, paymentMethodId: 'pm_card_visa' }).expect(402);
    expect(declined.body.error).toMatchObject({
      code: 'PAYMENT_DECLINED',
      details: { code: 'insufficient_funds', reason: 'Your card has insufficient funds.', provider: 'stripe' },
    });
    fake.routes.set('POST /v1/payment_intents', { status: 500, body: { error: { type: 'api_error', message: 'Something went wrong.' } } });
    const outage = await api.post('/v1/billing/credits/purchase', { amount: 10, paymentMethodId: 'pm_card_visa' }).expect(502);
    expect(outage.body.error.code).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
    expect(JSON.stringify(outage.body)).not.toContain(secretKey);
    expect(await count()).toBe(before);
  });
});

describe('period rollover', () => {
  it('books the included credits and invoices the minutes owed once per period, however often and in parallel it runs', async () => {
    const { tenant, api } = await organizationOn('starter');
    await t.em().execute(`update organizations set current_period_start = ?, credits_owed = 12.5 where id = ?`, [monthStart(-1), tenant.organizationId]);
    const runs = await Promise.all([rollOverBillingPeriods({ em: t.em() }), rollOverBillingPeriods({ em: t.em() }), rollOverBillingPeriods({ em: t.em() })]);
    expect(runs.reduce((sum, run) => sum + (run.organizations > 0 ? 1 : 0), 0)).toBeGreaterThanOrEqual(1);
    await rollOverBillingPeriods({ em: t.em() });
    const label = monthStart().toISOString().slice(0, 7);
    const included = (await ledger(tenant.organizationId)).filter((row) => row.kind === 'plan_included');
    expect(included).toEqual([
      { kind: 'plan_included', amount: 500, source: 'organization_created' },
      { kind: 'plan_included', amount: 500, source: `period:${label}` },
    ]);
    const invoices = (await api.get('/v1/billing/invoices').expect(200)).body.data;
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      kind: 'usage',
      status: 'open',
      amount: 113,
      currency: 'usd',
      periodStart: monthStart(-1).toISOString(),
      periodEnd: monthStart().toISOString(),
      lines: [{ quantity: 12.5, unitAmount: 9, amount: 113 }],
      paidAt: null,
    });
    const plan = (await api.get('/v1/billing/plan').expect(200)).body;
    expect(plan).toMatchObject({ status: 'past_due', credits: { balance: 1000, owed: 0 } });
    const [organization] = await t
      .em()
      .execute<{ current_period_start: Date }[]>(`select current_period_start from organizations where id = ?`, [tenant.organizationId]);
    expect(new Date(organization!.current_period_start).toISOString()).toBe(monthStart().toISOString());
  });

  it('a later period rolls over once more; with nothing owed there is no invoice', async () => {
    const { tenant } = await organizationOn('free');
    const nextMonth = new Date(monthStart(1).getTime() + 3600_000);
    await rollOverBillingPeriods({ em: t.em() }, { now: nextMonth });
    await rollOverBillingPeriods({ em: t.em() }, { now: nextMonth });
    const included = (await ledger(tenant.organizationId)).filter((row) => row.kind === 'plan_included');
    expect(included.map((row) => row.source)).toEqual(['organization_created', `period:${monthStart(1).toISOString().slice(0, 7)}`]);
    // Nothing was owed: no invoice.
    const [invoices] = await t.em().execute<{ count: string }[]>(`select count(*) as count from invoices where organization_id = ?`, [tenant.organizationId]);
    expect(Number(invoices!.count)).toBe(0);
  });
});
