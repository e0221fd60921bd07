import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOLERANCE_MS, verifyWebhookA, verifyWebhookB } from '../../shared/webhook-signatures.js';
import { type Api, apiAs, createCampaign, createInvite, createProject, createPublishedScript } from '../helpers/factories.js';
import { download, wav } from '../helpers/audio.js';
import { interviewFixture, letTimePass, participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { addJobs } from '../../server/jobs/add-jobs.js';
import { deliverWebhookJob, drainEndpointJob } from '../../server/domains/webhooks/delivery-jobs.js';
import { wakeStalledDrains } from '../../server/domains/webhooks/index.js';
import { RESULTS_QUESTIONS, runCompletionChain, TEXT_ANSWERS } from '../helpers/results.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';
import { type TestCertificate, makeTestCertificate } from '../helpers/tls.js';
import { WEBHOOK_PAYLOADS } from '../../shared/schemas/webhook-payloads.js';
import { strictly } from '../helpers/strict-schema.js';
import { type Answer, closeReceivers, type Receiver, type Received, reply, startWebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Webhooks end to end, against real HTTPS receivers on loopback: endpoint management over REST,
 * the SSRF rules, both payload designs with their exact headers and signatures (checked here with
 * node:crypto, independently of the service's own code), the spec's retry schedules job by job,
 * 410 Gone, secret rotation, the test event, redelivery, metrics and the failed-deliveries query.
 */

const PARTICIPANT_BUDGET = { RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' };
const DELIVER = { tasks: ['webhook__drain', 'webhook__deliver'] };
const USER_AGENT = 'Interview-Webhook/1.0';
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MINUTE = 60_000;
/** How far a job's run_at may be from the failure time plus the delay. */
const TOLERANCE_MS = 2_000;

/** Bodies as the receiver and the API answer them (checked field by field below). */
type Json = any;

let pems: TestCertificate;
let tlsDir: string;
let caFile: string;
let t: TestApp;
const servers: Server[] = [];

/** A customer's HTTPS receiver on 127.0.0.1 that keeps every request exactly as it came. */
async function startReceiver(answer: Answer = reply(200)): Promise<Receiver> {
  const receiver = await startWebhookReceiver(pems, answer);
  servers.push(receiver.server);
  return receiver;
}

function hmacHex(secret: string, data: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(data, 'utf8')).digest('hex');
}

async function newTenant(app: TestApp = t): Promise<{ tenant: TestTenant; api: Api }> {
  const tenant = await app.createTenant();
  return { tenant, api: apiAs(app.http, tenant) };
}

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  design: 'A' | 'B';
  status: string;
  disabledReason: string | null;
  secret: string;
  previousSecretExpiresAt: string | null;
}

async function createEndpoint(api: Api, body: Record<string, unknown>): Promise<Endpoint> {
  const response = await api.post('/api/webhooks', body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Endpoint;
}

async function sendTest(api: Api, endpointId: string): Promise<Json> {
  return (await api.post(`/api/webhooks/${endpointId}/test`).expect(201)).body;
}

async function delivery(api: Api, deliveryId: string): Promise<Json> {
  return (await api.get(`/api/webhooks/deliveries/${deliveryId}`).expect(200)).body;
}

interface DeliveryJob {
  id: string;
  runAt: Date;
  payload: { deliveryId: string; attempt: number };
}

/** The queued `webhook__deliver` jobs of one delivery (graphile-worker deletes a job once it ran). */
async function deliveryJobs(deliveryId: string, app: TestApp = t): Promise<DeliveryJob[]> {
  const rows = await app.em().execute<{ id: string; run_at: string | Date; payload: DeliveryJob['payload'] }[]>(
    `select j.id, j.run_at, p.payload from graphile_worker.jobs j join graphile_worker._private_jobs p on p.id = j.id
        where j.task_identifier = 'webhook__deliver' and p.payload->>'deliveryId' = ? order by j.id`,
    [deliveryId],
  );
  return rows.map((row) => ({ id: String(row.id), runAt: new Date(row.run_at), payload: row.payload }));
}

/** The queued `webhook__drain` jobs of one endpoint (its first attempts). */
async function drainJobs(endpointId: string): Promise<{ id: string; runAt: Date; payload: { endpointId: string }; queue: string | null }[]> {
  const rows = await t.em().execute<{ id: string; run_at: string | Date; payload: { endpointId: string }; queue_name: string | null }[]>(
    `select j.id, j.run_at, p.payload, j.queue_name from graphile_worker.jobs j join graphile_worker._private_jobs p on p.id = j.id
        where j.task_identifier = 'webhook__drain' and p.payload->>'endpointId' = ? order by j.id`,
    [endpointId],
  );
  return rows.map((row) => ({ id: String(row.id), runAt: new Date(row.run_at), payload: row.payload, queue: row.queue_name }));
}

async function onlyJob(deliveryId: string): Promise<DeliveryJob> {
  const jobs = await deliveryJobs(deliveryId);
  expect(jobs).toHaveLength(1);
  return jobs[0]!;
}

/** The retry is due now: what the clock would do after its delay. */
async function makeDue(job: DeliveryJob): Promise<void> {
  await t.em().execute(`update graphile_worker._private_jobs set run_at = now() where id = ?`, [job.id]);
}

/**
 * Drives a delivery through its schedule: after each failed attempt, the next job must be due
 * exactly `delay` after the failure (the receiver's last request), then it is made due and run.
 */
async function followSchedule(deliveryId: string, receiver: Receiver, delaysSeconds: readonly number[]): Promise<void> {
  for (const [index, delay] of delaysSeconds.entries()) {
    const attempt = index + 2;
    expect(receiver.requests).toHaveLength(attempt - 1);
    const failedAt = receiver.requests.at(-1)!.at;
    const job = await onlyJob(deliveryId);
    expect(job.payload).toEqual({ deliveryId, attempt });
    expect(Math.abs(job.runAt.getTime() - (failedAt + delay * 1000)), `attempt ${attempt} due ${delay}s after the failure`).toBeLessThan(TOLERANCE_MS);
    await makeDue(job);
    await runJobsOnce(t, DELIVER);
  }
  expect(receiver.requests).toHaveLength(delaysSeconds.length + 1);
}

function decodeJwtPayload(token: string): Json {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

/** `webhook_deliveries_total` by its labels, as GET /metrics shows it now. */
/** A sample's value in GET /metrics (the series whose labels are exactly these), 0 when absent. */
async function metricValue(name: string, labels: Record<string, string>): Promise<number> {
  const text = (await t.http.get('/metrics').expect(200)).text;
  for (const line of text.split('\n')) {
    const match = /^(\w+)\{([^}]*)\} (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const found = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.keys(found).length === Object.keys(labels).length && Object.entries(labels).every(([key, value]) => found[key] === value))
      return Number(match[3]);
  }
  return 0;
}

const deliveriesCounter = (labels: { design: string; event: string; outcome: string }) => metricValue('webhook_deliveries_total', labels);

beforeAll(async () => {
  pems = await makeTestCertificate();
  tlsDir = await mkdtemp(path.join(tmpdir(), 'webhooks-tls-'));
  caFile = path.join(tlsDir, 'ca.pem');
  await writeFile(caFile, pems.cert);
  t = await startTestApp({ ...PARTICIPANT_BUDGET, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_CA_FILE: caFile });
});

afterAll(async () => {
  await t?.close();
  closeReceivers(servers);
  if (tlsDir) await rm(tlsDir, { recursive: true, force: true });
});

describe('endpoint management over REST', () => {
  it('create answers 201 with a whsec_ secret shown once; get, list, update and delete answer the endpoint without it', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver();
    const created = await createEndpoint(api, { url: receiver.url, events: ['interview.completed'], description: 'CRM sync' });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^whe_/),
      url: receiver.url,
      events: ['interview.completed'],
      design: 'A',
      description: 'CRM sync',
      status: 'enabled',
      disabledReason: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((created as Json).createdAt).toMatch(ISO_MS);
    const secretless = (body: Json) => {
      expect(body).not.toHaveProperty('secret');
      expect(JSON.stringify(body)).not.toContain(created.secret);
    };

    const got = (await api.get(`/api/webhooks/${created.id}`).expect(200)).body;
    secretless(got);
    const { secret: _secret, ...withoutSecret } = created;
    expect(got).toEqual(withoutSecret);

    const listed = (await api.get('/api/webhooks').expect(200)).body;
    secretless(listed);
    expect(listed.data.map((endpoint: Json) => endpoint.id)).toEqual([created.id]);

    const other = await startReceiver();
    const updated = (
      await api.patch(`/api/webhooks/${created.id}`, { url: other.url, events: ['*'], description: 'Everything', status: 'disabled' }).expect(200)
    ).body;
    secretless(updated);
    expect(updated).toMatchObject({ id: created.id, url: other.url, events: ['*'], description: 'Everything', status: 'disabled', disabledReason: 'manual' });
    expect((await api.get(`/api/webhooks/${created.id}`).expect(200)).body).toEqual(updated);

    const deleted = await api.delete(`/api/webhooks/${created.id}`).expect(204);
    expect(deleted.text).toBe('');
    expect((await api.get(`/api/webhooks/${created.id}`).expect(404)).body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('design defaults to A and can be chosen explicitly as B', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver();
    expect((await createEndpoint(api, { url: receiver.url, events: ['*'] })).design).toBe('A');
    expect((await createEndpoint(api, { url: receiver.url, events: ['*'], design: 'B' })).design).toBe('B');
  });

  it('list answers the pagination envelope, newest first', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver();
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) ids.push((await createEndpoint(api, { url: receiver.url, events: ['*'] })).id);
    const first = (await api.get('/api/webhooks?limit=2').expect(200)).body;
    expect(first.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true, nextCursor: expect.stringMatching(/^cur_/) });
    expect(first.data.map((endpoint: Json) => endpoint.id)).toEqual([ids[2], ids[1]]);
    const second = (await api.get('/api/webhooks?limit=2&offset=2').expect(200)).body;
    expect(second.pagination).toEqual({ total: 3, limit: 2, offset: 2, hasMore: false, nextCursor: null });
    expect(second.data.map((endpoint: Json) => endpoint.id)).toEqual([ids[0]]);
  });

  it.each([
    ['no events', { events: [] }, 'events'],
    ['an unknown event', { events: ['interview.started'] }, 'events'],
    ['a repeated event', { events: ['interview.completed', 'interview.completed'] }, 'events'],
    ['an http:// url', { url: 'http://127.0.0.1:9/hook' }, 'url'],
  ])('create with %s answers 422 VALIDATION_ERROR on the field', async (_name, override, field) => {
    const { api } = await newTenant();
    const receiver = await startReceiver();
    const response = await api.post('/api/webhooks', { url: receiver.url, events: ['*'], ...override });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.fields.map((f: Json) => String(f.path).split(/[.[]/)[0])).toEqual([field]);
    expect((await api.get('/api/webhooks').expect(200)).body.pagination.total).toBe(0);
  });

  it('reads need organization:read and writes organization:write, else 403 INSUFFICIENT_PERMISSIONS', async () => {
    const { tenant, api } = await newTenant();
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const sent = await sendTest(api, endpoint.id);
    const reader = apiAs(t.http, await t.createKey(tenant.organizationId, ['organization:read']));
    const writer = apiAs(t.http, await t.createKey(tenant.organizationId, ['organization:write']));
    const outsider = apiAs(t.http, await t.createKey(tenant.organizationId, ['campaigns:read', 'campaigns:write', 'sessions:read', 'billing:write']));

    const reads = (as: Api) => [
      as.get('/api/webhooks'),
      as.get(`/api/webhooks/${endpoint.id}`),
      as.get(`/api/webhooks/${endpoint.id}/deliveries`),
      as.get(`/api/webhooks/deliveries/${sent.id}`),
    ];
    const writes = (as: Api) => [
      as.post('/api/webhooks', { url: receiver.url, events: ['*'] }),
      as.patch(`/api/webhooks/${endpoint.id}`, { description: 'x' }),
      as.post(`/api/webhooks/${endpoint.id}/rotate-secret`),
      as.post(`/api/webhooks/${endpoint.id}/test`),
      as.post(`/api/webhooks/deliveries/${sent.id}/redeliver`),
      as.delete(`/api/webhooks/${endpoint.id}`),
    ];
    for (const response of await Promise.all(reads(reader))) expect(response.status).toBe(200);
    for (const as of [writer, outsider]) {
      for (const response of await Promise.all(reads(as))) expect([response.status, response.body.error?.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
    }
    for (const as of [reader, outsider]) {
      for (const response of await Promise.all(writes(as))) expect([response.status, response.body.error?.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
    }
    // The write key can write (and nothing above changed anything).
    expect((await writer.post('/api/webhooks', { url: receiver.url, events: ['*'] })).status).toBe(201);
    expect((await api.get(`/api/webhooks/${endpoint.id}`).expect(200)).body.secretRotatedAt).toBeNull();
  });

  it("another organization's endpoint and delivery answer 404 to every operation", async () => {
    const { api } = await newTenant();
    const { api: stranger } = await newTenant();
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const sent = await sendTest(api, endpoint.id);
    const responses = await Promise.all([
      stranger.get(`/api/webhooks/${endpoint.id}`),
      stranger.patch(`/api/webhooks/${endpoint.id}`, { description: 'mine now' }),
      stranger.post(`/api/webhooks/${endpoint.id}/rotate-secret`),
      stranger.post(`/api/webhooks/${endpoint.id}/test`),
      stranger.get(`/api/webhooks/${endpoint.id}/deliveries`),
      stranger.get(`/api/webhooks/deliveries/${sent.id}`),
      stranger.post(`/api/webhooks/deliveries/${sent.id}/redeliver`),
      stranger.delete(`/api/webhooks/${endpoint.id}`),
    ]);
    for (const response of responses) expect([response.status, response.body.error?.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
    expect((await stranger.get('/api/webhooks').expect(200)).body.data).toEqual([]);
    expect((await api.get(`/api/webhooks/${endpoint.id}`).expect(200)).body.description).toBeNull();
  });

  it('Idempotency-Key on create replays the first answer, secret included, and creates one endpoint', async () => {
    const { tenant, api } = await newTenant();
    const receiver = await startReceiver();
    const post = () =>
      t.http
        .post('/api/webhooks')
        .set('Authorization', tenant.authorization)
        .set('Idempotency-Key', 'create-hook-1')
        .send({ url: receiver.url, events: ['*'] });
    const first = await post();
    const again = await post();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.body.secret).toMatch(/^whsec_/);
    expect((await api.get('/api/webhooks').expect(200)).body.pagination.total).toBe(1);
    // Kept for the replay, but like the endpoint's own copy not in plain text.
    const [stored] = await t
      .em()
      .execute<{ count: string }[]>(
        `select (select count(*) from idempotency_keys where response_body like ?) + (select count(*) from webhook_endpoints where sealed_secret like ?) as count`,
        [`%${first.body.secret}%`, `%${first.body.secret}%`],
      );
    expect(Number(stored!.count)).toBe(0);
  });
});

describe('SSRF', () => {
  let bare: TestApp;
  let bareApi: Api;
  beforeAll(async () => {
    // No WEBHOOK_ALLOW_HOSTS: loopback is refused like any private address. It trusts the CA, so
    // a request that got through would really reach the receiver.
    bare = await startTestApp({ WEBHOOK_CA_FILE: caFile });
    bareApi = (await newTenant(bare)).api;
  });
  afterAll(async () => {
    await bare?.close();
  });

  it.each([
    'http://hooks.example.com/interviews',
    'https://127.0.0.1/hook',
    'https://localhost/hook',
    'https://10.0.0.1/hook',
    'https://192.168.1.20/hook',
    'https://172.16.5.4/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://2130706433/hook',
    'https://0x7f000001/hook',
    'https://0177.0.0.1/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:a9fe:a9fe]/hook',
    'https://user:pass@93.184.215.14/hook',
  ])('creating an endpoint at %s without an allowlist answers 422 on url', async (url) => {
    const response = await bareApi.post('/api/webhooks', { url, events: ['*'] });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.fields.map((f: Json) => f.path)).toEqual(['url']);
  });

  it('a public address is accepted, and updating it to a private one answers 422 on url', async () => {
    const endpoint = await createEndpoint(bareApi, { url: 'https://93.184.215.14/hook', events: ['*'] });
    const response = await bareApi.patch(`/api/webhooks/${endpoint.id}`, { url: 'https://[::ffff:10.0.0.1]/hook' });
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields.map((f: Json) => f.path)).toEqual(['url']);
    expect((await bareApi.get(`/api/webhooks/${endpoint.id}`).expect(200)).body.url).toBe('https://93.184.215.14/hook');
  });

  it('a URL is stored and shown as parsed (the one connected to), and judged at the host it connects to', async () => {
    // WHATWG URL parsing reads the backslash as a slash: the host is 93.184.215.14 and "@127.0.0.1"
    // is part of the path, whatever the text seems to say.
    const endpoint = await createEndpoint(bareApi, { url: 'https://93.184.215.14\\@127.0.0.1/a', events: ['*'] });
    expect(endpoint.url).toBe('https://93.184.215.14/@127.0.0.1/a');
    const [row] = await bare.em().execute<{ url: string }[]>(`select url from webhook_endpoints where id = ?`, [endpoint.id]);
    expect(row!.url).toBe('https://93.184.215.14/@127.0.0.1/a');
    expect((await bareApi.get(`/api/webhooks/${endpoint.id}`).expect(200)).body.url).toBe('https://93.184.215.14/@127.0.0.1/a');
    // Other spellings of one URL are stored once, as parsed: case, default port, dot segments.
    const updated = await bareApi.patch(`/api/webhooks/${endpoint.id}`, { url: 'HTTPS://93.184.215.14:443/x/../hook' }).expect(200);
    expect(updated.body.url).toBe('https://93.184.215.14/hook');
    const [after] = await bare.em().execute<{ url: string }[]>(`select url from webhook_endpoints where id = ?`, [endpoint.id]);
    expect(after!.url).toBe('https://93.184.215.14/hook');
    // The other way round the host connected to is loopback, and that is what is judged.
    const refused = await bareApi.post('/api/webhooks', { url: 'https://127.0.0.1\\@93.184.215.14/a', events: ['*'] });
    expect([refused.status, refused.body.error?.details?.fields?.map((f: Json) => f.path)]).toEqual([422, ['url']]);
  });

  it('the allowlist names hosts exactly: with 127.0.0.1 listed, localhost and [::1] are still refused', async () => {
    const { api } = await newTenant();
    for (const url of ['https://localhost/hook', 'https://[::1]/hook', 'https://127.0.0.2/hook']) {
      const response = await api.post('/api/webhooks', { url, events: ['*'] });
      expect([url, response.status, response.body.error?.details?.fields?.[0]?.path]).toEqual([url, 422, 'url']);
    }
  });

  it('the address is checked again at delivery: a URL that now points at loopback gets no request', async () => {
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(bareApi, { url: 'https://93.184.215.14/hook', events: ['*'] });
    // As if its DNS had changed since creation.
    await bare.em().execute(`update webhook_endpoints set url = ? where id = ?`, [receiver.url, endpoint.id]);
    const sent = await sendTest(bareApi, endpoint.id);
    await runJobsOnce(bare, DELIVER);
    const after = (await bareApi.get(`/api/webhooks/deliveries/${sent.id}`).expect(200)).body;
    expect(after.attempts).toHaveLength(1);
    expect(after.attempts[0]).toMatchObject({ number: 1, statusCode: null, error: expect.stringMatching(/^private_address:/) });
    expect(receiver.requests).toHaveLength(0);
  });

  it('a 302 answer is a failed attempt "redirect 302 (not followed)" and the redirect target gets no request', async () => {
    const { api } = await newTenant();
    const target = await startReceiver();
    const receiver = await startReceiver(reply(302, '', { location: target.url }));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const sent = await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);
    const after = await delivery(api, sent.id);
    expect(after.status).toBe('pending');
    expect(after.attempts).toHaveLength(1);
    expect(after.attempts[0]).toMatchObject({ number: 1, statusCode: 302, error: 'redirect 302 (not followed)' });
    expect(after.nextAttemptAt).not.toBeNull();
    expect(receiver.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
  });
});

describe('events of a finished interview', () => {
  let api: Api;
  let sessionId: string;
  let session: Json;
  let campaign: Json;
  let projectId: string;
  let feedback: Json;
  const receivers = {} as Record<'a' | 'b' | 'completedOnly' | 'feedbackOnly', Receiver>;
  const endpoints = {} as Record<keyof typeof receivers, Endpoint>;
  /** The interview.completed each receiver had when the interview was announced (before the feedback and anything else). */
  const atCompletion = {} as Record<keyof typeof receivers, Received[]>;
  /** Every event each receiver had then: `*` also gets the session's lifecycle events. */
  const everythingAtCompletion = {} as Record<keyof typeof receivers, Received[]>;
  /** Design A's fields of every event of this interview. */
  const commonFieldsA = () => ({
    project_id: projectId,
    script_id: session.scriptId,
    campaign_id: campaign.id,
    campaign_name: campaign.name,
    session_id: sessionId,
    invitee_email: 'grace.hopper@example.com',
    locale: 'en',
  });

  beforeAll(async () => {
    ({ api } = await newTenant());
    receivers.a = await startReceiver();
    receivers.b = await startReceiver();
    receivers.completedOnly = await startReceiver();
    receivers.feedbackOnly = await startReceiver();
    endpoints.a = await createEndpoint(api, { url: receivers.a.url, events: ['*'] });
    endpoints.b = await createEndpoint(api, { url: receivers.b.url, events: ['*'], design: 'B' });
    endpoints.completedOnly = await createEndpoint(api, { url: receivers.completedOnly.url, events: ['interview.completed'] });
    endpoints.feedbackOnly = await createEndpoint(api, { url: receivers.feedbackOnly.url, events: ['session.feedback_submitted'], design: 'B' });

    const project = await createProject(api);
    projectId = project.id;
    const script = await createPublishedScript(api, { questions: RESULTS_QUESTIONS, projectId });
    const created = await createCampaign(api, { scriptId: script.id, projectId });
    const invite = await createInvite(api, created.id, {
      email: 'grace.hopper@example.com',
      name: 'Grace Hopper',
      metadata: { external_id: 'crm-4711' },
      sendEmail: false,
    });
    const participant = participantAs(t.http, invite.token);
    let state = (await participant.start().expect(201)).body;
    sessionId = state.session.id;
    // A two-and-a-half-minute interview rather than a few milliseconds, so durations and minutes are not all 0.
    await t.em().execute(`update sessions set active_since = active_since - interval '150 seconds' where id = ?`, [sessionId]);
    for (const answer of TEXT_ANSWERS) {
      if (state.turn === null) break;
      state = (await participant.answer(answer).expect(200)).body;
    }
    expect(state.session.status).toBe('completed');
    await runCompletionChain(t, sessionId);
    await runJobsOnce(t, DELIVER);
    for (const key of Object.keys(receivers) as (keyof typeof receivers)[]) {
      atCompletion[key] = receivers[key].of('interview.completed');
      everythingAtCompletion[key] = [...receivers[key].requests];
    }

    session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    campaign = (await api.get(`/v1/campaigns/${created.id}`).expect(200)).body;
    feedback = (
      await participant
        .feedback({
          overall_rating: 4,
          ease_of_use_rating: 5,
          audio_quality_rating: null,
          question_clarity_rating: 3,
          comments: 'Clear questions, a bit long.',
          technical_issues: 'The page reloaded once.',
          would_recommend: true,
        })
        .expect(201)
    ).body.feedback;
    await runJobsOnce(t, DELIVER);
  });

  it('interview.completed (Design A) arrives once, as a POST with the spec headers and an HMAC-SHA256 hex signature of the raw body', async () => {
    expect(atCompletion.a).toHaveLength(1);
    const request = atCompletion.a[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hooks/interviews');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe(USER_AGENT);
    expect(request.headers['x-webhook-event']).toBe('interview.completed');
    expect(request.headers['x-webhook-signature']).toBe(hmacHex(endpoints.a.secret, request.raw));
    expect(request.headers).not.toHaveProperty('x-interview-signature');
    expect(request.headers).not.toHaveProperty('x-interview-timestamp');
  });

  it('the Design A interview.completed body has exactly the spec fields, with the values of the session', async () => {
    const body = atCompletion.a[0]!.body;
    // No audio was recorded (a text interview), so no audio_url.
    expect(Object.keys(body).sort()).toEqual(
      [
        'event',
        'project_id',
        'script_id',
        'campaign_id',
        'campaign_name',
        'session_id',
        'invitee_email',
        'locale',
        'timestamp',
        'transcript_url',
        'duration_ms',
        'total_minutes',
        'free_minutes_applied',
        'billable_minutes',
        'amount_credits',
        'billing_plan_id',
        'pricing_snapshot',
      ].sort(),
    );
    const [row] = await t
      .em()
      .execute<{ billing: Json; announced_at: string }[]>(`select billing, completion_announced_at as announced_at from sessions where id = ?`, [sessionId]);
    const billing = row!.billing;
    expect(billing).toBeTruthy();
    // The event's time is its publication, once the results exist (not the session's end).
    expect(new Date(row!.announced_at).getTime()).toBeGreaterThanOrEqual(new Date(session.completedAt).getTime());
    expect(body).toEqual({
      event: 'interview.completed',
      ...commonFieldsA(),
      timestamp: new Date(row!.announced_at).toISOString(),
      transcript_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:3000\/files\/[\w-]+\.[\w-]+\.[\w-]+$/),
      duration_ms: session.duration * 1000,
      total_minutes: billing.totalMinutes,
      free_minutes_applied: billing.freeMinutesApplied,
      billable_minutes: billing.billableMinutes,
      amount_credits: billing.amountCredits,
      billing_plan_id: 'enterprise',
      pricing_snapshot: { price_per_minute_credits: billing.pricePerMinuteCredits },
    });
    expect(body.timestamp).toMatch(ISO_MS);
    expect(session.participant.email).toBe('grace.hopper@example.com');
    expect(session.language).toBe('en');
    expect(session.duration).toBeGreaterThanOrEqual(150);
    expect(body.duration_ms).toBeGreaterThanOrEqual(150_000);
    expect(body.total_minutes).toBe(Math.ceil(session.duration / 60));
    expect(typeof body.pricing_snapshot.price_per_minute_credits).toBe('number');
  });

  it('transcript_url opens the transcript JSON without an API key for 24 hours; a tampered token answers 404', async () => {
    const link = new URL(atCompletion.a[0]!.body.transcript_url);
    const token = link.pathname.split('/').pop()!;
    const claims = decodeJwtPayload(token);
    expect(claims.exp - claims.iat).toBe(24 * 3600);

    const opened = await t.http.get(link.pathname).expect(200);
    expect(opened.headers['content-type']).toMatch(/^application\/json/);
    const viaApi = (await api.get(`/v1/sessions/${sessionId}/transcript`).expect(200)).body;
    expect(opened.body.sessionId).toBe(sessionId);
    expect(opened.body.utterances.map((u: Json) => [u.id, u.speaker, u.text])).toEqual(viaApi.utterances.map((u: Json) => [u.id, u.speaker, u.text]));

    const [header, payload, signature] = token.split('.') as [string, string, string];
    const middle = Math.floor(signature.length / 2);
    const flipped = `${signature.slice(0, middle)}${signature[middle] === 'A' ? 'B' : 'A'}${signature.slice(middle + 1)}`;
    const tampered = await t.http.get(`/files/${header}.${payload}.${flipped}`);
    expect(tampered.status).toBe(404);
    expect(tampered.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('verifyWebhookA accepts the real request and refuses a modified body or another secret', async () => {
    const request = atCompletion.a[0]!;
    const signature = request.headers['x-webhook-signature'] as string;
    expect(verifyWebhookA(request.raw, signature, endpoints.a.secret)).toBe(true);
    expect(verifyWebhookA(Buffer.from(request.raw, 'utf8'), signature.toUpperCase(), endpoints.a.secret)).toBe(true);
    expect(
      verifyWebhookA(
        request.raw.replace(`"duration_ms":${request.body.duration_ms}`, `"duration_ms":${request.body.duration_ms + 1}`),
        signature,
        endpoints.a.secret,
      ),
    ).toBe(false);
    expect(verifyWebhookA(`${request.raw} `, signature, endpoints.a.secret)).toBe(false);
    expect(verifyWebhookA(request.raw, signature, endpoints.b.secret)).toBe(false);
    expect(verifyWebhookA(request.raw, undefined, endpoints.a.secret)).toBe(false);
  });

  it('interview.completed (Design B) is the envelope {id, type, created_at, data} signed over "<timestamp>.<body>"', async () => {
    expect(atCompletion.b).toHaveLength(1);
    const request = atCompletion.b[0]!;
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe(USER_AGENT);
    const timestamp = request.headers['x-interview-timestamp'] as string;
    expect(timestamp).toMatch(/^\d{13}$/);
    expect(Number(timestamp)).toBeLessThanOrEqual(request.at);
    expect(request.at - Number(timestamp)).toBeLessThan(5_000);
    expect(request.headers['x-interview-signature']).toBe(hmacHex(endpoints.b.secret, `${timestamp}.${request.raw}`));
    expect(request.headers).not.toHaveProperty('x-webhook-signature');

    const body = request.body;
    expect(Object.keys(body).sort()).toEqual(['created_at', 'data', 'id', 'type']);
    expect(body.id).toMatch(UUID);
    expect(body.type).toBe('interview.completed');
    const [announced] = await t.em().execute<{ at: string }[]>(`select completion_announced_at as at from sessions where id = ?`, [sessionId]);
    expect(body.created_at).toBe(new Date(announced!.at).toISOString());
    expect(body.data).toEqual({
      session_id: sessionId,
      campaign_id: campaign.id,
      script_id: session.scriptId,
      participant: { email: 'grace.hopper@example.com', name: 'Grace Hopper', external_id: 'crm-4711' },
      duration_seconds: session.duration,
      questions_answered: session.questionsAnswered,
      questions_total: session.totalQuestions,
      completion_status: 'completed',
      transcript_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:3000\/files\//),
    });
    expect(session.questionsAnswered).toBe(RESULTS_QUESTIONS.length);
    await t.http.get(new URL(body.data.transcript_url).pathname).expect(200);
  });

  it('verifyWebhookB accepts the real request and refuses it once the timestamp is older than the tolerance', async () => {
    const request = atCompletion.b[0]!;
    const sentAt = Number(request.headers['x-interview-timestamp']);
    expect(verifyWebhookB(request.raw, request.headers, endpoints.b.secret, DEFAULT_TOLERANCE_MS, sentAt + 1_000)).toBe(true);
    expect(DEFAULT_TOLERANCE_MS).toBe(5 * MINUTE);
    expect(verifyWebhookB(request.raw, request.headers, endpoints.b.secret, DEFAULT_TOLERANCE_MS, sentAt + 5 * MINUTE)).toBe(true);
    expect(verifyWebhookB(request.raw, request.headers, endpoints.b.secret, DEFAULT_TOLERANCE_MS, sentAt + 5 * MINUTE + 1)).toBe(false);
    expect(
      verifyWebhookB(request.raw, { ...request.headers, 'x-interview-timestamp': String(sentAt + 1) }, endpoints.b.secret, DEFAULT_TOLERANCE_MS, sentAt),
    ).toBe(false);
    expect(verifyWebhookB(`${request.raw} `, request.headers, endpoints.b.secret, DEFAULT_TOLERANCE_MS, sentAt)).toBe(false);
    expect(verifyWebhookB(request.raw, request.headers, endpoints.a.secret, DEFAULT_TOLERANCE_MS, sentAt)).toBe(false);
  });

  it('a redelivery of the Design B event carries the same envelope id, newly signed', async () => {
    const first = atCompletion.b[0]!;
    const deliveries = (await api.get(`/api/webhooks/${endpoints.b.id}/deliveries`).expect(200)).body.data as Json[];
    const completed = deliveries.find((d) => d.event === 'interview.completed');
    expect(completed).toMatchObject({ status: 'succeeded', sessionId, eventId: first.body.id });
    const redelivered = (await api.post(`/api/webhooks/deliveries/${completed.id}/redeliver`).expect(201)).body;
    await runJobsOnce(t, DELIVER);
    const again = receivers.b.of('interview.completed');
    expect(again).toHaveLength(2);
    const second = again[1]!;
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.data.session_id).toBe(sessionId);
    expect(second.headers['x-interview-signature']).toBe(hmacHex(endpoints.b.secret, `${second.headers['x-interview-timestamp']}.${second.raw}`));
    expect((await delivery(api, redelivered.id)).status).toBe('succeeded');
  });

  it('session.feedback_submitted (Design A) carries the common fields and the feedback object with every field', async () => {
    const requests = receivers.a.of('session.feedback_submitted');
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(request.headers['x-webhook-signature']).toBe(hmacHex(endpoints.a.secret, request.raw));
    expect(request.body).toEqual({
      event: 'session.feedback_submitted',
      ...commonFieldsA(),
      timestamp: feedback.submitted_at,
      feedback: {
        id: feedback.id,
        overall_rating: 4,
        ease_of_use_rating: 5,
        audio_quality_rating: null,
        question_clarity_rating: 3,
        comments: 'Clear questions, a bit long.',
        technical_issues: 'The page reloaded once.',
        would_recommend: true,
        submitted_at: feedback.submitted_at,
      },
    });
    expect(request.body.timestamp).toMatch(ISO_MS);
    expect(Object.keys(request.body.feedback)).toEqual([
      'id',
      'overall_rating',
      'ease_of_use_rating',
      'audio_quality_rating',
      'question_clarity_rating',
      'comments',
      'technical_issues',
      'would_recommend',
      'submitted_at',
    ]);
  });

  it('session.feedback_submitted (Design B) data has rating, comment and submitted_at', async () => {
    for (const key of ['b', 'feedbackOnly'] as const) {
      const requests = receivers[key].of('session.feedback_submitted');
      expect(requests).toHaveLength(1);
      const request = requests[0]!;
      expect(request.headers['x-interview-signature']).toBe(hmacHex(endpoints[key].secret, `${request.headers['x-interview-timestamp']}.${request.raw}`));
      expect(request.body).toEqual({
        id: expect.stringMatching(UUID),
        type: 'session.feedback_submitted',
        created_at: feedback.submitted_at,
        data: {
          session_id: sessionId,
          campaign_id: campaign.id,
          participant: { email: 'grace.hopper@example.com', name: 'Grace Hopper' },
          rating: 4,
          comment: 'Clear questions, a bit long.',
          submitted_at: feedback.submitted_at,
        },
      });
    }
    // One event, one id, whichever endpoint receives it.
    expect(receivers.feedbackOnly.of('session.feedback_submitted')[0]!.body.id).toBe(receivers.b.of('session.feedback_submitted')[0]!.body.id);
  });

  it('an endpoint gets only the events it subscribes to; * gets every type', async () => {
    // The session's lifecycle, in the order it happened: started, transcript stored, results ready.
    expect(everythingAtCompletion.a.map((r) => r.headers['x-webhook-event'])).toEqual(['session.started', 'transcript.ready', 'interview.completed']);
    expect(everythingAtCompletion.b.map((r) => r.body.type)).toEqual(['session.started', 'transcript.ready', 'interview.completed']);
    expect(everythingAtCompletion.completedOnly.map((r) => r.headers['x-webhook-event'])).toEqual(['interview.completed']);
    expect(receivers.completedOnly.requests.map((r) => r.headers['x-webhook-event'])).toEqual(['interview.completed']);
    expect(everythingAtCompletion.feedbackOnly).toHaveLength(0);
    expect(receivers.feedbackOnly.requests.map((r) => r.body.type)).toEqual(['session.feedback_submitted']);
    expect(receivers.a.of('interview.completed')).toHaveLength(1);
    expect(receivers.a.of('session.feedback_submitted')).toHaveLength(1);
    expect(receivers.b.of('session.feedback_submitted')).toHaveLength(1);
    const listed = (await api.get(`/api/webhooks/${endpoints.completedOnly.id}/deliveries`).expect(200)).body;
    expect(listed.data.map((d: Json) => d.event)).toEqual(['interview.completed']);
  });

  it('the test event is test.webhook with sample data, signed with the real secret, and carries nothing of real participants', async () => {
    const sent = await sendTest(api, endpoints.a.id);
    expect(sent).toMatchObject({
      id: expect.stringMatching(/^whd_/),
      endpointId: endpoints.a.id,
      event: 'test.webhook',
      sessionId: null,
      status: 'pending',
      attempts: [],
      redeliveryOf: null,
    });
    await runJobsOnce(t, DELIVER);
    const requests = receivers.a.of('test.webhook');
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(request.headers['x-webhook-signature']).toBe(hmacHex(endpoints.a.secret, request.raw));
    expect(request.body.event).toBe('test.webhook');
    expect(request.body).toMatchObject({
      session_id: expect.any(String),
      campaign_id: expect.any(String),
      invitee_email: expect.any(String),
      timestamp: expect.stringMatching(ISO_MS),
    });
    for (const real of [sessionId, campaign.id, campaign.name, session.scriptId, projectId, 'grace.hopper@example.com', 'Grace Hopper', 'crm-4711'])
      expect(request.raw).not.toContain(real);
    const [known] = await t.em().execute<{ count: string }[]>(`select count(*) as count from sessions where id = ?`, [request.body.session_id]);
    expect(Number(known!.count)).toBe(0);
    // Its sample transcript link opens nothing.
    expect((await t.http.get(new URL(request.body.transcript_url).pathname)).status).toBe(404);
    expect((await delivery(api, sent.id)).status).toBe('succeeded');
    // Only the endpoint it was sent to.
    expect(receivers.b.of('test.webhook')).toHaveLength(0);
    expect(receivers.completedOnly.of('test.webhook')).toHaveLength(0);
  });

  it('every body these receivers got is the published contract (the OpenAPI webhooks schemas), field for field: nothing missing, nothing unlisted', async () => {
    const seen: string[] = [];
    for (const [name, receiver] of Object.entries(receivers)) {
      const design = endpoints[name as keyof typeof receivers].design;
      for (const request of receiver.requests) {
        const type = (design === 'A' ? request.body.event : request.body.type) as keyof typeof WEBHOOK_PAYLOADS;
        const contract = strictly(WEBHOOK_PAYLOADS[type][design]);
        const parsed = contract.safeParse(request.body);
        expect(parsed.error?.issues ?? [], `${type}, Design ${design}`).toEqual([]);
        seen.push(`${type} ${design}`);
      }
    }
    // Every event type in both designs was checked (the test event went to the Design A endpoint only).
    expect(new Set(seen)).toEqual(
      new Set([
        'interview.completed A',
        'interview.completed B',
        'session.feedback_submitted A',
        'session.feedback_submitted B',
        'session.started A',
        'session.started B',
        'transcript.ready A',
        'transcript.ready B',
        'test.webhook A',
      ]),
    );
  });
});

describe("a voice interview's recording", () => {
  it('audio_url (A) and recording_url (B) open the session recording without an API key for 24 hours: its merged audio, else its only answer recording', async () => {
    const { api } = await newTenant();
    const receiverA = await startReceiver();
    const receiverB = await startReceiver();
    await createEndpoint(api, { url: receiverA.url, events: ['interview.completed'] });
    await createEndpoint(api, { url: receiverB.url, events: ['interview.completed'], design: 'B' });
    const { invite } = await interviewFixture(api, { questions: RESULTS_QUESTIONS.slice(0, 2) });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    // One spoken answer (11 s of speech, so a transcript; recorded in the 12 s its turn took) and one typed: a recording with or without ffmpeg.
    await letTimePass(t, sessionId, 12);
    await participant
      .answerAudio(wav(11), 'a1.wav', { text: 'The onboarding emails had broken links and the setup took two days.', startTime: '0', endTime: '1' })
      .expect(200);
    await participant.answer('Support answered quickly and solved it the same afternoon.').expect(200);
    await runCompletionChain(t, sessionId);
    await runJobsOnce(t, DELIVER);

    const files = (await api.get(`/v1/sessions/${sessionId}/files`).expect(200)).body.data as Json[];
    const recording = files.find((file) => file.kind === 'merged_audio') ?? files.find((file) => file.kind === 'audio');
    expect(recording).toBeDefined();
    const [a] = receiverA.requests;
    const [b] = receiverB.requests;
    for (const url of [a!.body.audio_url as string, b!.body.data.recording_url as string]) {
      const token = new URL(url).pathname.split('/').pop()!;
      const claims = decodeJwtPayload(token);
      expect(claims.exp - claims.iat).toBe(24 * 3600);
      expect(claims.sub).toBe(recording!.id);
      const opened = await download(t, url).expect(200);
      expect(opened.headers['content-type']).toBe(recording!.contentType);
      expect((opened.body as Buffer).length).toBe(recording!.size);
    }
  });
});

describe('retry schedules', () => {
  it('Design A: a receiver answering 500 is tried 5 times, 2, 4, 8 and 16 minutes after each failure, then the delivery is failed', async () => {
    const { api } = await newTenant();
    const longBody = 'x'.repeat(5_000);
    const receiver = await startReceiver(reply(500, longBody));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const sent = await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(1);
    // A retry is not run before its time.
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(1);
    const pending = await delivery(api, sent.id);
    expect(pending.status).toBe('pending');
    expect(new Date(pending.nextAttemptAt).getTime()).toBe((await onlyJob(sent.id)).runAt.getTime());

    await followSchedule(sent.id, receiver, [2 * 60, 4 * 60, 8 * 60, 16 * 60]);

    expect(await deliveryJobs(sent.id)).toEqual([]);
    const failed = await delivery(api, sent.id);
    expect(failed.status).toBe('failed');
    expect(failed.nextAttemptAt).toBeNull();
    expect(failed.attempts).toHaveLength(5);
    failed.attempts.forEach((attempt: Json, index: number) => {
      expect(attempt).toMatchObject({ number: index + 1, at: expect.stringMatching(ISO_MS), statusCode: 500, error: 'HTTP 500', signedWith: 'current' });
      expect(Number.isInteger(attempt.durationMs) && attempt.durationMs >= 0).toBe(true);
      expect(attempt.responseBody).toBe('x'.repeat(1024));
    });
    // Every attempt is the same event, signed the same way.
    for (const request of receiver.requests) {
      expect(request.raw).toBe(receiver.requests[0]!.raw);
      expect(request.headers['x-webhook-signature']).toBe(hmacHex(endpoint.secret, request.raw));
    }
  });

  it('Design B: 7 attempts, at once and then 1 minute, 5 minutes, 30 minutes, 2 hours, 8 hours and 24 hours after each failure', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(503, 'busy'));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'], design: 'B' });
    const before = Date.now();
    const sent = await sendTest(api, endpoint.id);
    // The first attempt is the endpoint's drain, due at once; retries are jobs of the delivery.
    expect(await deliveryJobs(sent.id)).toEqual([]);
    const [first, ...others] = await drainJobs(endpoint.id);
    expect(others).toEqual([]);
    expect(first!.payload).toEqual({ endpointId: endpoint.id });
    expect(first!.runAt.getTime()).toBeLessThan(Date.now() + TOLERANCE_MS);
    expect(first!.runAt.getTime()).toBeGreaterThan(before - TOLERANCE_MS);
    await runJobsOnce(t, DELIVER);

    await followSchedule(sent.id, receiver, [60, 5 * 60, 30 * 60, 2 * 3600, 8 * 3600, 24 * 3600]);

    expect(await deliveryJobs(sent.id)).toEqual([]);
    const failed = await delivery(api, sent.id);
    expect(failed.status).toBe('failed');
    expect(failed.attempts.map((attempt: Json) => [attempt.number, attempt.statusCode, attempt.error])).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => [n, 503, 'HTTP 503']),
    );
    // The same envelope each time, each request signed with its own timestamp.
    for (const request of receiver.requests) {
      expect(request.body.id).toBe(receiver.requests[0]!.body.id);
      expect(request.headers['x-interview-signature']).toBe(hmacHex(endpoint.secret, `${request.headers['x-interview-timestamp']}.${request.raw}`));
    }
  });

  it('Design A: a receiver that does not answer within 10 seconds is a failed attempt (timeout), retried 2 minutes later', { timeout: 25_000 }, async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(() => undefined);
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const sent = await sendTest(api, endpoint.id);
    const started = Date.now();
    await runJobsOnce(t, DELIVER);
    const finished = Date.now();
    expect(receiver.requests).toHaveLength(1);
    const after = await delivery(api, sent.id);
    expect(after.status).toBe('pending');
    expect(after.attempts).toHaveLength(1);
    expect(after.attempts[0]).toMatchObject({ number: 1, statusCode: null, error: expect.stringMatching(/^timeout:/), responseBody: null });
    expect(after.attempts[0].durationMs).toBeGreaterThanOrEqual(10_000);
    expect(after.attempts[0].durationMs).toBeLessThan(11_500);
    expect(finished - started).toBeLessThan(12_000);
    const job = await onlyJob(sent.id);
    expect(Math.abs(job.runAt.getTime() - (new Date(after.attempts[0].at).getTime() + after.attempts[0].durationMs + 2 * MINUTE))).toBeLessThan(TOLERANCE_MS);
  });
});

