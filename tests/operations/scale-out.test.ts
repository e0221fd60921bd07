import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign, apiAs } from '../helpers/factories.js';
import { exitOf, freePort, startServer, waitFor } from '../helpers/processes.js';
import { waitForLockWaiters } from '../helpers/row-lock.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { IN_ONE_WINDOW_TIMEOUT_MS, inOneWindow } from '../helpers/rate-limit-window.js';

/**
 * Real API processes (`npm start --role=api`) on one database: what must be shared between
 * processes (rate limits) is, and a process stopping lets its in-flight requests finish.
 */
let t: TestApp;
const servers: { child: ReturnType<typeof startServer>['child']; output: () => string; port: number }[] = [];

async function startApiProcess(): Promise<(typeof servers)[number]> {
  const port = await freePort();
  const server = startServer(
    { DATABASE_URL: t.database.url, PORT: String(port), LOG_LEVEL: 'info', DATA_DIR: t.dataDir, PUBLIC_URL: 'http://127.0.0.1:3000' },
    ['--role=api'],
  );
  await waitFor(
    async () => ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200 ? true : undefined),
    60_000,
    () => `API process never became healthy:\n${server.output()}`,
  );
  const entry = { ...server, port };
  servers.push(entry);
  return entry;
}

beforeAll(async () => {
  t = await startTestApp();
  await Promise.all([startApiProcess(), startApiProcess()]);
}, 120_000);

afterAll(async () => {
  for (const server of servers) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      await exitOf(server.child);
    }
  }
  await t?.close();
});

describe('two API processes on one database', () => {
  it(
    'hand out exactly the plan budget per key per minute between them',
    async () => {
      await inOneWindow(async () => {
        const tenant = await t.createTenant({ plan: 'free' });
        const [a, b] = servers;
        const responses = await Promise.all(
          Array.from({ length: 80 }, (_, i) =>
            fetch(`http://127.0.0.1:${(i % 2 === 0 ? a! : b!).port}/v1/projects`, { headers: { Authorization: tenant.authorization } }),
          ),
        );
        const statuses = responses.map((response) => response.status);
        expect(statuses.filter((status) => status === 200)).toHaveLength(60);
        expect(statuses.filter((status) => status === 429)).toHaveLength(20);
        // Both processes served part of the budget and refused part of the rest.
        const byProcess = (parity: number) => statuses.filter((_, i) => i % 2 === parity);
        expect(byProcess(0)).toContain(200);
        expect(byProcess(1)).toContain(200);

        const refused = responses.find((response) => response.status === 429)!;
        const body = (await refused.json()) as { error: { code: string; message: string; retryAfter?: number; details: { retryAfter: number } } };
        const retryAfter = Number(refused.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(body.error.code).toBe('RATE_LIMITED');
        expect(body.error.details.retryAfter).toBe(retryAfter);
        expect(body.error.message).toMatch(new RegExp(`Retry in ${retryAfter} seconds?\\.`));
        expect(refused.headers.get('x-ratelimit-limit')).toBe('60');
        expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      });
    },
    IN_ONE_WINDOW_TIMEOUT_MS + 60_000,
  );
});

describe('graceful shutdown', () => {
  it('on SIGTERM a process stops accepting, finishes its in-flight request and exits 0', async () => {
    const server = servers[1]!;
    const tenant = await t.createTenant();
    const api = apiAs(t.http, tenant);
    const campaign = await createCampaign(api);

    // Another transaction holds the campaign: creating an invite in the process waits for it.
    const holder = new pg.Client({ connectionString: t.database.url });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select id from campaigns where id = $1 for update', [campaign.id]);
    const inFlight = fetch(`http://127.0.0.1:${server.port}/v1/campaigns/${campaign.id}/invites`, {
      method: 'POST',
      headers: { Authorization: tenant.authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'in-flight@example.com', sendEmail: false }),
    });
    await waitForLockWaiters(holder);

    server.child.kill('SIGTERM');
    await waitFor(
      async () => (server.output().includes('shutting down') ? true : undefined),
      10_000,
      () => `no shutdown began:\n${server.output()}`,
    );
    // New connections are refused while the in-flight request is still waiting.
    await expect(fetch(`http://127.0.0.1:${server.port}/healthz`)).rejects.toThrow();

    await holder.query('rollback');
    await holder.end();
    const response = await inFlight;
    expect(response.status).toBe(201);
    expect(await exitOf(server.child)).toBe(0);
    const [row] = await t.em().execute<{ count: string }[]>(`select count(*) from invites where campaign_id = ?`, [campaign.id]);
    expect(Number(row!.count)).toBe(1);
  }, 60_000);
});
