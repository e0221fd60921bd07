import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiAs } from '../helpers/factories.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { makeTestCertificate, type TestCertificate } from '../helpers/tls.js';
import { closeReceivers, type Received, type Receiver, reply, startWebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Standard Webhooks signing, opt-in per endpoint, against real HTTPS receivers on loopback. Every
 * signature here is verified by the `standardwebhooks` npm package itself (what receivers run),
 * never by the service's own code: a delivery it accepts, a body or secret it refuses, both
 * secrets during a rotation's overlap in one request, and the switch of an older endpoint.
 */

const DELIVER = { tasks: ['webhook__drain', 'webhook__deliver'] };
const STANDARD_SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

let certificate: TestCertificate;
let tlsDir: string;
let t: TestApp;
let api: Api;
const servers: Server[] = [];

beforeAll(async () => {
  certificate = await makeTestCertificate();
  tlsDir = await mkdtemp(path.join(tmpdir(), 'standard-webhooks-tls-'));
  const caFile = path.join(tlsDir, 'ca.pem');
  await writeFile(caFile, certificate.cert);
  t = await startTestApp({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_CA_FILE: caFile });
  api = apiAs(t.http, await t.createTenant());
});

afterAll(async () => {
  await t?.close();
  closeReceivers(servers);
  if (tlsDir) await rm(tlsDir, { recursive: true, force: true });
});

async function startReceiver(): Promise<Receiver> {
  const receiver = await startWebhookReceiver(certificate, reply(200));
  servers.push(receiver.server);
  return receiver;
}

interface Endpoint {
  id: string;
  design: 'A' | 'B';
  signatureScheme: string;
  secret: string;
  previousSecretExpiresAt: string | null;
}

async function createEndpoint(body: Record<string, unknown>): Promise<Endpoint> {
  const response = await api.post('/api/webhooks', body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Endpoint;
}

/** Sends the endpoint a test event and runs its delivery: the request the receiver got, and the delivery's record. */
async function deliverTestEvent(endpointId: string, receiver: Receiver): Promise<{ request: Received; delivery: any }> {
  const before = receiver.requests.length;
  const sent = (await api.post(`/api/webhooks/${endpointId}/test`).expect(201)).body;
  await runJobsOnce(t, DELIVER);
  expect(receiver.requests).toHaveLength(before + 1);
  const delivery = (await api.get(`/api/webhooks/deliveries/${sent.id}`).expect(200)).body;
  return { request: receiver.requests.at(-1)!, delivery };
}

/** What a receiver's `standardwebhooks` verification answers: the payload, or the library's refusal. */
function verify(secret: string, request: Pick<Received, 'raw' | 'headers'>): unknown {
  return new Webhook(secret).verify(request.raw, request.headers as Record<string, string>);
}

describe('Standard Webhooks signing', () => {
  it('a Design A endpoint that opts in: the library verifies the delivery and refuses a changed body, another secret and an old timestamp', async () => {
    const receiver = await startReceiver();
    const endpoint = await createEndpoint({ url: receiver.url, events: ['*'], design: 'A', signatureScheme: 'standard_webhooks' });
    expect(endpoint.signatureScheme).toBe('standard_webhooks');
    expect(endpoint.secret).toMatch(STANDARD_SECRET);
    expect((await api.get(`/api/webhooks/${endpoint.id}`).expect(200)).body).toMatchObject({ signatureScheme: 'standard_webhooks' });

    const { request, delivery } = await deliverTestEvent(endpoint.id, receiver);
    // The payload is still Design A's; only the signature headers are Standard Webhooks'.
    expect(verify(endpoint.secret, request)).toEqual(request.body);
    expect(request.body).toMatchObject({ event: 'test.webhook' });
    expect(request.headers).toMatchObject({ 'webhook-id': delivery.eventId, 'x-webhook-event': 'test.webhook', 'content-type': 'application/json' });
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(request.headers['x-webhook-signature']).toBeUndefined();
    expect(request.headers['x-interview-signature']).toBeUndefined();
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: [{ number: 1, statusCode: 200, signedWith: 'current' }] });

    expect(() => verify(endpoint.secret, { ...request, raw: request.raw.replace('test.webhook', 'test.webhooK') })).toThrow(WebhookVerificationError);
    expect(() => verify(`whsec_${randomBytes(32).toString('base64')}`, request)).toThrow(WebhookVerificationError);
    // Replayed ten minutes later: the library's five-minute tolerance refuses it.
    const replayed = { ...request.headers, 'webhook-timestamp': String(Number(request.headers['webhook-timestamp']) - 600) };
    expect(() => verify(endpoint.secret, { raw: request.raw, headers: replayed })).toThrow(WebhookVerificationError);
  });

  it('a Design B endpoint: the envelope, its id as webhook-id on the delivery and on a redelivery (a fresh timestamp, verified again)', async () => {
    const receiver = await startReceiver();
    const endpoint = await createEndpoint({ url: receiver.url, events: ['*'], design: 'B', signatureScheme: 'standard_webhooks' });
    const { request, delivery } = await deliverTestEvent(endpoint.id, receiver);
    expect(verify(endpoint.secret, request)).toEqual(request.body);
    expect(request.body).toMatchObject({ id: delivery.eventId, type: 'test.webhook' });
    expect(request.headers['webhook-id']).toBe(delivery.eventId);
    expect(request.headers['x-interview-timestamp']).toBeUndefined();

    await new Promise((resolve) => setTimeout(resolve, 1100));
    await api.post(`/api/webhooks/deliveries/${delivery.id}/redeliver`).expect(201);
    await runJobsOnce(t, DELIVER);
    const again = receiver.requests.at(-1)!;
    expect(receiver.requests).toHaveLength(2);
    expect(again.headers['webhook-id']).toBe(delivery.eventId);
    expect(Number(again.headers['webhook-timestamp'])).toBeGreaterThan(Number(request.headers['webhook-timestamp']));
    expect(verify(endpoint.secret, again)).toEqual(request.body);
  });

  it.each(['A', 'B'] as const)(
    'Design %s, rotated: one request carries both signatures, each secret verifies it; after the overlap only the new one does',
    async (design) => {
      const receiver = await startReceiver();
      const endpoint = await createEndpoint({ url: receiver.url, events: ['*'], design, signatureScheme: 'standard_webhooks' });
      const rotated = (await api.post(`/api/webhooks/${endpoint.id}/rotate-secret`).expect(200)).body;
      expect(rotated.secret).toMatch(STANDARD_SECRET);
      expect(rotated.secret).not.toBe(endpoint.secret);
      // Design A's own signing has no overlap (the spec); with Standard Webhooks it has one.
      expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);

      const { request, delivery } = await deliverTestEvent(endpoint.id, receiver);
      // One request (Design B's own signing would send two), two signatures.
      expect(receiver.requests).toHaveLength(1);
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verify(rotated.secret, request)).toEqual(request.body);
      expect(verify(endpoint.secret, request)).toEqual(request.body);
      expect(delivery.attempts).toMatchObject([{ number: 1, statusCode: 200, signedWith: 'both' }]);

      await t.em().execute(`update webhook_endpoints set previous_secret_expires_at = now() - interval '1 second' where id = ?`, [endpoint.id]);
      const after = (await deliverTestEvent(endpoint.id, receiver)).request;
      expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(verify(rotated.secret, after)).toEqual(after.body);
      expect(() => verify(endpoint.secret, after)).toThrow(WebhookVerificationError);
    },
  );

  it('an endpoint whose secret predates the option (base64url) is refused the switch with the field and the way out, and keeps its signing; after a rotation it switches', async () => {
    const receiver = await startReceiver();
    const endpoint = await createEndpoint({ url: receiver.url, events: ['*'], design: 'A' });
    expect(endpoint.signatureScheme).toBe('design');
    // As endpoints made before: 256 bits in base64url, with the characters standard base64 lacks.
    const older = `whsec_${randomBytes(32).toString('base64url').slice(0, 41)}-_`;
    await t.em().execute(`update webhook_endpoints set sealed_secret = ? where id = ?`, [t.runtime.services.webhookSecrets.seal(older), endpoint.id]);

    const refused = await api
      .patch(`/api/webhooks/${endpoint.id}`, { signatureScheme: 'standard_webhooks', events: ['interview.completed'], design: 'B', description: 'switched' })
      .expect(422);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    expect(refused.body.error.details.fields).toEqual([
      { path: 'signatureScheme', message: expect.stringContaining(`/api/webhooks/${endpoint.id}/rotate-secret`) },
    ]);
    // Nothing of the refused update was kept.
    expect((await api.get(`/api/webhooks/${endpoint.id}`).expect(200)).body).toMatchObject({
      signatureScheme: 'design',
      events: ['*'],
      design: 'A',
      description: null,
    });
    const { request } = await deliverTestEvent(endpoint.id, receiver);
    expect(request.headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64}$/);

    const rotated = (await api.post(`/api/webhooks/${endpoint.id}/rotate-secret`).expect(200)).body;
    expect((await api.patch(`/api/webhooks/${endpoint.id}`, { signatureScheme: 'standard_webhooks' }).expect(200)).body).toMatchObject({
      signatureScheme: 'standard_webhooks',
    });
    const switched = (await deliverTestEvent(endpoint.id, receiver)).request;
    expect(verify(rotated.secret, switched)).toEqual(switched.body);
    expect(switched.headers['x-webhook-signature']).toBeUndefined();

    // And back: the design's own signature, with the same secret.
    await api.patch(`/api/webhooks/${endpoint.id}`, { signatureScheme: 'design' }).expect(200);
    const back = (await deliverTestEvent(endpoint.id, receiver)).request;
    expect(back.headers['webhook-signature']).toBeUndefined();
    expect(back.headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64}$/);
  });

  it("Design A, rotated, switched back to the design's own signing: the old secret stops signing at once, and the endpoint says so", async () => {
    const receiver = await startReceiver();
    const endpoint = await createEndpoint({ url: receiver.url, events: ['*'], design: 'A', signatureScheme: 'standard_webhooks' });
    const rotated = (await api.post(`/api/webhooks/${endpoint.id}/rotate-secret`).expect(200)).body;
    expect(rotated.previousSecretExpiresAt).not.toBeNull();
    const switched = (await api.patch(`/api/webhooks/${endpoint.id}`, { signatureScheme: 'design' }).expect(200)).body;
    expect(switched.previousSecretExpiresAt).toBeNull();
    const [row] = await t
      .em()
      .execute<{ sealed_previous_secret: string | null }[]>(`select sealed_previous_secret from webhook_endpoints where id = ?`, [endpoint.id]);
    expect(row!.sealed_previous_secret).toBeNull();
    const { request, delivery } = await deliverTestEvent(endpoint.id, receiver);
    expect(receiver.requests).toHaveLength(1);
    expect(request.headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(delivery.attempts).toMatchObject([{ signedWith: 'current' }]);
  });

  it('an unknown scheme is a 422 naming the field and the choices, on create and on update', async () => {
    const receiver = await startReceiver();
    const created = await api.post('/api/webhooks', { url: receiver.url, events: ['*'], signatureScheme: 'svix' }).expect(422);
    expect(created.body.error.code).toBe('VALIDATION_ERROR');
    expect(created.body.error.details.fields).toEqual([{ path: 'signatureScheme', message: expect.stringContaining('standard_webhooks') }]);
    const endpoint = await createEndpoint({ url: receiver.url, events: ['*'] });
    const updated = await api.patch(`/api/webhooks/${endpoint.id}`, { signatureScheme: 'v1' }).expect(422);
    expect(updated.body.error.details.fields).toEqual([{ path: 'signatureScheme', message: expect.stringContaining('standard_webhooks') }]);
  });

  it('the OpenAPI document describes the field, its choices and the headers on the endpoint', async () => {
    const document = (await t.http.get('/v1/openapi.json').expect(200)).body;
    const field = document.components.schemas.WebhookEndpoint.properties.signatureScheme;
    expect(field.enum).toEqual(['design', 'standard_webhooks']);
    expect(field.description).toContain('webhook-signature');
  });
});