describe('a backlog to one endpoint', () => {
  it('waits as one drain job, and that job sends every delivery once, in batches, each recorded with its attempt', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(200));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'], design: 'B' });
    // More than one batch (50), sent while no worker runs.
    const sent: Json[] = [];
    for (let i = 0; i < 60; i++) sent.push(await sendTest(api, endpoint.id));

    const drains = await drainJobs(endpoint.id);
    expect(drains).toHaveLength(1);
    expect(drains[0]).toMatchObject({ payload: { endpointId: endpoint.id }, queue: `webhook:${endpoint.id}` });
    for (const one of sent.slice(0, 3)) expect(await deliveryJobs(one.id)).toEqual([]);

    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(60);
    expect(new Set(receiver.requests.map((request) => request.body.id)).size).toBe(60);
    for (const request of receiver.requests) {
      expect(request.headers['x-interview-signature']).toBe(hmacHex(endpoint.secret, `${request.headers['x-interview-timestamp']}.${request.raw}`));
    }
    for (const one of sent) {
      const done = await delivery(api, one.id);
      expect(done).toMatchObject({ status: 'succeeded', nextAttemptAt: null });
      expect(done.attempts).toEqual([expect.objectContaining({ number: 1, statusCode: 200, error: null })]);
    }
    expect(await drainJobs(endpoint.id)).toEqual([]);

    // Nothing is sent twice, whatever runs again.
    await addJobs(t.em(), [drainEndpointJob(endpoint.id)]);
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(60);
  });

  it('a first attempt queued as a job of its own (before drains) wakes the drain, which sends it once', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(200));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const sent = await sendTest(api, endpoint.id);
    // As an upgrade finds it: the delivery's own first-attempt job, no drain.
    const [drain] = await drainJobs(endpoint.id);
    await t.em().execute(`delete from graphile_worker._private_jobs where id = ?`, [drain!.id]);
    await addJobs(t.em(), [deliverWebhookJob(sent.id, 1)]);
    // That job sends nothing itself: it wakes the drain.
    await runJobsOnce(t, { tasks: ['webhook__deliver'] });
    expect(receiver.requests).toEqual([]);
    expect(await drainJobs(endpoint.id)).toMatchObject([{ payload: { endpointId: endpoint.id }, queue: `webhook:${endpoint.id}` }]);
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(1);
    expect(await delivery(api, sent.id)).toMatchObject({ status: 'succeeded', attempts: [expect.objectContaining({ number: 1, statusCode: 200 })] });
    expect(await deliveryJobs(sent.id)).toEqual([]);
    expect(await drainJobs(endpoint.id)).toEqual([]);
  });

  it('a delivery added while the drain runs gets a drain of its own, queued behind the running one', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(200));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const first = await sendTest(api, endpoint.id);
    // A worker has taken the drain (as graphile-worker locks a job it runs).
    const [running] = await drainJobs(endpoint.id);
    await t.em().execute(`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'another-worker' where id = ?`, [running!.id]);
    const second = await sendTest(api, endpoint.id);
    const drains = await drainJobs(endpoint.id);
    expect(drains).toHaveLength(2);
    expect(drains.map((drain) => drain.queue)).toEqual([`webhook:${endpoint.id}`, `webhook:${endpoint.id}`]);
    const keys = await t
      .em()
      .execute<{ id: string; key: string | null }[]>(`select id::text as id, key from graphile_worker._private_jobs where id in (?, ?) order by id`, [
        drains[0]!.id,
        drains[1]!.id,
      ]);
    expect(keys).toEqual([
      { id: running!.id, key: null },
      { id: drains[1]!.id, key: `webhook__drain:${endpoint.id}` },
    ]);
    // The running one ends as if it had read before the second delivery committed; the next one sends both.
    await t.em().execute(`delete from graphile_worker._private_jobs where id = ?`, [running!.id]);
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(2);
    for (const one of [first, second]) expect(await delivery(api, one.id)).toMatchObject({ status: 'succeeded' });
  });

  it('a drain a worker locks between the two statements of add_jobs is followed by a new drain, not left to miss the delivery', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(200));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const first = await sendTest(api, endpoint.id);
    const key = `webhook__drain:${endpoint.id}`;
    // The race, made certain: after add_jobs' first statement (which clears the keys of running
    // jobs), the waiting drain is locked as a worker taking it would, so its second statement
    // (the upsert, `where locked_at is null`) neither updates it nor adds a job.
    await t.em().execute(`create or replace function pg_temp_lock_drain() returns trigger language plpgsql as $$
      begin
        -- Once: any statement on the table fires it (a worker polling too), and it must lock only the waiting drain.
        if pg_trigger_depth() = 1 and not exists (select 1 from graphile_worker._private_jobs where locked_by = 'racing-worker') then
          update graphile_worker._private_jobs set locked_at = now(), locked_by = 'racing-worker' where key = '${key}' and locked_at is null;
        end if;
        return null;
      end $$`);
    await t
      .em()
      .execute(`create trigger lock_drain_mid_add_jobs after update on graphile_worker._private_jobs for each statement execute function pg_temp_lock_drain()`);
    let second: Json;
    try {
      second = await sendTest(api, endpoint.id);
    } finally {
      await t.em().execute(`drop trigger lock_drain_mid_add_jobs on graphile_worker._private_jobs`);
      await t.em().execute(`drop function pg_temp_lock_drain()`);
    }
    const jobs = await t
      .em()
      .execute<{ key: string | null; locked_by: string | null }[]>(
        `select key, locked_by from graphile_worker._private_jobs where payload->>'endpointId' = ? order by id`,
        [endpoint.id],
      );
    // The locked one (the worker's, which may have read before the second delivery) and a new one behind it.
    expect(jobs).toEqual([
      { key: null, locked_by: 'racing-worker' },
      { key, locked_by: null },
    ]);
    // The racing worker's drain ends having sent nothing; the new one sends both.
    await t.em().execute(`delete from graphile_worker._private_jobs where locked_by = 'racing-worker'`);
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(2);
    for (const one of [first, second!]) expect(await delivery(api, one.id)).toMatchObject({ status: 'succeeded' });
  });

  it('the minutely sweep wakes a drain for a delivery unattempted for a minute with no drain left, and leaves a drain retrying alone', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(200));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const sent = await sendTest(api, endpoint.id);
    const key = `webhook__drain:${endpoint.id}`;
    const drainRow = async () =>
      (
        await t.em().execute<{ run_at: string | Date; attempts: number }[]>(`select run_at, attempts from graphile_worker._private_jobs where key = ?`, [key])
      )[0];

    // A drain retrying after a failure, due in an hour: its backoff is kept.
    await t.em().execute(`update graphile_worker._private_jobs set attempts = 3, run_at = now() + interval '1 hour' where key = ?`, [key]);
    await t.em().execute(`update webhook_deliveries set created_at = now() - interval '61 seconds' where id = ?`, [sent.id]);
    await wakeStalledDrains({ em: t.em() });
    expect(await drainRow()).toMatchObject({ attempts: 3 });
    expect(new Date((await drainRow())!.run_at).getTime()).toBeGreaterThan(Date.now() + 50 * MINUTE);

    // That drain failed for good: the sweep wakes a new one, due now.
    await t.em().execute(`update graphile_worker._private_jobs set attempts = max_attempts where key = ?`, [key]);
    await wakeStalledDrains({ em: t.em() });
    expect(await drainRow()).toMatchObject({ attempts: 0 });
    expect(new Date((await drainRow())!.run_at).getTime()).toBeLessThan(Date.now() + TOLERANCE_MS);

    // No drain at all (the failed one gave its key to the new one), and the delivery younger than a
    // minute: left alone until it is older.
    await t.em().execute(`delete from graphile_worker._private_jobs where payload->>'endpointId' = ?`, [endpoint.id]);
    await t.em().execute(`update webhook_deliveries set created_at = now() where id = ?`, [sent.id]);
    await wakeStalledDrains({ em: t.em() });
    expect(await drainJobs(endpoint.id)).toEqual([]);
    await t.em().execute(`update webhook_deliveries set created_at = now() - interval '61 seconds' where id = ?`, [sent.id]);
    await wakeStalledDrains({ em: t.em() });
    expect(await drainJobs(endpoint.id)).toHaveLength(1);

    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(1);
    expect(await delivery(api, sent.id)).toMatchObject({ status: 'succeeded' });
  });

  it('a batch with failures records each delivery on its own: the failed ones get their retry job, the others none', async () => {
    const { api } = await newTenant();
    let count = 0;
    // Every third request fails.
    const receiver = await startReceiver((_req, res) => {
      count += 1;
      res.writeHead(count % 3 === 0 ? 500 : 200).end();
    });
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const sent: Json[] = [];
    for (let i = 0; i < 9; i++) sent.push(await sendTest(api, endpoint.id));
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(9);
    const outcomes = await Promise.all(sent.map(async (one) => ({ record: await delivery(api, one.id), jobs: await deliveryJobs(one.id) })));
    const failed = outcomes.filter(({ record }) => record.status === 'pending');
    expect(failed).toHaveLength(3);
    for (const { record, jobs } of failed) {
      expect(record.attempts).toEqual([expect.objectContaining({ number: 1, statusCode: 500 })]);
      expect(jobs.map((job) => job.payload)).toEqual([{ deliveryId: record.id, attempt: 2 }]);
      expect(jobs[0]!.runAt.getTime()).toBe(new Date(record.nextAttemptAt).getTime());
    }
    for (const { record, jobs } of outcomes.filter(({ record }) => record.status !== 'pending')) {
      expect(record.status).toBe('succeeded');
      expect(jobs).toEqual([]);
    }
  });
});

