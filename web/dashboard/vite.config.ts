import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where the API listens in development (`npm run dev` starts it on PORT, 3000 by default). */
const apiOrigin = process.env.DASHBOARD_API_ORIGIN ?? `http://localhost:${process.env.PORT ?? '3000'}`;

/**
 * The research dashboard: served by the API server at `/app` from `dist/` in production, by
 * Vite's dev server (proxying the API) in development.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: path.join(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    // The spec's minimum browsers all run ES2020.
    target: 'es2020',
    sourcemap: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: Number(process.env.DASHBOARD_DEV_PORT ?? 5173),
    strictPort: true,
    proxy: {
      '/trpc': apiOrigin,
      '/files': apiOrigin,
      // The participants import posts its batches to the REST route (for its Idempotency-Key).
      '/v1': apiOrigin,
    },
  },
});
