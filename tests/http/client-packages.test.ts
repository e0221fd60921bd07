import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRestClient } from '../../clients/rest/build.js';
import { buildTrpcClient } from '../../clients/trpc/build.js';
import { API_VERSION } from '../../shared/api-version.js';
import { ROOT } from '../helpers/processes.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * The two client packages as an integrator gets them: built, packed by `npm pack`, installed by
 * `npm install` into a new project outside this checkout (so nothing resolves from our
 * node_modules or sources), typechecked under a strict tsconfig without skipLibCheck, and the
 * REST one run against the service.
 */

const run = promisify(execFile);

/** The tsconfig a new Vite project has, made stricter (exactOptionalPropertyTypes) and without skipLibCheck. */
const STRICT: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  // Vite's libs, plus esnext.disposable: @trpc/server's own declarations name Disposable.
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts', 'lib.esnext.disposable.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  erasableSyntaxOnly: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  noFallthroughCasesInSwitch: true,
  skipLibCheck: false,
  types: [],
};

const REST_SAMPLE = `import {
  API_VERSION,
  createInterviewClient,
  type Schemas,
  type WebhookEnvelope,
  type WebhookEventType,
  type WebhookPayload,
} from '@interview-service/client';

export async function run(apiKey: string, baseUrl: string) {
  const client = createInterviewClient({ apiKey, baseUrl });
  const body = { name: 'From the package', description: 'Made by @interview-service/client' };
  const idempotency = { header: { 'Idempotency-Key': 'client-package-1' } };
  const created = await client.POST('/v1/projects', { body, params: idempotency });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  const project: Schemas['Project'] = created.data;
  const again = await client.POST('/v1/projects', { body, params: idempotency });
  const listed = await client.GET('/v1/projects', { params: { query: { limit: 10 } } });
  const missing = await client.GET('/v1/projects/{projectId}', { params: { path: { projectId: 'prj_doesNotExist0000000000' } } });
  const refused = await client.POST('/v1/projects', { body: { name: '' } });
  return {
    version: API_VERSION,
    projectId: project.id,
    replayedId: again.data?.id,
    replayed: again.response.headers.get('Idempotent-Replayed'),
    names: (listed.data?.data ?? []).map((item) => item.name),
    missing: { status: missing.response.status, code: missing.error?.error.code },
    refused: { status: refused.response.status, code: refused.error?.error.code, fields: refused.error?.error.details },
  };
}

/** A receiver: either design, narrowed by its shape. */
export function describeEvent(body: WebhookPayload): string {
  if ('type' in body) return body.type === 'interview.completed' ? 'B completed ' + body.data.session_id : 'B ' + body.type;
  return body.event === 'interview.completed' ? 'A completed ' + body.session_id : 'A ' + body.event;
}

export function startedAt(envelope: WebhookEnvelope<'session.started'>): string {
  return envelope.data.started_at;
}

export const subscribed: WebhookEventType[] = ['interview.completed', 'session.started', 'credits.low'];

// @ts-expect-error: not an event type
export const unknownType: WebhookEventType = 'interview.finished';

export function typed(apiKey: string) {
  const client = createInterviewClient({ apiKey, baseUrl: 'https://interviews.example.com' });
  // @ts-expect-error: a project's name is text
  void client.POST('/v1/projects', { body: { name: 42 } });
  // @ts-expect-error: no such path
  void client.GET('/v1/projectz');
}
`;

const TRPC_SAMPLE = `import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import type { AppRouter, RouterInputs, RouterOutputs } from '@interview-service/trpc-client';

const client = createTRPCClient<AppRouter>({
  links: [httpBatchLink({ url: '/trpc', headers: () => ({ Authorization: 'Bearer isk_live_x' }) })],
});

export async function newestProjects(): Promise<string[]> {
  const page: RouterOutputs['projects']['list'] = await client.projects.list.query({ limit: 10 });
  return page.data.map((project) => project.name + (page.pagination.nextCursor ?? ''));
}

export const draft: RouterInputs['projects']['create'] = { name: 'From the dashboard' };

export async function create(): Promise<string | undefined> {
  try {
    return (await client.projects.create.mutate(draft)).id;
  } catch (error) {
    if (error instanceof TRPCClientError) return String(error.data?.httpStatus);
    throw error;
  }
}

// @ts-expect-error: a name is text
export const wrong: RouterInputs['projects']['create'] = { name: 42 };
`;

