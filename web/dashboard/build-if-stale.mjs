// `npm start` runs this first (prestart): builds the dashboard when web/dashboard/dist is missing
// or older than any of its sources, so a fresh checkout's `npm ci && npm start` serves /app.
// Up to date, it only compares file times (a few milliseconds).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const built = path.join(here, 'dist', 'index.html');

function newest(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

let builtAt = 0;
try {
  builtAt = statSync(built).mtimeMs;
} catch {
  // Not built yet.
}
const sources = [path.join(here, 'src'), path.join(here, 'index.html'), path.join(here, 'vite.config.ts')];
const sourcesAt = Math.max(...sources.map(newest));
if (builtAt > sourcesAt) process.exit(0);

console.log(builtAt ? 'The dashboard sources changed: building web/dashboard (vite build)…' : 'Building the dashboard (web/dashboard, vite build), once…');
const result = spawnSync(
  process.execPath,
  [path.join(here, '..', '..', 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', path.join(here, 'vite.config.ts'), '--logLevel', 'warn'],
  {
    stdio: 'inherit',
  },
);
process.exit(result.status ?? 1);
