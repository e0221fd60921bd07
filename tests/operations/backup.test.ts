import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, readdir, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { crontabFor } from '../../worker/worker.js';
import {
  childEnv,
  exitOf,
  freePort,
  killLeftovers,
  lastJsonLine,
  nodeArgs,
  ROOT,
  runAdmin,
  startServer,
  waitFor,
  waitForHealthy,
} from '../helpers/processes.js';
import { PNG } from '../helpers/images.js';

/**
 * Backups of the embedded default, end to end with real processes: `npm start` on a DATA_DIR,
 * `admin backup` while requests write, `admin backup --verify`, `admin restore` into a new
 * DATA_DIR and the service started on it; the scheduled backup through the worker.
 *
 * Each admin CLI run is a process of its own (about 10 s on a busy 2-core machine): every test
 * gets a timeout of about three times what it takes there, so that it holds on a machine half as
 * fast, never the 30 s default.
 */

const dirs: string[] = [];

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Rewrites a backup archive entry by entry (a sound gzip and tar with other content), optionally adding entries. */
async function repack(
  from: string,
  to: string,
  change: (name: string, content: Buffer) => Buffer,
  extra: { name: string; content: Buffer }[] = [],
): Promise<void> {
  const extract = tar.extract();
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), createWriteStream(to));
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
    stream.on('end', () => {
      if (header.type === 'directory') pack.entry({ ...header }, () => next());
      else {
        const content = change(header.name, Buffer.concat(chunks));
        pack.entry({ ...header, size: content.length }, content, () => next());
      }
    });
  });
  await pipeline(createReadStream(from), createGunzip(), extract);
  for (const entry of extra) await new Promise<void>((resolve) => pack.entry({ name: entry.name, mode: 0o600 }, entry.content, () => resolve()));
  pack.finalize();
  await written;
}
const servers: ReturnType<typeof startServer>[] = [];

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function startService(env: Record<string, string>): Promise<{ server: ReturnType<typeof startServer>; base: string }> {
  const port = await freePort();
  const server = startServer({ PORT: String(port), LOG_LEVEL: 'info', ...env });
  servers.push(server);
  await waitForHealthy(server, port, 90_000);
  return { server, base: `http://127.0.0.1:${port}` };
}

async function stopService(server: ReturnType<typeof startServer>): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await exitOf(server.child)).toBe(0);
}

function client(base: string, apiKey: string) {
  const headers = { Authorization: `Bearer ${apiKey}` };
  return {
    async post(pathname: string, body: unknown) {
      const response = await fetch(`${base}${pathname}`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    },
    async get(pathname: string) {
      const response = await fetch(`${base}${pathname}`, { headers });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    },
    async upload(pathname: string, file: Buffer, filename: string) {
      const form = new FormData();
      form.append('file', new Blob([file]), filename);
      const response = await fetch(`${base}${pathname}`, { method: 'POST', headers, body: form });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    },
  };
}

async function filesUnder(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string) => {
    for (const entry of await readdir(path.join(root, relative), { withFileTypes: true }).catch(() => [])) {
      const inner = path.join(relative, entry.name);
      if (entry.isDirectory()) await walk(inner);
      else found.push(inner);
    }
  };
  await walk('');
  return found.sort();
}

