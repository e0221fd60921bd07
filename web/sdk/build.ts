import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { buildWebAssets } from '../../server/web/build-web-assets.js';

/**
 * Builds the publishable `@interview-service/embed` package into `web/sdk/dist`: the script-tag
 * build (global `InterviewSDK`), the ES module (default export), and TypeScript declarations
 * emitted from the sources. The files are the bytes the server serves at `/sdk/v<version>/`.
 */
const here = import.meta.dirname;

export async function buildSdkPackage(outDir = path.join(here, 'dist')): Promise<string[]> {
  const assets = await buildWebAssets();
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, 'interview-sdk.js'), assets.sdkGlobal.body);
  await writeFile(path.join(outDir, 'interview-sdk.mjs'), assets.sdkModule.body);
  const program = ts.createProgram([path.join(here, 'src', 'index.ts')], {
    target: ts.ScriptTarget.ES2020,
    lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: path.join(here, 'src'),
    outDir,
    types: [],
  });
  const emitted = program.emit();
  const problems = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (problems.length > 0)
    throw new Error(ts.formatDiagnostics(problems, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => here, getNewLine: () => '\n' }));
  return ['interview-sdk.js', 'interview-sdk.mjs', 'index.d.ts', 'sdk.d.ts'].map((file) => path.join(outDir, file));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const files = await buildSdkPackage();
  for (const file of files) console.log(path.relative(process.cwd(), file));
}
