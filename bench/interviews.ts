/**
 * Interview engine benchmark: N simulated participants, each doing start → six answers (one
 * follow-up and one re-ask on the way, the built-in interviewer) → completed, over real HTTP
 * from this process against the API server run as a separate process (`node --import tsx
 * server/main.ts --role=api`) on a real PostgreSQL (DATABASE_URL, or a throwaway embedded
 * cluster). Then the same load against a ceiling: bare Express + `pg` doing the SQL a turn
 * cannot do without (`bench/helpers/ceiling-server.ts`), also a separate process.
 *
 * Server time per turn is what each server logs for the request (`durationMs` of its `request`
 * line: first middleware to the response's close); the client latency is reported beside it.
 * SQL statements per request are counted in a separate, serial, in-process pass of the same
 * application; transactions and rows written per interview come from PostgreSQL's statistics.
 *
 *   npm run bench:interviews                                   # 20 participants, 400 interviews, saturated
 *   npm run bench:interviews -- --think-ms 2000 --interviews 100   # paced: the p99 and CPU aims
 *   npm run bench:interviews -- --participants 40 --interviews 800
 *   npm run bench:interviews -- --profile                      # + CPU profile of the API server
 *
 * Other options: --warmup W (interviews run first and not measured; default: one per
 * participant), --pool P (DATABASE_POOL_SIZE of both servers; default 10, the service's
 * default), --think-ms T (mean pause before each answer, uniform from T/2 to 3T/2, arrivals
 * spread over T; default 0: every participant always has a request in flight), --idempotency (an Idempotency-Key on every request, as a
 * retrying client sends), --one-address (every participant from 127.0.0.1, so all share one
 * per-address rate-limit row; by default each has its own address via X-Forwarded-For, as
 * participants do), --organizations K (interviews spread over K tenants; default 1, one
 * campaign of one organization, as a large study is), --locks (sample what the server's
 * statements wait on in PostgreSQL during the run). Figures go to bench/results/interviews.json.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PERMISSIONS } from '../shared/permissions.js';
import { loadConfig } from '../server/config.js';
import { findFreePort, openEmbeddedPostgres } from '../server/db/embedded-postgres.js';
import { createApiKey } from '../server/domains/api-keys/create-api-key.js';
import { systemCaller } from '../server/domains/common/caller.js';
import { createOrganization } from '../server/domains/organizations/create-organization.js';
import { createApp } from '../server/http/app.js';
import { createLogger } from '../server/logger.js';
import { openRuntime } from '../server/runtime.js';
import { FOUR_QUESTIONS } from '../tests/helpers/interviews.js';
import { type ProfileSummary, summarizeCpuProfile } from './helpers/cpu-profile.js';
import { measureStepCosts, type StepCost } from './helpers/step-costs.js';
import { clusterCpuMs, machineCpuMs, type NodeChild, postmasterPid, processCpuMs, ROOT, startNode, stopChild, waitForHealthy } from './helpers/processes.js';
import { judgeAgainstAim } from './helpers/aims.js';
import { positiveOption } from './helpers/options.js';
import { type Distribution, distribution } from './helpers/stats.js';

const { values: options } = parseArgs({
  options: {
    participants: { type: 'string', default: '20' },
    interviews: { type: 'string', default: '400' },
    warmup: { type: 'string' },
    pool: { type: 'string', default: '10' },
    'think-ms': { type: 'string', default: '0' },
    idempotency: { type: 'boolean', default: false },
    'one-address': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    locks: { type: 'boolean', default: false },
    organizations: { type: 'string', default: '1' },
  },
});
const PARTICIPANTS = positiveOption('participants', options.participants);
const INTERVIEWS = positiveOption('interviews', options.interviews);
const WARMUP = options.warmup === undefined ? PARTICIPANTS : Number(options.warmup);
const POOL = positiveOption('pool', options.pool);
const ORGANIZATIONS = positiveOption('organizations', options.organizations);
const THINK_MS = Number(options['think-ms']);
/**
 * The aims (issue 33), each judged under the load it is set for, built-in interviewer, 2 cores:
 * paced (20 participants answering about 2 s apart, `--think-ms 2000`), p99 server time per
 * answer and server CPU per interview against the ceiling's; saturated (no think time), the
 * interviews per minute against the ceiling's.
 */
const AIM_P99_MS = 50;
const AIM_CPU_TIMES_CEILING = 3;
const AIM_SATURATED_RATIO = 0.5;
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');

