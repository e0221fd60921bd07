import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTrpcClient } from '../../clients/trpc/build.js';
import { ROOT } from '../helpers/processes.js';

/**
 * The client package for first-party frontends: `npm run build:client` makes it, and a sample
 * client typechecks against it under the tsconfig a new Vite project has, made stricter
 * (exactOptionalPropertyTypes) and without skipLibCheck, pulling in no server code.
 */

const VITE_STRICT: ts.CompilerOptions = {
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

const SAMPLE = `import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
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

let work: string | undefined;
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('@interview-service/trpc-client', () => {
  it('is built from the router and typechecks a sample client under a strict Vite tsconfig without skipLibCheck, with no server code', async () => {
    const declarations = await buildTrpcClient();
    // Inside the checkout, so that @trpc/client and @trpc/server resolve from its node_modules.
    work = await mkdtemp(path.join(ROOT, 'clients', 'trpc', '.check-'));
    const sample = path.join(work, 'sample.ts');
    await writeFile(sample, SAMPLE);
    const program = ts.createProgram([sample], { ...VITE_STRICT, paths: { '@interview-service/trpc-client': [declarations] } });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').slice(0, 400)}`);
    // @trpc/client 11.22.1 (the version @trpc/tanstack-react-query pins) types its WebSocket
    // link with @trpc/server's Node adapters, whose declarations import `http`, `http2` and `ws`:
    // upstream, gone in 11.23. Those four lines are the only ones allowed; anything from our
    // declarations or the sample still fails.
    const upstream = /\/node_modules\/@trpc\/server\/dist\/(index|ws)-[\w-]+\.d\.mts: Cannot find module '(http|http2|ws)'/;
    expect(diagnostics.filter((line) => !upstream.test(line))).toEqual([]);
    expect(diagnostics.length).toBeLessThanOrEqual(4);
    const ours = program
      .getSourceFiles()
      .map((file) => file.fileName)
      .filter((file) => !file.includes('/node_modules/'));
    expect(ours.sort()).toEqual([declarations, sample].sort());
    console.log(`trpc client package: ${program.getSourceFiles().length} files in the sample's typecheck (TypeScript's libs and @trpc/* included)`);
  }, 120_000);
});
