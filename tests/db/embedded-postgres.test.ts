import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { openEmbeddedPostgres, runningPostmaster } from '../../server/db/embedded-postgres.js';
import { superviseEmbeddedPostgres } from '../../server/db/embedded-postgres-supervisor.js';
import { createLogger } from '../../server/logger.js';
import { ONE_QUESTION } from '../helpers/interviews.js';
import { exitOf, freePort, killLeftovers, lastJsonLine, runAdmin, startServer, waitFor, waitForHealthy } from '../helpers/processes.js';

/**
 * Who may stop the embedded cluster. Every process that opens it is a holder; the last live one
 * to leave stops it. These are the orders in which a holder used to stop the cluster under a
 * process still using it.
 */

const dataDirs: string[] = [];
afterAll(async () => {
  for (const dir of dataDirs) {
    const running = await runningPostmaster(path.join(dir, 'postgres'));
    if (running) process.kill(running.pid, 'SIGINT');
    await rm(dir, { recursive: true, force: true });
  }
});

async function freshDataDir(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `interview-${name}-`));
  dataDirs.push(dir);
  return dir;
}

async function canQuery(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The server answers healthy and an authenticated write goes through to the database. */
async function expectServing(port: number, apiKey: string): Promise<void> {
  const health = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(health.status, await health.clone().text()).toBe(200);
  const created = await fetch(`http://127.0.0.1:${port}/v1/projects`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Still here' }),
  });
  expect(created.status).toBe(201);
}

async function createKey(dataDir: string): Promise<{ apiKey: string; organizationId: string }> {
  const created = await runAdmin(['create-key', '--name', 'ownership', '--permissions', 'all', '--json'], { DATA_DIR: dataDir });
  expect(created.code, created.stderr).toBe(0);
  return lastJsonLine(created.stdout) as { apiKey: string; organizationId: string };
}

async function expectStopped(dataDir: string): Promise<void> {
  expect(await runningPostmaster(path.join(dataDir, 'postgres'))).toBeUndefined();
}