/** Every answer of one interview over FOUR_QUESTIONS, and the turn the engine must answer it with. */
const ANSWERS: { text: string; then: 'follow_up' | 'question' | 're_ask' | 'closing' }[] = [
  { text: 'ok', then: 'follow_up' }, // open question, vague answer → one follow-up
  { text: 'The setup guide was clear and our team had the first survey running by Wednesday.', then: 'question' },
  { text: 'banana', then: 're_ask' }, // rating that cannot be read → asked again once
  { text: 'four out of five', then: 'question' },
  { text: 'not really', then: 'question' }, // yes/no → no
  { text: 'the second one', then: 'closing' }, // multiple choice → "Phone call", the last question
];
const TURN_KINDS = ['follow_up', 'question', 're_ask', 'closing'] as const;

interface Invite {
  id: string;
  token: string;
}

interface Sample {
  requestId: string;
  kind: 'start' | (typeof TURN_KINDS)[number];
  clientMs: number;
}

// ---------------------------------------------------------------------------------------------
// HTTP client: node:http with keep-alive (lighter on the shared CPU than fetch).

interface Target {
  port: number;
  agent: http.Agent;
}

function post(target: Target, requestPath: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; json: any; ms: number }> {
  const payload = JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: requestPath,
        method: 'POST',
        agent: target.agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const ms = performance.now() - started;
          try {
            resolve({ status: response.statusCode ?? 0, json: text ? JSON.parse(text) : undefined, ms });
          } catch (error) {
            reject(new Error(`${requestPath} → ${response.statusCode}: ${text.slice(0, 300)} (${String(error)})`));
          }
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One participant's whole interview; fails loudly when the engine does not follow the script. */
async function runInterview(target: Target, invite: Invite, label: string, index: number, samples: Sample[] | undefined): Promise<void> {
  const headers = (step: number): Record<string, string> => ({
    Authorization: `Bearer ${invite.token}`,
    'X-Request-Id': `${label}-${index}-${step}`,
    ...(options['one-address'] ? {} : { 'X-Forwarded-For': `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}` }),
    ...(options.idempotency ? { 'Idempotency-Key': randomUUID() } : {}),
  });
  const started = await post(target, '/api/interview/start', headers(0), {});
  if (started.status !== 201 || started.json?.turn?.kind !== 'question') {
    throw new Error(`start of ${invite.id} → ${started.status} ${JSON.stringify(started.json)}`);
  }
  samples?.push({ requestId: `${label}-${index}-0`, kind: 'start', clientMs: started.ms });
  for (const [i, answer] of ANSWERS.entries()) {
    // Uniform between half and one and a half times the think time, so participants do not move in step.
    if (THINK_MS > 0) await sleep(THINK_MS * (0.5 + Math.random()));
    const step = i + 1;
    const answered = await post(target, '/api/interview/answer', headers(step), { text: answer.text });
    const kind = answered.json?.turn?.kind ?? (answered.json?.session?.status === 'completed' ? 'closing' : undefined);
    if (answered.status !== 200 || kind !== answer.then) {
      throw new Error(`answer ${step} ("${answer.text}") of ${invite.id} → ${answered.status}, expected ${answer.then}: ${JSON.stringify(answered.json)}`);
    }
    samples?.push({ requestId: `${label}-${index}-${step}`, kind: answer.then, clientMs: answered.ms });
  }
}

/** The invites' interviews by PARTICIPANTS concurrent participants, each taking the next invite when done; seconds taken. */
async function runLoad(target: Target, invites: Invite[], label: string, samples?: Sample[]): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(PARTICIPANTS, invites.length) }, async (_, participant) => {
      // With think time, participants arrive spread over one think time rather than all at once.
      if (THINK_MS > 0) await sleep((participant * THINK_MS) / PARTICIPANTS);
      while (next < invites.length) {
        const index = next++;
        await runInterview(target, invites[index]!, label, index, samples);
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

// ---------------------------------------------------------------------------------------------
// Figures.

interface DatabaseStats {
  transactions: number;
  tables: Record<string, { inserted: number; updated: number; hotUpdated: number; deleted: number }>;
}

/** PostgreSQL's cumulative statistics for the database (backends flush theirs when they exit). */
async function databaseStats(url: string): Promise<DatabaseStats> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [database] = (await client.query(`select xact_commit + xact_rollback as transactions from pg_stat_database where datname = current_database()`)).rows;
    const tables = (
      await client.query(
        `select relname, n_tup_ins as inserted, n_tup_upd as updated, n_tup_hot_upd as hot_updated, n_tup_del as deleted from pg_stat_user_tables`,
      )
    ).rows;
    return {
      transactions: Number(database.transactions),
      tables: Object.fromEntries(
        tables.map((row) => [
          row.relname,
          { inserted: Number(row.inserted), updated: Number(row.updated), hotUpdated: Number(row.hot_updated), deleted: Number(row.deleted) },
        ]),
      ),
    };
  } finally {
    await client.end();
  }
}

