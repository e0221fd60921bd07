/**
 * Results benchmark, on a real PostgreSQL (DATABASE_URL, or a throwaway embedded cluster) with
 * the service run as a separate process (`node --import tsx server/main.ts`):
 *
 * 1. Time to results: N interviews of 20 answered questions each, driven over HTTP by a few
 *    participants at once, against the service running API and worker together (`npm start`'s
 *    shape). For each, the time from its completion (`completed_at`) to its transcript and to its
 *    insights being stored, from the database's own timestamps. The aim: insights within 5 s of
 *    completion at the median.
 * 2. ZIP exports with audio: a campaign of 50 sessions and one of 500 (each with its 20-answer
 *    transcript and a merged recording of its own), exported with `include_audio=true` by a fresh
 *    API process each time; the download's seconds and bytes, and the process's peak resident
 *    memory (VmHWM) beside its resident memory before the export. The aim: the 500 one's peak at
 *    most 1.3× the 50 one's.
 *
 *   npm run bench:results
 *   npm run bench:results -- --interviews 100 --participants 10 --zip-rounds 2
 *
 * Figures go to bench/results/results.json.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { findFreePort } from '../server/db/embedded-postgres.js';
import { migrateDatabase } from '../server/db/migrate.js';
import { createOrm } from '../server/db/orm.js';
import { newId } from '../server/lib/ids.js';
import { createLogger } from '../server/logger.js';
import { LocalDiskStorage } from '../server/storage/local-disk-storage.js';
import { type NodeChild, ROOT, startNode, stopChild, waitForHealthy } from './helpers/processes.js';
import { callApi } from './helpers/api.js';
import { positiveOption } from './helpers/options.js';
import { percentile } from './helpers/stats.js';
import { createBenchTenant, openBenchDatabase } from './helpers/database.js';

const { values: options } = parseArgs({
  options: {
    interviews: { type: 'string', default: '50' },
    participants: { type: 'string', default: '5' },
    'zip-rounds': { type: 'string', default: '2' },
  },
});
const INTERVIEWS = positiveOption('interviews', options.interviews);
const PARTICIPANTS = positiveOption('participants', options.participants);
const ZIP_ROUNDS = positiveOption('zip-rounds', options['zip-rounds']);
const AIM_INSIGHTS_P50_MS = 5000;
const AIM_ZIP_MEMORY_RATIO = 1.3;
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');

/** 20 questions: mostly open, some structured, as research scripts are. */
const QUESTIONS = Array.from({ length: 20 }, (_, i) => {
  if (i % 5 === 1) return { id: `q${i + 1}`, text: `On a scale of 1 to 5, how would you rate part ${i + 1}?`, type: 'rating' };
  if (i % 5 === 3) return { id: `q${i + 1}`, text: `Would you use part ${i + 1} again?`, type: 'yes_no' };
  return { id: `q${i + 1}`, text: `Tell me about your experience with part ${i + 1} of the product.`, type: 'open', followUp: { enabled: false } };
});

const OPEN_ANSWERS = [
  'The onboarding emails had broken links and the setup took us two days, which was frustrating for the whole team.',
  'Support was quick to respond and the new reporting dashboard saves me a lot of time every week.',
  'Honestly it is fine, the export works but the CSV columns could be named more clearly for finance.',
  'We mostly use it on our phones between client visits, and the mobile app crashed twice last month.',
  'The pricing is reasonable for a team our size, although the add-ons really add up over a year.',
  'I love how the calendar sync just works now; before the update it double-booked people constantly.',
];

function answerFor(question: (typeof QUESTIONS)[number], n: number): string {
  if (question.type === 'rating') return `I would say ${1 + (n % 5)} out of 5`;
  if (question.type === 'yes_no') return n % 3 === 0 ? 'no, not really' : 'yes, definitely';
  return OPEN_ANSWERS[n % OPEN_ANSWERS.length]!;
}

