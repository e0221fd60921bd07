import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer, type SMTPServerError } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_PAYLOADS } from '../../shared/schemas/webhook-payloads.js';
import { bookCreditMovement } from '../../server/domains/billing/book-credit-movement.js';
import { systemCaller } from '../../server/domains/common/caller.js';
import { abandonIdleSession } from '../../server/domains/sessions/abandon-idle-session.js';
import { announceStart } from '../../server/domains/sessions/announce-start.js';
import { verifyWebhookA, verifyWebhookB } from '../../shared/webhook-signatures.js';
import { type Api, apiAs, createCampaign, createInvite, createPublishedScript } from '../helpers/factories.js';
import { interviewFixture, participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { RESULTS_QUESTIONS, runCompletionChain, TEXT_ANSWERS } from '../helpers/results.js';
import { strictly } from '../helpers/strict-schema.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { makeTestCertificate, type TestCertificate } from '../helpers/tls.js';
import { closeReceivers, type Received, type Receiver, reply, startWebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * The lifecycle events (issue 35): `session.started`, `session.abandoned`, `transcript.ready`,
 * `invite.delivered` and `invite.bounced`, each as a real interview or a real mail server makes
 * it, delivered signed in both designs to endpoints that subscribed to them, each body exactly its
 * published schema (shared/schemas/webhook-payloads.ts, what the OpenAPI document's `webhooks` lists).
 */

type Json = any;
type LifecycleType = 'session.started' | 'session.abandoned' | 'transcript.ready' | 'invite.delivered' | 'invite.bounced' | 'credits.low';
const LIFECYCLE: LifecycleType[] = ['session.started', 'session.abandoned', 'transcript.ready', 'invite.delivered', 'invite.bounced', 'credits.low'];
const DELIVER = { tasks: ['webhook__drain', 'webhook__deliver'] };

let certificate: TestCertificate;
let tlsDir: string;
let smtp: SMTPServer;
let t: TestApp;
let api: Api;
const servers: Server[] = [];
let designA: Receiver;
let designB: Receiver;
let secrets: { A: string; B: string };
let campaignId: string;

/** The one delivery of `type` about `subject` (a session or invite id) each design received, verified and held to its schema. */
function deliveredOnce(type: LifecycleType, subject: string): { A: Json; B: Json } {
  const pick = (receiver: Receiver, about: (body: Json) => string): Received => {
    const found = receiver.of(type).filter((request) => about(request.body) === subject);
    expect(found, `${type} about ${subject}`).toHaveLength(1);
    return found[0]!;
  };
  const a = pick(designA, (body) => body.session_id ?? body.invite_id);
  const b = pick(designB, (body) => body.data.session_id ?? body.data.invite_id);
  expect(verifyWebhookA(Buffer.from(a.raw), a.headers['x-webhook-signature'] as string, secrets.A)).toBe(true);
  expect(verifyWebhookB(Buffer.from(b.raw), b.headers, secrets.B, 5 * 60_000)).toBe(true);
  expect(() => strictly(WEBHOOK_PAYLOADS[type].A).parse(a.body)).not.toThrow();
  expect(() => strictly(WEBHOOK_PAYLOADS[type].B).parse(b.body)).not.toThrow();
  return { A: a.body, B: b.body };
}

function typesAbout(receiver: Receiver, subject: string): string[] {
  return receiver.requests
    .filter((request) => request.body.data?.session_id === subject || request.body.data?.invite_id === subject)
    .map((request) => request.body.type);
}

beforeAll(async () => {
  certificate = await makeTestCertificate();
  tlsDir = await mkdtemp(path.join(tmpdir(), 'lifecycle-events-tls-'));
  const caFile = path.join(tlsDir, 'ca.pem');
  await writeFile(caFile, certificate.cert);
  // A mail server that refuses every `nobody.…` recipient for good, and takes the rest.
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!address.address.startsWith('nobody.')) return callback();
      const error: SMTPServerError = new Error('5.1.1 Recipient address rejected: User unknown');
      error.responseCode = 550;
      callback(error);
    },
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  t = await startTestApp({
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    WEBHOOK_CA_FILE: caFile,
    RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000',
    RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000',
  });
  api = apiAs(t.http, await t.createTenant());
  designA = await startWebhookReceiver(certificate, reply(200));
  designB = await startWebhookReceiver(certificate, reply(200));
  servers.push(designA.server, designB.server);
  const a = await api.post('/api/webhooks', { url: designA.url, events: LIFECYCLE, design: 'A' }).expect(201);
  const b = await api.post('/api/webhooks', { url: designB.url, events: LIFECYCLE, design: 'B' }).expect(201);
  secrets = { A: a.body.secret, B: b.body.secret };
  const script = await createPublishedScript(api, { questions: RESULTS_QUESTIONS });
  campaignId = (await createCampaign(api, { scriptId: script.id })).id;
}, 120_000);

afterAll(async () => {
  await t?.close();
  closeReceivers(servers);
  await new Promise<void>((resolve) => (smtp ? smtp.close(resolve) : resolve()));
  if (tlsDir) await rm(tlsDir, { recursive: true, force: true });
});

const address = (local: string) => `${local}.${randomBytes(4).toString('hex')}@example.test`;

describe('an invited participant completes the interview', () => {
  let inviteId: string;
  let sessionId: string;
  let email: string;

  beforeAll(async () => {
    email = address('ada');
    const invite = await createInvite(api, campaignId, { email, name: 'Ada', metadata: { external_id: 'crm-42' } });
    inviteId = invite.id;
    await runJobsOnce(t, { tasks: ['invite__send_email'] });
    await runJobsOnce(t, DELIVER);
    const participant = participantAs(t.http, invite.token);
    sessionId = (await participant.start().expect(201)).body.session.id;
    await runJobsOnce(t, { tasks: ['session__announce_start'] });
    await runJobsOnce(t, DELIVER);
    for (const answer of TEXT_ANSWERS) await participant.answer(answer).expect(200);
    await runCompletionChain(t, sessionId);
    await runJobsOnce(t, DELIVER);
  }, 120_000);

  it('invite.delivered once the mail server accepted the invitation', () => {
    const { A, B } = deliveredOnce('invite.delivered', inviteId);
    expect(A).toMatchObject({ event: 'invite.delivered', invite_id: inviteId, campaign_id: campaignId, invitee_email: email });
    expect(B.data).toEqual({
      invite_id: inviteId,
      campaign_id: campaignId,
      participant: { email, name: 'Ada', external_id: 'crm-42' },
      delivered_at: B.created_at,
    });
  });

  it('session.started when the first question was asked, dated then', async () => {
    const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    const { A, B } = deliveredOnce('session.started', sessionId);
    expect(A).toMatchObject({ event: 'session.started', session_id: sessionId, campaign_id: campaignId, invitee_email: email, started_at: session.startedAt });
    expect(B).toMatchObject({ type: 'session.started', created_at: session.startedAt });
    expect(B.data).toEqual({
      session_id: sessionId,
      campaign_id: campaignId,
      script_id: session.scriptId,
      participant: { email, name: 'Ada', external_id: 'crm-42' },
      locale: 'en',
      started_at: session.startedAt,
    });
  });

  it('transcript.ready with a link that opens the transcript without a key, before interview.completed would', async () => {
    const { A, B } = deliveredOnce('transcript.ready', sessionId);
    expect(A.session_id).toBe(sessionId);
    const transcript = await t.http.get(new URL(B.data.transcript_url).pathname).expect(200);
    expect(transcript.body.utterances.filter((utterance: Json) => utterance.speaker === 'participant')).toHaveLength(TEXT_ANSWERS.length);
    // Subscribed to the lifecycle only: neither interview.completed nor an abandonment reached it.
    expect(typesAbout(designB, sessionId)).toEqual(['session.started', 'transcript.ready']);
  });

  it('the events API lists them with their session, and the invite event without one', async () => {
    const events = (await api.get('/v1/events').expect(200)).body.data as Json[];
    const mine = events.filter((event) => event.sessionId === sessionId || event.data.invite_id === inviteId);
    expect(mine.map((event) => [event.type, event.sessionId])).toEqual([
      ['interview.completed', sessionId],
      ['transcript.ready', sessionId],
      ['session.started', sessionId],
      ['invite.delivered', null],
    ]);
    const started = (await api.get('/v1/events?type=session.started').expect(200)).body.data as Json[];
    expect(started.find((event) => event.sessionId === sessionId)!.data).toEqual(deliveredOnce('session.started', sessionId).B.data);
  });
});

describe('sessions that end unfinished', () => {
  it('session.abandoned when the participant leaves, with what was answered', async () => {
    const invite = await createInvite(api, campaignId, { email: address('grace'), sendEmail: false });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id;
    await participant.answer(TEXT_ANSWERS[0]!).expect(200);
    await participant.end().expect(200);
    await runJobsOnce(t, DELIVER);
    const { A, B } = deliveredOnce('session.abandoned', sessionId);
    expect(A).toMatchObject({ event: 'session.abandoned', session_id: sessionId, reason: 'ended_by_participant', questions_answered: 1, questions_total: 5 });
    const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    expect(B.data).toMatchObject({ reason: 'ended_by_participant', questions_answered: 1, questions_total: 5, abandoned_at: session.completedAt });
  });

  it('session.abandoned with invite_cancelled when the invite is cancelled mid-interview', async () => {
    const invite = await createInvite(api, campaignId, { email: address('linus'), sendEmail: false });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id;
    await api.post(`/v1/invites/${invite.id}/cancel`).expect(200);
    await runJobsOnce(t, DELIVER);
    const { B } = deliveredOnce('session.abandoned', sessionId);
    expect(B.data).toMatchObject({ session_id: sessionId, reason: 'invite_cancelled', questions_answered: 0 });
  });
});

describe('the reasons of the other abandonments, and what is never announced', () => {
  it('idle: abandoned by its watching job after SESSION_ABANDON_AFTER without activity', async () => {
    const invite = await createInvite(api, campaignId, { email: address('idle'), sendEmail: false });
    const sessionId = (await participantAs(t.http, invite.token).start().expect(201)).body.session.id;
    // Last heard of a day ago (its clock is not moved: the minutes billed stay a few seconds').
    await t.em().execute(`update sessions set last_activity_at = now() - interval '1 day' where id = ?`, [sessionId]);
    expect(await abandonIdleSession({ em: t.em(), services: t.runtime.services }, { sessionId })).toBe('abandoned');
    await runJobsOnce(t, DELIVER);
    const { A, B } = deliveredOnce('session.abandoned', sessionId);
    expect(A).toMatchObject({ reason: 'idle', questions_answered: 0, questions_total: 5 });
    expect(B.data.abandoned_at).toBe((await api.get(`/v1/sessions/${sessionId}`).expect(200)).body.completedAt);
  });

  it('consent_declined: a session that waited for consent is abandoned when it is declined, and was never announced started', async () => {
    const { invite } = await interviewFixture(api, { settings: { requireConsent: true } });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id;
    await runJobsOnce(t, { tasks: ['session__announce_start'] });
    await participant.consent(sessionId, { granted: false, type: 'all' }).expect(200);
    await runJobsOnce(t, { tasks: ['session__announce_start'] });
    await runJobsOnce(t, DELIVER);
    expect(deliveredOnce('session.abandoned', sessionId).B.data).toMatchObject({ reason: 'consent_declined', questions_answered: 0 });
    expect(typesAbout(designB, sessionId)).toEqual(['session.abandoned']);
  });

  it('a consent granted starts the interview, and only then is session.started announced', async () => {
    const { invite } = await interviewFixture(api, { settings: { requireConsent: true } });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id;
    await runJobsOnce(t, { tasks: ['session__announce_start'] });
    await runJobsOnce(t, DELIVER);
    expect(typesAbout(designB, sessionId)).toEqual([]);
    await participant.consent(sessionId, { granted: true, type: 'all' }).expect(200);
    await runJobsOnce(t, { tasks: ['session__announce_start'] });
    await runJobsOnce(t, DELIVER);
    const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    expect(deliveredOnce('session.started', sessionId).B.data.started_at).toBe(session.startedAt);
  });

  it('session.started is recorded once, however many runs of its job there are, at once or later', async () => {
    const invite = await createInvite(api, campaignId, { email: address('twice'), sendEmail: false });
    const sessionId = (await participantAs(t.http, invite.token).start().expect(201)).body.session.id;
    const runs = await Promise.all([1, 2, 3].map(() => announceStart({ em: t.em() }, { sessionId })));
    expect(runs.filter(Boolean)).toHaveLength(1);
    expect(await announceStart({ em: t.em() }, { sessionId })).toBe(false);
    const [row] = await t
      .em()
      .execute<{ count: string }[]>(`select count(*) as count from webhook_events where session_id = ? and type = 'session.started'`, [sessionId]);
    expect(Number(row!.count)).toBe(1);
  });
});

describe('an invitation the mail server refuses', () => {
  it("invite.bounced with the server's answer, and no invite.delivered", async () => {
    const email = address('nobody');
    const invite = await createInvite(api, campaignId, { email });
    await runJobsOnce(t, { tasks: ['invite__send_email'] });
    await runJobsOnce(t, DELIVER);
    expect((await api.get(`/v1/invites/${invite.id}`).expect(200)).body.emailStatus).toBe('bounced');
    const { A, B } = deliveredOnce('invite.bounced', invite.id);
    expect(A).toMatchObject({ event: 'invite.bounced', invite_id: invite.id, invitee_email: email, reason: expect.stringContaining('550') });
    expect(B.data).toMatchObject({ invite_id: invite.id, reason: 'SMTP server replied 550 5.1.1 to RCPT TO', bounced_at: B.created_at });
    expect(typesAbout(designB, invite.id)).toEqual(['invite.bounced']);
  });
});

describe('credits.low', () => {
  it('is published when a charge takes the balance below the threshold, once per crossing, with the charge that did it', async () => {
    const tenant = await t.createTenant();
    const owner = apiAs(t.http, tenant);
    const receiver = await startWebhookReceiver(certificate, reply(200));
    servers.push(receiver.server);
    const endpoint = await owner.post('/api/webhooks', { url: receiver.url, events: ['credits.low'], design: 'B' }).expect(201);
    await t.em().execute('update organizations set credit_balance = 12 where id = ?', [tenant.organizationId]);

    const refused = await owner.patch('/v1/organization', { settings: { creditsLowThreshold: 0 } }).expect(422);
    expect(refused.body.error.details.fields.map((field: Json) => field.path)).toEqual(['settings.creditsLowThreshold']);
    const set = await owner.patch('/v1/organization', { settings: { creditsLowThreshold: 10 } }).expect(200);
    expect(set.body.settings.creditsLowThreshold).toBe(10);

    const move = async (amount: number, kind: 'charge' | 'grant') => {
      const source = `test:${randomBytes(6).toString('hex')}`;
      const booked = await t.em().transactional((tx) => bookCreditMovement({ em: tx }, systemCaller(tenant.organizationId), { amount, kind, source }));
      return { ...booked, source };
    };
    await move(-2, 'charge'); // 12 → 10: at the threshold is not below it
    const crossing = await move(-1.5, 'charge'); // 10 → 8.5: crosses
    await move(-1, 'charge'); // 8.5 → 7.5: already below, quiet
    await move(5, 'grant'); // 12.5: lifted above again
    const again = await move(-3, 'charge'); // 12.5 → 9.5: crosses again
    // The same charge booked again (its source repeated) moves nothing and alerts nothing.
    await t
      .em()
      .transactional((tx) => bookCreditMovement({ em: tx }, systemCaller(tenant.organizationId), { amount: -3, kind: 'charge', source: again.source }));
    await runJobsOnce(t, DELIVER);

    const received = receiver.of('credits.low');
    expect(received.map((request) => request.body.data)).toEqual([
      { organization_id: tenant.organizationId, balance: 8.5, threshold: 10, transaction_id: crossing.transactionId },
      { organization_id: tenant.organizationId, balance: 9.5, threshold: 10, transaction_id: again.transactionId },
    ]);
    for (const request of received) {
      expect(verifyWebhookB(Buffer.from(request.raw), request.headers, endpoint.body.secret, 5 * 60_000)).toBe(true);
      expect(() => strictly(WEBHOOK_PAYLOADS['credits.low'].B).parse(request.body)).not.toThrow();
    }
    const listed = (await owner.get('/v1/events?type=credits.low').expect(200)).body.data as Json[];
    expect(listed.map((event) => [event.sessionId, event.data.balance])).toEqual([
      [null, 9.5],
      [null, 8.5],
    ]);

    // Removed, no alert at all.
    await owner.patch('/v1/organization', { settings: { creditsLowThreshold: null } }).expect(200);
    await move(5, 'grant');
    await move(-10, 'charge');
    await runJobsOnce(t, DELIVER);
    expect(receiver.of('credits.low')).toHaveLength(2);
  });
});