/** What PostgreSQL did per interview between two snapshots (tables with any change). */
function perInterview(before: DatabaseStats, after: DatabaseStats, interviews: number) {
  const per = (value: number) => Math.round((value / interviews) * 100) / 100;
  const tables: Record<string, { inserted: number; updated: number; hotUpdated: number; deleted: number }> = {};
  for (const [name, end] of Object.entries(after.tables)) {
    const start = before.tables[name] ?? { inserted: 0, updated: 0, hotUpdated: 0, deleted: 0 };
    const delta = {
      inserted: per(end.inserted - start.inserted),
      updated: per(end.updated - start.updated),
      hotUpdated: per(end.hotUpdated - start.hotUpdated),
      deleted: per(end.deleted - start.deleted),
    };
    if (delta.inserted || delta.updated || delta.deleted) tables[name] = delta;
  }
  return { transactions: per(after.transactions - before.transactions), tables };
}

/**
 * What the server's PostgreSQL sessions wait on, sampled every `everyMs` (`--locks`): the share
 * of samples in which at least one statement waited for a lock, and which statements waited.
 */
function sampleLockWaits(url: string, everyMs = 25) {
  const client = new pg.Client({ connectionString: url });
  const waiting = new Map<string, number>();
  let samples = 0;
  let samplesWithWait = 0;
  let waiters = 0;
  let running = true;
  const done = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query(
        `select wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as query from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and state = 'active' and wait_event_type = 'Lock'`,
      );
      samples += 1;
      if (rows.length > 0) samplesWithWait += 1;
      waiters += rows.length;
      for (const row of rows) {
        const key = `${row.wait_event}: ${String(row.query).replace(/'[^']*'/g, '?')}`;
        waiting.set(key, (waiting.get(key) ?? 0) + 1);
      }
      await sleep(everyMs);
    }
    await client.end();
  })();
  return async () => {
    running = false;
    await done;
    return {
      samples,
      percentWithLockWait: Math.round((samplesWithWait / Math.max(1, samples)) * 100),
      meanWaiting: Math.round((waiters / Math.max(1, samples)) * 10) / 10,
      waitingStatements: [...waiting.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([statement, count]) => ({ statement, count })),
    };
  };
}

/**
 * The free-minutes sum every completing session runs (server/domains/sessions/session-billing.ts,
 * under the organization's row lock): what it reads once this run's sessions are completed.
 */
async function explainFreeMinutesSum(url: string): Promise<{ completedSessions: number; rowsRead: number; ms: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [org] = (
      await client.query(`select organization_id, count(*)::int as completed from sessions where completed_at is not null group by 1 order by 2 desc limit 1`)
    ).rows;
    const monthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
    const { rows } = await client.query(
      `explain (analyze, format json) select coalesce(sum((billing->>'freeMinutesApplied')::int), 0) as minutes from sessions
       where organization_id = $1 and completed_at >= $2 and billing is not null and id <> 'none'`,
      [org.organization_id, monthStart],
    );
    const plan = rows[0]['QUERY PLAN'][0];
    const rowsRead = (node: any): number => Math.max(node['Actual Rows'] ?? 0, ...(node.Plans ?? []).map(rowsRead));
    return { completedSessions: org.completed, rowsRead: rowsRead(plan.Plan), ms: Math.round(plan['Execution Time'] * 100) / 100 };
  } finally {
    await client.end();
  }
}

interface RunResult {
  name: string;
  participants: number;
  interviews: number;
  seconds: number;
  interviewsPerMinute: number;
  turnsPerSecond: number;
  /** Server time per answer request (the server's own log line). */
  serverTurnMs: Distribution;
  /** Client latency per answer request, as this process saw it. */
  clientTurnMs: Distribution;
  serverTurnMsByKind: Record<string, Distribution>;
  serverStartMs: Distribution;
  /**
   * CPU per interview: the server process, this load generator, PostgreSQL's processes, the rest
   * of the machine, and what the hypervisor gave other guests (steal); busy includes steal.
   */
  cpuMsPerInterview: { server: number; loadGenerator: number; postgres: number; other: number; stolen: number; machineBusyPercent: number };
  database: ReturnType<typeof perInterview>;
  lockWaits?: Awaited<ReturnType<ReturnType<typeof sampleLockWaits>>> | undefined;
  profile?: ProfileSummary | undefined;
}