afterAll(async () => {
  await killLeftovers(servers.map((server) => server.child));
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('admin backup and restore on the embedded default', () => {
  let dataDir: string;
  let backupDir: string;
  let service: Awaited<ReturnType<typeof startService>>;
  let apiKey: string;

  beforeAll(async () => {
    dataDir = await tempDir('interview-backup-data-');
    backupDir = await tempDir('interview-backup-out-');
    // A schedule that never comes round in a test: the scheduled backup is run by adding its job.
    service = await startService({ DATA_DIR: dataDir, BACKUP_CRON: '0 0 1 1 *', BACKUP_DIR: path.join(backupDir, 'scheduled'), BACKUP_KEEP: '2' });
    // Enterprise with a high limit: the writers below must not be rate limited.
    const org = await runAdmin(['create-org', '--name', 'Backups', '--plan', 'enterprise', '--json'], { DATA_DIR: dataDir });
    const { organizationId } = lastJsonLine(org.stdout);
    expect((await runAdmin(['set-plan', '--org', organizationId, '--plan', 'enterprise', '--rate-limit', '10000'], { DATA_DIR: dataDir })).code).toBe(0);
    const created = await runAdmin(['create-key', '--org', organizationId, '--name', 'backup test', '--permissions', 'all', '--json'], { DATA_DIR: dataDir });
    expect(created.code, created.stderr).toBe(0);
    apiKey = lastJsonLine(created.stdout).apiKey;
  }, 300_000);

  it('a backup taken while requests write, restored into a new DATA_DIR, holds every row committed before it started and its files, and the service starts on it', async () => {
    const api = client(service.base, apiKey);
    const script = await api.post('/v1/scripts', {
      name: 'Backup script',
      systemPrompt: 'You interview customers about onboarding.',
      questions: [{ id: 'q1', text: 'How was your first week?', type: 'open' }],
    });
    expect(script.status).toBe(201);
    const media = await api.upload(`/v1/scripts/${script.body.id}/media`, PNG, 'welcome.png');
    expect(media.status).toBe(201);

    // Writers create projects throughout; each id is noted with when its 201 arrived.
    const written: { id: string; at: number }[] = [];
    const failures: number[] = [];
    let writing = true;
    const writer = async (n: number) => {
      for (let i = 0; writing; i += 1) {
        const created = await api.post('/v1/projects', { name: `writer ${n} project ${i}` });
        if (created.status === 201) written.push({ id: created.body.id, at: Date.now() });
        else failures.push(created.status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    // And script media uploaded and deleted throughout: a deleted file's record the backup keeps
    // must keep its file (the file-deletion lock), which restore checks for every stored file.
    const churn = async () => {
      while (writing) {
        const uploaded = await api.upload(`/v1/scripts/${script.body.id}/media`, PNG, 'churn.png');
        if (uploaded.status !== 201) failures.push(uploaded.status);
        else {
          const deleted = await fetch(`${service.base}/v1/scripts/${script.body.id}/media/${uploaded.body.id}`, {
            method: 'DELETE',
            headers: { Authorization: `Bearer ${apiKey}` },
          });
          if (deleted.status !== 204) failures.push(deleted.status);
        }
      }
    };
    const writers = [writer(1), writer(2), churn()];
    await waitFor(
      async () => (written.length >= 20 ? true : undefined),
      30_000,
      () => 'writers made no projects',
    );

    const out = path.join(backupDir, 'manual.tar.gz');
    const backupStarted = Date.now();
    const backup = await runAdmin(['backup', '--out', out, '--json'], { DATA_DIR: dataDir });
    const backupEnded = Date.now();
    writing = false;
    await Promise.all(writers);
    expect(backup.code, backup.stderr).toBe(0);
    // The service kept answering: writes went on during the backup, none failed.
    expect(failures).toEqual([]);
    const summary = lastJsonLine(backup.stdout);
    // Writes were answered while the backup itself ran (from its start to its manifest), not just while the CLI started.
    expect(written.filter((row) => row.at > Date.parse(summary.startedAt) && row.at < Date.parse(summary.finishedAt)).length).toBeGreaterThan(0);
    expect(backupEnded).toBeGreaterThan(Date.parse(summary.finishedAt));
    expect(summary).toMatchObject({ file: out, size: expect.any(Number), tables: expect.any(Number), rows: expect.any(Number), files: expect.any(Number) });
    expect(summary.files).toBeGreaterThanOrEqual(1);
    // Nothing of the backup's work is left in DATA_DIR.
    expect((await readdir(dataDir)).filter((name) => name.startsWith('.backup-staging'))).toEqual([]);
    expect(summary.size).toBeGreaterThan(0);
    const committedBefore = written.filter((row) => row.at < backupStarted);

    const verified = await runAdmin(['backup', '--verify', out, '--json'], {});
    expect(verified.code, verified.stderr).toBe(0);
    expect(lastJsonLine(verified.stdout)).toMatchObject({ verified: true, rows: summary.rows, tables: summary.tables, pendingMigrations: [], missingFiles: 0 });

    // An empty directory of its own (not a subfolder of a 0700 one), so its cluster lives inside it.
    const restoredDir = await tempDir('interview-restore-');
    const restored = await runAdmin(['restore', '--from', out, '--json'], { DATA_DIR: restoredDir });
    expect(restored.code, restored.stderr).toBe(0);
    expect(lastJsonLine(restored.stdout)).toMatchObject({ restored: true, rows: summary.rows, files: summary.files, missingFiles: 0 });
    // The files of the restored media records are there, byte for byte.
    const restoredFiles = await filesUnder(path.join(restoredDir, 'files'));
    expect(restoredFiles.length).toBe(summary.files);
    expect(JSON.parse(await readFile(path.join(restoredDir, 'postgres.json'), 'utf8')).clusterDir).toBe(path.join(restoredDir, 'postgres'));

    // Another machine, so to speak: the original stops, the restored DATA_DIR serves.
    await stopService(service.server);
    const second = await startService({ DATA_DIR: restoredDir });
    const restoredApi = client(second.base, apiKey);
    const ids = new Set<string>();
    let cursor = 0;
    for (;;) {
      const page = await restoredApi.get(`/v1/projects?limit=100&offset=${cursor}`);
      expect(page.status).toBe(200);
      for (const project of page.body.data as { id: string }[]) ids.add(project.id);
      cursor += 100;
      if (cursor >= page.body.pagination.total) break;
    }
    expect(committedBefore.length).toBeGreaterThan(0);
    expect(committedBefore.filter((row) => !ids.has(row.id))).toEqual([]);
    // Nothing appears that was never written.
    const everWritten = new Set(written.map((row) => row.id));
    expect([...ids].filter((id) => !everWritten.has(id))).toEqual([]);
    // The signed link of the uploaded image works on the restored service: its signing secret and file came back.
    const image = await fetch(`${second.base}${new URL(media.body.url).pathname}`);
    expect(image.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await image.arrayBuffer()), PNG)).toBe(0);
    await stopService(second.server);
    service = await startService({ DATA_DIR: dataDir, BACKUP_CRON: '0 0 1 1 *', BACKUP_DIR: path.join(backupDir, 'scheduled'), BACKUP_KEEP: '2' });
  }, 360_000);

  it('the scheduled backup runs in the worker: a checked archive in BACKUP_DIR, the oldest beyond BACKUP_KEEP deleted (other files kept), its outcome in /metrics', async () => {
    const scheduledDir = path.join(backupDir, 'scheduled');
    await mkdir(scheduledDir, { recursive: true });
    const old = ['interview-backup-20200101T000000Z.tar.gz', 'interview-backup-20200102T000000Z.tar.gz'];
    for (const name of old) await writeFile(path.join(scheduledDir, name), 'old');
    await writeFile(path.join(scheduledDir, 'notes.txt'), 'not a backup');

    const credentials = JSON.parse(await readFile(path.join(dataDir, 'postgres.json'), 'utf8')) as {
      user: string;
      password: string;
      port: number;
      database: string;
    };
    const db = new pg.Client({ host: '127.0.0.1', ...credentials });
    await db.connect();
    try {
      await db.query(`select graphile_worker.add_job('maintenance__backup', '{}'::json)`);
    } finally {
      await db.end();
    }
    const made = await waitFor(
      async () => (await readdir(scheduledDir)).find((name) => /^interview-backup-\d{8}T\d{6}Z\.tar\.gz$/.test(name) && !old.includes(name)),
      120_000,
      () => `no scheduled backup appeared:\n${service.server.output().slice(-3000)}`,
    );
    // The archive is renamed into place whole; pruning follows at once.
    await waitFor(
      async () => ((await readdir(scheduledDir)).includes(old[0]!) ? undefined : true),
      10_000,
      () => 'the oldest backup was not pruned',
    );
    expect((await readdir(scheduledDir)).sort()).toEqual([old[1], made, 'notes.txt'].sort());

    const verified = await runAdmin(['backup', '--verify', path.join(scheduledDir, made), '--json'], {});
    expect(verified.code, verified.stderr).toBe(0);

    const metrics = await (await fetch(`${service.base}/metrics`)).text();
    expect(metrics).toMatch(/^backups_total\{outcome="success"\} 1$/m);
    const lastSuccess = Number(/^backup_last_success_timestamp_seconds (\S+)$/m.exec(metrics)?.[1]);
    expect(Math.abs(lastSuccess - Date.now() / 1000)).toBeLessThan(120);
    expect(Number(/^backup_last_size_bytes (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    expect(service.server.output()).toContain('scheduled backup written');
  }, 180_000);

  it('restore refuses a DATA_DIR that is not empty and leaves it as it was', async () => {
    const occupied = await tempDir('interview-occupied-');
    await writeFile(path.join(occupied, 'keep.txt'), 'mine');
    const archive = path.join(backupDir, 'manual.tar.gz');
    const result = await runAdmin(['restore', '--from', archive, '--json'], { DATA_DIR: occupied });
    expect(result.code).toBe(1);
    expect(lastJsonLine(result.stdout).error).toEqual({
      code: 'DATA_DIR_NOT_EMPTY',
      message: `${occupied} is not empty: restore into an empty or new DATA_DIR`,
    });
    expect(await readdir(occupied)).toEqual(['keep.txt']);
  }, 60_000);

  it('a damaged archive fails --verify with a clear message, as does one cut short; a failed restore leaves nothing behind', async () => {
    const archive = await readFile(path.join(backupDir, 'manual.tar.gz'));
    const damaged = Buffer.from(archive);
    damaged.fill(0x5a, Math.floor(damaged.length / 2), Math.floor(damaged.length / 2) + 64);
    const damagedFile = path.join(backupDir, 'damaged.tar.gz');
    await writeFile(damagedFile, damaged);
    const verifyDamaged = await runAdmin(['backup', '--verify', damagedFile, '--json'], {});
    expect(verifyDamaged.code, verifyDamaged.stderr).toBe(1);
    expect(lastJsonLine(verifyDamaged.stdout).error).toEqual({ code: 'BACKUP_INVALID', message: expect.stringMatching(/^the archive is damaged: /) });

    const cutFile = path.join(backupDir, 'cut.tar.gz');
    await writeFile(cutFile, archive.subarray(0, Math.floor(archive.length * 0.8)));
    const verifyCut = await runAdmin(['backup', '--verify', cutFile, '--json'], {});
    expect(verifyCut.code, verifyCut.stderr).toBe(1);
    expect(verifyCut.stdout, verifyCut.stderr).not.toBe('');
    expect(lastJsonLine(verifyCut.stdout).error).toEqual({ code: 'BACKUP_INVALID', message: expect.stringMatching(/^the archive is cut short/) });

    const target = await tempDir('interview-failed-restore-');
    const restore = await runAdmin(['restore', '--from', damagedFile, '--json'], { DATA_DIR: target });
    expect(restore.code).toBe(1);
    expect(lastJsonLine(restore.stdout).error.code).toBe('BACKUP_INVALID');
    expect(await readdir(target)).toEqual([]);
  }, 180_000);

  it('an archive whose gzip is sound but whose content was changed, or that brings a recovery.signal, is refused', async () => {
    const archive = path.join(backupDir, 'manual.tar.gz');
    const changed = path.join(backupDir, 'changed.tar.gz');
    await repack(archive, changed, (name, content) => (name.startsWith('files/') ? Buffer.concat([content, Buffer.from('x')]) : content));
    const verifyChanged = await runAdmin(['backup', '--verify', changed, '--json'], {});
    expect(verifyChanged.code, verifyChanged.stderr).toBe(1);
    expect(lastJsonLine(verifyChanged.stdout).error).toEqual({
      code: 'BACKUP_INVALID',
      message: expect.stringMatching(/^the archive does not match its manifest: files\/.+ has changed \(checksum\)/),
    });

    const signalled = path.join(backupDir, 'signalled.tar.gz');
    await repack(archive, signalled, (_name, content) => content, [{ name: 'postgres/recovery.signal', content: Buffer.alloc(0) }]);
    const verifySignalled = await runAdmin(['backup', '--verify', signalled, '--json'], {});
    expect(verifySignalled.code, verifySignalled.stderr).toBe(1);
    expect(lastJsonLine(verifySignalled.stdout).error).toEqual({
      code: 'BACKUP_INVALID',
      message: 'the archive holds postgres/recovery.signal, which no backup of this service has',
    });
  }, 150_000);

  it('a mistyped DATA_DIR is an error, and no cluster is made there', async () => {
    const typo = path.join(await tempDir('interview-typo-'), 'dtaa');
    const result = await runAdmin(['backup', '--out', path.join(backupDir, 'typo.tar.gz'), '--json'], { DATA_DIR: typo });
    expect(result.code).toBe(1);
    expect(lastJsonLine(result.stdout).error).toEqual({
      code: 'NOTHING_TO_BACK_UP',
      message: `${typo} holds no embedded database (no postgres.json and cluster): check DATA_DIR`,
    });
    expect(await readdir(typo).catch(() => 'absent')).toBe('absent');
  }, 60_000);

  it('a backup interrupted by Ctrl-C leaves no staging copy, partial archive or PostgreSQL behind', async () => {
    const out = path.join(backupDir, 'interrupted.tar.gz');
    const child = spawn('node', nodeArgs(ROOT, 'admin', ['backup', '--out', out]), { cwd: ROOT, env: childEnv({ DATA_DIR: dataDir }) });
    const staging = await waitFor(
      async () => (await readdir(dataDir)).find((name) => name.startsWith('.backup-staging-')),
      60_000,
      () => 'the backup never staged',
    );
    const clusterDir = path.join(dataDir, staging, 'postgres');
    // Interrupted while its temporary PostgreSQL replays the copy, the latest moment.
    await waitFor(
      async () => ((await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => '')) ? true : undefined),
      60_000,
      () => 'no temporary PostgreSQL',
    );
    const postmaster = Number((await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(130);
    expect((await readdir(dataDir)).filter((name) => name.startsWith('.backup-staging'))).toEqual([]);
    expect((await readdir(backupDir)).filter((name) => name.startsWith('interrupted'))).toEqual([]);
    await waitFor(
      async () => (isRunning(postmaster) ? undefined : true),
      15_000,
      () => `the temporary PostgreSQL (pid ${postmaster}) still runs`,
    );
  }, 120_000);

  it('backup --out will not overwrite a file', async () => {
    const existing = path.join(backupDir, 'exists.tar.gz');
    await writeFile(existing, 'precious');
    const result = await runAdmin(['backup', '--out', existing, '--json'], { DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(lastJsonLine(result.stdout).error).toEqual({ code: 'BACKUP_FAILED', message: `${existing} exists; backups never overwrite a file` });
    expect(await readFile(existing, 'utf8')).toBe('precious');
  }, 60_000);
});

describe('backups with DATABASE_URL and their configuration', () => {
  it('with DATABASE_URL set, backup and restore say how to back up that PostgreSQL instead of pretending', async () => {
    const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DATA_DIR: await tempDir('interview-external-') };
    for (const args of [
      ['backup', '--out', path.join(env.DATA_DIR, 'x.tar.gz')],
      ['restore', '--from', path.join(env.DATA_DIR, 'x.tar.gz')],
    ]) {
      const result = await runAdmin([...args, '--json'], env);
      expect(result.code).toBe(1);
      const { error } = lastJsonLine(result.stdout);
      expect(error.code).toBe('BACKUP_NOT_SUPPORTED');
      expect(error.message).toContain('pg_dump');
    }
  }, 90_000);

  it('BACKUP_CRON must be a 5-field schedule and needs the embedded database; BACKUP_DIR defaults under DATA_DIR; the crontab gains the backup', () => {
    expect(() => loadConfig({ BACKUP_CRON: 'every night' })).toThrow(ConfigError);
    expect(() => loadConfig({ BACKUP_CRON: '61 * * * *' })).toThrow(/BACKUP_CRON/);
    expect(() => loadConfig({ BACKUP_CRON: '15 3 * * *', DATABASE_URL: 'postgres://x@localhost/db' })).toThrow(/with DATABASE_URL/);
    const config = loadConfig({ BACKUP_CRON: '15 3 * * *', DATA_DIR: '/srv/interviews' });
    expect(config.backup).toEqual({ cron: '15 3 * * *', dir: '/srv/interviews/backups', keep: 7 });
    expect(crontabFor(config).split('\n')).toContain('15 3 * * * maintenance__backup ?max=1');
    expect(crontabFor(loadConfig({}))).not.toContain('maintenance__backup');
  });
});
