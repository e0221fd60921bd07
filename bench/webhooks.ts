/**
 * Webhooks benchmark, on a real PostgreSQL (DATABASE_URL, or a throwaway embedded cluster), the
 * service run as separate processes, the customer's receiver an HTTPS server in this process
 * (answering 200 at once, a throwaway certificate the service trusts through WEBHOOK_CA_FILE):
 *
 * 1. Delivery throughput: one organization with one Design A endpoint; N `interview.completed` events
 *    published in this process (publishEvent, in batches inside transactions) while no worker
 *    runs; then a worker process (`server/main.ts --role=worker`) drains them. Deliveries per
 *    second from the first receipt to the last, and each event's occurred_at → receipt (which,
 *    behind a backlog, is mostly waiting in the queue). Then, with that worker idle, events one at
 *    a time (--trickle of them, 20 a second): occurred_at → receipt with no queue, what one event
 *    costs from its commit (graphile-worker's LISTEN/NOTIFY pickup, the task, the HTTPS request).
 * 2. The ceiling: N jobs of a task that does nothing, run by a bare graphile-worker `run()` with
 *    the same concurrency and poll interval on the same database; jobs per second first to last.
 *    The ratio deliveries/s ÷ bare jobs/s is printed (aim ≥ 0.5).
 * 3. Completion → webhook: the service as one process (API and worker, `npm start`'s shape), a
 *    Design A endpoint subscribed to interview.completed, and --interviews interviews of a
 *    two-question text script completed over HTTP one after another; from the response to the
 *    last answer to the receipt of the signed interview.completed (its signature checked with
 *    shared/webhook-signatures.ts). Aim: p95 ≤ 1 s on an idle machine. The stages in between
 *    (transcript, insights, announcement, delivery) from the database's own timestamps.
 *
 * Beside 1 and 2, the CPU each delivery and each bare job cost: the worker (for 2, this
 * process), the receiver (this process), PostgreSQL, and how busy the whole machine was.
 *
 *   npm run bench:webhooks
 *   npm run bench:webhooks -- --deliveries 20000 --concurrency 10 --interviews 50 --trickle 200
 *   npm run bench:webhooks -- --profile      # + CPU profile of the worker process during 1
 *
 * --concurrency is WORKER_CONCURRENCY (default the service's), --batch events per publishing
 * transaction (500), --endpoints how many endpoints the backlog is spread over (1; each event goes
 * to every one, so each endpoint's drain has --deliveries ÷ --endpoints to send). Figures go to bench/results/webhooks.json (the profile, when taken, to
 * bench/results/webhooks-worker.cpuprofile).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { run, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import { DESIGN_A_SIGNATURE_HEADER, verifyWebhookA } from '../shared/webhook-signatures.js';
import { loadConfig } from '../server/config.js';
import { findFreePort } from '../server/db/embedded-postgres.js';
import { graphileLogger } from '../server/db/migrate.js';
import { systemCaller } from '../server/domains/common/caller.js';
import { publishEvent, sampleFacts } from '../server/domains/webhooks/index.js';
import { createApp } from '../server/http/app.js';
import { createLogger, type Logger } from '../server/logger.js';
import { openRuntime } from '../server/runtime.js';
import { makeTestCertificate } from '../tests/helpers/tls.js';
import { type ProfileSummary, summarizeCpuProfile } from './helpers/cpu-profile.js';
import { clusterCpuMs, machineCpuMs, type NodeChild, postmasterPid, processCpuMs, ROOT, startNode, stopChild, waitForHealthy } from './helpers/processes.js';
import { callApi } from './helpers/api.js';
import { judgeAgainstAim } from './helpers/aims.js';
import { positiveOption } from './helpers/options.js';
import { type Distribution, distribution } from './helpers/stats.js';
import { createBenchTenant, openBenchDatabase } from './helpers/database.js';

const SERVICE_DEFAULT_CONCURRENCY = loadConfig({}).workerConcurrency;
const { values: options } = parseArgs({
  options: {
    deliveries: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: String(SERVICE_DEFAULT_CONCURRENCY) },
    interviews: { type: 'string', default: '20' },
    trickle: { type: 'string', default: '200' },
    batch: { type: 'string', default: '500' },
    endpoints: { type: 'string', default: '1' },
    profile: { type: 'boolean', default: false },
  },
});
const DELIVERIES = positiveOption('deliveries', options.deliveries);
const CONCURRENCY = positiveOption('concurrency', options.concurrency);
const INTERVIEWS = positiveOption('interviews', options.interviews);
const TRICKLE = positiveOption('trickle', options.trickle);
const BATCH = positiveOption('batch', options.batch);
/** Endpoints the backlog is spread over: each event goes to every one (--deliveries ÷ --endpoints events). */
const ENDPOINTS = positiveOption('endpoints', options.endpoints);
if (DELIVERIES % ENDPOINTS !== 0) throw new Error(`--deliveries (${DELIVERIES}) must be a multiple of --endpoints (${ENDPOINTS})`);
/** Events per second of the trickle: well below any throughput, so no event waits behind another. */
const TRICKLE_PER_SECOND = 20;
/** worker/worker.ts's poll interval, for the bare runner too (new jobs normally arrive by LISTEN/NOTIFY). */
const POLL_INTERVAL_MS = 2000;
const AIM_RATIO = 0.5;
const AIM_COMPLETION_MS = 1000;
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Wall-clock milliseconds with sub-millisecond resolution (comparable with Date.now()). */
const now = () => performance.timeOrigin + performance.now();

