import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../shared/permissions.js';
import { migrateDatabase } from '../../server/db/migrate.js';
import { createOrm } from '../../server/db/orm.js';
import { createApiKey } from '../../server/domains/api-keys/create-api-key.js';
import { billingPeriodOf } from '../../server/domains/billing/billing-period.js';
import { systemCaller } from '../../server/domains/common/caller.js';
import { createOrganization } from '../../server/domains/organizations/create-organization.js';
import { setPlan } from '../../server/domains/organizations/set-plan.js';
import { createLogger } from '../../server/logger.js';
import { ONE_QUESTION, PARTICIPANT_BUDGET } from '../helpers/interviews.js';
import { exitOf, freePort, killLeftovers, startServer, waitForHealthy } from '../helpers/processes.js';
import { startRestartablePostgres, type RestartablePostgres } from '../helpers/restartable-postgres.js';

/**
 * PostgreSQL restarted under load (fault test). A real server process (API and worker) runs on
 * a private embedded cluster; while clients create invites (each logical request with its own
 * Idempotency-Key, retried with the same key), read campaigns and run interviews, the cluster
 * is stopped (fast shutdown) for a few seconds and started again on the same port.
 *
 * While it is down the API answers 503 SERVICE_UNAVAILABLE in the error envelope with
 * Retry-After, quickly (never a hang, never a 500); /healthz answers 503. Once it is back the
 * same process, never restarted, answers 200 again, and nothing was lost or done twice: every
 * logical invite exists once, a replay answers the same invite, every interview is charged once.
 * The process's worker then runs jobs again: every invitation email of the load is sent.
 *
 * The two tests run in order on one server and one outage (the second reads what the first left).
 */

const INVITE_LOOPS = 8;
const INTERVIEW_LOOPS = 2;
/** The server answers 503 itself after this; a client waiting longer would be a hang. */
const REQUEST_TIMEOUT_SECONDS = 10;
const CLIENT_TIMEOUT_MS = (REQUEST_TIMEOUT_SECONDS + 5) * 1000;
/** How long the database stays down once the outage has been observed. */
const DOWN_MS = 4000;
/**
 * A claim whose request failed while the database was down cannot be released then; it lapses
 * after IDEMPOTENCY_LOCK_SECONDS (30 s) and the retry runs. A logical request must finish within this.
 */
const LOGICAL_DEADLINE_MS = 50_000;
/** After the database is back, the same process must answer 200 within this. */
const RECOVERY_BOUND_MS = 15_000;
/** An idempotency claim left by a request the outage cut short frees itself after this long. */
const CLAIM_LAPSE_MS = 30_000;

let cluster: RestartablePostgres | undefined;
let server: ReturnType<typeof startServer> | undefined;
let dataDir: string | undefined;
let baseUrl = '';
let organizationId = '';
/** One key per client loop, so the per-key rate limit never enters the picture. */
let apiKeys: string[] = [];
/** Ends the client loops (each finishes the logical request it holds); clean-up sets it too. */
let stopLoad = false;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One query on a connection of its own: the test's view of the database, unaffected by the app's pool. */
async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: cluster!.url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

beforeAll(async () => {
  const logger = createLogger('silent');
  cluster = await startRestartablePostgres(logger);
  dataDir = await mkdtemp(path.join(tmpdir(), 'interview-restart-data-'));

  // The schema, an enterprise organization and its keys, made directly in the private database.
  const orm = await createOrm({ url: cluster.url, poolSize: 2 });
  try {
    await migrateDatabase(orm, cluster.url, logger);
    const organization = await createOrganization({ em: orm.em.fork() }, { name: 'Restart organization', plan: 'enterprise' });
    organizationId = organization.id;
    await setPlan({ em: orm.em.fork() }, systemCaller(organizationId), { plan: 'enterprise', rateLimitPerMinute: 10_000 });
    apiKeys = [];
    for (let index = 0; index < INVITE_LOOPS + INTERVIEW_LOOPS + 2; index++) {
      const { secret } = await createApiKey({ em: orm.em.fork() }, systemCaller(organizationId), { name: `restart ${index}`, permissions: [...PERMISSIONS] });
      apiKeys.push(secret);
    }
    // The month's free minutes are used up, so every interview of a minute or more is charged.
    await orm.em
      .fork()
      .execute(`insert into billing_usage (organization_id, period_start, minutes, free_minutes_used, sessions) values (?, ?, 0, 1000, 0)`, [
        organizationId,
        billingPeriodOf(new Date()).start,
      ]);
  } finally {
    await orm.close(true);
  }

  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = startServer({
    ...PARTICIPANT_BUDGET,
    DATABASE_URL: cluster.url,
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_SECONDS),
    LOG_LEVEL: 'warn',
  });
  await waitForHealthy(server, port, 60_000);
}, 120_000);

