/**
 * API hot-path benchmark: authenticated requests over real HTTP against a real PostgreSQL
 * (DATABASE_URL, or a throwaway embedded cluster). Prints throughput, latency percentiles and
 * SQL statements per request for the common operations.
 *
 *   npm run bench                      # defaults: 2000 requests per scenario, concurrency 16
 *   BENCH_REQUESTS=5000 BENCH_CONCURRENCY=32 npm run bench
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PERMISSIONS } from '../shared/permissions.js';
import { loadConfig } from '../server/config.js';
import { openEmbeddedPostgres } from '../server/db/embedded-postgres.js';
import { createApiKey } from '../server/domains/api-keys/create-api-key.js';
import { createOrganization } from '../server/domains/organizations/create-organization.js';
import { setPlan } from '../server/domains/organizations/set-plan.js';
import { createApp } from '../server/http/app.js';
import { createLogger } from '../server/logger.js';
import { openRuntime } from '../server/runtime.js';
import { percentile } from './helpers/stats.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

interface Scenario {
  name: string;
  /** Fewer requests for heavy scenarios (default REQUESTS). */
  requests?: number;
  request: (i: number) => { method: string; path: string; body?: unknown };
}

async function main(): Promise<void> {
  const logger = createLogger('warn');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'interview-bench-'));
  const cluster = process.env.DATABASE_URL ? undefined : await openEmbeddedPostgres({ dataDir, logger });
  try {
    await runScenarios(cluster?.url, dataDir, logger);
  } finally {
    await cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function runScenarios(embeddedUrl: string | undefined, dataDir: string, logger: ReturnType<typeof createLogger>): Promise<void> {
  const config = loadConfig({ DATABASE_URL: process.env.DATABASE_URL ?? embeddedUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_POOL_SIZE: '20' });
  const runtime = await openRuntime(config, logger);
  let statements = 0;
  runtime.orm.em.getConnection().getKnex().on('query', () => (statements += 1));

  const em = () => runtime.orm.em.fork();
  const organization = await createOrganization(em(), { name: 'Bench' });
  await setPlan(em(), { organizationId: organization.id, plan: 'enterprise', rateLimitPerMinute: 10_000 });
  // One key per scenario: each key's budget is 10,000 requests per minute.
  const newKey = async () => (await createApiKey(em(), { organizationId: organization.id, name: 'bench', permissions: [...PERMISSIONS] })).secret;
  let secret = await newKey();

  const server = createApp(runtime.services, { isReady: () => true }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, requestPath: string, body?: unknown) => {
    const response = await fetch(base + requestPath, {
      method,
      headers: { Authorization: `Bearer ${secret}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${requestPath} → ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  const script = await call('POST', '/v1/scripts', {
    name: 'Bench script',
    systemPrompt: 'Interview.',
    questions: Array.from({ length: 10 }, (_, i) => ({ id: `q${i}`, text: `Question ${i}?`, type: i % 2 ? 'open' : 'rating' })),
  });
  await call('POST', `/v1/scripts/${script.id}/publish`);
  const project = await call('POST', '/v1/projects', { name: 'Bench project' });
  const campaignIds: string[] = [];
  for (let i = 0; i < 100; i += 1) {
    campaignIds.push((await call('POST', '/v1/campaigns', { name: `Campaign ${i}`, scriptId: script.id, projectId: project.id })).id);
  }

  const scenarios: Scenario[] = [
    { name: 'GET /v1/campaigns (page of 20)', request: () => ({ method: 'GET', path: '/v1/campaigns' }) },
    { name: 'GET /v1/campaigns?limit=100&search=', request: () => ({ method: 'GET', path: '/v1/campaigns?limit=100&search=Campaign' }) },
    { name: 'GET /v1/campaigns/{id}', request: (i) => ({ method: 'GET', path: `/v1/campaigns/${campaignIds[i % campaignIds.length]}` }) },
    { name: 'GET /v1/scripts/{id}', request: () => ({ method: 'GET', path: `/v1/scripts/${script.id}` }) },
    { name: 'GET /v1/projects (with campaignCount)', request: () => ({ method: 'GET', path: '/v1/projects' }) },
    { name: 'POST /v1/projects', request: (i) => ({ method: 'POST', path: '/v1/projects', body: { name: `P${i}` } }) },
    { name: 'POST /v1/campaigns', request: (i) => ({ method: 'POST', path: '/v1/campaigns', body: { name: `C${i}`, scriptId: script.id } }) },
    {
      name: 'POST /v1/campaigns/{id}/invites',
      request: (i) => ({ method: 'POST', path: `/v1/campaigns/${campaignIds[0]}/invites`, body: { email: `p${i}@example.com` } }),
    },
    { name: 'GET /v1/campaigns/{id}/invites (page of 20)', request: () => ({ method: 'GET', path: `/v1/campaigns/${campaignIds[0]}/invites` }) },
    {
      name: 'POST /v1/campaigns/{id}/invites/bulk (500)',
      requests: 40,
      request: (i) => ({
        method: 'POST',
        path: `/v1/campaigns/${campaignIds[1]}/invites/bulk`,
        body: { invites: Array.from({ length: 500 }, (_, j) => ({ email: `b${i}-${j}@example.com`, name: `Participant ${j}` })) },
      }),
    },
  ];

  const only = process.env.BENCH_ONLY;
  if (only) scenarios.splice(0, scenarios.length, ...scenarios.filter((s) => s.name.includes(only)));
  console.log(`requests per scenario: ${REQUESTS}, concurrency: ${CONCURRENCY}, node ${process.version}`);
  console.log('scenario'.padEnd(42), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8), 'p99 ms'.padStart(8), 'SQL/req'.padStart(8));
  for (const scenario of scenarios) {
    secret = await newKey();
    const latencies: number[] = [];
    const requests = scenario.requests ?? REQUESTS;
    let next = 0;
    statements = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests) {
          const i = next++;
          const { method, path: requestPath, body } = scenario.request(i);
          const t0 = performance.now();
          await call(method, requestPath, body);
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    console.log(
      scenario.name.padEnd(42),
      (requests / elapsed).toFixed(0).padStart(8),
      percentile(latencies, 50).toFixed(1).padStart(8),
      percentile(latencies, 95).toFixed(1).padStart(8),
      percentile(latencies, 99).toFixed(1).padStart(8),
      (statements / requests).toFixed(1).padStart(8),
    );
  }

  await new Promise((resolve) => server.close(resolve));
  await runtime.close();
}

await main();
