import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../server/domains/api-keys/create-api-key.js';
import { listApiKeys, describeApiKey } from '../../server/domains/api-keys/list-api-keys.js';
import { isApiKeyStillUsable } from '../../server/domains/api-keys/index.js';
import { revokeApiKey } from '../../server/domains/api-keys/revoke-api-key.js';
import { systemCaller } from '../../server/domains/common/caller.js';
import { updateOrganization } from '../../server/domains/organizations/update-organization.js';
import { PERMISSIONS } from '../../shared/permissions.js';
import { WEBHOOK_PAYLOADS } from '../../shared/schemas/webhook-payloads.js';
import { WEBHOOK_EVENT_TYPES } from '../../shared/schemas/webhooks.js';
import { apiAs, createCampaign, createInvite, createPublishedScript, type Api } from '../helpers/factories.js';
import { interviewFixture, ONE_QUESTION, participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { FakeStripe, paymentIntent } from '../helpers/fake-stripe.js';
import { type MailSink, startMailSink } from '../helpers/members.js';
import { strictly } from '../helpers/strict-schema.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * Test mode (issue 35): `isk_test_` keys act in the organization's test world. Test and live data
 * never meet (404 both ways), test interviews cost no credits, test emails stay in the outbox
 * even with SMTP configured, test payments use the built-in provider even with Stripe configured,
 * every record answered says which world it is of, a test invite's page says it is a test, and
 * the test data goes in one call while the test keys and endpoints stay.
 */

let t: TestApp;
let mail: MailSink;
const stripe = new FakeStripe();
let live: TestTenant;
let test: TestTenant;
let liveApi: Api;
let testApi: Api;

async function testKeyOf(organizationId: string): Promise<TestTenant> {
  const { apiKey, secret } = await createApiKey({ em: t.em() }, systemCaller(organizationId), {
    name: 'test mode',
    permissions: [...PERMISSIONS],
    mode: 'test',
  });
  return { organizationId: apiKey.organization.id, apiKeyId: apiKey.id, apiKey: secret, authorization: `Bearer ${secret}` };
}

async function balanceOf(organizationId: string): Promise<{ balance: number; held: number; charges: number }> {
  const [row] = await t
    .em()
    .getConnection()
    .execute<{ balance: string; held: string; charges: string }[]>(
      `select credit_balance as balance, credits_held as held, (select count(*) from credit_transactions where organization_id = o.id and kind = 'charge') as charges
       from organizations o where id = ?`,
      [organizationId],
    );
  return { balance: Number(row!.balance), held: Number(row!.held), charges: Number(row!.charges) };
}

beforeAll(async () => {
  mail = await startMailSink();
  // A real mail relay and a Stripe: a live key uses them, a test key never does.
  t = await startTestApp({
    SMTP_URL: mail.url,
    STRIPE_SECRET_KEY: 'sk_test_testmode',
    STRIPE_API_URL: await stripe.start(),
    TEST_MODE_INTERVIEWS_PER_DAY: '2',
  });
  live = await t.createTenant();
  test = await testKeyOf(live.organizationId);
  liveApi = apiAs(t.http, live);
  testApi = apiAs(t.http, test);
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
  await stripe.stop();
});

describe('test keys', () => {
  it('are isk_test_ keys of a test world that names its live organization, made once', async () => {
    expect(test.apiKey).toMatch(/^isk_test_[0-9A-Za-z]{38}$/);
    expect(test.organizationId).not.toBe(live.organizationId);
    const another = await testKeyOf(live.organizationId);
    expect(another.organizationId).toBe(test.organizationId);
    const [row] = await t
      .em()
      .getConnection()
      .execute<{ live_organization_id: string; credit_balance: string }[]>('select live_organization_id, credit_balance from organizations where id = ?', [
        test.organizationId,
      ]);
    expect(row).toEqual({ live_organization_id: live.organizationId, credit_balance: '0.0000' });
  });

  it('are listed and revoked beside the live keys, each with its mode', async () => {
    const extra = await testKeyOf(live.organizationId);
    const keys = (await listApiKeys({ em: t.em() }, systemCaller(live.organizationId))).map(describeApiKey);
    expect(keys.find((key) => key.id === live.apiKeyId)?.mode).toBe('live');
    expect(keys.find((key) => key.id === extra.apiKeyId)).toMatchObject({ mode: 'test', hint: expect.stringMatching(/^isk_test_.{4}….{4}$/) });
    await revokeApiKey({ em: t.em() }, systemCaller(live.organizationId), { apiKeyId: extra.apiKeyId });
    expect((await t.http.get('/v1/campaigns').set('Authorization', extra.authorization).expect(401)).body.error.code).toBe('INVALID_API_KEY');
    // Another organization cannot revoke them.
    const stranger = await t.createTenant();
    await expect(revokeApiKey({ em: t.em() }, systemCaller(stranger.organizationId), { apiKeyId: test.apiKeyId })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
  });
});

describe('the test world', () => {
  it('never mixes with live data: each key finds nothing of the other world (404), lists leave it out', async () => {
    const liveCampaign = await createCampaign(liveApi);
    const testCampaign = await createCampaign(testApi);
    await liveApi.get(`/v1/campaigns/${testCampaign.id}`).expect(404);
    await testApi.get(`/v1/campaigns/${liveCampaign.id}`).expect(404);
    await testApi.patch(`/v1/campaigns/${liveCampaign.id}`, { name: 'Taken over' }).expect(404);
    const liveIds = (await liveApi.get('/v1/campaigns?limit=100').expect(200)).body.data.map((c: { id: string }) => c.id);
    const testIds = (await testApi.get('/v1/campaigns?limit=100').expect(200)).body.data.map((c: { id: string }) => c.id);
    expect(liveIds).toContain(liveCampaign.id);
    expect(liveIds).not.toContain(testCampaign.id);
    expect(testIds).toEqual([testCampaign.id]);
  });

  it('marks every record answered: livemode false for a test key, true for a live key, on records and list items', async () => {
    const testCampaign = (await testApi.post('/v1/campaigns', { name: 'Marked', scriptId: (await createPublishedScript(testApi)).id }).expect(201)).body;
    expect(testCampaign.livemode).toBe(false);
    expect((await testApi.get(`/v1/campaigns/${testCampaign.id}`).expect(200)).body.livemode).toBe(false);
    const list = (await testApi.get('/v1/campaigns').expect(200)).body;
    expect(list.data.every((item: { livemode: boolean }) => item.livemode === false)).toBe(true);
    expect(list.livemode).toBeUndefined();
    expect((await testApi.get('/v1/organization').expect(200)).body).toMatchObject({ id: test.organizationId, livemode: false });
    expect((await liveApi.get('/v1/organization').expect(200)).body).toMatchObject({ id: live.organizationId, livemode: true });
    const liveList = (await liveApi.get('/v1/campaigns').expect(200)).body;
    expect(liveList.data.every((item: { livemode: boolean }) => item.livemode === true)).toBe(true);
  });

  it('runs interviews that cost no credits, even with none to hold', async () => {
    const before = await balanceOf(live.organizationId);
    const { invite } = await interviewFixture(testApi, { questions: ONE_QUESTION });
    const participant = participantAs(t.http, invite.token);
    const started = (await participant.start().expect(201)).body;
    expect(started.session.livemode).toBe(false);
    expect(await balanceOf(test.organizationId)).toEqual({ balance: 0, held: 0, charges: 0 });
    await participant.answer('Faster exports, please: the CSV takes minutes.').expect(200);
    const session = (await testApi.get(`/v1/sessions/${started.session.id}`).expect(200)).body;
    expect(session).toMatchObject({ status: 'completed', livemode: false });
    const [billing] = await t
      .em()
      .getConnection()
      .execute<{ billing: { amountCredits: number; chargedCredits: number } }[]>('select billing from sessions where id = ?', [started.session.id]);
    expect(billing!.billing).toMatchObject({ amountCredits: 0, chargedCredits: 0, owedCredits: 0, billableMinutes: 0 });
    expect(await balanceOf(test.organizationId)).toEqual({ balance: 0, held: 0, charges: 0 });
    expect(await balanceOf(live.organizationId)).toEqual(before);
  });

  it("publishes its events to the test world only: a live key's events API never lists them", async () => {
    await runJobsOnce(t);
    const testEvents = (await testApi.get('/v1/events?type=interview.completed').expect(200)).body.data;
    expect(testEvents.length).toBeGreaterThan(0);
    expect(testEvents[0].livemode).toBe(false);
    const liveEvents = (await liveApi.get('/v1/events?type=interview.completed').expect(200)).body.data;
    expect(liveEvents.map((event: { id: string }) => event.id)).not.toContain(testEvents[0].id);
    await liveApi.get(`/v1/events/${testEvents[0].id}`).expect(404);
  });

  it("sends a test invite's email to the outbox only, marked as a test, while a live one reaches the relay", async () => {
    const script = await createPublishedScript(testApi);
    const testCampaign = await createCampaign(testApi, { scriptId: script.id });
    const liveCampaign = await createCampaign(liveApi);
    await createInvite(testApi, testCampaign.id, { email: 'tester@example.com', name: 'Tess' });
    await createInvite(liveApi, liveCampaign.id, { email: 'real@example.com', name: 'Rhea' });
    await runJobsOnce(t, { tasks: ['invite__send_email'] });
    expect(mail.delivered.map((message) => message.to).flat()).toEqual(['real@example.com']);
    const outbox = path.join(t.dataDir, 'outbox');
    const files = (await readdir(outbox)).filter((name) => name.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const message = await readFile(path.join(outbox, files[0]!), 'utf8');
    expect(message).toMatch(/^To: .*tester@example\.com/m);
    expect(message).toMatch(/^Subject: \[Test\] /m);
  });

  it("says on a test invite's page that it is a test; a live invite's page does not", async () => {
    const testInvite = await createInvite(testApi, (await createCampaign(testApi)).id, { email: 'page@example.com', sendEmail: false });
    const liveInvite = await createInvite(liveApi, (await createCampaign(liveApi)).id, { email: 'page@example.com', sendEmail: false });
    const testPage = (await t.http.get(`/interview/${testInvite.token}`).expect(200)).text;
    expect(testPage).toContain('class="preview-notice test-mode-notice"');
    expect(testPage).toContain('this is a test interview');
    expect(testPage).toContain('"testMode":true');
    const livePage = (await t.http.get(`/interview/${liveInvite.token}`).expect(200)).text;
    expect(livePage).not.toContain('test-mode-notice');
  });

  it("pays with the built-in provider, never the service's Stripe, and books test credits in the test world only", async () => {
    stripe.routes.set('POST /v1/payment_intents', (request) => paymentIntent(request, 'succeeded'));
    const liveBefore = (await balanceOf(live.organizationId)).balance;
    const purchase = (await testApi.post('/v1/billing/credits/purchase', { amount: 10, paymentMethodId: 'pm_card_visa' }).expect(201)).body;
    // Its invoice is numbered apart, so the live sequence keeps no gaps.
    expect(purchase).toMatchObject({
      credits: 10,
      paymentId: expect.stringMatching(/^pay_/),
      invoice: { number: expect.stringMatching(/^TEST-\d{4}-[0-9A-Za-z]{10}$/) },
    });
    expect(stripe.received).toEqual([]);
    expect((await balanceOf(test.organizationId)).balance).toBe(10);
    expect((await balanceOf(live.organizationId)).balance).toBe(liveBefore);
    // Stripe's test cards decline in test mode as at Stripe.
    const declined = await testApi.post('/v1/billing/credits/purchase', { amount: 10, paymentMethodId: 'pm_card_chargeDeclined' }).expect(402);
    expect(declined.body.error).toMatchObject({ code: 'PAYMENT_DECLINED', details: { provider: 'builtin' } });
    // A live key's purchase goes to Stripe.
    const livePurchase = (await liveApi.post('/v1/billing/credits/purchase', { amount: 10, paymentMethodId: 'pm_card_visa' }).expect(201)).body;
    expect(livePurchase.invoice.number).toMatch(/^INV-\d{4}-\d{6}$/);
    expect(stripe.received.map((request) => request.path)).toContain('/v1/payment_intents');
  });

  it('leaves members and the custom domain to the live organization (403 LIVE_MODE_ONLY), changing nothing', async () => {
    const invited = await testApi.post('/v1/organization/members', { email: 'sneaky@example.com', role: 'admin' }).expect(403);
    expect(invited.body.error.code).toBe('LIVE_MODE_ONLY');
    const [members] = await t
      .em()
      .getConnection()
      .execute<{ count: string }[]>('select count(*) as count from members where organization_id = ?', [test.organizationId]);
    expect(Number(members!.count)).toBe(0);
    expect((await testApi.patch('/v1/organization', { domain: 'research.example.com' }).expect(403)).body.error.code).toBe('LIVE_MODE_ONLY');
    expect((await testApi.get('/v1/organization').expect(200)).body.domain).toBeNull();
  });

  it("copies the live organization's name and settings when they change", async () => {
    await updateOrganization({ em: t.em() }, systemCaller(live.organizationId), { name: 'Acme Research', settings: { brandColor: '#112233' } });
    expect((await testApi.get('/v1/organization').expect(200)).body).toMatchObject({ name: 'Acme Research', settings: { brandColor: '#112233' } });
  });
});

describe('POST /v1/test-helpers/events (what `cli trigger` calls with a test key)', () => {
  it('makes an event with sample data in the test world, delivered to its subscribed test endpoints', async () => {
    const endpoint = (await testApi.post('/api/webhooks', { url: 'https://93.184.215.14/triggered', events: ['session.abandoned'] }).expect(201)).body;
    const made = await testApi.post('/v1/test-helpers/events', { type: 'session.abandoned' }).expect(201);
    expect(made.body).toMatchObject({ type: 'session.abandoned', livemode: false, data: { reason: 'idle' } });
    expect(made.headers.location).toBe(`/v1/events/${made.body.id}`);
    expect((await testApi.get(`/v1/events/${made.body.id}`).expect(200)).body.id).toBe(made.body.id);
    await liveApi.get(`/v1/events/${made.body.id}`).expect(404);
    const deliveries = (await testApi.get(`/api/webhooks/${endpoint.id}/deliveries`).expect(200)).body.data;
    expect(deliveries.map((delivery: { eventId: string }) => delivery.eventId)).toContain(made.body.id);
    await testApi.delete(`/api/webhooks/${endpoint.id}`).expect(204);
  });

  it('makes every event type with sample data exactly its published Design B schema', async () => {
    for (const type of WEBHOOK_EVENT_TYPES) {
      const event = (await testApi.post('/v1/test-helpers/events', { type }).expect(201)).body;
      const envelope = { id: event.id, type: event.type, created_at: event.createdAt, data: event.data };
      expect(() => strictly(WEBHOOK_PAYLOADS[type].B).parse(envelope), type).not.toThrow();
    }
  });

  it('is refused to a live key (403 TEST_MODE_ONLY), which writes nothing', async () => {
    const before = (await liveApi.get('/v1/events').expect(200)).body.pagination.total;
    expect((await liveApi.post('/v1/test-helpers/events', { type: 'interview.completed' }).expect(403)).body.error.code).toBe('TEST_MODE_ONLY');
    expect((await liveApi.get('/v1/events').expect(200)).body.pagination.total).toBe(before);
    expect((await testApi.post('/v1/test-helpers/events', { type: 'not.a.type' }).expect(422)).body.error.details.fields[0].path).toBe('type');
  });
});

describe('DELETE /v1/test-data', () => {
  it('deletes the test world in one call, keeps its keys and endpoints, and never touches live data', async () => {
    // A public address: nothing is delivered in this test.
    const endpoint = (await testApi.post('/api/webhooks', { url: 'https://93.184.215.14/test-hook', events: ['interview.completed'] }).expect(201)).body;
    const liveCampaign = await createCampaign(liveApi);
    const liveBefore = (await liveApi.get('/v1/campaigns?limit=100').expect(200)).body.pagination.total;
    const testBefore = (await testApi.get('/v1/campaigns?limit=100').expect(200)).body.pagination.total;
    expect(testBefore).toBeGreaterThan(0);

    const deleted = (await liveApi.delete('/v1/test-data').expect(200)).body;
    expect(deleted.deleted).toMatchObject({ campaigns: testBefore, sessions: 1 });
    expect(deleted.deleted.events).toBeGreaterThan(0);

    // The same test key works on an empty world; its endpoint is still there with its secret.
    expect((await testApi.get('/v1/campaigns').expect(200)).body).toMatchObject({ data: [], pagination: { total: 0 } });
    expect((await testApi.get('/v1/events').expect(200)).body.data).toEqual([]);
    expect((await testApi.get(`/api/webhooks/${endpoint.id}`).expect(200)).body).toMatchObject({ id: endpoint.id, livemode: false });
    expect((await liveApi.get('/v1/campaigns?limit=100').expect(200)).body.pagination.total).toBe(liveBefore);
    await liveApi.get(`/v1/campaigns/${liveCampaign.id}`).expect(200);

    // The key moved to the new world: what asks whether it still acts for the old one (the event stream) hears no.
    expect(await isApiKeyStillUsable({ em: t.em() }, { apiKeyId: test.apiKeyId, organizationId: test.organizationId })).toBe(false);
    const moved = (await testApi.get('/v1/organization').expect(200)).body.id as string;
    expect(moved).not.toBe(test.organizationId);
    expect(await isApiKeyStillUsable({ em: t.em() }, { apiKeyId: test.apiKeyId, organizationId: moved })).toBe(true);

    // Again, with the test key itself: nothing left to delete.
    expect((await testApi.delete('/v1/test-data').expect(200)).body.deleted).toEqual({ campaigns: 0, invites: 0, sessions: 0, events: 0 });
  });

  it('is answered for an organization without a test world, deleting nothing', async () => {
    const other = await t.createTenant();
    expect((await apiAs(t.http, other).delete('/v1/test-data').expect(200)).body.deleted).toEqual({ campaigns: 0, invites: 0, sessions: 0, events: 0 });
  });

  it('needs organization:write', async () => {
    const reader = await t.createKey(live.organizationId, ['organization:read', 'campaigns:read']);
    expect((await apiAs(t.http, reader).delete('/v1/test-data').expect(403)).body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
  });
});

describe('the daily cap on test interviews (they cost no credits)', () => {
  it('starts TEST_MODE_INTERVIEWS_PER_DAY interviews in 24 hours, then answers 429 TEST_MODE_INTERVIEW_LIMIT; live starts go on', async () => {
    const script = await createPublishedScript(testApi, { questions: ONE_QUESTION });
    const campaign = await createCampaign(testApi, { scriptId: script.id });
    const start = async (api: Api, campaignId: string) => {
      const invite = await createInvite(api, campaignId, { email: `cap-${Math.random().toString(36).slice(2)}@example.com`, sendEmail: false });
      return participantAs(t.http, invite.token).start();
    };
    // The test world is new (its data was deleted above): two may start.
    expect((await start(testApi, campaign.id)).status).toBe(201);
    expect((await start(testApi, campaign.id)).status).toBe(201);
    const refused = await start(testApi, campaign.id);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'TEST_MODE_INTERVIEW_LIMIT', details: { limit: 2 } });
    const liveCampaign = await createCampaign(liveApi);
    expect((await start(liveApi, liveCampaign.id)).status).toBe(201);
  });
});
