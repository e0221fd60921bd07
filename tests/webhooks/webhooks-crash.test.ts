import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookA, verifyWebhookB } from '../../shared/webhook-signatures.js';
import { deliverWebhookJob, drainEndpointJob } from '../../server/domains/webhooks/delivery-jobs.js';
import { addJobs } from '../../server/jobs/add-jobs.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { interviewFixture, participantAs } from '../helpers/interviews.js';
import { ageDeadWorker, runJobsOnce } from '../helpers/jobs.js';
import { exitOf, exitWithin, freePort, killLeftovers, startServer, waitFor, waitForHealthy } from '../helpers/processes.js';
import { makeTestCertificate } from '../helpers/tls.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const PARTICIPANT_BUDGET = { RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' };
/** The completion chain up to the announcement (after the files job), but not the delivery: that is the worker processes' part. */
const CHAIN_BEFORE_DELIVERY = ['session__generate_transcript', 'session__generate_insights', 'session__prepare_files', 'session__announce_completion'];
// No follow-ups: each answer moves on, so two answers complete the interview.
const QUESTIONS = [
  { id: 'experience', text: 'How was your first week with the product?', type: 'open', followUp: { enabled: false } },
  { id: 'support', text: 'How was your experience with our support team?', type: 'open', followUp: { enabled: false } },
];
const ANSWERS = [
  'The onboarding emails had broken links and the setup took us two days, which was frustrating for the team.',
  'Support was quick to respond and the new reporting dashboard saves me a lot of time every week.',
];