/** Peak and current resident memory of a process (Linux /proc), in MB. */
function memoryOf(pid: number): { peakMb: number; residentMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { peakMb: kb('VmHWM') / 1024, residentMb: kb('VmRSS') / 1024 };
}

function serverEnv(databaseUrl: string, dataDir: string, port: number): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PARTICIPANT_PER_MINUTE: '1000000',
    RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '1000000',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000',
  };
}

interface Tenant {
  organizationId: string;
  authorization: string;
}

async function timeToResults(databaseUrl: string, dataDir: string, tenant: Tenant) {
  const port = await findFreePort();
  const server = startNode('server/main.ts', [], serverEnv(databaseUrl, dataDir, port));
  try {
    await waitForHealthy(server, port);
    const base = `http://127.0.0.1:${port}`;
    const script = await callApi(base, 'POST', '/v1/scripts', tenant.authorization, {
      name: 'Results bench',
      systemPrompt: 'You interview customers.',
      questions: QUESTIONS,
    });
    await callApi(base, 'POST', `/v1/scripts/${script.id}/publish`, tenant.authorization, {});
    const campaign = await callApi(base, 'POST', '/v1/campaigns', tenant.authorization, { name: 'Results bench', scriptId: script.id });
    const invites = (
      await callApi(base, 'POST', `/v1/campaigns/${campaign.id}/invites/bulk`, tenant.authorization, {
        invites: Array.from({ length: INTERVIEWS }, (_, i) => ({ email: `p${i}@example.com`, name: `P ${i}` })),
        sendEmail: false,
      })
    ).data as { token: string }[];
    const sessionIds: string[] = [];
    let next = 0;
    const participant = async () => {
      while (next < invites.length) {
        const n = next++;
        const token = `Bearer ${invites[n]!.token}`;
        let state = await callApi(base, 'POST', '/api/interview/start', token, {});
        sessionIds.push(state.session.id);
        while (state.turn) {
          const question = QUESTIONS.find((q) => q.id === state.turn.questionId)!;
          state = await callApi(base, 'POST', '/api/interview/answer', token, { text: answerFor(question, n) });
        }
      }
    };
    await Promise.all(Array.from({ length: PARTICIPANTS }, participant));
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const { rows } = await client.query<{ pending: string }>(
          `select count(*) as pending from sessions where id = any($1) and insights_generated_at is null`,
          [sessionIds],
        );
        if (Number(rows[0]!.pending) === 0) break;
        if (Date.now() > deadline) throw new Error(`${rows[0]!.pending} sessions without insights after 2 minutes:\n${server.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const { rows } = await client.query<{ transcript_ms: number; insights_ms: number; utterances: number }>(
        `select extract(epoch from transcript_generated_at - completed_at) * 1000 as transcript_ms,
                extract(epoch from insights_generated_at - completed_at) * 1000 as insights_ms,
                (select count(*) from session_utterances u where u.session_id = s.id)::int as utterances
           from sessions s where id = any($1)`,
        [sessionIds],
      );
      return {
        campaignId: campaign.id as string,
        sessionIds,
        rows: rows.map((row) => ({ transcriptMs: Number(row.transcript_ms), insightsMs: Number(row.insights_ms), utterances: row.utterances })),
      };
    } finally {
      await client.end();
    }
  } finally {
    await stopChild(server);
  }
}

/**
 * Campaigns of 50 and 500 finished sessions for the ZIP measurement: copies of the sessions the
 * first part produced (transcript rows and all), each with a merged recording file of its own.
 */
async function seedZipCampaigns(databaseUrl: string, dataDir: string, tenant: Tenant, source: { campaignId: string; sessionIds: string[] }) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const storage = new LocalDiskStorage(path.join(dataDir, 'files'));
  const recording = path.join(dataDir, 'recording.ogg');
  // Two minutes of answers as Ogg Opus (what the merge job writes), about 0.5 MB.
  try {
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=120',
      '-ac',
      '1',
      '-c:a',
      'libopus',
      '-b:a',
      '32k',
      recording,
    ]);
  } catch {
    // No ffmpeg: random bytes of the same size stand in (the export stores recordings as they are).
    await writeFile(recording, Buffer.alloc(480_000, 7));
  }
  try {
    const campaigns: { id: string; sessions: number }[] = [];
    for (const size of [50, 500]) {
      const {
        rows: [campaign],
      } = await client.query<{ id: string }>(
        `insert into campaigns select (jsonb_populate_record(null::campaigns, to_jsonb(c) || jsonb_build_object('id', $2::text, 'name', $3::text))).* from campaigns c where id = $1 returning id`,
        [source.campaignId, newId('cam'), `ZIP bench ${size}`],
      );
      for (let i = 0; i < size; i++) {
        const from = source.sessionIds[i % source.sessionIds.length]!;
        const sessionId = newId('ses');
        await client.query(
          `insert into sessions select (jsonb_populate_record(null::sessions, to_jsonb(s) || jsonb_build_object('id', $2::text, 'campaign_id', $3::text))).* from sessions s where id = $1`,
          [from, sessionId, campaign!.id],
        );
        await client.query(
          `insert into session_utterances select (jsonb_populate_record(null::session_utterances, to_jsonb(u) || jsonb_build_object('id', 'utt_' || md5(random()::text), 'session_id', $2::text))).* from session_utterances u where session_id = $1`,
          [from, sessionId],
        );
        const storageKey = `sessions/${tenant.organizationId}/${sessionId}/merged-audio`;
        const { size: bytes } = await storage.put(storageKey, createReadStream(recording));
        await client.query(
          `insert into session_files (id, organization_id, session_id, kind, name, content_type, size_bytes, duration_seconds, sha256, storage_key, created_at, updated_at)
           values ($1, $2, $3, 'merged_audio', $4, 'audio/ogg', $5, 120, $6, $7, now(), now())`,
          [newId('fil'), tenant.organizationId, sessionId, `${sessionId}.ogg`, bytes, randomUUID(), storageKey],
        );
      }
      campaigns.push({ id: campaign!.id, sessions: size });
    }
    return campaigns;
  } finally {
    await client.end();
  }
}

async function exportZip(databaseUrl: string, dataDir: string, tenant: Tenant, campaignId: string) {
  const port = await findFreePort();
  const server: NodeChild = startNode('server/main.ts', ['--role=api'], serverEnv(databaseUrl, dataDir, port));
  try {
    await waitForHealthy(server, port);
    const pid = server.child.pid!;
    const before = memoryOf(pid);
    let peakDuring = before.peakMb;
    const sampler = setInterval(() => {
      if (server.child.exitCode === null && server.child.signalCode === null) peakDuring = Math.max(peakDuring, memoryOf(pid).residentMb);
    }, 50);
    const started = performance.now();
    let bytes = 0;
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/campaigns/${campaignId}/transcripts?include_audio=true`, {
        headers: { Authorization: tenant.authorization },
      });
      if (response.status !== 200) throw new Error(`export → ${response.status} ${await response.text()}`);
      for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
    } catch (error) {
      clearInterval(sampler);
      throw new Error(`export failed: ${(error as Error).message}\n${server.output()}`, { cause: error });
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const after = memoryOf(pid);
    return { seconds, bytes, residentBeforeMb: before.residentMb, peakMb: Math.max(after.peakMb, peakDuring) };
  } finally {
    await stopChild(server);
  }
}