let t: TestApp;
let tenant: TestTenant;
let server: Server;
let project: string;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.createTenant();
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  project = await mkdtemp(path.join(tmpdir(), 'interview-client-project-'));
});
afterAll(async () => {
  server?.close();
  await t?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

function typecheck(file: string): { diagnostics: string[]; files: string[]; ms: number } {
  const started = performance.now();
  const program = ts.createProgram([file], STRICT);
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').slice(0, 400)}`);
  return { diagnostics, files: program.getSourceFiles().map((source) => source.fileName), ms: Math.round(performance.now() - started) };
}

describe('the client packages, packed and installed into a new project', () => {
  it('install from their tarballs at the API version, typecheck strictly, and the REST client works against the service', async () => {
    await buildRestClient();
    await buildTrpcClient();
    for (const dir of ['rest', 'trpc']) {
      await run('npm', ['pack', '--silent', '--pack-destination', project], { cwd: path.join(ROOT, 'clients', dir) });
    }
    const tarballs = (await readdir(project)).filter((name) => name.endsWith('.tgz')).sort();
    expect(tarballs).toEqual([`interview-service-client-${API_VERSION}.tgz`, `interview-service-trpc-client-${API_VERSION}.tgz`]);

    await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'integration', private: true, type: 'module' }));
    // The packages' dependencies (openapi-fetch and its helpers) and the tRPC peers, packed from
    // this checkout's node_modules at the versions the packages name, so the install needs no
    // registry: --offline, with an empty cache of its own. TypeScript, the tRPC client's peer, is
    // this checkout's (the typecheck below runs it), hence --legacy-peer-deps.
    const dependencies = path.join(project, 'dependencies');
    await mkdir(dependencies);
    for (const name of ['openapi-fetch', 'openapi-typescript-helpers', '@trpc/client', '@trpc/server']) {
      await run('npm', ['pack', '--silent', '--pack-destination', dependencies, path.join(ROOT, 'node_modules', name)], { cwd: project });
    }
    const dependencyTarballs = (await readdir(dependencies)).map((name) => `./dependencies/${name}`);
    await run(
      'npm',
      [
        'install',
        '--offline',
        '--cache',
        path.join(project, '.npm-cache'),
        '--legacy-peer-deps',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        ...tarballs.map((name) => `./${name}`),
        ...dependencyTarballs,
      ],
      { cwd: project, timeout: 120_000 },
    );
    const installed = JSON.parse(await readFile(path.join(project, 'node_modules', '@interview-service', 'client', 'package.json'), 'utf8'));
    expect(installed.version).toBe(API_VERSION);
    const packedFiles = (await readdir(path.join(project, 'node_modules', '@interview-service', 'client'))).sort();
    expect(packedFiles).toEqual(['README.md', 'dist', 'openapi.json', 'package.json']);

    // The REST client: no diagnostic at all, and nothing read from this checkout.
    const restSample = path.join(project, 'rest-sample.ts');
    await writeFile(restSample, REST_SAMPLE);
    const rest = typecheck(restSample);
    expect(rest.diagnostics).toEqual([]);
    expect(rest.files.filter((file) => !file.startsWith(project) && !file.includes('/typescript/lib/'))).toEqual([]);
    console.log(`REST client package: the sample typechecks in ${rest.ms} ms (${rest.files.length} files, TypeScript's libs included)`);

    // The tRPC client: @trpc/client 11.22.1 types its WebSocket link with @trpc/server's Node
    // adapters, whose declarations import `http`, `http2` and `ws` (upstream, gone in 11.23).
    // Those lines are the only ones allowed.
    const trpcSample = path.join(project, 'trpc-sample.ts');
    await writeFile(trpcSample, TRPC_SAMPLE);
    const trpc = typecheck(trpcSample);
    const upstream = /\/node_modules\/@trpc\/server\/dist\/(index|ws)-[\w-]+\.d\.mts: Cannot find module '(http|http2|ws)'/;
    expect(trpc.diagnostics.filter((line) => !upstream.test(line))).toEqual([]);
    expect(trpc.diagnostics.length).toBeLessThanOrEqual(4);
    expect(trpc.files.filter((file) => !file.startsWith(project) && !file.includes('/typescript/lib/'))).toEqual([]);

    // Run as the integrator would: the sample compiled to JavaScript, in the new project, by Node.
    const javascript = ts.transpileModule(REST_SAMPLE, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    await writeFile(path.join(project, 'rest-sample.js'), javascript);
    const { port } = server.address() as AddressInfo;
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { run } = await import('./rest-sample.js'); console.log(JSON.stringify(await run(process.argv[1], process.argv[2])));`,
        tenant.apiKey,
        `http://127.0.0.1:${port}/`,
      ],
      { cwd: project, timeout: 30_000 },
    );
    const answer = JSON.parse(stdout);
    expect(answer).toMatchObject({
      version: API_VERSION,
      projectId: expect.stringMatching(/^prj_/),
      replayed: 'true',
      names: ['From the package'],
      missing: { status: 404, code: 'RESOURCE_NOT_FOUND' },
      refused: { status: 422, code: 'VALIDATION_ERROR' },
    });
    expect(answer.replayedId).toBe(answer.projectId);
    expect(JSON.stringify(answer.refused.fields)).toContain('name');
    const rows = await t
      .em()
      .execute<{ name: string; organization_id: string }[]>('select name, organization_id from projects where id = ?', [answer.projectId]);
    expect(rows).toEqual([{ name: 'From the package', organization_id: tenant.organizationId }]);
  }, 240_000);
});