describe('embedded PostgreSQL ownership', () => {
  it('an admin CLI command against a cluster adopted after kill -9 leaves it running for the server', async () => {
    const dataDir = await freshDataDir('adopted');
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' };

    const crashed = startServer(env);
    await waitForHealthy(crashed, port, 120_000);
    crashed.child.kill('SIGKILL');
    await exitOf(crashed.child);

    const restarted = startServer(env);
    try {
      await waitForHealthy(restarted, port, 120_000);
      expect(restarted.output()).toContain('adopted an embedded PostgreSQL left running by a crashed process');

      // Each CLI run opens the cluster and leaves it again; the server must keep its database.
      const { apiKey, organizationId } = await createKey(dataDir);
      const listed = await runAdmin(['list-keys', '--org', organizationId, '--json'], { DATA_DIR: dataDir });
      expect(listed.code, listed.stderr).toBe(0);
      await expectServing(port, apiKey);
    } finally {
      restarted.child.kill('SIGTERM');
    }
    expect(await exitOf(restarted.child)).toBe(0);
    await expectStopped(dataDir);
  }, 180_000);

  it('the process that started the cluster leaves while a server that attached later still uses it', async () => {
    const dataDir = await freshDataDir('handover');
    const port = await freePort();
    // This test process plays the admin CLI in the middle of a long command: it starts the cluster.
    const first = await openEmbeddedPostgres({ dataDir, logger: createLogger('silent') });
    const server = startServer({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' });
    try {
      await waitForHealthy(server, port, 60_000);
      expect(server.output()).toContain('attached to the running embedded PostgreSQL');
      const { apiKey } = await createKey(dataDir);

      await first.stop();
      await expectServing(port, apiKey);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await exitOf(server.child)).toBe(0);
    await expectStopped(dataDir);
  }, 120_000);

  it('--role=worker starts the cluster, --role=api attaches; the worker stops first and the API keeps working', async () => {
    const dataDir = await freshDataDir('roles');
    const port = await freePort();
    const worker = startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }, ['--role=worker']);
    let api: ReturnType<typeof startServer> | undefined;
    try {
      await waitFor(
        async () => (worker.output().includes('worker started') ? true : undefined),
        60_000,
        () => worker.output(),
      );
      api = startServer({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' }, ['--role=api']);
      await waitForHealthy(api!, port, 60_000);
      const { apiKey } = await createKey(dataDir);

      worker.child.kill('SIGTERM');
      expect(await exitOf(worker.child)).toBe(0);
      await expectServing(port, apiKey);
      expect(worker.output()).toContain('left the embedded PostgreSQL running for the other processes using it');
    } finally {
      worker.child.kill('SIGTERM');
      api?.child.kill('SIGTERM');
    }
    expect(await exitOf(api!.child)).toBe(0);
    await expectStopped(dataDir);
  }, 120_000);

  it('concurrent opens start one postmaster; it runs until the last holder leaves', async () => {
    const dataDir = await freshDataDir('race');
    const lines: string[] = [];
    const logger = createLogger('info', new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }));
    const handles = await Promise.all([1, 2, 3, 4].map(() => openEmbeddedPostgres({ dataDir, logger })));

    expect(lines.filter((line) => line.includes('"embedded PostgreSQL started"'))).toHaveLength(1);
    expect(new Set(handles.map((handle) => handle.url)).size).toBe(1);
    const record = JSON.parse(await readFile(path.join(dataDir, 'postgres.holders.json'), 'utf8')) as { holders: unknown[] };
    expect(record.holders).toHaveLength(4);

    const last = handles.pop()!;
    for (const handle of handles) {
      await handle.stop();
      expect(await canQuery(last.url)).toBe(true);
    }
    await last.stop();
    await expectStopped(dataDir);
  }, 60_000);

  it('a lock and holders left by dead processes (or by a pid now used by another process) are recovered', async () => {
    const dataDir = await freshDataDir('stale');
    // Our own pid with another start time: what a recycled pid looks like.
    const ghost = { pid: process.pid, startTime: 'not-our-start-time' };
    await writeFile(path.join(dataDir, 'postgres.lock'), JSON.stringify({ ...ghost, token: 'stale-lock' }));
    await writeFile(path.join(dataDir, 'postgres.holders.json'), JSON.stringify({ holders: [{ ...ghost, token: 'ghost' }] }));

    const opened = await openEmbeddedPostgres({ dataDir, logger: createLogger('silent') });
    expect(await canQuery(opened.url)).toBe(true);
    await opened.stop();
    // The ghost holder did not keep the cluster running.
    await expectStopped(dataDir);
  }, 60_000);
});

/** After a crash of the postmaster, the server must answer 200 again within this (first retry after 0.5 s, then crash recovery). */
const RECOVERY_BOUND_MS = 30_000;

/** Pino's JSON lines of a process's output, those that parse. */
function logLines(output: string): Record<string, any>[] {
  return output.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, any>];
    } catch {
      return [];
    }
  });
}