interface Received {
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

let t: TestApp;
let receiver: Server;
let receiverUrl: string;
let tlsDir: string;
let caFile: string;
const received: Received[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  const pems = await makeTestCertificate();
  tlsDir = await mkdtemp(path.join(tmpdir(), 'webhooks-crash-tls-'));
  caFile = path.join(tlsDir, 'ca.pem');
  await writeFile(caFile, pems.cert);
  // The customer's receiver: keeps every request as it came and answers 200 at once.
  receiver = createServer({ cert: pems.cert, key: pems.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/interviews`;
  t = await startTestApp({ ...PARTICIPANT_BUDGET, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_CA_FILE: caFile });
});

afterAll(async () => {
  await killLeftovers(children);
  await t?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  if (tlsDir) await rm(tlsDir, { recursive: true, force: true });
});

/** A worker process (`--role=worker`) on the test app's database, allowed to reach the loopback receiver. */
function startWorkerProcess(env: Record<string, string> = {}) {
  const worker = startServer(
    {
      DATABASE_URL: t.database.url,
      DATA_DIR: t.dataDir,
      PUBLIC_URL: 'http://127.0.0.1:3000',
      WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
      WEBHOOK_CA_FILE: caFile,
      ...env,
    },
    ['--role=worker'],
  );
  children.push(worker.child);
  return worker;
}

/** The requests the receiver got for one session's interview.completed. */
function requestsFor(sessionId: string, design: 'A' | 'B'): Received[] {
  return received.filter((request) => {
    const body = JSON.parse(request.body);
    return design === 'A' ? body.session_id === sessionId : body.data?.session_id === sessionId;
  });
}

/** The endpoint's drain jobs (its first attempts) still in graphile-worker's queue (a job that ran to its end is deleted; the public view has no payload). */
function drainJobs(endpointId: string) {
  return t.em().execute<{ id: string; payload: { endpointId: string }; locked_by: string | null; attempts: number }[]>(
    `select j.id, j.payload, j.locked_by, j.attempts from graphile_worker._private_jobs j join graphile_worker._private_tasks task on task.id = j.task_id
        where task.identifier = 'webhook__drain' and j.payload->>'endpointId' = ? order by j.id`,
    [endpointId],
  );
}

/** The delivery's retry jobs still in graphile-worker's queue. */
function deliveryJobs(deliveryId: string) {
  return t.em().execute<{ id: string; payload: { deliveryId: string; attempt: number }; locked_by: string | null; attempts: number }[]>(
    `select j.id, j.payload, j.locked_by, j.attempts from graphile_worker._private_jobs j join graphile_worker._private_tasks task on task.id = j.task_id
        where task.identifier = 'webhook__deliver' and j.payload->>'deliveryId' = ? order by j.id`,
    [deliveryId],
  );
}

/**
 * One organization with one endpoint of the design, an interview completed over HTTP and its
 * completion chain run here up to the endpoint's `webhook__drain` job; then a worker process that
 * dies (SIGKILL) right after the request of the first attempt, before anything is recorded, and a
 * second worker that recovers the job. Checks what must hold at each step and answers what is left to
 * judge.
 */
async function deliveryAcrossACrash(design: 'A' | 'B') {
  const tenant = await t.createTenant();
  const api: Api = apiAs(t.http, tenant);
  const endpoint = await api.post('/api/webhooks', { url: receiverUrl, events: ['interview.completed'], design }).expect(201);
  const secret = endpoint.body.secret as string;

  const fixture = await interviewFixture(api, { questions: QUESTIONS });
  const participant = participantAs(t.http, fixture.invite.token);
  const started = await participant.start().expect(201);
  const sessionId = started.body.session.id as string;
  let state = started.body;
  for (const answer of ANSWERS) state = (await participant.answer(answer).expect(200)).body;
  expect(state.session.status).toBe('completed');

  const deliveryId = await waitFor(
    async () => {
      await runJobsOnce(t, { tasks: CHAIN_BEFORE_DELIVERY });
      const [row] = await t
        .em()
        .execute<{ id: string }[]>(
          `select d.id from webhook_deliveries d join webhook_events e on e.id = d.event_id where d.endpoint_id = ? and e.session_id = ?`,
          [endpoint.body.id, sessionId],
        );
      return row?.id;
    },
    15_000,
    () => `no interview.completed delivery for ${sessionId}`,
  );
  const endpointId = endpoint.body.id as string;
  expect(await drainJobs(endpointId)).toMatchObject([{ payload: { endpointId }, locked_by: null, attempts: 0 }]);
  expect(await deliveryJobs(deliveryId)).toEqual([]);
  expect(requestsFor(sessionId, design)).toEqual([]);

  // The first worker makes the attempt's request (the receiver gets it and answers 200) and dies before recording it.
  const doomed = startWorkerProcess({ TEST_FAULTS: 'webhook:after-request' });
  await exitWithin(doomed, 20_000);
  expect(doomed.child.signalCode, doomed.output()).toBe('SIGKILL');
  expect(requestsFor(sessionId, design)).toHaveLength(1);

  // Nothing recorded: the delivery is pending with no attempt, and the drain's job is still there, held by the dead worker.
  const pending = await api.get(`/api/webhooks/deliveries/${deliveryId}`).expect(200);
  expect(pending.body).toMatchObject({ status: 'pending', attempts: [] });
  const [held, ...others] = await drainJobs(endpointId);
  expect(others, 'other drains of the endpoint after the crash').toEqual([]);
  expect(await deliveryJobs(deliveryId), 'retry jobs after the crash').toEqual([]);
  expect(held).toMatchObject({ payload: { endpointId }, attempts: 1 });
  expect(held!.locked_by).not.toBeNull();

  await ageDeadWorker(t, held!.locked_by!);

  const metricsPort = await freePort();
  const healthy = startWorkerProcess({ WORKER_METRICS_PORT: String(metricsPort) });
  await waitForHealthy(healthy, metricsPort, 20_000);
  const delivered = await waitFor(
    async () => {
      const response = await api.get(`/api/webhooks/deliveries/${deliveryId}`);
      return response.status === 200 && response.body.status !== 'pending' ? response.body : undefined;
    },
    15_000,
    () => `the delivery was not finished by the second worker:\n${healthy.output()}`,
  );
  healthy.child.kill('SIGTERM');
  expect(await exitOf(healthy.child)).toBe(0);

  expect(delivered).toMatchObject({ status: 'succeeded', attempts: [{ number: 1, statusCode: 200, error: null }] });
  expect(delivered.attempts).toHaveLength(1);
  expect(await deliveryJobs(deliveryId), `jobs left by the second worker:\n${healthy.output()}`).toEqual([]);
  expect(await drainJobs(endpointId), `drains left by the second worker:\n${healthy.output()}`).toEqual([]);
  const requests = requestsFor(sessionId, design);
  expect(requests).toHaveLength(2);
  for (const request of requests) {
    const signed =
      design === 'A'
        ? verifyWebhookA(request.body, request.headers['x-webhook-signature'] as string, secret)
        : verifyWebhookB(request.body, request.headers, secret);
    expect(signed, 'each request is signed with the endpoint secret').toBe(true);
  }

  // Running jobs again sends nothing more, even the drain run once more (a second recovery, say)
  // or a first attempt's job of the kind queued before drains.
  await runJobsOnce(t);
  await addJobs(t.em(), [drainEndpointJob(endpointId), deliverWebhookJob(deliveryId, 1)]);
  await runJobsOnce(t);
  expect(await deliveryJobs(deliveryId)).toEqual([]);
  expect(await drainJobs(endpointId)).toEqual([]);
  expect(requestsFor(sessionId, design)).toHaveLength(2);
  expect((await api.get(`/api/webhooks/deliveries/${deliveryId}`).expect(200)).body).toEqual(delivered);

  return { sessionId, requests: requests.map((request) => JSON.parse(request.body) as Record<string, any>) };
}

describe('a worker killed right after a webhook request, before recording the attempt', () => {
  it('loses nothing: the next worker delivers the event once more (Design A: same event and session_id), and one attempt is recorded', async () => {
    const { sessionId, requests } = await deliveryAcrossACrash('A');
    // What a receiver deduplicates on: the same event of the same session, twice.
    expect(requests.map((body) => [body.event, body.session_id])).toEqual([
      ['interview.completed', sessionId],
      ['interview.completed', sessionId],
    ]);
  }, 120_000);

  it('Design B: the repeated request carries the same envelope id', async () => {
    const { sessionId, requests } = await deliveryAcrossACrash('B');
    expect(requests.map((body) => [body.type, body.data.session_id])).toEqual([
      ['interview.completed', sessionId],
      ['interview.completed', sessionId],
    ]);
    expect(requests[0]!.id).toEqual(expect.any(String));
    expect(requests[1]!.id).toBe(requests[0]!.id);
  }, 90_000);
});
