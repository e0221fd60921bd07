import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitOf, freePort, lastJsonLine, ROOT, runAdmin, startServer, startServerIn, waitFor } from '../helpers/processes.js';

const dataDirs: string[] = [];
afterAll(async () => {
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
});

/**
 * The quick start, end to end: `npm start` on the embedded default (no DATABASE_URL), the admin
 * CLI attaching to the running cluster, the key working against the API, and a clean SIGTERM.
 */
describe('npm start on the embedded default', () => {
  it('serves the API, shares its database with the admin CLI and shuts down cleanly', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'interview-start-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' };
    // Through tsx from the sources, as `npm start` runs it (the other tests start this run's bundle).
    const server = startServerIn(ROOT, env, [], 'tsx');
    try {
      const health = await waitFor(
        async () => {
          const response = await fetch(`http://127.0.0.1:${port}/healthz`);
          return response.status === 200 ? await response.json() : undefined;
        },
        60_000,
        () => `server never became healthy:\n${server.output()}`,
      );
      expect(health).toEqual({ status: 'ok' });

      const created = await runAdmin(['create-key', '--name', 'x', '--permissions', 'all', '--json'], { DATA_DIR: dataDir });
      expect(created.code, created.stderr).toBe(0);
      const { apiKey } = lastJsonLine(created.stdout);

      const project = await fetch(`http://127.0.0.1:${port}/v1/projects`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'From the quick start' }),
      });
      expect(project.status).toBe(201);
      const listed = await fetch(`http://127.0.0.1:${port}/v1/projects`, { headers: { Authorization: `Bearer ${apiKey}` } });
      expect(((await listed.json()) as { pagination: { total: number } }).pagination.total).toBe(1);
      expect(server.output()).toContain('worker started');
      // The start log names the database server (the embedded default is PostgreSQL 18).
      expect(server.output()).toMatch(/"msg":"database: PostgreSQL 18\.\d+"/);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await exitOf(server.child)).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    await expect(access(path.join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow();
  }, 180_000);

  it('runs the API and the worker as separate processes on one database', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'interview-roles-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    const metricsPort = await freePort();
    const worker = startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info', WORKER_METRICS_PORT: String(metricsPort) }, ['--role=worker']);
    let api: ReturnType<typeof startServer> | undefined;
    try {
      await waitFor(
        async () => (worker.output().includes('worker started') ? true : undefined),
        60_000,
        () => worker.output(),
      );
      // The worker-only process serves its own health and metrics (job outcomes are counted there).
      const workerHealth = await waitFor(
        async () => ((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status === 200 ? true : undefined),
        30_000,
        () => worker.output(),
      );
      expect(workerHealth).toBe(true);
      const workerMetrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(workerMetrics.status).toBe(200);
      expect(await workerMetrics.text()).toContain('# TYPE worker_jobs_total counter');
      expect((await fetch(`http://127.0.0.1:${metricsPort}/v1/projects`)).status).toBe(404);
      api = startServer({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' }, ['--role=api']);
      await waitFor(
        async () => ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200 ? true : undefined),
        60_000,
        () => api!.output(),
      );
      expect(api.output()).toContain('attached to the running embedded PostgreSQL');
      expect(api.output()).not.toContain('worker started');
    } finally {
      api?.child.kill('SIGTERM');
      if (api) expect(await exitOf(api.child)).toBe(0);
      worker.child.kill('SIGTERM');
    }
    expect(await exitOf(worker.child)).toBe(0);
  }, 180_000);

  it('after a crash (SIGKILL) the next start adopts the orphaned cluster and stops it on shutdown', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'interview-crash-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' };
    const healthy = async () => ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200 ? true : undefined);

    const crashed = startServer(env);
    await waitFor(healthy, 60_000, () => crashed.output());
    crashed.child.kill('SIGKILL');
    await exitOf(crashed.child);
    await access(path.join(dataDir, 'postgres', 'postmaster.pid'));

    const restarted = startServer(env);
    try {
      await waitFor(healthy, 60_000, () => restarted.output());
      expect(restarted.output()).toContain('adopted an embedded PostgreSQL left running by a crashed process');
    } finally {
      restarted.child.kill('SIGTERM');
    }
    expect(await exitOf(restarted.child)).toBe(0);
    await expect(access(path.join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow();
  }, 180_000);
});