describe('a crashed embedded PostgreSQL', () => {
  it('is restarted by the server that holds it, on the recorded port: 503 while it is down, then 200 again and the worker runs jobs, without any manual action', async () => {
    const dataDir = await freshDataDir('crash-restart');
    const clusterDir = path.join(dataDir, 'postgres');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = startServer({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, LOG_LEVEL: 'info' });
    try {
      await waitForHealthy(server, port, 120_000);
      const { apiKey } = await createKey(dataDir);
      await expectServing(port, apiKey);
      const api = (method: string, urlPath: string, body?: unknown) =>
        fetch(`${base}${urlPath}`, {
          method,
          headers: { Authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(20_000),
        });
      const script = await api('POST', '/v1/scripts', { name: 'Crash script', systemPrompt: 'You are a friendly researcher.', questions: ONE_QUESTION });
      expect(script.status, await script.clone().text()).toBe(201);
      const scriptId = ((await script.json()) as { id: string }).id;
      expect((await api('POST', `/v1/scripts/${scriptId}/publish`)).status).toBe(200);
      const campaign = await api('POST', '/v1/campaigns', { name: 'Crash campaign', scriptId });
      expect(campaign.status).toBe(201);
      const campaignId = ((await campaign.json()) as { id: string }).id;

      const recordedPort = (JSON.parse(await readFile(path.join(dataDir, 'postgres.json'), 'utf8')) as { port: number }).port;
      const crashed = await runningPostmaster(clusterDir);
      expect(crashed?.port).toBe(recordedPort);
      process.kill(crashed!.pid, 'SIGKILL');
      const killedAt = performance.now();

      // Health and an API read, polled side by side until both answer 200 again.
      const seen: { what: string; status: number | undefined; code?: string; retryAfter: string | null; at: number }[] = [];
      const poll = async (what: string, urlPath: string, headers: Record<string, string>) => {
        for (;;) {
          let status: number | undefined;
          let code: string | undefined;
          let retryAfter: string | null = null;
          try {
            const response = await fetch(`${base}${urlPath}`, { headers, signal: AbortSignal.timeout(15_000) });
            status = response.status;
            retryAfter = response.headers.get('retry-after');
            code = ((await response.json().catch(() => undefined)) as { error?: { code?: string } } | undefined)?.error?.code;
          } catch {
            status = undefined;
          }
          seen.push({ what, status, code, retryAfter, at: performance.now() - killedAt });
          const recovered = seen.some((e) => e.what === what && e.status === 503) && status === 200;
          if (recovered || performance.now() - killedAt > RECOVERY_BOUND_MS) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      await Promise.all([poll('health', '/healthz', {}), poll('api', '/v1/campaigns?limit=1', { Authorization: `Bearer ${apiKey}` })]);
      console.log(`answering 200 again ${Math.round(performance.now() - killedAt)} ms after kill -9 of the postmaster`);
      const summary = () =>
        `${JSON.stringify(seen.filter((e, index) => index === 0 || e.status !== seen[index - 1]!.status))}\n${server.output().slice(-6000)}`;

      // Down: the envelope's 503 with Retry-After, never a 500 or a dropped connection.
      for (const what of ['health', 'api']) {
        const down = seen.filter((e) => e.what === what && e.status !== 200);
        expect(down.length, `${what} answered 503 while PostgreSQL was down: ${summary()}`).toBeGreaterThan(0);
        for (const e of down)
          expect({ status: e.status, code: e.code, retryAfter: e.retryAfter }, summary()).toEqual({
            status: 503,
            code: 'SERVICE_UNAVAILABLE',
            retryAfter: '5',
          });
      }
      // Up again by itself, within the bound, in the same process.
      for (const what of ['health', 'api']) expect(seen.filter((e) => e.what === what).at(-1)?.status, `${what} answered 200 again: ${summary()}`).toBe(200);
      expect(server.child.exitCode).toBeNull();
      await expectServing(port, apiKey);

      // The restart is logged at warn with its reason; the new postmaster runs on the recorded port.
      const restartLines = logLines(server.output()).filter((line) => line.msg === 'restarting the embedded PostgreSQL');
      expect(restartLines.length, server.output()).toBeGreaterThan(0);
      expect(restartLines[0]).toMatchObject({ level: 40, attempt: 1, reason: expect.stringMatching(/SIGKILL|gone|not running/) });
      const restarted = await runningPostmaster(clusterDir);
      expect(restarted?.pid).not.toBe(crashed!.pid);
      expect(restarted?.port).toBe(recordedPort);
      expect((JSON.parse(await readFile(path.join(dataDir, 'postgres.json'), 'utf8')) as { port: number }).port).toBe(recordedPort);

      // The admin CLI attaches to it (the server is still recorded as holding it) and leaves it running for the server.
      const listed = await runAdmin(['create-key', '--name', 'after crash', '--permissions', 'all', '--json'], { DATA_DIR: dataDir, LOG_LEVEL: 'info' });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout + listed.stderr).not.toContain('adopted');
      await expectServing(port, apiKey);

      // The worker runs jobs again: an invitation made after the crash is sent.
      const invite = await api('POST', `/v1/campaigns/${campaignId}/invites`, { email: 'after-crash@example.com' });
      expect(invite.status, await invite.clone().text()).toBe(201);
      await waitFor(
        async () => ((await readdir(path.join(dataDir, 'outbox')).catch(() => [])).some((file) => file.endsWith('.eml')) ? true : undefined),
        30_000,
        () => `no invitation email in ${dataDir}/outbox:\n${server.output().slice(-4000)}`,
      );

      // Shutting down: a postmaster that dies now is not restarted, and the server still stops.
      server.child.kill('SIGTERM');
      await waitFor(async () => (server.output().includes('"msg":"shutting down"') ? true : undefined), 10_000, server.output);
      const during = await runningPostmaster(clusterDir);
      if (during) process.kill(during.pid, 'SIGKILL');
      await exitOf(server.child);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const afterShutdown = server.output().slice(server.output().indexOf('"msg":"shutting down"'));
      expect(afterShutdown).not.toContain('restarting the embedded PostgreSQL');
      await expectStopped(dataDir);
    } finally {
      await killLeftovers([server.child]);
    }
    // Measured here: 40-60 s (most of it the server's first start and two admin CLI runs).
  }, 200_000);

  it('held by two roles, it is restarted once, under the lock, and both keep working', async () => {
    const dataDir = await freshDataDir('crash-roles');
    const clusterDir = path.join(dataDir, 'postgres');
    const apiPort = await freePort();
    const metricsPort = await freePort();
    // The worker starts the cluster; the API attaches to it, so only the worker has the postmaster as its child.
    const worker = startServer({ DATA_DIR: dataDir, WORKER_METRICS_PORT: String(metricsPort), LOG_LEVEL: 'info' }, ['--role=worker']);
    let api: ReturnType<typeof startServer> | undefined;
    try {
      await waitForHealthy(worker, metricsPort, 120_000);
      api = startServer({ DATA_DIR: dataDir, PORT: String(apiPort), LOG_LEVEL: 'info' }, ['--role=api']);
      await waitForHealthy(api, apiPort, 120_000);
      expect(api.output()).toContain('attached to the running embedded PostgreSQL');

      const crashed = await runningPostmaster(clusterDir);
      process.kill(crashed!.pid, 'SIGKILL');
      await waitFor(async () => ((await fetch(`http://127.0.0.1:${apiPort}/healthz`)).status === 503 ? true : undefined), 10_000, api.output);
      await waitForHealthy(api, apiPort, RECOVERY_BOUND_MS);
      await waitForHealthy(worker, metricsPort, RECOVERY_BOUND_MS);
      // The other one may notice only after the restart, or wait for the lock and find it running: never a second postmaster.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const restarts = [worker, api].flatMap((role) => logLines(role.output()).filter((line) => line.msg === 'embedded PostgreSQL restarted'));
      expect(restarts, `${worker.output()}\n${api.output()}`).toHaveLength(1);
      expect((await runningPostmaster(clusterDir))?.port).toBe(crashed!.port);
      expect((await fetch(`http://127.0.0.1:${apiPort}/healthz`)).status).toBe(200);

      for (const role of [worker, api]) role.child.kill('SIGTERM');
      for (const role of [worker, api]) expect(await exitOf(role.child), role.output()).toBe(0);
      await expectStopped(dataDir);
    } finally {
      await killLeftovers([worker.child, ...(api ? [api.child] : [])]);
    }
  }, 200_000);
});

describe('restarting the embedded PostgreSQL', () => {
  it('backs off exponentially up to the cap, logs each attempt at warn with its reason, starts afresh after a healthy period, and stops when told', async () => {
    const lines: Record<string, any>[] = [];
    const logger = createLogger('info', new Writable({ write: (chunk, _encoding, done) => (lines.push(JSON.parse(String(chunk))), done()) }));
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const children: EventEmitter[] = [];
    const spawned = () => {
      const child = Object.assign(new EventEmitter(), { pid: 10_000 + children.length });
      children.push(child);
      return child as unknown as ChildProcess;
    };
    let failuresLeft = 0;
    const restart = async () => {
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error('could not bind IPv4 address "127.0.0.1": Address already in use');
      }
      return spawned();
    };
    const attempts = () => lines.filter((line) => line.msg === 'restarting the embedded PostgreSQL');
    const restarts = () => lines.filter((line) => line.msg === 'embedded PostgreSQL restarted');
    // The postmaster's exit drives it here; the periodic check of postmaster.pid is left out (there is none).
    const supervisor = superviseEmbeddedPostgres({
      clusterDir: path.join(await freshDataDir('supervisor'), 'postgres'),
      logger,
      restart,
      child: spawned(),
      timing: { firstDelayMs: 40, maxDelayMs: 200, healthyPeriodMs: 1500, checkIntervalMs: 3_600_000 },
    });
    try {
      failuresLeft = 4;
      children[0]!.emit('exit', null, 'SIGSEGV');
      await waitFor(
        async () => (restarts().length === 1 ? true : undefined),
        5000,
        () => JSON.stringify(lines),
      );
      expect(attempts().map((line) => [line.level, line.attempt, line.inMs])).toEqual([
        [40, 1, 40],
        [40, 2, 80],
        [40, 3, 160],
        [40, 4, 200],
        [40, 5, 200],
      ]);
      expect(attempts()[0]!.reason).toBe('the postmaster (pid 10000) exited (SIGSEGV)');
      expect(attempts()[1]!.reason).toMatch(/Address already in use/);
      expect(restarts()[0]).toMatchObject({ level: 40, attempt: 5, pid: 10_001 });

      // It dies again soon after: the backoff goes on where it was.
      children[1]!.emit('exit', null, 'SIGKILL');
      await waitFor(
        async () => (restarts().length === 2 ? true : undefined),
        5000,
        () => JSON.stringify(lines),
      );
      expect(attempts().at(-1)).toMatchObject({ attempt: 6, inMs: 200, reason: 'the postmaster (pid 10001) exited (SIGKILL)' });

      // Up for longer than the healthy period: the next crash starts again from the first delay.
      await sleep(1700);
      children[2]!.emit('exit', 1, null);
      await waitFor(
        async () => (restarts().length === 3 ? true : undefined),
        5000,
        () => JSON.stringify(lines),
      );
      expect(attempts().at(-1)).toMatchObject({ attempt: 1, inMs: 40, reason: 'the postmaster (pid 10002) exited (code 1)' });
    } finally {
      supervisor.stop();
    }
    // Stopped (the server is shutting down): a death is no longer repaired.
    const before = lines.length;
    children[3]!.emit('exit', 0, null);
    await sleep(300);
    expect(lines.slice(before)).toEqual([]);
  }, 30_000);
});

describe('a failure to start the embedded PostgreSQL', () => {
  it('ends the start with one line naming the busy port and the fix, exit code 1; the admin CLI says the same in JSON', async () => {
    const dataDir = await freshDataDir('busy-port');
    const busyPort = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(busyPort, '127.0.0.1', resolve));
    try {
      const env = { DATA_DIR: dataDir, PORT: String(await freePort()), EMBEDDED_POSTGRES_PORT: String(busyPort) };
      const server = startServer(env);
      let stderr = '';
      server.child.stderr!.on('data', (chunk) => (stderr += chunk));
      expect(await exitOf(server.child)).toBe(1);
      const lines = stderr.trim().split('\n');
      expect(lines, server.output()).toHaveLength(1);
      expect(lines[0]).toContain(`port ${busyPort} is already in use`);
      expect(lines[0]).toMatch(/EMBEDDED_POSTGRES_PORT/);
      expect(lines[0]).toMatch(/DATABASE_URL/);
      expect(server.output()).not.toMatch(/^\s+at /m);

      const cli = await runAdmin(['list-keys', '--org', 'org_x', '--json'], env);
      expect(cli.code).toBe(1);
      expect(cli.stderr.trim().split('\n')).toHaveLength(1);
      const { error } = lastJsonLine(cli.stdout) as { error: { code: string; message: string } };
      expect(error.code).toBe('DATABASE_UNAVAILABLE');
      expect(error.message).toContain(`port ${busyPort} is already in use`);
    } finally {
      blocker.close();
    }
    await expectStopped(dataDir);
  }, 120_000);
});

describe('an initialised cluster is never deleted', () => {
  it('without its credentials file the start fails with one line naming both, and the data stays', async () => {
    const dataDir = await freshDataDir('lost-credentials');
    const logger = createLogger('silent');
    const cluster = await openEmbeddedPostgres({ dataDir, logger });
    await cluster.stop();
    await rm(path.join(dataDir, 'postgres.json'));
    const clusterDir = path.join(dataDir, 'postgres');
    await expect(openEmbeddedPostgres({ dataDir, logger })).rejects.toThrow(/postgres\.json is missing or unreadable, but .* holds an initialised cluster/);
    expect(await readFile(path.join(clusterDir, 'PG_VERSION'), 'utf8')).toMatch(/^\d+/);
  }, 60_000);
});