/**
 * One server child through warm-up and the measured run. The server's CPU, the machine's, and
 * PostgreSQL's statistics are read around the run (statistics after the child has exited).
 */
async function measure(
  name: string,
  server: NodeChild,
  port: number,
  databaseUrl: string,
  invites: { warmup: Invite[]; measured: Invite[] },
  label: string,
  profileDir: string | undefined,
): Promise<RunResult> {
  const target: Target = { port, agent: new http.Agent({ keepAlive: true, maxSockets: PARTICIPANTS }) };
  const statsBefore = await databaseStats(databaseUrl);
  try {
    await waitForHealthy(server, port);
    await runLoad(target, invites.warmup, `${label}w`);
    const samples: Sample[] = [];
    const pid = server.child.pid!;
    const postmaster = await postmasterPid(databaseUrl);
    const postgresCpuMs = () => (postmaster === undefined ? 0 : clusterCpuMs(postmaster));
    const cpuBefore = { server: processCpuMs(pid), self: process.cpuUsage(), machine: machineCpuMs(), postgres: postgresCpuMs() };
    const stopSampling = options.locks ? sampleLockWaits(databaseUrl) : undefined;
    const windowStartUs = process.hrtime.bigint() / 1000n;
    const seconds = await runLoad(target, invites.measured, label, samples);
    const windowEndUs = process.hrtime.bigint() / 1000n;
    const lockWaits = await stopSampling?.();
    const self = process.cpuUsage(cpuBefore.self);
    const machine = machineCpuMs();
    const serverCpu = processCpuMs(pid) - cpuBefore.server;
    const postgresCpu = postgresCpuMs() - cpuBefore.postgres;
    const loadCpu = (self.user + self.system) / 1000;
    const busy = machine.busy - cpuBefore.machine.busy;
    const steal = machine.steal - cpuBefore.machine.steal;

    // A request's log line is written when its response closes, which may be just after the client read it.
    for (let waited = 0; samples.some((sample) => !server.requests.has(sample.requestId)) && waited < 5000; waited += 50) await sleep(50);
    const missing = samples.filter((sample) => !server.requests.has(sample.requestId));
    if (missing.length > 0) throw new Error(`${missing.length} requests have no server log line (e.g. ${missing[0]!.requestId})`);
    const serverMs = (sample: Sample) => server.requests.get(sample.requestId)!.durationMs;
    const turns = samples.filter((sample) => sample.kind !== 'start');
    target.agent.destroy();
    await stopChild(server);
    const n = invites.measured.length;
    const perInterviewMs = (ms: number) => Math.round((ms / n) * 10) / 10;
    let profile: ProfileSummary | undefined;
    if (profileDir) {
      const file = (await readdir(profileDir)).find((entry) => entry.endsWith('.cpuprofile'));
      if (file) {
        profile = await summarizeCpuProfile(path.join(profileDir, file), { startUs: Number(windowStartUs), endUs: Number(windowEndUs) });
        // Kept for a closer look (Chrome DevTools, speedscope): the whole life of the server.
        await mkdir(RESULTS_DIR, { recursive: true });
        await copyFile(path.join(profileDir, file), path.join(RESULTS_DIR, 'interviews-api.cpuprofile'));
      }
    }
    return {
      name,
      participants: PARTICIPANTS,
      interviews: n,
      seconds: Math.round(seconds * 100) / 100,
      interviewsPerMinute: Math.round((n / seconds) * 60),
      turnsPerSecond: Math.round(turns.length / seconds),
      serverTurnMs: distribution(turns.map(serverMs)),
      clientTurnMs: distribution(turns.map((sample) => sample.clientMs)),
      serverTurnMsByKind: Object.fromEntries(TURN_KINDS.map((kind) => [kind, distribution(turns.filter((sample) => sample.kind === kind).map(serverMs))])),
      serverStartMs: distribution(samples.filter((sample) => sample.kind === 'start').map(serverMs)),
      cpuMsPerInterview: {
        server: perInterviewMs(serverCpu),
        loadGenerator: perInterviewMs(loadCpu),
        postgres: perInterviewMs(postgresCpu),
        other: perInterviewMs(Math.max(0, busy - steal - serverCpu - loadCpu - postgresCpu)),
        stolen: perInterviewMs(steal),
        machineBusyPercent: Math.round((busy / (machine.total - cpuBefore.machine.total)) * 100),
      },
      // Warm-up interviews are in the statistics too (the child's backends flush when it exits).
      database: perInterview(statsBefore, await databaseStats(databaseUrl), invites.warmup.length + n),
      lockWaits,
      profile,
    };
  } finally {
    target.agent.destroy();
    await stopChild(server);
  }
}

