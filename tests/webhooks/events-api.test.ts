import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookB } from '../../shared/webhook-signatures.js';
import { type Api, apiAs, createCampaign, createInvite, createPublishedScript } from '../helpers/factories.js';
import { participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { RESULTS_QUESTIONS, runCompletionChain, TEXT_ANSWERS } from '../helpers/results.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { makeTestCertificate, type TestCertificate } from '../helpers/tls.js';
import { closeReceivers, type Receiver, reply, startWebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * The events API (`/v1/events`): a real interview's events listed, filtered, paged and read with
 * their Design B data, for 30 days and no longer; one sent to an endpoint that never subscribed
 * to it; and nothing of another organization's, either way.
 */

const DELIVER = { tasks: ['webhook__drain', 'webhook__deliver'] };
const PARTICIPANT_BUDGET = { RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' };
type Json = any;

let certificate: TestCertificate;
let tlsDir: string;
let t: TestApp;
let api: Api;
let stranger: Api;
const servers: Server[] = [];
/** Receives everything in Design B: what the events API's `data` is compared with. */
let designB: Receiver;
let designBSecret: string;
let sessionId: string;

async function startReceiver(): Promise<Receiver> {
  const receiver = await startWebhookReceiver(certificate, reply(200));
  servers.push(receiver.server);
  return receiver;
}

async function createEndpoint(as: Api, body: Record<string, unknown>): Promise<Json> {
  const response = await as.post('/api/webhooks', body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** The event's data without its links, which are signed at each read and attempt. */
const withoutLinks = (data: Json) => {
  const { transcript_url: _transcript, recording_url: _recording, ...rest } = data;
  return rest;
};

beforeAll(async () => {
  certificate = await makeTestCertificate();
  tlsDir = await mkdtemp(path.join(tmpdir(), 'events-api-tls-'));
  const caFile = path.join(tlsDir, 'ca.pem');
  await writeFile(caFile, certificate.cert);
  t = await startTestApp({ ...PARTICIPANT_BUDGET, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_CA_FILE: caFile });
  api = apiAs(t.http, await t.createTenant());
  stranger = apiAs(t.http, await t.createTenant());
  designB = await startReceiver();
  designBSecret = (await createEndpoint(api, { url: designB.url, events: ['*'], design: 'B' })).secret;

  // A real interview: completed, then the participant's feedback; then a test event.
  const script = await createPublishedScript(api, { questions: RESULTS_QUESTIONS });
  const campaign = await createCampaign(api, { scriptId: script.id });
  const invite = await createInvite(api, campaign.id, { email: 'ada.lovelace@example.com', name: 'Ada', sendEmail: false });
  const participant = participantAs(t.http, invite.token);
  sessionId = (await participant.start().expect(201)).body.session.id;
  for (const answer of TEXT_ANSWERS) await participant.answer(answer).expect(200);
  await runCompletionChain(t, sessionId);
  await participant.feedback({ overall_rating: 4, comments: 'Quick and clear.' }).expect(201);
  await runJobsOnce(t, DELIVER);
  const endpoints = (await api.get('/api/webhooks').expect(200)).body.data;
  await api.post(`/api/webhooks/${endpoints[0].id}/test`).expect(201);
  await runJobsOnce(t, DELIVER);
}, 120_000);

afterAll(async () => {
  await t?.close();
  closeReceivers(servers);
  if (tlsDir) await rm(tlsDir, { recursive: true, force: true });
});

describe('GET /v1/events', () => {
  it("lists the organization's events newest first, each with the data its Design B delivery carried", async () => {
    const listed = (await api.get('/v1/events').expect(200)).body;
    // session.started is dated when the first question was asked, transcript.ready when it was stored.
    expect(listed.data.map((event: Json) => event.type)).toEqual([
      'test.webhook',
      'session.feedback_submitted',
      'interview.completed',
      'transcript.ready',
      'session.started',
    ]);
    expect(listed.pagination).toMatchObject({ total: 5, hasMore: false, nextCursor: null });
    for (const event of listed.data) {
      const delivered = designB.requests.find((request) => request.body.id === event.id);
      expect(delivered, event.type).toBeDefined();
      expect(event).toEqual({
        id: delivered!.body.id,
        livemode: true,
        type: delivered!.body.type,
        createdAt: delivered!.body.created_at,
        sessionId: event.type === 'test.webhook' ? null : sessionId,
        data: expect.any(Object),
      });
      expect(withoutLinks(event.data)).toEqual(withoutLinks(delivered!.body.data));
    }
    // The completed interview's transcript link is signed at this read and opens without a key.
    const completed = listed.data.find((event: Json) => event.type === 'interview.completed');
    const transcript = await t.http.get(new URL(completed.data.transcript_url).pathname).expect(200);
    expect(transcript.body.utterances.length).toBeGreaterThan(TEXT_ANSWERS.length);
  });

  it('filters by type and time, and pages by cursor without repeating or skipping', async () => {
    const feedback = (await api.get('/v1/events?type=session.feedback_submitted').expect(200)).body.data;
    expect(feedback.map((event: Json) => event.type)).toEqual(['session.feedback_submitted']);
    const all = (await api.get('/v1/events').expect(200)).body.data as Json[];
    const after = (await api.get(`/v1/events?from=${encodeURIComponent(all[1].createdAt)}`).expect(200)).body.data;
    expect(after.map((event: Json) => event.id)).toEqual([all[0].id, all[1].id]);
    const before = (await api.get(`/v1/events?to=${encodeURIComponent(all[1].createdAt)}`).expect(200)).body.data;
    expect(before.map((event: Json) => event.id)).toEqual(all.slice(2).map((event) => event.id));

    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=1&startingAfter=${cursor}` : '?limit=1';
      const page: Json = (await api.get(`/v1/events${query}`).expect(200)).body;
      expect(page.data).toHaveLength(1);
      paged.push(page.data[0].id);
      cursor = page.pagination.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all.map((event) => event.id));
  });

  it('an unknown type or a malformed time is refused with the field named', async () => {
    const type = await api.get('/v1/events?type=interview.started');
    expect([type.status, type.body.error.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(type.body.error.details.fields.map((field: Json) => field.path)).toEqual(['type']);
    const from = await api.get('/v1/events?from=yesterday');
    expect(from.status).toBe(400);
    expect(from.body.error.details.fields.map((field: Json) => field.path)).toEqual(['from']);
  });
});

describe('GET /v1/events/{eventId}', () => {
  it('reads one event; another organization gets 404 for it and never lists it', async () => {
    const [newest] = (await api.get('/v1/events').expect(200)).body.data;
    expect((await api.get(`/v1/events/${newest.id}`).expect(200)).body).toEqual(newest);
    const foreign = await stranger.get(`/v1/events/${newest.id}`).expect(404);
    expect(foreign.body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect((await stranger.get('/v1/events').expect(200)).body.data).toEqual([]);
  });
});

describe('POST /v1/events/{eventId}/redeliver', () => {
  it('sends an event to an endpoint that never subscribed to it: a new delivery, signed, the same event id', async () => {
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['session.feedback_submitted'], design: 'B' });
    const completed = (await api.get('/v1/events?type=interview.completed').expect(200)).body.data[0];
    const response = await api.post(`/v1/events/${completed.id}/redeliver`, { endpointId: endpoint.id }).expect(201);
    expect(response.headers.location).toBe(`/api/webhooks/deliveries/${response.body.id}`);
    expect(response.body).toMatchObject({
      endpointId: endpoint.id,
      eventId: completed.id,
      event: 'interview.completed',
      status: 'pending',
      redeliveryOf: null,
    });
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(verifyWebhookB(request!.raw, request!.headers, endpoint.secret)).toBe(true);
    expect(request!.body).toMatchObject({ id: completed.id, type: 'interview.completed' });
    expect(withoutLinks(request!.body.data)).toEqual(withoutLinks(completed.data));
    expect((await api.get(`/api/webhooks/deliveries/${response.body.id}`).expect(200)).body.status).toBe('succeeded');
    // The Design B receiver that already had it got nothing more.
    expect(designB.requests.filter((seen) => seen.body.id === completed.id)).toHaveLength(1);
    expect(verifyWebhookB(designB.requests[0]!.raw, designB.requests[0]!.headers, designBSecret)).toBe(true);
  });

  it('a disabled endpoint is 409; an endpoint or event of another organization, or none, is 404, and nothing is queued', async () => {
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const foreignEndpoint = await createEndpoint(stranger, { url: receiver.url, events: ['*'] });
    const [event] = (await api.get('/v1/events').expect(200)).body.data;
    const deliveriesBefore = await t.em().execute<{ count: string }[]>(`select count(*) as count from webhook_deliveries`);

    await api.patch(`/api/webhooks/${endpoint.id}`, { status: 'disabled' }).expect(200);
    expect((await api.post(`/v1/events/${event.id}/redeliver`, { endpointId: endpoint.id }).expect(409)).body.error.code).toBe('WEBHOOK_ENDPOINT_DISABLED');
    await api.post(`/v1/events/${event.id}/redeliver`, { endpointId: foreignEndpoint.id }).expect(404);
    await stranger.post(`/v1/events/${event.id}/redeliver`, { endpointId: foreignEndpoint.id }).expect(404);
    await api.post('/v1/events/0b7e3c52-0000-4000-8000-000000000000/redeliver', { endpointId: endpoint.id }).expect(404);
    const missing = await api.post(`/v1/events/${event.id}/redeliver`, {}).expect(400);
    expect(missing.body.error.details.fields.map((field: Json) => field.path)).toEqual(['endpointId']);
    expect(await t.em().execute(`select count(*) as count from webhook_deliveries`)).toEqual(deliveriesBefore);
  });
});

describe('permissions', () => {
  it("events carry participants' data and transcript links: reading them takes sessions:read besides organization:read, sending one too", async () => {
    const [event] = (await api.get('/v1/events').expect(200)).body.data;
    const orgOf = (await t.em().execute<{ organization_id: string }[]>(`select organization_id from webhook_events where id = ?`, [event.id]))[0]!
      .organization_id;
    const settingsOnly = apiAs(t.http, await t.createKey(orgOf, ['organization:read', 'organization:write']));
    const refused = await settingsOnly.get('/v1/events').expect(403);
    expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', details: { required: 'sessions:read' } });
    await settingsOnly.get(`/v1/events/${event.id}`).expect(403);
    const endpoints = (await api.get('/api/webhooks').expect(200)).body.data;
    await settingsOnly.post(`/v1/events/${event.id}/redeliver`, { endpointId: endpoints[0].id }).expect(403);
    const reader = apiAs(t.http, await t.createKey(orgOf, ['organization:read', 'sessions:read']));
    expect((await reader.get(`/v1/events/${event.id}`).expect(200)).body.id).toBe(event.id);
  });
});

describe('after 30 days', () => {
  it('an event is no longer listed, read or sent, whatever `from` asks', async () => {
    const tenant = apiAs(t.http, await t.createTenant());
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(tenant, { url: receiver.url, events: ['*'] });
    await tenant.post(`/api/webhooks/${endpoint.id}/test`).expect(201);
    await tenant.post(`/api/webhooks/${endpoint.id}/test`).expect(201);
    const [newer, older] = (await tenant.get('/v1/events').expect(200)).body.data;
    // 30 days and a minute ago, and 29 days and 23 hours ago.
    await t.em().execute(`update webhook_events set occurred_at = now() - interval '30 days 1 minute' where id = ?`, [older.id]);
    await t.em().execute(`update webhook_events set occurred_at = now() - interval '29 days 23 hours' where id = ?`, [newer.id]);

    const since = new Date(Date.now() - 60 * 24 * 3600_000).toISOString();
    expect((await tenant.get(`/v1/events?from=${since}`).expect(200)).body.data.map((event: Json) => event.id)).toEqual([newer.id]);
    await tenant.get(`/v1/events/${older.id}`).expect(404);
    await tenant.get(`/v1/events/${newer.id}`).expect(200);
    await tenant.post(`/v1/events/${older.id}/redeliver`, { endpointId: endpoint.id }).expect(404);
  });
});
