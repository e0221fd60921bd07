import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitWithin, freePort, ROOT, waitFor } from '../helpers/processes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

/**
 * `npm run build` then `npm run start:prod`: the bundled server (dist/main.js) finds what it reads
 * beside the sources at run time (the browser code in web/, the OpenAPI examples) and serves.
 */
let database: TestDatabase;
let dataDir: string;
const outdir = path.join(ROOT, 'dist');

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(command, args, { cwd: ROOT, env });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'production-build-'));
});
afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the production build', () => {
  it('builds, starts from dist/ and serves the API, the SDK, the interview page and the OpenAPI examples', async () => {
    const build = run(process.execPath, ['build.mjs']);
    await exitWithin(build, 60_000);
    expect(build.child.exitCode, build.output()).toBe(0);

    const port = await freePort();
    // From another directory, as a service manager would start it.
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
    delete env.VITEST;
    delete env.NODE_OPTIONS;
    const server = spawn(process.execPath, [path.join(outdir, 'main.js')], { cwd: tmpdir(), env });
    let output = '';
    server.stderr.on('data', (chunk) => (output += chunk));
    server.stdout.on('data', (chunk) => (output += chunk));
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitFor(
        async () => ((await fetch(`${base}/healthz`)).status === 200 ? true : undefined),
        60_000,
        () => `dist/main.js never became healthy:\n${output}`,
      );
      expect((await fetch(`${base}/sdk/latest/interview-sdk.js`)).status).toBe(200);
      const page = await fetch(`${base}/embed?invite=inv_unknown`);
      expect(page.status).toBe(404);
      const assets = [...(await page.text()).matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
      expect(assets).toHaveLength(2);
      for (const asset of assets) expect((await fetch(`${base}${asset}`)).status).toBe(200);
      const document = (await (await fetch(`${base}/v1/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>>;
      };
      expect(document.paths['/v1/projects']!.get!.responses['200']!.content!['application/json']!.example).toBeDefined();
    } finally {
      server.kill('SIGTERM');
      await exitWithin({ child: server, output: () => output }, 30_000);
    }
  }, 120_000);
});
