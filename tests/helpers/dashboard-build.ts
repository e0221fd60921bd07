import { readdirSync, statSync } from 'node:fs';
import { access, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'vite';
import { inject } from 'vitest';
import { ROOT } from './processes.js';

const DASHBOARD = path.join(ROOT, 'web', 'dashboard');

/** The newest modification time under the dashboard's sources (as build-if-stale.mjs reads them). */
function newestSource(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newestSource(path.join(entry, name))));
}

let built: Promise<string> | undefined;

/**
 * The research dashboard built as production builds it, once per test run, into the run's own
 * directory (never web/dashboard/dist, which a developer's server may be serving). Every browser
 * test file serves the same build read-only: the first file to ask builds it, the others wait for
 * it. The build is written beside its final place and renamed there when complete, so no file
 * ever serves a half-written directory (a build emptying a directory under another file's pages
 * lost a whole file before). The directory is named after the sources' newest time, so a watch
 * run builds again after a dashboard source changed.
 */
export function dashboardBuild(): Promise<string> {
  built ??= buildOnce();
  return built;
}

async function buildOnce(): Promise<string> {
  const sources = [path.join(DASHBOARD, 'src'), path.join(DASHBOARD, 'index.html'), path.join(DASHBOARD, 'vite.config.ts')];
  const base = path.join(inject('testRunDir'), `dashboard-${Math.trunc(Math.max(...sources.map(newestSource)))}`);
  const dist = path.join(base, 'dist');
  const failed = path.join(base, 'failed');
  try {
    // mkdir is atomic: exactly one test file (in any worker) claims the build.
    await mkdir(base);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Within the files' hook timeout (two minutes), so the message says what was waited for.
    const deadline = Date.now() + 100_000;
    while (!(await exists(dist))) {
      if (await exists(failed)) throw new Error(`another test file's dashboard build failed:\n${await readFile(failed, 'utf8')}`, { cause: error });
      if (Date.now() > deadline) throw new Error(`the dashboard build another test file started in ${base} did not finish within 100 s`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return dist;
  }
  const staging = path.join(base, 'building');
  try {
    await build({ configFile: path.join(DASHBOARD, 'vite.config.ts'), logLevel: 'warn', build: { outDir: staging, emptyOutDir: true } });
    await rename(staging, dist);
  } catch (error) {
    await writeFile(failed, error instanceof Error ? (error.stack ?? error.message) : String(error));
    throw error;
  }
  return dist;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