async function main(): Promise<void> {
  const logger = createLogger('warn');
  const database = await openBenchDatabase('results', logger);
  const { databaseUrl, dataDir } = database;
  try {
    const orm = await createOrm({ url: databaseUrl, poolSize: 2 });
    await migrateDatabase(orm, databaseUrl, logger);
    const tenant = await createBenchTenant(orm.em.fork(), 'Results bench');
    await orm.close(true);
    console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores shared by the driver, the service and PostgreSQL`);

    const latency = await timeToResults(databaseUrl, dataDir, tenant);
    const transcriptMs = latency.rows.map((row) => row.transcriptMs);
    const insightsMs = latency.rows.map((row) => row.insightsMs);
    const utterances = latency.rows[0]!.utterances;
    console.log(
      `\n1. Time from completion to results: ${INTERVIEWS} interviews of 20 answers (${utterances} utterances each), ${PARTICIPANTS} participants at once, API + worker in one process`,
    );
    console.log(`                                  p50       p95       max`);
    const line = (label: string, values: number[]) =>
      console.log(
        `${label.padEnd(30)} ${percentile(values, 50).toFixed(0).padStart(6)} ms ${percentile(values, 95).toFixed(0).padStart(6)} ms ${Math.max(...values)
          .toFixed(0)
          .padStart(6)} ms`,
      );
    line('transcript stored', transcriptMs);
    line('insights stored', insightsMs);
    const insightsP50 = percentile(insightsMs, 50);
    console.log(`aim: insights p50 ≤ ${AIM_INSIGHTS_P50_MS} ms: ${insightsP50 <= AIM_INSIGHTS_P50_MS ? 'met' : 'NOT met'}`);

    const campaigns = await seedZipCampaigns(databaseUrl, dataDir, tenant, latency);
    const zips: Record<number, Awaited<ReturnType<typeof exportZip>>[]> = { 50: [], 500: [] };
    for (let round = 0; round < ZIP_ROUNDS; round++) {
      for (const campaign of campaigns) zips[campaign.sessions]!.push(await exportZip(databaseUrl, dataDir, tenant, campaign.id));
    }
    const best = (runs: Awaited<ReturnType<typeof exportZip>>[]) => ({
      seconds: Math.min(...runs.map((run) => run.seconds)),
      bytes: runs[0]!.bytes,
      residentBeforeMb: Math.min(...runs.map((run) => run.residentBeforeMb)),
      peakMb: Math.min(...runs.map((run) => run.peakMb)),
    });
    const small = best(zips[50]!);
    const large = best(zips[500]!);
    console.log(`\n2. ZIP export with audio (include_audio=true), fresh API process per export, best of ${ZIP_ROUNDS}`);
    console.log(`sessions     seconds        MB   RSS before (MB)   peak RSS (MB)`);
    for (const [sessions, run] of [
      [50, small],
      [500, large],
    ] as const) {
      console.log(
        `${String(sessions).padStart(8)} ${run.seconds.toFixed(2).padStart(11)} ${(run.bytes / 1e6).toFixed(1).padStart(9)} ${run.residentBeforeMb.toFixed(0).padStart(17)} ${run.peakMb.toFixed(0).padStart(15)}`,
      );
    }
    const ratio = large.peakMb / small.peakMb;
    console.log(
      `peak RSS 500 / 50: ${ratio.toFixed(2)} (aim ≤ ${AIM_ZIP_MEMORY_RATIO}: ${ratio <= AIM_ZIP_MEMORY_RATIO ? 'met' : 'NOT met'}); growth over the idle process: 50 → ${(small.peakMb - small.residentBeforeMb).toFixed(0)} MB, 500 → ${(large.peakMb - large.residentBeforeMb).toFixed(0)} MB`,
    );

    await mkdir(RESULTS_DIR, { recursive: true });
    await writeFile(
      path.join(RESULTS_DIR, 'results.json'),
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          timeToResults: {
            interviews: INTERVIEWS,
            participants: PARTICIPANTS,
            utterancesPerInterview: utterances,
            transcriptMs: { p50: percentile(transcriptMs, 50), p95: percentile(transcriptMs, 95), max: Math.max(...transcriptMs) },
            insightsMs: { p50: insightsP50, p95: percentile(insightsMs, 95), max: Math.max(...insightsMs) },
            aimInsightsP50Ms: AIM_INSIGHTS_P50_MS,
          },
          zipExport: { rounds: ZIP_ROUNDS, sessions50: small, sessions500: large, peakRatio: ratio, aimPeakRatio: AIM_ZIP_MEMORY_RATIO },
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\nwritten: bench/results/results.json`);
  } finally {
    await database.close();
  }
}

await main();