describe('410 Gone', () => {
  it('fails the delivery at once (no retry) and disables the endpoint with disabledReason gone; PATCH status enabled re-enables it', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(410, 'gone'));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const sent = await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);

    expect(receiver.requests).toHaveLength(1);
    expect(await deliveryJobs(sent.id)).toEqual([]);
    const failed = await delivery(api, sent.id);
    expect(failed).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(failed.attempts).toHaveLength(1);
    expect(failed.attempts[0]).toMatchObject({ number: 1, statusCode: 410 });
    expect((await api.get(`/api/webhooks/${endpoint.id}`).expect(200)).body).toMatchObject({ status: 'disabled', disabledReason: 'gone' });

    const refused = await api.post(`/api/webhooks/${endpoint.id}/test`);
    expect([refused.status, refused.body.error?.code]).toEqual([409, 'WEBHOOK_ENDPOINT_DISABLED']);
    const notAgain = await api.post(`/api/webhooks/deliveries/${sent.id}/redeliver`);
    expect([notAgain.status, notAgain.body.error?.code]).toEqual([409, 'WEBHOOK_ENDPOINT_DISABLED']);

    const enabled = (await api.patch(`/api/webhooks/${endpoint.id}`, { status: 'enabled' }).expect(200)).body;
    expect(enabled).toMatchObject({ status: 'enabled', disabledReason: null });
    receiver.answer(reply(200));
    const next = await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(2);
    expect((await delivery(api, next.id)).status).toBe('succeeded');
  });
});

