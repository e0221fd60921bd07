import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTranscriptJob } from '../../server/domains/sessions/session-jobs.js';
import { addJobs } from '../../server/jobs/add-jobs.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { ageDeadWorker, runJobsOnce } from '../helpers/jobs.js';
import { exitOf, exitWithin, freePort, killLeftovers, startServer, waitFor, waitForHealthy } from '../helpers/processes.js';
import { completedTextInterview, TEXT_ANSWERS } from '../helpers/results.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const PARTICIPANT_BUDGET = { RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' };

let t: TestApp;
let api: Api;
const children: ChildProcess[] = [];

beforeAll(async () => {
  t = await startTestApp(PARTICIPANT_BUDGET);
  api = apiAs(t.http, await t.createTenant());
});
afterAll(async () => {
  await killLeftovers(children);
  await t?.close();
});

/** A worker process (`--role=worker`) on the test app's database and data directory. */
function startWorkerProcess(env: Record<string, string> = {}) {
  const worker = startServer({ DATABASE_URL: t.database.url, DATA_DIR: t.dataDir, PUBLIC_URL: 'http://127.0.0.1:3000', ...env }, ['--role=worker']);
  children.push(worker.child);
  return worker;
}

interface SessionRow {
  transcript_generated_at: Date | null;
  insights_generated_at: Date | null;
  completion_announced_at: Date | null;
  files_prepared_at: Date | null;
  exports_prepared_at: Date | null;
  analyzed_by: string | null;
  sentiment: string | null;
  sentiment_score: number | null;
}

async function sessionRow(sessionId: string): Promise<SessionRow> {
  const [row] = await t
    .em()
    .execute<SessionRow[]>(
      `select transcript_generated_at, insights_generated_at, completion_announced_at, files_prepared_at, exports_prepared_at, analyzed_by, sentiment, sentiment_score from sessions where id = ?`,
      [sessionId],
    );
  return row!;
}

function utteranceRows(sessionId: string) {
  return t
    .em()
    .execute<{ id: string; speaker: string; text: string | null; sentiment: string | null; sentiment_score: number | null; keywords: string[] | null }[]>(
      `select id, speaker, text, sentiment, sentiment_score, keywords from session_utterances where session_id = ? order by seq`,
      [sessionId],
    );
}

function insightsRows(sessionId: string) {
  return t.em().execute(`select * from session_insights where session_id = ?`, [sessionId]);
}

function fileRows(sessionId: string) {
  return t
    .em()
    .execute<{ id: string; kind: string; name: string; storage_key: string; created_at: Date }[]>(
      `select id, kind, name, storage_key, created_at from session_files where session_id = ? order by name`,
      [sessionId],
    );
}

/** The session's completion chain jobs still in graphile-worker's queue (done jobs are deleted). */
function chainJobs(sessionId: string) {
  return t
    .em()
    .execute<{ task_identifier: string; key: string; locked_by: string | null; attempts: number }[]>(
      `select task_identifier, key, locked_by, attempts from graphile_worker.jobs where key in (?, ?, ?, ?) order by id`,
      [`session-transcript:${sessionId}`, `session-insights:${sessionId}`, `session-announce:${sessionId}`, `session-files:${sessionId}`],
    );
}

describe('a worker killed inside the transcript job', () => {
  it('loses nothing and duplicates nothing: the next worker recovers the job and the chain runs once', async () => {
    const { sessionId } = await completedTextInterview(t, api, TEXT_ANSWERS, { runJobs: false });
    expect((await chainJobs(sessionId)).map((job) => job.task_identifier)).toEqual(['session__generate_transcript']);

    // The first worker takes the transcript job and dies before its transaction commits.
    const doomed = startWorkerProcess({ TEST_FAULTS: 'transcript:before-commit' });
    await exitWithin(doomed, 20_000);
    expect(doomed.child.signalCode).toBe('SIGKILL');

    // Nothing of the analysis was kept, and the job is still there, held by the dead worker.
    expect(await sessionRow(sessionId)).toMatchObject({
      transcript_generated_at: null,
      insights_generated_at: null,
      analyzed_by: null,
      sentiment: null,
      sentiment_score: null,
    });
    const before = await utteranceRows(sessionId);
    expect(before.filter((row) => row.sentiment !== null || row.keywords !== null)).toEqual([]);
    expect(await insightsRows(sessionId)).toEqual([]);
    const [held, ...others] = await chainJobs(sessionId);
    expect(others, 'chain jobs besides the transcript after the crash').toEqual([]);
    expect(held).toMatchObject({ task_identifier: 'session__generate_transcript', attempts: 1 });
    expect(held!.locked_by).not.toBeNull();

    await ageDeadWorker(t, held!.locked_by!);

    const metricsPort = await freePort();
    const healthy = startWorkerProcess({ WORKER_METRICS_PORT: String(metricsPort) });
    await waitForHealthy(healthy, metricsPort, 20_000);
    await waitFor(
      async () => {
        const row = await sessionRow(sessionId);
        return row.completion_announced_at && row.exports_prepared_at ? true : undefined;
      },
      15_000,
      () => `the completion chain did not finish:\n${healthy.output()}`,
    );
    healthy.child.kill('SIGTERM');
    expect(await exitOf(healthy.child)).toBe(0);

    const done = await sessionRow(sessionId);
    expect(done).toMatchObject({ analyzed_by: 'builtin', sentiment: expect.any(String) });
    expect(done.insights_generated_at).not.toBeNull();
    const analysed = await utteranceRows(sessionId);
    expect(analysed.map((row) => row.id)).toEqual(before.map((row) => row.id));
    expect(analysed.filter((row) => row.text !== null && row.sentiment === null)).toEqual([]);
    const insights = await insightsRows(sessionId);
    expect(insights).toHaveLength(1);
    const files = await fileRows(sessionId);
    // A text interview has no audio to merge: its files are the two exports, once each.
    expect(files.map((file) => [file.kind, file.name])).toEqual([
      ['export', `report-${sessionId}.pdf`],
      ['export', `transcript-${sessionId}.json`],
    ]);
    expect(await chainJobs(sessionId), `chain jobs left by the second worker:\n${healthy.output()}`).toEqual([]);
    const transcript = await api.get(`/v1/sessions/${sessionId}/transcript`).expect(200);
    expect(transcript.body.utterances).toHaveLength(analysed.length);
    expect(transcript.body.utterances.every((u: { sentiment?: string }) => typeof u.sentiment === 'string')).toBe(true);

    // The first step again (a retry after all): nothing changes, nothing is added.
    await addJobs(t.em(), [generateTranscriptJob(sessionId)]);
    await runJobsOnce(t);
    await runJobsOnce(t);
    expect(await sessionRow(sessionId)).toEqual(done);
    expect(await utteranceRows(sessionId)).toEqual(analysed);
    expect(await insightsRows(sessionId)).toEqual(insights);
    expect(await fileRows(sessionId)).toEqual(files);
    expect(await chainJobs(sessionId), 'chain jobs after the re-run').toEqual([]);
  }, 90_000);
});