async function waitUntil(done: () => boolean | Promise<boolean>, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Timed out: ${describe()}`);
    await sleep(20);
  }
}

/** Where CPU went while work was done: per unit of work, and how busy the machine was. */
interface CpuPerUnit {
  /** The process doing the work (the worker process; for the bare runner, this process). */
  workerMs: number;
  /** This process besides the work: the receiver (for the bare runner, nothing else runs here). */
  driverMs: number;
  postgresMs: number;
  machineBusyPercent: number;
  stolenPercent: number;
}

interface CpuSnapshot {
  worker: number;
  self: NodeJS.CpuUsage;
  postgres: number;
  machine: ReturnType<typeof machineCpuMs>;
}

function cpuSnapshot(workerPid: number | undefined, postmaster: number | undefined): CpuSnapshot {
  return {
    worker: workerPid === undefined ? 0 : processCpuMs(workerPid),
    self: process.cpuUsage(),
    postgres: postmaster === undefined ? 0 : clusterCpuMs(postmaster),
    machine: machineCpuMs(),
  };
}

function cpuPerUnit(before: CpuSnapshot, after: CpuSnapshot, units: number, workInThisProcess: boolean): CpuPerUnit {
  const self = process.cpuUsage(before.self);
  const selfMs = (self.user + self.system) / 1000;
  const per = (ms: number) => Math.round((ms / units) * 100) / 100;
  const total = after.machine.total - before.machine.total;
  return {
    workerMs: per(workInThisProcess ? selfMs : after.worker - before.worker),
    driverMs: per(workInThisProcess ? 0 : selfMs),
    postgresMs: per(after.postgres - before.postgres),
    machineBusyPercent: Math.round(((after.machine.busy - before.machine.busy) / total) * 100),
    stolenPercent: Math.round(((after.machine.steal - before.machine.steal) / total) * 100),
  };
}

// ---------------------------------------------------------------------------------------------
// The customer's receiver: every request kept with the moment it was complete, answered 200.

interface Receipt {
  at: number;
  /** The URL's query: which endpoint it was sent to (`?endpoint=<n>`). */
  query: string;
  /** Monotonic microseconds (process.hrtime), the clock of a `.cpuprofile` in any process. */
  hrUs: number;
  body: string;
  headers: IncomingHttpHeaders;
}

interface Receiver {
  url(route: string): string;
  /** Receipts by path (`/throughput`, `/completion`). */
  receipts(route: string): Receipt[];
  close(): Promise<void>;
}

async function startReceiver(pems: { cert: string; key: string }): Promise<Receiver> {
  const byRoute = new Map<string, Receipt[]>();
  const server: Server = createServer({ cert: pems.cert, key: pems.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const [route = '/', query = ''] = (req.url ?? '/').split('?');
      const receipt = { at: now(), hrUs: Number(process.hrtime.bigint() / 1000n), query, body: Buffer.concat(chunks).toString('utf8'), headers: req.headers };
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (!byRoute.has(route)) byRoute.set(route, []);
      byRoute.get(route)!.push(receipt);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (route) => `https://127.0.0.1:${port}${route}`,
    receipts: (route) => {
      if (!byRoute.has(route)) byRoute.set(route, []);
      return byRoute.get(route)!;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Setup {
  databaseUrl: string;
  dataDir: string;
  caFile: string;
  receiver: Receiver;
  logger: Logger;
}

/** What every service process of this benchmark gets: the database, and leave to reach the loopback receiver. */
function serviceEnv(setup: Setup, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: setup.databaseUrl,
    DATA_DIR: setup.dataDir,
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
    WEBHOOK_CA_FILE: setup.caFile,
    RATE_LIMIT_PARTICIPANT_PER_MINUTE: '1000000',
    RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '1000000',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
    ...extra,
  };
}

// ---------------------------------------------------------------------------------------------
// 1. Delivery throughput, and one event's latency with no queue.

interface ThroughputResult {
  deliveries: number;
  publishSeconds: number;
  /** Worker process spawned → first receipt (its start-up: tsx, migrations check, graphile-worker). */
  firstReceiptAfterSpawnMs: number;
  drainSeconds: number;
  deliveriesPerSecond: number;
  /** occurred_at → receipt for the backlog: mostly the wait behind earlier events. */
  backlogLatencyMs: Distribution;
  /** occurred_at → receipt, one event at a time with the worker idle. */
  idleLatencyMs: Distribution;
  duplicates: number;
  statuses: Record<string, number>;
  /** CPU per delivery between the first and the last receipt. */
  cpuPerDelivery: CpuPerUnit;
  /** --profile: the worker process's CPU profile over the same window. */
  profile?: ProfileSummary | undefined;
}

async function deliveryThroughput(setup: Setup, organizationId: string, authorization: string, postmaster: number | undefined): Promise<ThroughputResult> {
  const config = loadConfig({ ...serviceEnv(setup), DATA_DIR: path.join(setup.dataDir, 'driver'), DATABASE_POOL_SIZE: '4' });
  const runtime = await openRuntime(config, setup.logger);
  const app = createApp(runtime.services, { isReady: () => true }).listen(0, '127.0.0.1');
  await new Promise((resolve) => app.once('listening', resolve));
  const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  let worker: NodeChild | undefined;
  try {
    const endpointIds: string[] = [];
    for (let n = 0; n < ENDPOINTS; n++) {
      const endpoint = await callApi(base, 'POST', '/api/webhooks', authorization, {
        url: `${setup.receiver.url('/throughput')}?endpoint=${n}`,
        events: ['interview.completed'],
        design: 'A',
      });
      endpointIds.push((endpoint as { id: string }).id);
    }
    const events = DELIVERIES / ENDPOINTS;

    // Events that differ only in their session id (the receiver's key) and when they happened.
    const publish = async (from: number, count: number, prefix: string) =>
      runtime.orm.em.fork().transactional(async (tx) => {
        for (let i = from; i < from + count; i++) {
          await publishEvent({ em: tx }, systemCaller(organizationId), {
            type: 'interview.completed',
            sessionId: null,
            facts: { ...sampleFacts(), sessionId: `${prefix}-${i}` },
            occurredAt: new Date(),
          });
        }
      });
    const publishStarted = now();
    for (let from = 0; from < events; from += BATCH) await publish(from, Math.min(BATCH, events - from), 'backlog');
    const publishSeconds = (now() - publishStarted) / 1000;
    console.log(
      `  published ${events} events to ${ENDPOINTS} endpoint(s), ${DELIVERIES} deliveries, in ${publishSeconds.toFixed(1)} s; starting the worker (concurrency ${CONCURRENCY})`,
    );

    const receipts = setup.receiver.receipts('/throughput');
    const spawnedAt = now();
    const profileDir = options.profile ? path.join(setup.dataDir, 'profile') : undefined;
    worker = startNode(
      'server/main.ts',
      ['--role=worker'],
      serviceEnv(setup, { WORKER_CONCURRENCY: String(CONCURRENCY) }),
      profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    const running = worker;
    const alive = () => {
      if (running.child.exitCode !== null || running.child.signalCode !== null) throw new Error(`the worker exited:\n${running.output()}`);
    };
    const timeoutMs = Math.max(120_000, DELIVERIES * 20);
    await waitUntil(
      () => (alive(), receipts.length > 0),
      timeoutMs,
      () => `no delivery received:\n${running.output()}`,
    );
    const cpuBefore = cpuSnapshot(running.child.pid, postmaster);
    const countedFrom = receipts.length;
    await waitUntil(
      () => (alive(), receipts.length >= DELIVERIES),
      timeoutMs,
      () => `${receipts.length} of ${DELIVERIES} deliveries received:\n${running.output()}`,
    );
    const cpuPerDelivery = cpuPerUnit(cpuBefore, cpuSnapshot(running.child.pid, postmaster), DELIVERIES - countedFrom, false);
    const backlog = receipts.slice(0, DELIVERIES);
    const first = backlog[0]!.at;
    const last = backlog[backlog.length - 1]!.at;
    const bodies = backlog.map((receipt) => JSON.parse(receipt.body) as { session_id: string; timestamp: string });
    const duplicates = backlog.length - new Set(bodies.map((body, index) => `${backlog[index]!.query} ${body.session_id}`)).size;
    const backlogLatency = backlog.map((receipt, index) => receipt.at - Date.parse(bodies[index]!.timestamp));

    // The worker is idle now: one event at a time, each in its own transaction.
    await sleep(1000);
    const trickleFrom = receipts.length;
    for (let i = 0; i < TRICKLE; i++) {
      const started = now();
      await publish(i, 1, 'trickle');
      await sleep(Math.max(0, 1000 / TRICKLE_PER_SECOND - (now() - started)));
    }
    await waitUntil(
      () => (alive(), receipts.length >= trickleFrom + TRICKLE * ENDPOINTS),
      60_000,
      () => `${receipts.length - trickleFrom} of ${TRICKLE * ENDPOINTS} trickled deliveries received:\n${running.output()}`,
    );
    const idleLatency = receipts.slice(trickleFrom).map((receipt) => receipt.at - Date.parse((JSON.parse(receipt.body) as { timestamp: string }).timestamp));
    // Nothing more arrives (a delivery sent twice would show here).
    await sleep(500);

    await stopChild(running);
    let profile: ProfileSummary | undefined;
    if (profileDir) {
      const file = (await readdir(profileDir)).find((entry) => entry.endsWith('.cpuprofile'));
      if (file) {
        profile = await summarizeCpuProfile(path.join(profileDir, file), { startUs: backlog[0]!.hrUs, endUs: backlog[backlog.length - 1]!.hrUs });
        // Kept for a closer look (Chrome DevTools, speedscope): the whole life of the worker.
        await mkdir(RESULTS_DIR, { recursive: true });
        await copyFile(path.join(profileDir, file), path.join(RESULTS_DIR, 'webhooks-worker.cpuprofile'));
      }
    }
    const statuses = await runtime.orm.em
      .fork()
      .execute<{ status: string; count: string }[]>(`select status, count(*) as count from webhook_deliveries where organization_id = ? group by status`, [
        organizationId,
      ]);
    return {
      deliveries: DELIVERIES,
      publishSeconds: Math.round(publishSeconds * 10) / 10,
      firstReceiptAfterSpawnMs: Math.round(first - spawnedAt),
      drainSeconds: Math.round(((last - first) / 1000) * 100) / 100,
      deliveriesPerSecond: Math.round((DELIVERIES - 1) / ((last - first) / 1000)),
      backlogLatencyMs: distribution(backlogLatency),
      idleLatencyMs: distribution(idleLatency),
      duplicates: duplicates + (receipts.length - DELIVERIES - TRICKLE * ENDPOINTS),
      statuses: Object.fromEntries(statuses.map((row) => [row.status, Number(row.count)])),
      cpuPerDelivery,
      profile,
    };
  } finally {
    if (worker) await stopChild(worker);
    await new Promise<void>((resolve) => app.close(() => resolve()));
    await runtime.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 2. The ceiling: graphile-worker alone, a task that does nothing.

interface CeilingResult {
  jobs: number;
  seconds: number;
  jobsPerSecond: number;
  /** CPU per job between the first and the last completion; the runner is this process. */
  cpuPerJob: CpuPerUnit;
}

async function bareJobThroughput(setup: Setup, postmaster: number | undefined): Promise<CeilingResult> {
  const client = new pg.Client({ connectionString: setup.databaseUrl });
  await client.connect();
  try {
    await client.query(
      `select count(*) from graphile_worker.add_jobs(array(
         select row('bench__noop', '{}'::json, null, null, null, null, null, null)::graphile_worker.job_spec from generate_series(1, $1)
       ))`,
      [DELIVERIES],
    );
  } finally {
    await client.end();
  }
  const finishedAt: number[] = [];
  const events: WorkerEvents = new EventEmitter();
  events.on('job:success', () => finishedAt.push(now()));
  const runner = await run({
    connectionString: setup.databaseUrl,
    concurrency: CONCURRENCY,
    pollInterval: POLL_INTERVAL_MS,
    noHandleSignals: true,
    logger: graphileLogger(setup.logger),
    events,
    taskList: { bench__noop: async () => undefined },
  });
  let cpuPerJob: CpuPerUnit;
  try {
    const timeoutMs = Math.max(120_000, DELIVERIES * 20);
    await waitUntil(
      () => finishedAt.length > 0,
      timeoutMs,
      () => 'no bare job done',
    );
    const cpuBefore = cpuSnapshot(undefined, postmaster);
    const countedFrom = finishedAt.length;
    await waitUntil(
      () => finishedAt.length >= DELIVERIES,
      timeoutMs,
      () => `${finishedAt.length} of ${DELIVERIES} bare jobs done`,
    );
    cpuPerJob = cpuPerUnit(cpuBefore, cpuSnapshot(undefined, postmaster), DELIVERIES - countedFrom, true);
  } finally {
    await runner.stop();
  }
  const seconds = (finishedAt[DELIVERIES - 1]! - finishedAt[0]!) / 1000;
  return { jobs: DELIVERIES, seconds: Math.round(seconds * 100) / 100, jobsPerSecond: Math.round((DELIVERIES - 1) / seconds), cpuPerJob };
}

// ---------------------------------------------------------------------------------------------
// 3. Completion → signed interview.completed received.

const QUESTIONS = [
  { id: 'q1', text: 'Tell me about your first week with the product.', type: 'open', followUp: { enabled: false } },
  { id: 'q2', text: 'What would you change about the setup?', type: 'open', followUp: { enabled: false } },
];
const ANSWERS = [
  'The onboarding emails had broken links and the setup took us two days, which was frustrating for the whole team.',
  'Support was quick to respond and the new reporting dashboard saves me a lot of time every week.',
];

interface StageRow {
  transcript_ms: number;
  insights_ms: number;
  recordings_ms: number;
  exports_ms: number;
  announced_ms: number;
  delivered_ms: number;
}

interface CompletionResult {
  interviews: number;
  /** Last answer's response → receipt of the signed event, as this process saw it. */
  completionToReceiptMs: Distribution;
  /** From the session's completed_at, the database's own timestamps. */
  stagesMs: {
    transcriptStored: Distribution;
    insightsStored: Distribution;
    recordingsStored: Distribution;
    announced: Distribution;
    deliveryRecorded: Distribution;
    exportsStored: Distribution;
  };
  badSignatures: number;
}

async function completionLatency(setup: Setup, authorization: string): Promise<CompletionResult> {
  const port = await findFreePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startNode('server/main.ts', [], serviceEnv(setup, { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base }));
  const client = new pg.Client({ connectionString: setup.databaseUrl });
  await client.connect();
  try {
    await waitForHealthy(server, port);
    const endpoint = await callApi(base, 'POST', '/api/webhooks', authorization, {
      url: setup.receiver.url('/completion'),
      events: ['interview.completed'],
      design: 'A',
    });
    const script = await callApi(base, 'POST', '/v1/scripts', authorization, {
      name: 'Webhooks bench',
      systemPrompt: 'You interview customers.',
      questions: QUESTIONS,
    });
    await callApi(base, 'POST', `/v1/scripts/${script.id}/publish`, authorization, {});
    const campaign = await callApi(base, 'POST', '/v1/campaigns', authorization, { name: 'Webhooks bench', scriptId: script.id });
    const invites = (
      await callApi(base, 'POST', `/v1/campaigns/${campaign.id}/invites/bulk`, authorization, {
        invites: Array.from({ length: INTERVIEWS }, (_, i) => ({ email: `p${i}@example.com`, name: `P ${i}` })),
        sendEmail: false,
      })
    ).data as { token: string }[];

    const receipts = setup.receiver.receipts('/completion');
    const latencies: number[] = [];
    const sessionIds: string[] = [];
    let badSignatures = 0;
    for (const invite of invites) {
      const token = `Bearer ${invite.token}`;
      let state = await callApi(base, 'POST', '/api/interview/start', token, {});
      const sessionId = state.session.id as string;
      for (const answer of ANSWERS) state = await callApi(base, 'POST', '/api/interview/answer', token, { text: answer });
      const answeredAt = now();
      if (state.session.status !== 'completed') throw new Error(`interview not completed: ${JSON.stringify(state)}`);
      let receipt: Receipt | undefined;
      await waitUntil(
        () => (receipt = receipts.find((r) => (JSON.parse(r.body) as { session_id: string }).session_id === sessionId)) !== undefined,
        30_000,
        () => `no interview.completed for ${sessionId}:\n${server.output()}`,
      );
      if (!verifyWebhookA(receipt!.body, receipt!.headers[DESIGN_A_SIGNATURE_HEADER] as string | undefined, endpoint.secret)) badSignatures += 1;
      latencies.push(receipt!.at - answeredAt);
      sessionIds.push(sessionId);
      // The exports job (transcript JSON, PDF) runs beside the announcement: let it finish, so the next interview meets an idle service.
      await waitUntil(
        async () => (await client.query(`select exports_prepared_at is not null as done from sessions where id = $1`, [sessionId])).rows[0]?.done === true,
        30_000,
        () => `files of ${sessionId} not prepared:\n${server.output()}`,
      );
    }
    if (receipts.length !== INTERVIEWS) throw new Error(`${receipts.length} interview.completed requests for ${INTERVIEWS} interviews`);
    const { rows } = await client.query<StageRow>(
      `select extract(epoch from s.transcript_generated_at - s.completed_at) * 1000 as transcript_ms,
              extract(epoch from s.insights_generated_at - s.completed_at) * 1000 as insights_ms,
              extract(epoch from s.files_prepared_at - s.completed_at) * 1000 as recordings_ms,
              extract(epoch from s.exports_prepared_at - s.completed_at) * 1000 as exports_ms,
              extract(epoch from s.completion_announced_at - s.completed_at) * 1000 as announced_ms,
              extract(epoch from d.updated_at - s.completed_at) * 1000 as delivered_ms
         from sessions s join webhook_events e on e.session_id = s.id join webhook_deliveries d on d.event_id = e.id and d.status = 'succeeded'
        where s.id = any($1)`,
      [sessionIds],
    );
    const stage = (key: keyof StageRow) => distribution(rows.map((row) => Number(row[key])));
    return {
      interviews: INTERVIEWS,
      completionToReceiptMs: distribution(latencies),
      stagesMs: {
        transcriptStored: stage('transcript_ms'),
        insightsStored: stage('insights_ms'),
        recordingsStored: stage('recordings_ms'),
        exportsStored: stage('exports_ms'),
        announced: stage('announced_ms'),
        deliveryRecorded: stage('delivered_ms'),
      },
      badSignatures,
    };
  } finally {
    await client.end();
    await stopChild(server);
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const logger = createLogger('warn');
  const database = await openBenchDatabase('webhooks', logger);
  const { workDir, databaseUrl, dataDir } = database;
  const pems = await makeTestCertificate();
  const caFile = path.join(workDir, 'ca.pem');
  await writeFile(caFile, pems.cert);
  const receiver = await startReceiver(pems);
  try {
    const setup: Setup = { databaseUrl, dataDir, caFile, receiver, logger };
    // Migrates the database and makes the two tenants: one for the throughput run, one for interviews.
    const runtime = await openRuntime(loadConfig({ ...serviceEnv(setup), DATA_DIR: path.join(dataDir, 'driver') }), logger);
    const tenants = [];
    for (const name of ['Webhooks bench (throughput)', 'Webhooks bench (interviews)']) tenants.push(await createBenchTenant(runtime.orm.em.fork(), name));
    await runtime.close();
    console.log(`node ${process.version}, ${cpus().length} cores shared by the driver and receiver, the service and PostgreSQL`);

    console.log(`\n1. ${DELIVERIES} deliveries (Design A, interview.completed) to an HTTPS receiver answering 200 at once`);
    const postmaster = await postmasterPid(databaseUrl);
    const throughput = await deliveryThroughput(setup, tenants[0]!.organizationId, tenants[0]!.authorization, postmaster);
    console.log(`\n2. bare graphile-worker run(), ${DELIVERIES} jobs of a task that does nothing`);
    const ceiling = await bareJobThroughput(setup, postmaster);
    console.log(`\n3. ${INTERVIEWS} interviews (2 text answers) completed one after another, API + worker in one process`);
    const completion = await completionLatency(setup, tenants[1]!.authorization);

    const ratio = throughput.deliveriesPerSecond / ceiling.jobsPerSecond;
    const W = 60;
    const cell = (text: string | number, width = 10) => String(text).padStart(width);
    const ms = (value: number) => cell(`${value.toFixed(1)} ms`);
    const row = (label: string, d: Distribution, last: 'p95' | 'p99' = 'p99') => `${label.padEnd(W)} ${ms(d.p50)} ${ms(d[last])} ${ms(d.max)}`;
    const cpuRow = (label: string, cpu: CpuPerUnit) =>
      `${label.padEnd(W)} ${cell(cpu.workerMs.toFixed(2))} ${cell(cpu.driverMs.toFixed(2))} ${cell(cpu.postgresMs.toFixed(2))} ${cell(`${cpu.machineBusyPercent}%`)} ${cell(`${cpu.stolenPercent}%`)}`;
    console.log(
      `\nworker concurrency ${CONCURRENCY} (service default ${SERVICE_DEFAULT_CONCURRENCY}), poll interval ${POLL_INTERVAL_MS} ms, ${cpus().length} cores`,
    );
    console.log(`\n${'throughput'.padEnd(W)} ${cell('per second')} ${cell('seconds')}`);
    console.log(
      `${`webhook deliveries (${DELIVERIES}${ENDPOINTS > 1 ? ` to ${ENDPOINTS} endpoints` : ''}, first → last receipt)`.padEnd(W)} ${cell(throughput.deliveriesPerSecond)} ${cell(throughput.drainSeconds.toFixed(2))}`,
    );
    console.log(`${`bare graphile-worker jobs (${DELIVERIES}, no-op task)`.padEnd(W)} ${cell(ceiling.jobsPerSecond)} ${cell(ceiling.seconds.toFixed(2))}`);
    console.log(
      `deliveries/s ÷ bare jobs/s: ${ratio.toFixed(2)}; aim ≥ ${AIM_RATIO}: ${judgeAgainstAim({ perRound: [ratio], aim: AIM_RATIO, better: 'higher' }).verdict}`,
    );
    console.log(
      `publishing the backlog took ${throughput.publishSeconds} s; first receipt ${throughput.firstReceiptAfterSpawnMs} ms after the worker was spawned; duplicates received: ${throughput.duplicates}; deliveries: ${JSON.stringify(throughput.statuses)}`,
    );
    console.log(`\n${'CPU ms per delivery / per job'.padEnd(W)} ${cell('worker')} ${cell('receiver')} ${cell('postgres')} ${cell('busy')} ${cell('stolen')}`);
    console.log(cpuRow('webhook delivery (worker process; receiver here)', throughput.cpuPerDelivery));
    console.log(cpuRow('bare graphile-worker job (runner in this process)', ceiling.cpuPerJob));
    console.log(`\n${'latency'.padEnd(W)} ${cell('p50')} ${cell('p99')} ${cell('max')}`);
    console.log(row('occurred_at → receipt, the backlog (queue wait)', throughput.backlogLatencyMs));
    console.log(row(`occurred_at → receipt, one at a time (${TRICKLE}, worker idle)`, throughput.idleLatencyMs));
    console.log(`\n${'completion → signed interview.completed'.padEnd(W)} ${cell('p50')} ${cell('p95')} ${cell('max')}`);
    console.log(row(`last answer's response → receipt (${INTERVIEWS})`, completion.completionToReceiptMs, 'p95'));
    console.log(row('  completed_at → transcript stored', completion.stagesMs.transcriptStored, 'p95'));
    console.log(row('  completed_at → insights stored', completion.stagesMs.insightsStored, 'p95'));
    console.log(row('  completed_at → recordings stored', completion.stagesMs.recordingsStored, 'p95'));
    console.log(row('  completed_at → announced (event published)', completion.stagesMs.announced, 'p95'));
    console.log(row('  completed_at → delivery recorded', completion.stagesMs.deliveryRecorded, 'p95'));
    console.log(row('  completed_at → exports stored (beside the announcement)', completion.stagesMs.exportsStored, 'p95'));
    const completionP95 = completion.completionToReceiptMs.p95;
    console.log(
      `signatures verified: ${INTERVIEWS - completion.badSignatures} of ${INTERVIEWS}; aim p50 and p95 ≤ ${AIM_COMPLETION_MS} ms: ${completion.completionToReceiptMs.p50 <= AIM_COMPLETION_MS && completionP95 <= AIM_COMPLETION_MS ? 'met' : 'NOT met'}`,
    );
    const profile = throughput.profile;
    if (profile) {
      console.log(`\nworker CPU profile, first → last receipt (${profile.totalMs} ms sampled): self time by package`);
      for (const share of profile.byPackage) console.log(`  ${share.name.padEnd(50)} ${cell(share.ms, 7)} ms ${cell(share.percent, 5)}%`);
      console.log('self time by function');
      for (const share of profile.topFunctions.slice(0, 15)) console.log(`  ${share.name.padEnd(90)} ${cell(share.ms, 7)} ms ${cell(share.percent, 5)}%`);
      console.log('inclusive time by function');
      for (const share of profile.topInclusive.slice(0, 30)) console.log(`  ${share.name.padEnd(90)} ${cell(share.ms, 7)} ms ${cell(share.percent, 5)}%`);
      console.log('kept: bench/results/webhooks-worker.cpuprofile');
    }

    await mkdir(RESULTS_DIR, { recursive: true });
    await writeFile(
      path.join(RESULTS_DIR, 'webhooks.json'),
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          cores: cpus().length,
          concurrency: CONCURRENCY,
          endpoints: ENDPOINTS,
          pollIntervalMs: POLL_INTERVAL_MS,
          throughput,
          ceiling,
          ratio: Math.round(ratio * 100) / 100,
          aimRatio: AIM_RATIO,
          completion,
          aimCompletionMs: AIM_COMPLETION_MS,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\nwritten: bench/results/webhooks.json`);
    if (completion.badSignatures > 0) throw new Error(`${completion.badSignatures} interview.completed requests failed signature verification`);
  } finally {
    await receiver.close();
    await database.close();
  }
}

await main();
