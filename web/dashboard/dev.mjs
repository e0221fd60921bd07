// `npm run dev`: the API (tsx, restarted on change) and the dashboard on Vite's dev server, which
// proxies /trpc and /files to the API. Open http://localhost:5173/app/.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createServer } from 'vite';

const root = path.resolve(import.meta.dirname, '..', '..');
const port = process.env.PORT ?? '3000';
const api = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['watch', '--clear-screen=false', 'server/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PORT: port },
});

const vite = await createServer({ configFile: path.join(import.meta.dirname, 'vite.config.ts') });
await vite.listen();
vite.printUrls();
console.log(`API on http://localhost:${port} (sign in with a member: npm run --silent admin -- invite-member …)`);

let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  api.kill('SIGTERM');
  await vite.close();
  process.exit(code);
};
api.on('exit', (code) => void stop(code ?? 1));
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
