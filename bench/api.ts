/**
 * API hot paths against their ceiling. The service (`server/main.ts --role=api`, its own process,
 * request logs and metrics on as in production) and a bare Express + `pg` server doing the SQL
 * each operation cannot do without (`bench/helpers/api-ceiling-server.ts`, its own process) run
 * on one fresh PostgreSQL. autocannon loads them by turns (A B A B, same connections and
 * duration), and each scenario prints req/s, p50 and p99 for both, the ratio service / ceiling,
 * SQL statements per request and the service's CPU per request. The key's rate limit is lifted
 * past what the run can reach (the upsert still runs on every request).
 *
 *   npm run bench:api
 *   npm run bench:api -- --duration 10 --connections 32 --rounds 2 --only campaigns
 *   npm run bench:api -- --only 'GET /v1/campaigns (' --profile   # V8 CPU profile of the service, by layer
 *   BENCH_SHOW_STATEMENTS=1 npm run bench:api -- --only 'POST /v1/campaigns/{id}/invites'   # each statement of a first request
 *
 * The campaign list is measured three times: the main organization (100 campaigns, made through
 * the API) and organizations of 1,000 and 10,000 campaigns (copied in SQL), held to 0.6 of the ceiling.
 *
 * Figures go to bench/results/api.json.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { loadConfig } from '../server/config.js';
import { createApp } from '../server/http/app.js';
import { createLogger } from '../server/logger.js';
import { openRuntime } from '../server/runtime.js';
import { callApi } from './helpers/api.js';
import { createBenchTenant, openBenchDatabase } from './helpers/database.js';
import { summarizeCpuProfile } from './helpers/cpu-profile.js';
import { judgeAgainstAim } from './helpers/aims.js';
import { positiveOption } from './helpers/options.js';
import { type NodeChild, processCpuMs, ROOT, startNode, stopChild, waitForHealthy } from './helpers/processes.js';

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '2' },
    pool: { type: 'string', default: '10' },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
  },
});
const DURATION = positiveOption('duration', options.duration);
const CONNECTIONS = positiveOption('connections', options.connections);
const ROUNDS = positiveOption('rounds', options.rounds);
const POOL = positiveOption('pool', options.pool);
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');
const SIGNING_SECRET = 'bench-signing-secret-of-at-least-32-characters';

interface Fixture {
  /** Organizations of 1,000 and 10,000 campaigns (made in SQL), for the list's cost as an organization grows. */
  large: Record<LargeOrganization, { authorization: string }>;
  scriptId: string;
  projectId: string;
  campaignIds: string[];
}

type LargeOrganization = 'thousand' | 'tenThousand';
const LARGE_ORGANIZATIONS: Record<LargeOrganization, number> = { thousand: 1_000, tenThousand: 10_000 };

interface Scenario {
  name: string;
  /** Run as another organization than the main one (the campaign list at 1,000 and 10,000 campaigns). */
  as?: LargeOrganization;
  /** The ratio the scenario is held to (default 0.5). */
  aim?: number;
  /** What the ratio is held to (issue 18): at least 0.5 of the ceiling, or bulk within 2× its time; `none`: the service alone (no ceiling), for figures comparable with earlier runs. */
  target: 'ratio' | 'bulk' | 'none';
  /** Fewer connections for heavy requests. */
  connections?: number;
  request(fixture: Fixture, sequence: number, prefix: string): { method: 'GET' | 'POST'; path: string; body?: unknown };
}

