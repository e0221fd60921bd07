/**
 * `npm run bench`: the benchmarks, what each measures and where its figures go; `npm run bench --
 * <name> [options]` runs one (the same as `npm run bench:<name>`). Figures of the last run of each
 * are in bench/results/<name>.json; bench/RESULTS.md records them with the machine and the date.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './helpers/processes.js';

const BENCHMARKS: Record<string, string> = {
  api: 'Hot API paths (list, get, create, invite, bulk 500) against bare Express + pg doing the same SQL, A B A B with autocannon: req/s, p50/p99, ratio, SQL and CPU per request.',
  interviews:
    'Simulated participants through the interview engine against a bare ceiling of the same SQL: server time per turn, interviews per minute, CPU and SQL per interview.',
  webhooks: 'Webhook delivery throughput and latency from commit to receipt, against bare graphile-worker jobs doing the same HTTPS requests.',
  results: 'Transcripts, insights, PDFs and exports of finished sessions: time and memory per session, export streaming.',
  storage: 'Uploads and ranged reads on the local disk and an S3-compatible server: MB/s and peak memory (flat whatever the size).',
  voice:
    "Voice interviews (20 at once, audio answer → first byte of the AI's spoken turn): the service's own share on top of fake STT/LLM/TTS servers with fixed delays, against bare Express chaining the same fakes; and the offline built-ins (pocketsphinx, espeak-ng) as measured.",
  search:
    'Cross-transcript full-text search over 10,000 sessions of 20 utterances: p50/p95/max per query kind (rare, common, phrase, filters, page 2) against the 100 ms aim.',
};

const [name, ...rest] = process.argv.slice(2);
if (!name) {
  console.log('Benchmarks (npm run bench -- <name> [options], or npm run bench:<name>):\n');
  for (const [benchmark, description] of Object.entries(BENCHMARKS))
    console.log(`  ${benchmark.padEnd(12)}${description}\n  ${''.padEnd(12)}→ bench/results/${benchmark}.json\n`);
  console.log('Recorded figures, with the machine and the date: bench/RESULTS.md');
} else if (!(name in BENCHMARKS)) {
  console.error(`Unknown benchmark "${name}"; known: ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exitCode = 2;
} else {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', `${name}.ts`), ...rest], { cwd: ROOT, stdio: 'inherit' });
  child.on('exit', (code) => (process.exitCode = code ?? 1));
}