describe('secret rotation', () => {
  it('Design A: the next retry of an earlier event is signed with the new secret only, in one request', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(500));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const sent = await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.headers['x-webhook-signature']).toBe(hmacHex(endpoint.secret, receiver.requests[0]!.raw));

    const rotated = (await api.post(`/api/webhooks/${endpoint.id}/rotate-secret`).expect(200)).body;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(rotated.previousSecretExpiresAt).toBeNull();
    expect(rotated.secretRotatedAt).toMatch(ISO_MS);
    expect((await api.get(`/api/webhooks/${endpoint.id}`).expect(200)).body).not.toHaveProperty('secret');

    receiver.answer(reply(200));
    await makeDue(await onlyJob(sent.id));
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(2);
    const retry = receiver.requests[1]!;
    expect(retry.raw).toBe(receiver.requests[0]!.raw);
    expect(retry.headers['x-webhook-signature']).toBe(hmacHex(rotated.secret, retry.raw));
    expect(verifyWebhookA(retry.raw, retry.headers['x-webhook-signature'] as string, endpoint.secret)).toBe(false);
    const after = await delivery(api, sent.id);
    expect(after.status).toBe('succeeded');
    expect(after.attempts.map((attempt: Json) => [attempt.number, attempt.signedWith])).toEqual([
      [1, 'current'],
      [2, 'current'],
    ]);
  });

  it('Design B: during the overlap each delivery is sent twice, signed with the old and with the new secret; after it, once', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'], design: 'B' });
    const rotatedAt = Date.now();
    const rotated = (await api.post(`/api/webhooks/${endpoint.id}/rotate-secret`).expect(200)).body;
    expect(rotated.secret).not.toBe(endpoint.secret);
    // WEBHOOK_ROTATION_OVERLAP_SECONDS defaults to 24 hours.
    expect(Math.abs(new Date(rotated.previousSecretExpiresAt).getTime() - (rotatedAt + 24 * 3600 * 1000))).toBeLessThan(TOLERANCE_MS);

    const during = await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(2);
    const [one, two] = receiver.requests as [Received, Received];
    expect(one.raw).toBe(two.raw);
    const signedWith = (request: Received) =>
      [endpoint.secret, rotated.secret].filter(
        (secret) => request.headers['x-interview-signature'] === hmacHex(secret, `${request.headers['x-interview-timestamp']}.${request.raw}`),
      );
    expect([...signedWith(one), ...signedWith(two)].sort()).toEqual([endpoint.secret, rotated.secret].sort());
    expect(signedWith(one)).toHaveLength(1);
    for (const request of [one, two]) expect(verifyWebhookB(request.raw, request.headers, signedWith(request)[0]!)).toBe(true);
    const recorded = await delivery(api, during.id);
    expect(recorded.status).toBe('succeeded');
    expect(recorded.attempts.map((attempt: Json) => `${attempt.number}:${attempt.signedWith}:${attempt.statusCode}`).sort()).toEqual([
      '1:current:200',
      '1:previous:200',
    ]);

    await t.em().execute(`update webhook_endpoints set previous_secret_expires_at = now() - interval '1 second' where id = ?`, [endpoint.id]);
    const later = await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(3);
    const only = receiver.requests[2]!;
    expect(verifyWebhookB(only.raw, only.headers, rotated.secret)).toBe(true);
    expect(verifyWebhookB(only.raw, only.headers, endpoint.secret)).toBe(false);
    expect((await delivery(api, later.id)).attempts.map((attempt: Json) => attempt.signedWith)).toEqual(['current']);
  });

  it('an endpoint switched from B to A during the overlap is signed once, with the current secret (Design A never dual-signs)', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'], design: 'B' });
    const rotated = (await api.post(`/api/webhooks/${endpoint.id}/rotate-secret`).expect(200)).body;
    expect(rotated.previousSecretExpiresAt).not.toBeNull();
    expect((await api.patch(`/api/webhooks/${endpoint.id}`, { design: 'A' }).expect(200)).body.design).toBe('A');
    const sent = await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.headers['x-webhook-signature']).toBe(hmacHex(rotated.secret, receiver.requests[0]!.raw));
    expect((await delivery(api, sent.id)).attempts.map((attempt: Json) => attempt.signedWith)).toEqual(['current']);
  });
});