// In the order of earlier runs (reads first, writes after), so their figures stay comparable.
const SCENARIOS: Scenario[] = [
  { name: 'GET /v1/campaigns (page of 20)', target: 'ratio', request: () => ({ method: 'GET', path: '/v1/campaigns' }) },
  {
    name: 'GET /v1/campaigns (page of 20), 1,000 campaigns',
    target: 'ratio',
    aim: 0.6,
    as: 'thousand',
    request: () => ({ method: 'GET', path: '/v1/campaigns' }),
  },
  {
    name: 'GET /v1/campaigns (page of 20), 10,000 campaigns',
    target: 'ratio',
    aim: 0.6,
    as: 'tenThousand',
    request: () => ({ method: 'GET', path: '/v1/campaigns' }),
  },
  { name: 'GET /v1/campaigns?limit=100&search=', target: 'none', request: () => ({ method: 'GET', path: '/v1/campaigns?limit=100&search=Campaign' }) },
  { name: 'GET /v1/campaigns/{id}', target: 'ratio', request: (f, i) => ({ method: 'GET', path: `/v1/campaigns/${f.campaignIds[i % f.campaignIds.length]}` }) },
  { name: 'GET /v1/scripts/{id}', target: 'none', request: (f) => ({ method: 'GET', path: `/v1/scripts/${f.scriptId}` }) },
  { name: 'GET /v1/projects (with campaignCount)', target: 'none', request: () => ({ method: 'GET', path: '/v1/projects' }) },
  { name: 'POST /v1/projects', target: 'none', request: (_f, i, p) => ({ method: 'POST', path: '/v1/projects', body: { name: `P ${p}${i}` } }) },
  {
    name: 'POST /v1/campaigns',
    target: 'ratio',
    request: (f, i, p) => ({ method: 'POST', path: '/v1/campaigns', body: { name: `C ${p}${i}`, scriptId: f.scriptId } }),
  },
  {
    name: 'POST /v1/campaigns/{id}/invites',
    target: 'ratio',
    // Issue 33's aim for one invite created.
    aim: 0.7,
    request: (f, i, p) => ({ method: 'POST', path: `/v1/campaigns/${f.campaignIds[0]}/invites`, body: { email: `${p}${i}@example.com` } }),
  },
  {
    name: 'GET /v1/campaigns/{id}/invites (page of 20)',
    target: 'ratio',
    request: (f) => ({ method: 'GET', path: `/v1/campaigns/${f.campaignIds[0]}/invites` }),
  },
  {
    name: 'POST /v1/campaigns/{id}/invites/bulk (500)',
    target: 'bulk',
    connections: 4,
    request: (f, i, p) => ({
      method: 'POST',
      path: `/v1/campaigns/${f.campaignIds[1]}/invites/bulk`,
      body: { invites: Array.from({ length: 500 }, (_, j) => ({ email: `${p}${i}-${j}@example.com`, name: `Participant ${j}` })) },
    }),
  },
];

interface Run {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  cpuMsPerRequest: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let prefixes = 0;

/**
 * An organization of `count` campaigns: one made through the API (with its script and project),
 * the rest copied from it in one statement (distinct ids, names and creation times), and its key.
 */
async function largeOrganization(databaseUrl: string, dataDir: string, base: string, count: number): Promise<string> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: path.join(dataDir, `large-${count}`), LOG_LEVEL: 'warn', SIGNING_SECRET });
  const runtime = await openRuntime(config, createLogger('warn'));
  try {
    const tenant = await createBenchTenant(runtime.orm.em.fork(), `Bench ${count}`);
    await runtime.orm.em.fork().execute(`update organizations set rate_limit_per_minute = 100000000 where id = ?`, [tenant.organizationId]);
    const script = await callApi(base, 'POST', '/v1/scripts', tenant.authorization, {
      name: 'Bench script',
      systemPrompt: 'Interview.',
      questions: [{ id: 'q0', text: 'Question?', type: 'open' }],
    });
    await callApi(base, 'POST', `/v1/scripts/${script.id}/publish`, tenant.authorization);
    const template = await callApi(base, 'POST', '/v1/campaigns', tenant.authorization, { name: 'Campaign 0', scriptId: script.id });
    await runtime.orm.em.fork().execute(
      `insert into campaigns select (jsonb_populate_record(null::campaigns, to_jsonb(c) || jsonb_build_object(
         'id', 'cam_bench' || ? || 'x' || g, 'name', 'Campaign ' || g,
         'created_at', c.created_at - make_interval(secs => g), 'updated_at', c.updated_at - make_interval(secs => g)))).*
       from campaigns c, generate_series(1, ?) as g where c.id = ?`,
      [count, count - 1, template.id],
    );
    await runtime.orm.em.fork().execute('analyze campaigns');
    return tenant.authorization;
  } finally {
    await runtime.close();
  }
}