afterAll(async () => {
  stopLoad = true;
  // Each step on its own: a failure of one must not leave the others undone.
  if (server) {
    server.child.kill('SIGTERM');
    const exited = await Promise.race([exitOf(server.child).then(() => true), sleep(15_000).then(() => false)]);
    if (!exited) await killLeftovers([server.child]);
  }
  await cluster?.destroy();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

/** One HTTP exchange as the client saw it. */
interface Exchange {
  label: string;
  method: string;
  path: string;
  started: number;
  ended: number;
  /** undefined: no answer (connection refused or reset, or the client's timeout). */
  status: number | undefined;
  failure?: string;
  retryAfter: string | null;
  replayed: boolean;
  contentType: string | null;
  text: string;
  json: any;
}

const exchanges: Exchange[] = [];

/** Set by the restart test for the worker test that follows it. */
let afterRestart: { campaignId: string; loadInvites: number } | undefined;

/** The server's log lines of one request (by its X-Request-Id), shortened. */
function serverLinesOf(requestId: string | undefined): string[] {
  if (!requestId) return [];
  return server!
    .output()
    .split('\n')
    .filter((line) => line.includes(`"requestId":"${requestId}"`))
    .map((line) => line.slice(0, 3000));
}

/** The server's log without the one error line per request answered 503 (hundreds of them), for a failure message. */
function serverLogExcerpt(): string {
  return server!
    .output()
    .split('\n')
    .filter((line) => !line.includes('"msg":"unexpected error"') && !line.includes('"msg":"database connection"') && !/^\s+at /.test(line))
    .map((line) => line.slice(0, 400))
    .join('\n')
    .slice(-8000);
}

async function send(
  label: string,
  method: string,
  urlPath: string,
  options: { authorization: string; idempotencyKey?: string; body?: unknown },
): Promise<Exchange> {
  const headers: Record<string, string> = { Authorization: options.authorization };
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const started = performance.now();
  let exchange: Exchange;
  try {
    const response = await fetch(`${baseUrl}${urlPath}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    const text = await response.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    exchange = {
      label,
      method,
      path: urlPath,
      started,
      ended: performance.now(),
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      replayed: response.headers.get('idempotent-replayed') === 'true',
      contentType: response.headers.get('content-type'),
      text,
      json,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    exchange = {
      label,
      method,
      path: urlPath,
      started,
      ended: performance.now(),
      status: undefined,
      failure: cause?.code ?? (error as Error).name ?? String(error),
      retryAfter: null,
      replayed: false,
      contentType: null,
      text: '',
      json: undefined,
    };
  }
  exchanges.push(exchange);
  return exchange;
}

/** Worth retrying with the same key: no answer, 5xx, 429, or the key still held by an earlier attempt. */
function retryable(exchange: Exchange): boolean {
  if (exchange.status === undefined || exchange.status >= 500 || exchange.status === 429) return true;
  return exchange.status === 409 && exchange.json?.error?.code === 'IDEMPOTENCY_KEY_IN_USE';
}

/**
 * Sends one logical request until it succeeds, retrying the same request (the same key) after a
 * short backoff. Resolves with the last exchange, successful or not (the test asserts).
 */
async function logicalRequest(
  label: string,
  method: string,
  urlPath: string,
  options: { authorization: string; idempotencyKey?: string; body?: unknown },
  succeeded: (exchange: Exchange) => boolean,
): Promise<{ last: Exchange; attempts: number }> {
  const deadline = performance.now() + LOGICAL_DEADLINE_MS;
  for (let attempt = 1; ; attempt++) {
    const exchange = await send(label, method, urlPath, options);
    if (succeeded(exchange) || !retryable(exchange) || performance.now() > deadline) return { last: exchange, attempts: attempt };
    const keyInUse = exchange.status === 409;
    await sleep(keyInUse ? 1000 : Math.min(100 + attempt * 50, 500) + Math.random() * 100);
  }
}

interface LogicalInvite {
  key: string;
  email: string;
  body: { email: string };
  last: Exchange;
  attempts: number;
}

function newEmail(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
}

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = performance.now();
  while (!(await condition())) {
    if (performance.now() - started > timeoutMs) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
  return performance.now() - started;
}

function countBy<T>(items: T[], keyOf: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[keyOf(item)] = (counts[keyOf(item)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

function describeExchange(exchange: Exchange): string {
  return `${exchange.method} ${exchange.path} → ${exchange.status ?? exchange.failure} after ${Math.round(exchange.ended - exchange.started)} ms: ${exchange.text.slice(0, 300)}`;
}

describe('PostgreSQL restarted under load', () => {
  it('answers 503 with the envelope while it is down, recovers without a restart, and loses or repeats nothing', async () => {
    const pid = server!.child.pid;
    const owner = `Bearer ${apiKeys.at(-1)}`;
    const script = await send('setup', 'POST', '/v1/scripts', {
      authorization: owner,
      body: { name: 'Restart script', systemPrompt: 'You are a friendly researcher.', questions: ONE_QUESTION },
    });
    expect(script.status, describeExchange(script)).toBe(201);
    const published = await send('setup', 'POST', `/v1/scripts/${script.json.id}/publish`, { authorization: owner });
    expect(published.status, describeExchange(published)).toBe(200);
    const campaign = await send('setup', 'POST', '/v1/campaigns', { authorization: owner, body: { name: 'Restart campaign', scriptId: script.json.id } });
    expect(campaign.status, describeExchange(campaign)).toBe(201);
    const campaignId: string = campaign.json.id;
    const invitesPath = `/v1/campaigns/${campaignId}/invites`;

    const invites: LogicalInvite[][] = Array.from({ length: INVITE_LOOPS }, () => []);
    const interviews: { inviteId: string; sessionId?: string; completed: boolean; failure?: string }[] = [];

    const inviteLoop = async (loop: number) => {
      const authorization = `Bearer ${apiKeys[loop]}`;
      for (let n = 0; !stopLoad; n++) {
        const key = `restart-${loop}-${n}-${randomBytes(4).toString('hex')}`;
        const body = { email: newEmail(`invitee-${loop}-${n}`) };
        const { last, attempts } = await logicalRequest('invite', 'POST', invitesPath, { authorization, idempotencyKey: key, body }, (e) => e.status === 201);
        invites[loop]!.push({ key, email: body.email, body, last, attempts });
        if (last.status !== 201) return; // reported below; this loop stops
      }
    };

    const readLoop = async () => {
      const authorization = `Bearer ${apiKeys[INVITE_LOOPS + INTERVIEW_LOOPS]}`;
      while (!stopLoad) {
        await send('read', 'GET', '/v1/campaigns?limit=5', { authorization });
        await sleep(50);
      }
    };

    const healthLoop = async () => {
      while (!stopLoad) {
        await send('health', 'GET', '/healthz', { authorization: '' });
        await sleep(200);
      }
    };

    /** Invite → start → (a minute passes) → the one answer that completes it, each step retried with its own key. */
    const interviewLoop = async (loop: number) => {
      const authorization = `Bearer ${apiKeys[INVITE_LOOPS + loop]}`;
      for (let n = 0; !stopLoad; n++) {
        const invite = await logicalRequest(
          'interview-invite',
          'POST',
          invitesPath,
          {
            authorization,
            idempotencyKey: `interview-invite-${loop}-${n}-${randomBytes(4).toString('hex')}`,
            body: { email: newEmail(`participant-${loop}-${n}`), sendEmail: false },
          },
          (e) => e.status === 201,
        );
        if (invite.last.status !== 201) {
          interviews.push({ inviteId: '', completed: false, failure: describeExchange(invite.last) });
          return;
        }
        const record: (typeof interviews)[number] = { inviteId: invite.last.json.id, completed: false };
        interviews.push(record);
        const participant = `Bearer ${invite.last.json.token}`;
        const start = await logicalRequest(
          'interview-start',
          'POST',
          '/api/interview/start',
          { authorization: participant, idempotencyKey: `start-${n}`, body: {} },
          (e) => e.status === 201 || e.status === 200,
        );
        if (start.last.status !== 201 && start.last.status !== 200) {
          record.failure = describeExchange(start.last);
          return;
        }
        record.sessionId = start.last.json.session.id;
        // A minute of interview already, without waiting for it: the bill is two minutes or more
        // (more when the answer waits out a claim left by the outage).
        await waitUntil(
          async () => (await query('update sessions set active_seconds = 61 where id = $1 returning id', [record.sessionId]).catch(() => [])).length === 1,
          LOGICAL_DEADLINE_MS,
          'the session to be writable',
        );
        const answer = await logicalRequest(
          'interview-answer',
          'POST',
          '/api/interview/answer',
          { authorization: participant, idempotencyKey: `answer-${n}`, body: { text: 'Mostly the importer, it failed on large files.' } },
          (e) => e.status === 200,
        );
        if (answer.last.status !== 200 || answer.last.json?.session?.status !== 'completed') {
          record.failure = describeExchange(answer.last);
          return;
        }
        record.completed = true;
      }
    };

    const testStarted = performance.now();
    const loops = [
      ...Array.from({ length: INVITE_LOOPS }, (_, loop) => inviteLoop(loop)),
      ...Array.from({ length: INTERVIEW_LOOPS }, (_, loop) => interviewLoop(loop)),
      readLoop(),
      healthLoop(),
    ];

    let loopsDone = false;
    const allLoops = Promise.all(loops).finally(() => {
      loopsDone = true;
    });
    try {
      // Load is flowing: every invite loop has had answers, and an interview has completed.
      // The waits below are bounds for a loaded machine (CI runs browser tests beside this one), not the
      // measure: the outage must be seen as 503s, however long a saturated machine takes to show it.
      await waitUntil(() => invites.every((list) => list.length >= 2) && interviews.some((i) => i.completed), 40_000, 'the load to flow');

      // Down: fast shutdown (open sessions ended, new connections refused).
      const stopping = performance.now();
      await cluster!.stop();
      const stopped = performance.now();
      // Answered after the stop (a request started just before may be the one that sees it).
      const downSince = (label: string, status: number) => () => exchanges.some((e) => e.label === label && e.ended >= stopped && e.status === status);
      await waitUntil(
        () => performance.now() - stopped >= DOWN_MS && downSince('invite', 503)() && downSince('read', 503)() && downSince('health', 503)(),
        // The server answers 503 itself after REQUEST_TIMEOUT_SECONDS; 30 s of outage at most keeps a
        // request cut by it within LOGICAL_DEADLINE_MS (its claim lapses after 30 s, from before the stop).
        30_000,
        'the outage to be seen on writes, reads and /healthz',
      ).catch((error: Error) => {
        // What each client saw since the stop, and whether its loop still runs: why the outage was not seen.
        const since = countBy(
          exchanges.filter((e) => e.ended >= stopped),
          (e) => `${e.label} ${e.status ?? e.failure}${e.json?.error?.code ? ` ${e.json.error.code}` : ''}`,
        );
        const openInvites = invites.map((list) => list.at(-1)?.last.status ?? 'none');
        const child = server!.child;
        // A crash's own line ("Error: …", outside the JSON log), which the excerpt's tail may not reach past an inspected object.
        const crashLines = server!
          .output()
          .split('\n')
          .filter((line) => !line.startsWith('{') && /^\w*Error\b/.test(line))
          .slice(-3);
        const processState =
          child.exitCode === null && child.signalCode === null ? 'still runs' : `ended (${child.exitCode ?? child.signalCode}): ${crashLines.join(' | ')}`;
        throw new Error(
          `${error.message}; answers since the stop: ${JSON.stringify(since)}; each invite loop's last answer: ${JSON.stringify(openInvites)}; the server process ${processState}\n${serverLogExcerpt()}`,
        );
      });

      // Back on the same port and data directory; the server keeps its pool and its URL.
      const starting = performance.now();
      await cluster!.start();
      const started = performance.now();
      const healthyAfter = await waitUntil(
        () => exchanges.some((e) => e.label === 'health' && e.started >= started && e.status === 200),
        RECOVERY_BOUND_MS,
        '/healthz 200 after the restart',
      );
      // Every loop may be retrying a key whose claim the outage left behind (409 until it lapses, 30 s).
      const writingAfter = await waitUntil(
        () => exchanges.some((e) => e.label === 'invite' && e.started >= started && e.status === 201),
        CLAIM_LAPSE_MS + RECOVERY_BOUND_MS,
        'an invite created after the restart',
      );
      const readingAfter = await waitUntil(
        () => exchanges.some((e) => e.label === 'read' && e.started >= started && e.status === 200),
        RECOVERY_BOUND_MS,
        'a read after the restart',
      );
      // A little more load on the restarted database, then the loops finish what they hold.
      await sleep(1500);
      stopLoad = true;
      await waitUntil(() => loopsDone, LOGICAL_DEADLINE_MS + 10_000, 'the client loops to finish');
      await allLoops;
      const finished = performance.now();
      afterRestart = { campaignId, loadInvites: invites.flat().filter((invite) => invite.last.status === 201).length };

      const downWindow = exchanges.filter((e) => e.started >= stopped && e.ended <= starting);
      const all = exchanges.slice();
      const summary = {
        totalMs: Math.round(finished - testStarted),
        stopMs: Math.round(stopped - stopping),
        downMs: Math.round(starting - stopped),
        startMs: Math.round(started - starting),
        healthyAfterMs: Math.round(healthyAfter),
        writingAfterMs: Math.round(writingAfter),
        readingAfterMs: Math.round(readingAfter),
        exchanges: all.length,
        byOutcome: countBy(all, (e) => `${e.label} ${e.status ?? e.failure}${e.json?.error?.code ? ` ${e.json.error.code}` : ''}`),
        logicalInvites: invites.flat().length,
        retriedInvites: invites.flat().filter((i) => i.attempts > 1).length,
        naturallyReplayed: invites.flat().filter((i) => i.last.replayed).length,
        maxAttempts: Math.max(...invites.flat().map((i) => i.attempts)),
        interviews: interviews.length,
        slowestMs: Math.round(Math.max(...all.map((e) => e.ended - e.started))),
      };
      console.log(JSON.stringify(summary, null, 2));

      // --- The same process throughout.
      expect(server!.child.exitCode, server!.output()).toBeNull();
      expect(server!.child.signalCode).toBeNull();
      expect(server!.child.pid).toBe(pid);

      // --- Never a hang, never a dropped connection, never a 500 (with or without a stack).
      const unanswered = all.filter((e) => e.status === undefined);
      expect(unanswered.map(describeExchange), 'requests without an answer').toEqual([]);
      const slow = all.filter((e) => e.ended - e.started > (REQUEST_TIMEOUT_SECONDS + 2) * 1000);
      expect(slow.map(describeExchange), 'answers slower than the request timeout').toEqual([]);
      const expected = (e: Exchange) =>
        e.status === 200 ||
        e.status === 201 ||
        (e.status === 503 && e.json?.error?.code === 'SERVICE_UNAVAILABLE') ||
        (e.status === 409 && e.json?.error?.code === 'IDEMPOTENCY_KEY_IN_USE');
      // With the server's own log lines of each such request: what it failed on.
      const withServerLog = (e: Exchange) => [describeExchange(e), ...serverLinesOf(e.json?.error?.requestId)].join('\n');
      // Soft: the other guarantees below are still checked (and reported) when this one fails.
      expect
        .soft(all.filter((e) => !expected(e)).map(withServerLog), 'answers other than 200, 201, 503 SERVICE_UNAVAILABLE, 409 IDEMPOTENCY_KEY_IN_USE')
        .toEqual([]);
      for (const e of all.filter((x) => x.status !== undefined && x.status >= 400)) {
        // The envelope, with Retry-After, and nothing of the server's insides.
        expect(e.contentType, describeExchange(e)).toMatch(/^application\/json/);
        expect(e.json?.error, describeExchange(e)).toMatchObject({ code: expect.any(String), message: expect.any(String) });
        if (e.status === 503 || e.status === 409) expect(e.retryAfter, describeExchange(e)).toMatch(/^\d+$/);
        expect(e.text, describeExchange(e)).not.toMatch(/\bat .+\.(ts|js):\d+|"stack"|node_modules|Knex|DriverException|ECONNREFUSED|terminating connection/i);
      }

      // --- While it was down: 503 SERVICE_UNAVAILABLE on writes, reads and /healthz alike.
      expect(downWindow.length).toBeGreaterThan(10);
      expect(downWindow.filter((e) => e.status !== 503).map(describeExchange), 'answers while the database was down').toEqual([]);
      for (const e of downWindow) {
        expect(e.json.error.code).toBe('SERVICE_UNAVAILABLE');
        expect(e.retryAfter).toBe('5');
      }
      for (const label of ['invite', 'read', 'health'])
        expect(
          downWindow.some((e) => e.label === label),
          label,
        ).toBe(true);
      const downHealth = downWindow.filter((e) => e.label === 'health');
      expect(downHealth.every((e) => e.json.error.details?.databaseUp === false)).toBe(true);
      // /healthz's probe is bounded at 1 s; the API answers a refused connection at once.
      expect(Math.max(...downHealth.map((e) => e.ended - e.started))).toBeLessThan(2500);

      // --- After: the same process answers again, reads and writes.
      const health = await send('after', 'GET', '/healthz', { authorization: '' });
      expect(health.status, describeExchange(health)).toBe(200);
      const list = await send('after', 'GET', `/v1/campaigns/${campaignId}/invites?limit=1`, { authorization: owner });
      expect(list.status, describeExchange(list)).toBe(200);

      // --- Every logical invite finished, exists exactly once, and its replay answers the same invite.
      const logical = invites.flat();
      expect(
        logical.filter((i) => i.last.status !== 201).map((i) => describeExchange(i.last)),
        'logical invites that never succeeded',
      ).toEqual([]);
      expect(new Set(logical.map((i) => i.last.json.id)).size).toBe(logical.length);
      const rows = await query<{ id: string; email: string }>(`select id, email from invites where campaign_id = $1`, [campaignId]);
      const interviewEmails = rows.filter((row) => row.email.startsWith('participant-'));
      const loadRows = rows.filter((row) => row.email.startsWith('invitee-'));
      const byEmail = new Map<string, string[]>();
      for (const row of loadRows) byEmail.set(row.email, [...(byEmail.get(row.email) ?? []), row.id]);
      expect(
        [...byEmail].filter(([, ids]) => ids.length > 1),
        'emails invited twice',
      ).toEqual([]);
      expect(loadRows.length).toBe(logical.length);
      for (const invite of logical) expect(byEmail.get(invite.email), invite.email).toEqual([invite.last.json.id]);

      const replays: Exchange[] = [];
      for (let index = 0; index < logical.length; index += 16) {
        replays.push(
          ...(await Promise.all(
            logical.slice(index, index + 16).map((invite, offset) =>
              send('replay', 'POST', invitesPath, {
                authorization: `Bearer ${apiKeys[(index + offset) % INVITE_LOOPS]}`,
                idempotencyKey: invite.key,
                body: invite.body,
              }),
            ),
          )),
        );
      }
      // Keys belong to the organization, not to the API key: any of its keys replays the answer.
      logical.forEach((invite, index) => {
        const replay = replays[index]!;
        expect(replay.status, describeExchange(replay)).toBe(201);
        expect(replay.replayed, describeExchange(replay)).toBe(true);
        expect(replay.json.id).toBe(invite.last.json.id);
      });
      const keys = await query<{ key: string; status: string }>(
        `select key, status from idempotency_keys where organization_id = $1 and key like 'restart-%'`,
        [organizationId],
      );
      expect(keys.filter((row) => row.status !== 'completed')).toEqual([]);
      expect(keys.length).toBe(logical.length);

      // --- Interviews: each completed once, each charged once, nothing left held.
      // A loop ends only between two interviews, so every interview it began was completed.
      expect(
        interviews.filter((i) => !i.completed).map((i) => i.failure ?? i.inviteId),
        'interviews not completed',
      ).toEqual([]);
      const completed = interviews;
      expect(completed.length).toBeGreaterThanOrEqual(INTERVIEW_LOOPS);
      expect(interviewEmails.length).toBe(interviews.length);
      const sessions = await query<{ id: string; invite_id: string; status: string; billing: { chargedCredits: number; totalMinutes: number } | null }>(
        `select id, invite_id, status, billing from sessions where organization_id = $1`,
        [organizationId],
      );
      const sessionsPerInvite = new Map<string, number>();
      for (const session of sessions) sessionsPerInvite.set(session.invite_id, (sessionsPerInvite.get(session.invite_id) ?? 0) + 1);
      expect(
        [...sessionsPerInvite].filter(([, count]) => count > 1),
        'invites with two sessions',
      ).toEqual([]);
      expect(sessions.length).toBe(interviews.length);
      const ledger = await query<{ kind: string; amount: string; source: string | null }>(
        `select kind, amount, source from credit_transactions where organization_id = $1`,
        [organizationId],
      );
      for (const interview of completed) {
        const session = sessions.find((s) => s.id === interview.sessionId);
        expect(session?.status).toBe('completed');
        // Enterprise: 0.5 credit a minute, the month's free minutes used up beforehand.
        expect(session?.billing?.totalMinutes).toBeGreaterThanOrEqual(2);
        expect(session?.billing?.chargedCredits).toBe(session!.billing!.totalMinutes * 0.5);
        const charges = ledger.filter((row) => row.source === `session:${interview.sessionId}`);
        expect(
          charges.map((row) => [row.kind, Number(row.amount)]),
          `charges of ${interview.sessionId}`,
        ).toEqual([['charge', -session!.billing!.chargedCredits]]);
      }
      const billedSessions = sessions.filter((s) => s.billing !== null);
      expect(billedSessions.length).toBe(completed.length);
      const [organization] = await query<{ credit_balance: string; credits_held: string; credits_owed: string }>(
        `select credit_balance, credits_held, credits_owed from organizations where id = $1`,
        [organizationId],
      );
      const ledgerSum = ledger.reduce((sum, row) => sum + Number(row.amount), 0);
      expect(Number(organization!.credit_balance)).toBeCloseTo(ledgerSum, 4);
      const billed = (key: 'chargedCredits' | 'totalMinutes') => billedSessions.reduce((sum, s) => sum + s.billing![key], 0);
      expect(Number(organization!.credit_balance)).toBeCloseTo(10_000 - billed('chargedCredits'), 4);
      expect(Number(organization!.credits_owed)).toBe(0);
      // Every start's hold was released by its finish.
      expect(Number(organization!.credits_held)).toBe(0);
      const [usage] = await query<{ sessions: number; minutes: number }>(`select sessions, minutes from billing_usage where organization_id = $1`, [
        organizationId,
      ]);
      expect(usage).toMatchObject({ sessions: completed.length, minutes: billed('totalMinutes') });
    } catch (error) {
      console.log(`server log (request errors left out):\n${serverLogExcerpt()}`);
      throw error;
    } finally {
      stopLoad = true;
      // Whatever failed, the loops end (each bounded by LOGICAL_DEADLINE_MS) before clean-up stops the cluster.
      if (!cluster!.running) await cluster!.start().catch(() => undefined);
      await Promise.race([allLoops.catch(() => undefined), sleep(LOGICAL_DEADLINE_MS + 10_000)]);
    }
  }, 180_000);

  it('its worker runs jobs again once the database is back: every invitation email of the load is sent, no job stays locked', async () => {
    expect(afterRestart, 'the restart test ran first').toBeDefined();
    const { campaignId, loadInvites } = afterRestart!;
    // The worker polls every 2 s; a job that failed in the outage is retried after about 3 s.
    try {
      await waitUntil(
        async () => {
          const [row] = await query<{ queued: string; locked: string }>(
            `select (select count(*) from invites where campaign_id = $1 and email_status = 'queued') as queued,
                    (select count(*) from graphile_worker._private_jobs where locked_by is not null) as locked`,
            [campaignId],
          );
          return Number(row!.queued) === 0 && Number(row!.locked) === 0;
        },
        20_000,
        'every invitation email to be sent and no job to stay locked',
      );
    } catch (error) {
      const statuses = await query(`select email_status, count(*)::int from invites where campaign_id = $1 group by 1 order by 1`, [campaignId]);
      const jobs = await query(
        `select t.identifier as task, j.attempts, j.locked_by is not null as locked, count(*)::int from graphile_worker._private_jobs j
         join graphile_worker._private_tasks t on t.id = j.task_id group by 1, 2, 3 order by 1, 2, 3`,
      );
      console.log(`server log (request errors left out):\n${serverLogExcerpt()}`);
      throw new Error(`${(error as Error).message}; invites by email status: ${JSON.stringify(statuses)}; jobs: ${JSON.stringify(jobs)}`, { cause: error });
    }
    const emailStatuses = await query<{ email_status: string; count: number }>(
      `select email_status, count(*)::int from invites where campaign_id = $1 and email like 'invitee-%' group by 1`,
      [campaignId],
    );
    expect(emailStatuses).toEqual([{ email_status: 'sent', count: loadInvites }]);
    // At least once per invite: a send retried after the outage carries the same Message-ID, so receivers can deduplicate.
    const files = (await readdir(path.join(dataDir!, 'outbox'))).filter((file) => file.endsWith('.eml'));
    const messages = new Set(files.map((file) => file.replace(/^\d{4}-\d\d-\d\dT[\d-]+\.\d+Z-/, '')));
    expect(messages.size).toBe(loadInvites);
  }, 40_000);
});