describe('redelivery', () => {
  it('a failed delivery redelivered answers 201 with a new delivery (redeliveryOf) that is delivered; a pending one answers 409 WEBHOOK_DELIVERY_PENDING', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(500));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const original = await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);

    const early = await api.post(`/api/webhooks/deliveries/${original.id}/redeliver`);
    expect([early.status, early.body.error?.code]).toEqual([409, 'WEBHOOK_DELIVERY_PENDING']);

    for (let attempt = 2; attempt <= 5; attempt++) {
      await makeDue(await onlyJob(original.id));
      await runJobsOnce(t, DELIVER);
    }
    expect((await delivery(api, original.id)).status).toBe('failed');

    receiver.answer(reply(200));
    const redelivered = (await api.post(`/api/webhooks/deliveries/${original.id}/redeliver`).expect(201)).body;
    expect(redelivered).toMatchObject({
      id: expect.stringMatching(/^whd_/),
      redeliveryOf: original.id,
      eventId: original.eventId,
      event: 'test.webhook',
      status: 'pending',
      attempts: [],
    });
    expect(redelivered.id).not.toBe(original.id);
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(6);
    expect(receiver.requests[5]!.raw).toBe(receiver.requests[0]!.raw);
    expect((await delivery(api, redelivered.id)).status).toBe('succeeded');
    expect((await delivery(api, original.id)).status).toBe('failed');
    const listed = (await api.get(`/api/webhooks/${endpoint.id}/deliveries`).expect(200)).body;
    expect(listed.data.map((d: Json) => d.id)).toEqual([redelivered.id, original.id]);
    expect((await api.get(`/api/webhooks/${endpoint.id}/deliveries?status=failed`).expect(200)).body.data.map((d: Json) => d.id)).toEqual([original.id]);
  });
});