// ---------------------------------------------------------------------------------------------
// SQL per request: the same application in this process, one interview at a time, every
// statement sent to PostgreSQL recorded (node-postgres is the one client the ORM uses).

interface StatementCount {
  request: string;
  statements: number;
  sql: string[];
}

function normalizeSql(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

async function countStatements(port: number, invite: Invite): Promise<StatementCount[]> {
  const recorded: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0];
    recorded.push(normalizeSql(typeof config === 'string' ? config : ((config as { text?: string })?.text ?? String(config))));
    return (original as (...rest: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  const target: Target = { port, agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) };
  const counts: StatementCount[] = [];
  const headers = () => ({ Authorization: `Bearer ${invite.token}`, ...(options.idempotency ? { 'Idempotency-Key': randomUUID() } : {}) });
  try {
    const take = (request: string) => counts.push({ request, statements: recorded.length, sql: recorded.splice(0) });
    recorded.length = 0;
    const started = await post(target, '/api/interview/start', headers(), {});
    if (started.status !== 201) throw new Error(`start → ${started.status} ${JSON.stringify(started.json)}`);
    take('start');
    for (const answer of ANSWERS) {
      const answered = await post(target, '/api/interview/answer', headers(), { text: answer.text });
      if (answered.status !== 200) throw new Error(`answer → ${answered.status} ${JSON.stringify(answered.json)}`);
      take(`answer "${answer.text.length > 20 ? `${answer.text.slice(0, 20)}…` : answer.text}" → ${answer.then}`);
    }
  } finally {
    pg.Client.prototype.query = original;
    target.agent.destroy();
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const logger = createLogger('warn');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'interview-bench-'));
  const cluster = process.env.DATABASE_URL ? undefined : await openEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), logger });
  try {
    await run(process.env.DATABASE_URL ?? cluster!.url, dataDir, logger);
  } finally {
    await cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function run(databaseUrl: string, dataDir: string, logger: ReturnType<typeof createLogger>): Promise<void> {
  const limits = {
    RATE_LIMIT_PARTICIPANT_PER_MINUTE: '1000000',
    RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '1000000',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
    // Participants come from their own addresses, through this process as the proxy (X-Forwarded-For).
    TRUST_PROXY: 'loopback',
  };

  // Setup, and the statement count, through the application in this process.
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(dataDir, 'setup'),
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: String(POOL),
    ...limits,
  });
  const runtime = await openRuntime(config, logger);
  const em = () => runtime.orm.em.fork();
  const app = createApp(runtime.services, { isReady: () => true }).listen(0, '127.0.0.1');
  await new Promise((resolve) => app.once('listening', resolve));
  const local: Target = { port: (app.address() as AddressInfo).port, agent: new http.Agent({ keepAlive: true }) };
  // Interview i is in organization i mod ORGANIZATIONS: an enterprise tenant with ample credits, one campaign on FOUR_QUESTIONS.
  const wanted = 2 * (WARMUP + INTERVIEWS) + 2;
  const perOrganization: Invite[][] = [];
  for (let o = 0; o < ORGANIZATIONS; o += 1) {
    const organization = await createOrganization({ em: em() }, { name: `Interview bench ${o}`, plan: 'enterprise', credits: 10_000_000 });
    const { secret } = await createApiKey({ em: em() }, systemCaller(organization.id), { name: 'bench', permissions: [...PERMISSIONS] });
    const call = async (requestPath: string, body: unknown = {}) => {
      const response = await post(local, requestPath, { Authorization: `Bearer ${secret}` }, body);
      if (response.status >= 300) throw new Error(`POST ${requestPath} → ${response.status} ${JSON.stringify(response.json)}`);
      return response.json;
    };
    const script = await call('/v1/scripts', {
      name: 'Bench script',
      systemPrompt: 'You interview customers about their first week.',
      questions: FOUR_QUESTIONS,
    });
    await call(`/v1/scripts/${script.id}/publish`);
    const campaign = await call('/v1/campaigns', { name: 'Bench campaign', scriptId: script.id });
    const mine: Invite[] = [];
    const count = Math.ceil(wanted / ORGANIZATIONS);
    while (mine.length < count) {
      const batch = Math.min(500, count - mine.length);
      const created = await call(`/v1/campaigns/${campaign.id}/invites/bulk`, {
        invites: Array.from({ length: batch }, (_, i) => ({ email: `participant-${mine.length + i}@example.com`, name: 'Ada' })),
        sendEmail: false,
      });
      mine.push(...(created.data as Invite[]).map(({ id, token }) => ({ id, token })));
    }
    perOrganization.push(mine);
  }
  const invites = Array.from({ length: wanted }, (_, i) => perOrganization[i % ORGANIZATIONS]![Math.floor(i / ORGANIZATIONS)]!);
  const statementCounts = await countStatements(local.port, invites.pop()!);
  // An interview four answers in, for pricing the reads of a turn one by one.
  const priced = invites.pop()!;
  const pricedHeaders = { Authorization: `Bearer ${priced.token}` };
  await post(local, '/api/interview/start', pricedHeaders, {});
  for (const answer of ANSWERS.slice(0, 4)) await post(local, '/api/interview/answer', pricedHeaders, { text: answer.text });
  const stepCosts = await measureStepCosts(em, priced.token);
  local.agent.destroy();
  await new Promise((resolve) => app.close(resolve));
  // Closing the pool ends its backends, which flushes their statistics before the first snapshot.
  await runtime.close();

  const engineInvites = { warmup: invites.slice(0, WARMUP), measured: invites.slice(WARMUP, WARMUP + INTERVIEWS) };
  const ceilingInvites = { warmup: invites.slice(WARMUP + INTERVIEWS, 2 * WARMUP + INTERVIEWS), measured: invites.slice(2 * WARMUP + INTERVIEWS) };
  const profileDir = options.profile ? path.join(dataDir, 'profile') : undefined;

  console.log(
    `participants: ${PARTICIPANTS}, interviews: ${INTERVIEWS} (+${WARMUP} warm-up), organizations: ${ORGANIZATIONS}, think time: ${THINK_MS} ms, pool: ${POOL}, ` +
      `${options['one-address'] ? 'one address' : 'one address per participant'}${options.idempotency ? ', Idempotency-Key on every request' : ''}, ` +
      `node ${process.version}, ${(await import('node:os')).cpus().length} cores shared by load generator, server and PostgreSQL`,
  );

  const enginePort = await findFreePort();
  const engine = startNode(
    'server/main.ts',
    ['--role=api'],
    {
      DATABASE_URL: databaseUrl,
      PORT: String(enginePort),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${enginePort}`,
      DATA_DIR: path.join(dataDir, 'server'),
      // info: one `request` line per request, with its server time (the service's default level).
      LOG_LEVEL: 'info',
      DATABASE_POOL_SIZE: String(POOL),
      ...limits,
    },
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  const engineResult = await measure('interview engine (server/main.ts --role=api)', engine, enginePort, databaseUrl, engineInvites, 'e', profileDir);

  const ceilingPort = await findFreePort();
  const ceiling = startNode('bench/helpers/ceiling-server.ts', [], { DATABASE_URL: databaseUrl, PORT: String(ceilingPort), DATABASE_POOL_SIZE: String(POOL) });
  const ceilingResult = await measure('ceiling (bare Express + pg)', ceiling, ceilingPort, databaseUrl, ceilingInvites, 'c', undefined);

  await report(engineResult, ceilingResult, statementCounts, stepCosts, await explainFreeMinutesSum(databaseUrl));
}

async function report(
  engine: RunResult,
  ceiling: RunResult,
  statements: StatementCount[],
  stepCosts: StepCost[],
  freeMinutes: Awaited<ReturnType<typeof explainFreeMinutesSum>>,
): Promise<void> {
  const cell = (value: number | string, width = 9) => String(value).padStart(width);
  console.log('');
  console.log('per answer request (ms)'.padEnd(48), cell('p50'), cell('p95'), cell('p99'), cell('max'), cell('interv/min', 11), cell('turns/s'));
  for (const result of [engine, ceiling]) {
    for (const [what, d] of [
      ['server', result.serverTurnMs],
      ['client', result.clientTurnMs],
    ] as const) {
      console.log(
        `${result.name} — ${what}`.padEnd(48),
        cell(d.p50),
        cell(d.p95),
        cell(d.p99),
        cell(d.max),
        cell(what === 'server' ? result.interviewsPerMinute : '', 11),
        cell(what === 'server' ? result.turnsPerSecond : ''),
      );
    }
  }
  const ratio = (a: number, b: number) => Math.round((a / b) * 10) / 10;
  console.log(
    `engine / ceiling: server p50 ×${ratio(engine.serverTurnMs.p50, ceiling.serverTurnMs.p50)}, p99 ×${ratio(engine.serverTurnMs.p99, ceiling.serverTurnMs.p99)}; ` +
      `interviews per minute ×${ratio(engine.interviewsPerMinute, ceiling.interviewsPerMinute)} (ceiling ×${ratio(ceiling.interviewsPerMinute, engine.interviewsPerMinute)} the engine)`,
  );
  const aims: { aim: string; judgement: ReturnType<typeof judgeAgainstAim> }[] = [];
  if (THINK_MS > 0) {
    aims.push({
      aim: `p99 server time per answer ≤ ${AIM_P99_MS} ms`,
      judgement: judgeAgainstAim({ perRound: [engine.serverTurnMs.p99], aim: AIM_P99_MS, better: 'lower', format: (value) => `${value.toFixed(1)} ms` }),
    });
    aims.push({
      aim: `server CPU per interview ≤ ${AIM_CPU_TIMES_CEILING}× the ceiling's`,
      judgement: judgeAgainstAim({
        perRound: [engine.cpuMsPerInterview.server / ceiling.cpuMsPerInterview.server],
        aim: AIM_CPU_TIMES_CEILING,
        better: 'lower',
        format: (value) => `×${value.toFixed(2)}`,
      }),
    });
  } else {
    aims.push({
      aim: `interviews per minute ≥ ${AIM_SATURATED_RATIO} of the ceiling's`,
      judgement: judgeAgainstAim({ perRound: [engine.interviewsPerMinute / ceiling.interviewsPerMinute], aim: AIM_SATURATED_RATIO, better: 'higher' }),
    });
  }
  const load = THINK_MS > 0 ? `paced, think time ${THINK_MS} ms` : 'saturated, no think time';
  const standard = PARTICIPANTS === 20 && (THINK_MS === 0 || THINK_MS === 2000) ? '' : ` (the aims are set for 20 participants, think time 2000 ms or 0)`;
  for (const { aim, judgement } of aims) console.log(`aim (${load}, ${PARTICIPANTS} participants): ${aim}: ${judgement.verdict}${standard}`);
  const met = aims.every(({ judgement }) => judgement.met);

  console.log('');
  console.log('engine server time by turn (ms)'.padEnd(32), cell('count'), cell('p50'), cell('p95'), cell('p99'), cell('max'));
  for (const [kind, d] of [['start', engine.serverStartMs], ...Object.entries(engine.serverTurnMsByKind)] as const) {
    console.log(String(kind).padEnd(32), cell(d.count), cell(d.p50), cell(d.p95), cell(d.p99), cell(d.max));
  }

  console.log('');
  console.log(
    'CPU ms per interview'.padEnd(32),
    cell('server', 10),
    cell('load gen', 10),
    cell('postgres', 10),
    cell('other', 10),
    cell('stolen', 10),
    cell('machine busy', 14),
  );
  for (const result of [engine, ceiling]) {
    const cpu = result.cpuMsPerInterview;
    console.log(
      result.name.split(' (')[0]!.padEnd(32),
      cell(cpu.server, 10),
      cell(cpu.loadGenerator, 10),
      cell(cpu.postgres, 10),
      cell(cpu.other, 10),
      cell(cpu.stolen, 10),
      cell(`${cpu.machineBusyPercent}%`, 14),
    );
  }
  const noisy = [engine, ceiling].filter(({ cpuMsPerInterview: cpu }) => cpu.other + cpu.stolen > 0.25 * cpu.server);
  if (noisy.length > 0) {
    console.log(
      `note: other processes or guests took notable CPU during the ${noisy.map((result) => result.name.split(' (')[0]).join(' and the ')} run: ` +
        'those figures are pessimistic',
    );
  }

  console.log('');
  console.log('SQL statements per request (engine, serial, in-process count)');
  for (const count of statements) console.log(`  ${count.request.padEnd(48)} ${cell(count.statements, 4)}`);
  const answerStatements = statements.filter((count) => count.request.startsWith('answer'));
  console.log(
    `  per answer: ${(answerStatements.reduce((sum, count) => sum + count.statements, 0) / answerStatements.length).toFixed(1)}; ` +
      `per interview: ${statements.reduce((sum, count) => sum + count.statements, 0)} (ceiling: 6 per answer, 7 on the last, 6 for the start)`,
  );
  const midTurn = statements.find((count) => count.request.includes('four out of five'));
  if (midTurn) {
    console.log(`  statements of ${midTurn.request}:`);
    midTurn.sql.forEach((sql, i) => console.log(`    ${String(i + 1).padStart(2)}. ${sql.length > 150 ? `${sql.slice(0, 150)}…` : sql}`));
  }

  console.log('');
  console.log('reads of an answer turn, one at a time in-process (ms per call)'.padEnd(64), cell('per turn'), cell('wall'), cell('CPU'));
  for (const cost of stepCosts) console.log(`  ${cost.step.padEnd(62)} ${cell(`${cost.perTurn}×`)} ${cell(cost.wallMs)} ${cell(cost.cpuMs)}`);

  console.log('');
  console.log('PostgreSQL per interview (statistics, warm-up included)'.padEnd(58), cell('xacts'), ' rows inserted / updated by table');
  for (const result of [engine, ceiling]) {
    const tables = Object.entries(result.database.tables)
      .map(([name, t]) => `${name} ${t.inserted}/${t.updated}${t.deleted ? `/-${t.deleted}` : ''}`)
      .join(', ');
    console.log(result.name.split(' (')[0]!.padEnd(58), cell(result.database.transactions), ` ${tables}`);
  }

  console.log(
    `closing turn's free-minutes sum (session-billing.ts, under the organization's row lock): reads ${freeMinutes.rowsRead} rows ` +
      `for ${freeMinutes.completedSessions} completed sessions this month, ${freeMinutes.ms} ms`,
  );
  for (const result of [engine, ceiling]) {
    if (!result.lockWaits) continue;
    const { lockWaits } = result;
    console.log(
      `${result.name.split(' (')[0]}: statements waited for a lock in ${lockWaits.percentWithLockWait}% of ${lockWaits.samples} samples (${lockWaits.meanWaiting} waiting on average, of ${POOL} connections)`,
    );
    for (const { statement, count } of lockWaits.waitingStatements) console.log(`  ${String(count).padStart(5)}  ${statement}`);
  }

  if (engine.profile) {
    const { profile } = engine;
    console.log('');
    console.log(`API server CPU profile, measured run only (${profile.totalMs} ms sampled): self time by package`);
    for (const share of profile.byPackage) console.log(`  ${share.name.padEnd(40)} ${cell(share.ms, 7)} ms ${cell(share.percent, 5)}%`);
    console.log('  self time by function');
    for (const share of profile.topFunctions.slice(0, 12)) console.log(`  ${share.name.padEnd(80)} ${cell(share.ms, 7)} ms ${cell(share.percent, 5)}%`);
    console.log('  inclusive time by function');
    for (const share of profile.topInclusive.slice(0, 30)) console.log(`  ${share.name.padEnd(80)} ${cell(share.ms, 7)} ms ${cell(share.percent, 5)}%`);
  }

  const results = {
    date: new Date().toISOString(),
    node: process.version,
    options: {
      participants: PARTICIPANTS,
      interviews: INTERVIEWS,
      warmup: WARMUP,
      organizations: ORGANIZATIONS,
      pool: POOL,
      thinkMs: THINK_MS,
      idempotency: options.idempotency,
      oneAddress: options['one-address'],
    },
    aims: aims.map(({ aim, judgement }) => ({ aim, value: judgement.value, met: judgement.met })),
    met,
    engine,
    ceiling,
    ratio: {
      serverTurnP50: ratio(engine.serverTurnMs.p50, ceiling.serverTurnMs.p50),
      serverTurnP99: ratio(engine.serverTurnMs.p99, ceiling.serverTurnMs.p99),
      ceilingInterviewsPerMinute: ratio(ceiling.interviewsPerMinute, engine.interviewsPerMinute),
    },
    statementsPerRequest: statements,
    stepCosts,
    freeMinutesSum: freeMinutes,
  };
  await writeResults(results);
}

async function writeResults(results: unknown): Promise<void> {
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(path.join(RESULTS_DIR, 'interviews.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nfigures written to ${path.relative(process.cwd(), path.join(RESULTS_DIR, 'interviews.json'))}`);
}

await main();
