import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wav } from '../helpers/audio.js';
import type { Api } from '../helpers/factories.js';
import { exitWithin, freePort, killLeftovers, startServer, waitFor } from '../helpers/processes.js';
import { S3RVER_CREDENTIALS, startTestS3, type TestS3 } from '../helpers/s3.js';
import { makeTestCertificate } from '../helpers/tls.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * The service as several hosts would run it: two `--role=api` and two `--role=worker` processes,
 * each with its own DATA_DIR (no shared disk), sharing only PostgreSQL and an S3-compatible
 * store (s3rver), with a real SMTP server and a real HTTPS webhook receiver. Files written
 * through one process are read through another, interviews move between API processes, every
 * job runs exactly once across the workers, and a worker stopped mid-work loses nothing.
 */
let t: TestApp;
let s3: TestS3;
let tenant: TestTenant;
let smtp: SMTPServer;
let receiver: HttpsServer;
const work: string[] = [];
const processes: ReturnType<typeof startServer>[] = [];
/** Recipients of every message the SMTP server accepted. */
const mailedTo: string[] = [];
/** Bodies of every webhook request received. */
const webhookBodies: string[] = [];
let env: Record<string, string>;

interface ApiProcess {
  process: ReturnType<typeof startServer>;
  url: string;
  http: Api;
}
let api1: ApiProcess;
let api2: ApiProcess;
let worker1: ReturnType<typeof startServer>;
let worker2: ReturnType<typeof startServer>;

async function ownDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'multi-process-'));
  work.push(dir);
  return dir;
}

async function startApi(): Promise<ApiProcess> {
  const port = await freePort();
  const child = startServer({ ...env, DATA_DIR: await ownDataDir(), PORT: String(port) }, ['--role=api']);
  processes.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => ((await fetch(`${url}/healthz`)).status === 200 ? true : undefined),
    90_000,
    () => `API process never became healthy:\n${child.output()}`,
  );
  return { process: child, url, http: httpApi(url) };
}

/** Starts a worker and waits until it has registered (`worker_processes`): `running` of them in all. */
async function startWorker(running: number): Promise<ReturnType<typeof startServer>> {
  const child = startServer({ ...env, DATA_DIR: await ownDataDir() }, ['--role=worker']);
  processes.push(child);
  await waitFor(
    async () => {
      const [row] = await t.em().execute<{ count: string }[]>('select count(*) from worker_processes');
      return Number(row!.count) >= running ? true : undefined;
    },
    90_000,
    () => `worker never started:\n${child.output()}`,
  );
  return child;
}