describe('operations', () => {
  it('GET /metrics counts webhook_deliveries_total by design, event and outcome', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(500));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'], design: 'B' });
    const labels = (outcome: string) => ({ design: 'B', event: 'test.webhook', outcome });
    const before = {
      retrying: await deliveriesCounter(labels('retrying')),
      succeeded: await deliveriesCounter(labels('succeeded')),
      requests: await metricValue('webhook_attempt_duration_seconds_count', { design: 'B' }),
      latencies: await metricValue('webhook_delivery_latency_seconds_count', { design: 'B' }),
    };

    const sent = await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);
    expect(await deliveriesCounter(labels('retrying'))).toBe(before.retrying + 1);
    expect(await deliveriesCounter(labels('succeeded'))).toBe(before.succeeded);

    receiver.answer(reply(204, ''));
    await makeDue(await onlyJob(sent.id));
    await runJobsOnce(t, DELIVER);
    expect(await deliveriesCounter(labels('succeeded'))).toBe(before.succeeded + 1);
    expect(await deliveriesCounter(labels('retrying'))).toBe(before.retrying + 1);
    // Both requests were timed; a test event's delivery is not a receiver's wait, so no latency.
    expect(await metricValue('webhook_attempt_duration_seconds_count', { design: 'B' })).toBe(before.requests + 2);
    expect(await metricValue('webhook_delivery_latency_seconds_count', { design: 'B' })).toBe(before.latencies);
    // The finished interview above was delivered to its Design A endpoint.
    expect(await deliveriesCounter({ design: 'A', event: 'interview.completed', outcome: 'succeeded' })).toBeGreaterThanOrEqual(1);
    expect(await metricValue('webhook_delivery_latency_seconds_count', { design: 'A' })).toBeGreaterThanOrEqual(1);
    const text = (await t.http.get('/metrics').expect(200)).text;
    expect(text).toContain('# TYPE webhook_deliveries_total counter');
    expect(text).not.toContain(endpoint.id);
    expect(text).not.toContain(sent.id);
  });

  it("a failed delivery is found by the documented query on webhook_deliveries where status = 'failed'", async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(410));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const healthy = await createEndpoint(api, { url: (await startReceiver()).url, events: ['*'] });
    const sent = await sendTest(api, endpoint.id);
    const delivered = await sendTest(api, healthy.id);
    await runJobsOnce(t, DELIVER);
    expect((await delivery(api, delivered.id)).status).toBe('succeeded');
    const rows = await t
      .em()
      .execute<{ id: string; endpoint_id: string; type: string; session_id: string | null; last_attempt: Json }[]>(await documentedFailedDeliveriesQuery());
    const row = rows.find((candidate) => candidate.id === sent.id);
    expect(row).toMatchObject({ endpoint_id: endpoint.id, type: 'test.webhook', session_id: null, last_attempt: { number: 1, statusCode: 410 } });
    expect(rows.map((candidate) => candidate.id)).not.toContain(delivered.id);
  });
});

