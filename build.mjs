// Production build: one ESM bundle per entry point; dependencies stay in node_modules
// (bundling knex's optional drivers fails, see stack-notes.md). The test suite makes the same
// bundle for the processes it starts, into a directory of its own (SERVICE_BUNDLE_DIR).
import { build } from 'esbuild';

const outdir = process.env.SERVICE_BUNDLE_DIR ?? 'dist';

await build({
  // The report rendering thread is a file of its own beside main.js (server/reports/report-renderer.ts).
  entryPoints: { main: 'server/main.ts', admin: 'server/cli/admin.ts', 'render-thread': 'server/reports/render-thread.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: outdir === 'dist' ? 'info' : 'warning',
});