/** A minimal client of a spawned API process, as a customer's server talks to it. */
function httpApi(base: string): Api {
  const call = async (method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${pathname}`, {
      method,
      headers: {
        Authorization: tenant.authorization,
        ...(body === undefined || body instanceof FormData ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed, bytes: Buffer.from(text, 'latin1') };
  };
  return call as unknown as Api;
}

type Call = (method: string, pathname: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: any }>;
const on = (api: ApiProcess) => api.http as unknown as Call;

async function expectStatus<T extends { status: number; body: any }>(promise: Promise<T>, status: number): Promise<T> {
  const response = await promise;
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  return response;
}

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.createTenant();
  s3 = await startTestS3();

  // Each message takes a moment, so a worker stopped mid-batch has sends in flight.
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        setTimeout(() => {
          mailedTo.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address));
          callback();
        }, 300);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));

  const certificate = await makeTestCertificate();
  const caDir = await ownDataDir();
  await writeFile(path.join(caDir, 'ca.pem'), certificate.cert);
  receiver = createHttpsServer({ cert: certificate.cert, key: certificate.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      webhookBodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

  env = {
    DATABASE_URL: t.database.url,
    STORAGE_URL: s3.storageUrl('shared'),
    ...S3RVER_CREDENTIALS,
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    WEBHOOK_CA_FILE: path.join(caDir, 'ca.pem'),
    PUBLIC_URL: 'http://127.0.0.1:3000',
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: '4',
    WORKER_CONCURRENCY: '4',
    RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000',
    RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000',
  };
  [api1, api2] = await Promise.all([startApi(), startApi()]);
  worker1 = await startWorker(1);
  worker2 = await startWorker(2);
}, 240_000);

afterAll(async () => {
  await killLeftovers(processes.map((p) => p.child));
  await new Promise((resolve) => receiver?.close(resolve));
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await s3?.close();
  await t?.close();
  for (const dir of work) await rm(dir, { recursive: true, force: true });
});

const QUESTIONS = [
  { id: 'experience', text: 'How was your first week with the product?', type: 'open' },
  { id: 'recommend', text: 'Would you recommend it to a colleague?', type: 'yes_no' },
];

describe('two API and two worker processes on one PostgreSQL and one S3 store', () => {
  it('a file uploaded through one API process is served by the other, from the bucket, not a disk', async () => {
    const script = await expectStatus(
      on(api1)('POST', '/v1/scripts', { name: 'Media script', systemPrompt: 'You are a friendly interviewer.', questions: QUESTIONS }),
      201,
    );
    const form = new FormData();
    const audio = wav(1);
    form.append('file', new Blob([new Uint8Array(audio)]), 'intro.wav');
    const media = await expectStatus(on(api1)('POST', `/v1/scripts/${script.body.id}/media`, form), 201);
    const served = await fetch(`${api2.url}${new URL(media.body.url).pathname}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(audio)).toBe(true);
    for (const dir of work) expect(await readdir(path.join(dir, 'files')).catch(() => [])).toEqual([]);
  });

  it('interviews started on one API process and answered on the other complete; their jobs run once each across the workers', async () => {
    const script = await expectStatus(
      on(api1)('POST', '/v1/scripts', { name: 'Shared script', systemPrompt: 'You are a friendly interviewer.', questions: QUESTIONS }),
      201,
    );
    await expectStatus(on(api1)('POST', `/v1/scripts/${script.body.id}/publish`), 200);
    const campaign = await expectStatus(on(api2)('POST', '/v1/campaigns', { name: 'Across processes', scriptId: script.body.id }), 201);
    await expectStatus(
      on(api1)('POST', '/api/webhooks', { url: `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, events: ['interview.completed'] }),
      201,
    );

    const sessions: string[] = [];
    for (let i = 0; i < 4; i++) {
      const invite = await expectStatus(
        on(api2)('POST', `/v1/campaigns/${campaign.body.id}/invites`, {
          email: `across-${i}-${randomBytes(3).toString('hex')}@example.test`,
          sendEmail: false,
        }),
        201,
      );
      const participant = (api: ApiProcess) => (method: string, pathname: string, body?: unknown) =>
        fetch(`${api.url}${pathname}`, {
          method,
          headers: { Authorization: `Bearer ${invite.body.token}`, ...(body instanceof FormData ? {} : { 'Content-Type': 'application/json' }) },
          body: body instanceof FormData ? body : JSON.stringify(body ?? {}),
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
      const started = await expectStatus(participant(api1)('POST', '/api/interview/start'), 201);
      sessions.push(started.body.session.id);
      // The open answer as a recording (stored in the bucket by api2), the yes/no typed (on api1 again).
      const recording = new FormData();
      recording.append('audio', new Blob([new Uint8Array(wav(1.2, 330 + i))]), 'answer.wav');
      recording.append('text', 'The first week went well and the team was helpful.');
      await expectStatus(participant(api2)('POST', '/api/interview/answer', recording), 200);
      const done = await expectStatus(participant(api1)('POST', '/api/interview/answer', { text: 'Yes' }), 200);
      expect(done.body.session.status).toBe('completed');
    }

    // The completion chain (transcript, insights, merged audio, the webhook, the exports) runs on the workers.
    await waitFor(
      async () => {
        const rows = await t
          .em()
          .execute<{ id: string }[]>(`select id from sessions where id in (?) and completion_announced_at is not null and exports_prepared_at is not null`, [
            sessions,
          ]);
        return rows.length === sessions.length ? true : undefined;
      },
      120_000,
      () => `completion chains did not finish:\n${worker1.output()}\n${worker2.output()}`,
    );
    await waitFor(
      async () => (sessions.every((id) => webhookBodies.some((body) => body.includes(id))) ? true : undefined),
      60_000,
      () => 'webhooks not delivered',
    );
    for (const id of sessions) {
      expect(webhookBodies.filter((body) => body.includes(id))).toHaveLength(1);
      const transcript = await expectStatus(on(api2)('GET', `/v1/sessions/${id}/transcript`), 200);
      expect(JSON.stringify(transcript.body)).toContain('The first week went well');
      const files = await expectStatus(on(api1)('GET', `/v1/sessions/${id}/files`), 200);
      const kinds = (files.body.data as { kind: string; url: string }[]).map((file) => file.kind).sort();
      expect(kinds).toContain('audio');
      // The transcript JSON and the PDF report, rendered in the bundled worker's render thread (dist/render-thread.js).
      expect(kinds.filter((kind) => kind === 'export')).toHaveLength(2);
      // Every file, written by whichever process, downloads through either API process.
      for (const file of files.body.data as { url: string; size: number }[]) {
        const response = await fetch(`${api2.url}${new URL(file.url).pathname}`);
        expect(response.status).toBe(200);
        expect((await response.arrayBuffer()).byteLength).toBe(file.size);
      }
    }
    // Nothing due is left over or failed: what remains of these sessions is the idle watchers, scheduled for later.
    const left = await t.em().execute<{ task: string; due: boolean; attempts: number }[]>(
      `select t.identifier as task, j.run_at <= now() as due, j.attempts from graphile_worker._private_jobs j
         join graphile_worker._private_tasks t on t.id = j.task_id where j.payload->>'sessionId' in (?)`,
      [sessions],
    );
    expect(left.filter((job) => job.due || job.attempts > 0 || job.task !== 'session__abandon_idle')).toEqual([]);
  }, 240_000);

  it('a worker stopped (SIGTERM) in the middle of a batch of emails finishes what it holds; the other sends the rest; each address gets one email', async () => {
    const script = await expectStatus(
      on(api1)('POST', '/v1/scripts', { name: 'Mail script', systemPrompt: 'You are a friendly interviewer.', questions: QUESTIONS }),
      201,
    );
    await expectStatus(on(api1)('POST', `/v1/scripts/${script.body.id}/publish`), 200);
    const campaign = await expectStatus(on(api1)('POST', '/v1/campaigns', { name: 'Mailing', scriptId: script.body.id }), 201);
    const addresses = Array.from({ length: 40 }, (_, i) => `batch-${i}-${randomBytes(3).toString('hex')}@example.test`);
    await expectStatus(on(api2)('POST', `/v1/campaigns/${campaign.body.id}/invites/bulk`, { invites: addresses.map((email) => ({ email })) }), 201);

    // Stopped while it holds jobs: worker 1 (the first registered) has at least one locked right now.
    const [first] = await t.em().execute<{ worker_ids: string[] }[]>('select worker_ids from worker_processes order by started_at limit 1');
    const holding = async () => {
      const [row] = await t.em().execute<{ count: string }[]>('select count(*) from graphile_worker._private_jobs where locked_by in (?)', [first!.worker_ids]);
      return Number(row!.count);
    };
    await waitFor(
      async () => ((await holding()) > 0 ? true : undefined),
      60_000,
      () => 'worker 1 never took a job',
    );
    worker1.child.kill('SIGTERM');
    await exitWithin(worker1, 60_000);
    expect(worker1.child.exitCode).toBe(0);
    // It finished what it held rather than leaving it locked for another worker to recover.
    expect(await holding()).toBe(0);

    await waitFor(
      async () => (addresses.every((address) => mailedTo.includes(address)) ? true : undefined),
      90_000,
      () => `emails missing: ${addresses.filter((a) => !mailedTo.includes(a)).length}`,
    );
    for (const address of addresses) expect(mailedTo.filter((to) => to === address)).toHaveLength(1);
    const [sent] = await t
      .em()
      .execute<{ count: string }[]>(`select count(*) from invites where campaign_id = ? and email_status = 'sent'`, [campaign.body.id]);
    expect(Number(sent!.count)).toBe(40);
  }, 240_000);
});