describe('what cannot stop a delivery', () => {
  it('a receiver answer with a NUL byte, or an emoji cut at the limit, is recorded (cleaned) and the schedule goes on', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(500, 'ok\u0000then binary'));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const sent = await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);
    receiver.answer(reply(200, `${'a'.repeat(1023)}😀 and more`));
    await makeDue(await onlyJob(sent.id));
    await runJobsOnce(t, DELIVER);
    const record = await delivery(api, sent.id);
    expect(record.status).toBe('succeeded');
    expect(record.attempts.map((attempt: Json) => attempt.statusCode)).toEqual([500, 200]);
    expect(record.attempts[0].responseBody).toBe('ok\uFFFDthen binary');
    expect(record.attempts[1].responseBody).toBe('a'.repeat(1023) + '😀');
    expect(receiver.requests).toHaveLength(2);
  });

  it('a secret sealed under another SIGNING_SECRET fails its attempts on the schedule (saying why) until the secret is rotated', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'], design: 'B' });
    const { Sealer } = await import('../../server/lib/sealer.js');
    const foreign = new Sealer('another-signing-secret-0123456789abcdef', 'webhook-secrets/v1').seal('whsec_sealed_elsewhere_000000000000000000');
    await t.em().execute(`update webhook_endpoints set sealed_secret = ? where id = ?`, [foreign, endpoint.id]);
    const sent = await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);
    const failed = await delivery(api, sent.id);
    expect(failed).toMatchObject({
      status: 'pending',
      attempts: [{ number: 1, statusCode: null, error: expect.stringMatching(/^internal: .*SIGNING_SECRET/) }],
    });
    expect(receiver.requests).toHaveLength(0);
    const next = await onlyJob(sent.id);
    expect(next.payload.attempt).toBe(2);

    // Rotating gives a secret that signs again; the unreadable one is not kept as "previous".
    const rotated = (await api.post(`/api/webhooks/${endpoint.id}/rotate-secret`).expect(200)).body;
    expect(rotated.previousSecretExpiresAt).toBeNull();
    await makeDue(next);
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(1);
    const request = receiver.requests[0]!;
    expect(request.headers['x-interview-signature']).toBe(hmacHex(rotated.secret, `${request.headers['x-interview-timestamp']}.${request.raw}`));
  });

  it('two rotations at once leave no caller with a secret that signs nothing', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver();
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'], design: 'B' });
    const [first, second] = await Promise.all([api.post(`/api/webhooks/${endpoint.id}/rotate-secret`), api.post(`/api/webhooks/${endpoint.id}/rotate-secret`)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);
    // During the overlap each delivery is signed with the current and the previous secret: both callers' secrets.
    const signatures = receiver.requests.map((request) => request.headers['x-interview-signature']);
    for (const secret of [first.body.secret, second.body.secret]) {
      expect(
        receiver.requests.some((request, index) => signatures[index] === hmacHex(secret, `${request.headers['x-interview-timestamp']}.${request.raw}`)),
      ).toBe(true);
    }
  });

  it('a delivery keeps the design it began with when the endpoint switches', async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(500));
    const endpoint = await createEndpoint(api, { url: receiver.url, events: ['*'] });
    const sent = await sendTest(api, endpoint.id);
    await runJobsOnce(t, DELIVER);
    await api.patch(`/api/webhooks/${endpoint.id}`, { design: 'B' }).expect(200);
    await makeDue(await onlyJob(sent.id));
    await runJobsOnce(t, DELIVER);
    // Both attempts are Design A: flat body, X-Webhook-Signature; its next retry is A's 4 minutes.
    expect(receiver.requests.map((request) => Boolean(request.headers['x-webhook-signature']))).toEqual([true, true]);
    const failedAt = receiver.requests.at(-1)!.at;
    expect(Math.abs((await onlyJob(sent.id)).runAt.getTime() - (failedAt + 4 * MINUTE))).toBeLessThan(TOLERANCE_MS);
  });

  it("deleting a campaign deletes its sessions' events and their deliveries: no participant data is sent afterwards", async () => {
    const { api } = await newTenant();
    const receiver = await startReceiver(reply(500));
    await createEndpoint(api, { url: receiver.url, events: ['interview.completed'] });
    const script = await createPublishedScript(api, { questions: RESULTS_QUESTIONS });
    const campaign = await createCampaign(api, { scriptId: script.id });
    const invite = await createInvite(api, campaign.id, { email: 'deleted.later@example.com', name: 'Lin', sendEmail: false });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id;
    for (const answer of TEXT_ANSWERS) await participant.answer(answer).expect(200);
    await runCompletionChain(t, sessionId);
    const [pending] = await t
      .em()
      .execute<{ id: string }[]>(`select d.id from webhook_deliveries d join webhook_events ev on ev.id = d.event_id where ev.session_id = ?`, [sessionId]);
    expect(pending).toBeDefined();
    await api.post(`/v1/campaigns/${campaign.id}/archive`).expect(200);
    await api.delete(`/v1/campaigns/${campaign.id}`).expect(204);
    const left = await t.em().execute<{ n: string }[]>(`select count(*) as n from webhook_events where session_id = ?`, [sessionId]);
    expect(Number(left[0]!.n)).toBe(0);
    const sentBefore = receiver.requests.length;
    await t.em().execute(`update graphile_worker._private_jobs set run_at = now() where payload->>'deliveryId' = ?`, [pending!.id]);
    await runJobsOnce(t, DELIVER);
    expect(receiver.requests).toHaveLength(sentBefore);
  });
});

/** The failed-deliveries query exactly as docs/operations.md's Observability section prints it (wrapped lines joined). */
async function documentedFailedDeliveriesQuery(): Promise<string> {
  const operations = await readFile(path.join(import.meta.dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
  const query = /\*\*Failed webhook deliveries\*\*: `([^`]+)`/.exec(operations)?.[1];
  if (!query) throw new Error('docs/operations.md names no failed-deliveries query');
  return query.replace(/\s*\n\s*/g, ' ');
}