/** One load of one scenario against one server: a short warm-up, then DURATION seconds measured. */
async function load(target: { port: number; pid: number }, scenario: Scenario, fixture: Fixture, authorization: string): Promise<Run> {
  const prefix = `r${(prefixes += 1)}x`;
  let sequence = 0;
  const next = () => {
    const request = scenario.request(fixture, (sequence += 1), prefix);
    return {
      method: request.method,
      path: request.path,
      headers: { authorization, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    };
  };
  const connections = scenario.connections ?? CONNECTIONS;
  const run = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${target.port}`,
      connections,
      duration,
      requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, ...next() }) }],
    });
  await run(1);
  const cpuBefore = processCpuMs(target.pid);
  const result = await run(DURATION);
  const cpuMs = processCpuMs(target.pid) - cpuBefore;
  const errors = result.non2xx + result.errors + result.timeouts;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors,
    cpuMsPerRequest: result.requests.total > 0 ? cpuMs / result.requests.total : 0,
  };
}

function mean(runs: Run[], pick: (run: Run) => number): number {
  return runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
}

/**
 * SQL statements per request of the service, counted in-process on the same code (the child
 * process cannot be counted from here): 50 requests of the scenario through `createApp`.
 */
async function statementsPerRequest(databaseUrl: string, dataDir: string, scenario: Scenario, fixture: Fixture, authorization: string): Promise<number> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: path.join(dataDir, 'count'), LOG_LEVEL: 'silent', SIGNING_SECRET, DATABASE_POOL_SIZE: '4' });
  const runtime = await openRuntime(config, createLogger('silent'));
  let statements = 0;
  /** How many statements the first request made (until it is done: every statement so far). */
  let perFirst = Number.POSITIVE_INFINITY;
  runtime.orm.em
    .getConnection()
    .getKnex()
    .on('query', (query: { sql: string }) => {
      statements += 1;
      // BENCH_SHOW_STATEMENTS=1: each statement of the first request, to see what a path costs.
      if (process.env.BENCH_SHOW_STATEMENTS && statements <= perFirst) console.log(`  ${query.sql.replace(/\s+/g, ' ').slice(0, 200)}`);
    });
  const server = createApp(runtime.services, { isReady: () => true }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const count = scenario.target === 'bulk' ? 5 : 50;
  const prefix = `s${(prefixes += 1)}x`;
  statements = 0;
  for (let i = 0; i < count; i += 1) {
    const request = scenario.request(fixture, i, prefix);
    await callApi(base, request.method, request.path, authorization, request.body);
    if (i === 0) perFirst = statements;
  }
  const perRequest = statements / count;
  await new Promise((resolve) => server.close(resolve));
  await runtime.close();
  return perRequest;
}

async function main(): Promise<void> {
  const logger = createLogger('warn');
  const database = await openBenchDatabase('api', logger);
  const children: NodeChild[] = [];
  try {
    const servicePort = await freePort();
    const service = startNode(
      'server/main.ts',
      ['--role=api'],
      {
        DATABASE_URL: database.databaseUrl,
        PORT: String(servicePort),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${servicePort}`,
        DATA_DIR: path.join(database.dataDir, 'service'),
        LOG_LEVEL: 'info',
        DATABASE_POOL_SIZE: String(POOL),
        SIGNING_SECRET,
      },
      options.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(database.workDir, 'profile')}`] : [],
    );
    children.push(service);
    await waitForHealthy(service, servicePort);

    const config = loadConfig({ DATABASE_URL: database.databaseUrl, DATA_DIR: path.join(database.dataDir, 'setup'), LOG_LEVEL: 'warn', SIGNING_SECRET });
    const runtime = await openRuntime(config, logger);
    const tenant = await createBenchTenant(runtime.orm.em.fork(), 'Bench');
    // Past anything the run can reach: the upsert still counts every request.
    await runtime.orm.em.fork().execute(`update organizations set rate_limit_per_minute = 100000000 where id = ?`, [tenant.organizationId]);
    await runtime.close();

    const base = `http://127.0.0.1:${servicePort}`;
    const script = await callApi(base, 'POST', '/v1/scripts', tenant.authorization, {
      name: 'Bench script',
      systemPrompt: 'Interview.',
      questions: Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, text: `Question ${i}?`, type: i % 2 ? 'open' : 'rating' })),
    });
    await callApi(base, 'POST', `/v1/scripts/${script.id}/publish`, tenant.authorization);
    const project = await callApi(base, 'POST', '/v1/projects', tenant.authorization, { name: 'Bench project' });
    const large = {} as Fixture['large'];
    for (const [name, count] of Object.entries(LARGE_ORGANIZATIONS) as [LargeOrganization, number][]) {
      large[name] = { authorization: await largeOrganization(database.databaseUrl, database.dataDir, base, count) };
    }
    const fixture: Fixture = { large, scriptId: script.id, projectId: project.id, campaignIds: [] };
    for (let i = 0; i < 100; i += 1) {
      fixture.campaignIds.push(
        (await callApi(base, 'POST', '/v1/campaigns', tenant.authorization, { name: `Campaign ${i}`, scriptId: script.id, projectId: project.id })).id,
      );
    }

    const ceilingPort = await freePort();
    const ceiling = startNode('bench/helpers/api-ceiling-server.ts', [], {
      DATABASE_URL: database.databaseUrl,
      PORT: String(ceilingPort),
      DATABASE_POOL_SIZE: String(POOL),
      SIGNING_SECRET,
      PUBLIC_URL: base,
    });
    children.push(ceiling);
    await waitForHealthy(ceiling, ceilingPort);

    const scenarios = SCENARIOS.filter((scenario) => !options.only || scenario.name.includes(options.only));
    const os = await import('node:os');
    console.log(
      `${DURATION} s per run, ${ROUNDS} rounds A B, ${CONNECTIONS} connections (bulk: 4), pool ${POOL}, node ${process.version}, ` +
        `${os.cpus().length} cores (${os.cpus()[0]?.model}) shared by autocannon, both servers and PostgreSQL`,
    );
    console.log(
      `${'scenario'.padEnd(44)}${'service req/s'.padStart(14)}${'p50/p99 ms'.padStart(13)}${'ceiling req/s'.padStart(15)}${'p50/p99 ms'.padStart(13)}${'ratio'.padStart(7)}${'SQL/req'.padStart(9)}${'CPU ms/req'.padStart(12)}`,
    );
    const results = [];
    for (const scenario of scenarios) {
      const authorization = scenario.as ? fixture.large[scenario.as].authorization : tenant.authorization;
      const statements = await statementsPerRequest(database.databaseUrl, database.dataDir, scenario, fixture, authorization);
      const serviceRuns: Run[] = [];
      const ceilingRuns: Run[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        serviceRuns.push(await load({ port: servicePort, pid: service.child.pid! }, scenario, fixture, authorization));
        if (scenario.target !== 'none') ceilingRuns.push(await load({ port: ceilingPort, pid: ceiling.child.pid! }, scenario, fixture, authorization));
      }
      const measuredAlone = {
        requestsPerSecond: mean(serviceRuns, (run) => run.requestsPerSecond),
        p50: mean(serviceRuns, (run) => run.p50),
        p99: mean(serviceRuns, (run) => run.p99),
        cpuMsPerRequest: mean(serviceRuns, (run) => run.cpuMsPerRequest),
      };
      if (scenario.target === 'none') {
        if (serviceRuns.some((run) => run.errors > 0)) throw new Error(`${scenario.name}: failed requests`);
        results.push({
          scenario: scenario.name,
          target: 'none (no ceiling)',
          statementsPerRequest: statements,
          service: measuredAlone,
          rounds: { service: serviceRuns },
        });
        console.log(
          `${scenario.name.padEnd(44)}${measuredAlone.requestsPerSecond.toFixed(0).padStart(14)}${`${measuredAlone.p50.toFixed(0)}/${measuredAlone.p99.toFixed(0)}`.padStart(13)}` +
            `${'–'.padStart(15)}${'–'.padStart(13)}${'–'.padStart(7)}${statements.toFixed(1).padStart(9)}${measuredAlone.cpuMsPerRequest.toFixed(2).padStart(12)}`,
        );
        continue;
      }
      const errors = [...serviceRuns, ...ceilingRuns].reduce((sum, run) => sum + run.errors, 0);
      if (errors > 0) throw new Error(`${scenario.name}: ${errors} failed requests (non-2xx, errors or timeouts)`);
      const measured = measuredAlone;
      const bare = {
        requestsPerSecond: mean(ceilingRuns, (run) => run.requestsPerSecond),
        p50: mean(ceilingRuns, (run) => run.p50),
        p99: mean(ceilingRuns, (run) => run.p99),
        cpuMsPerRequest: mean(ceilingRuns, (run) => run.cpuMsPerRequest),
      };
      const ratio = measured.requestsPerSecond / bare.requestsPerSecond;
      // Bulk: the time of one request of 500 against the ceiling's, at the same concurrency.
      const timeRatio = bare.requestsPerSecond / measured.requestsPerSecond;
      const aim = scenario.aim ?? 0.5;
      // Round by round (each round runs the service, then the ceiling): the spread the guard compares a miss with.
      const judgement =
        scenario.target === 'ratio'
          ? judgeAgainstAim({ perRound: serviceRuns.map((run, round) => run.requestsPerSecond / ceilingRuns[round]!.requestsPerSecond), aim, better: 'higher' })
          : judgeAgainstAim({
              perRound: serviceRuns.map((run, round) => ceilingRuns[round]!.requestsPerSecond / run.requestsPerSecond),
              aim: 2,
              better: 'lower',
            });
      const met = judgement.met;
      results.push({
        scenario: scenario.name,
        target: scenario.target === 'ratio' ? `ratio >= ${aim}` : 'time <= 2x',
        met,
        aimVerdict: judgement.verdict,
        regression: judgement.regression,
        ratio,
        timeRatio,
        statementsPerRequest: statements,
        service: measured,
        ceiling: bare,
        rounds: { service: serviceRuns, ceiling: ceilingRuns },
      });
      console.log(
        `${scenario.name.padEnd(44)}${measured.requestsPerSecond.toFixed(0).padStart(14)}${`${measured.p50.toFixed(0)}/${measured.p99.toFixed(0)}`.padStart(13)}` +
          `${bare.requestsPerSecond.toFixed(0).padStart(15)}${`${bare.p50.toFixed(0)}/${bare.p99.toFixed(0)}`.padStart(13)}${ratio.toFixed(2).padStart(7)}` +
          `${statements.toFixed(1).padStart(9)}${measured.cpuMsPerRequest.toFixed(2).padStart(12)}` +
          `  ${scenario.target === 'bulk' ? `time ×${timeRatio.toFixed(2)} ` : ''}${met ? 'ok' : 'BELOW TARGET'}`,
      );
      if (!met || judgement.rounds > 1) console.log(`${''.padEnd(4)}aim ${scenario.target === 'ratio' ? `ratio ≥ ${aim}` : 'time ≤ 2×'}: ${judgement.verdict}`);
    }
    await mkdir(RESULTS_DIR, { recursive: true });
    const file = path.join(RESULTS_DIR, 'api.json');
    await writeFile(
      file,
      `${JSON.stringify({ at: new Date().toISOString(), node: process.version, cores: os.cpus().length, duration: DURATION, rounds: ROUNDS, connections: CONNECTIONS, pool: POOL, results }, null, 2)}\n`,
    );
    console.log(`\nfigures written to ${path.relative(process.cwd(), file)}`);
    if (options.profile) {
      await stopChild(service);
      const [profile] = (await readdir(path.join(database.workDir, 'profile'))).filter((name) => name.endsWith('.cpuprofile'));
      const summary = await summarizeCpuProfile(path.join(database.workDir, 'profile', profile!));
      console.log(`\nservice CPU profile (${summary.totalMs.toFixed(0)} ms sampled), self time by layer:`);
      for (const share of summary.byPackage.slice(0, 14)) console.log(`  ${share.name.padEnd(40)}${share.percent.toFixed(1).padStart(6)}%`);
      console.log('inclusive time by function:');
      for (const share of summary.topInclusive.slice(0, 25)) console.log(`  ${share.name.padEnd(70)}${share.percent.toFixed(1).padStart(6)}%`);
    }
  } finally {
    for (const child of children) await stopChild(child);
    await database.close();
  }
}

await main();
