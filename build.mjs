// Production build: one ESM bundle per entry point; dependencies stay in node_modules
// (bundling knex's optional drivers fails, see stack-notes.md).
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'server/main.ts', admin: 'server/cli/admin.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'info',
});
