import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from '../helpers/factories.js';
import { completedTextInterview, runCompletionChain } from '../helpers/results.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Upgrading a database whose sessions finished before transcripts existed: the earlier version's
 * placeholder steps had recorded their times, and the migration that brings transcripts must
 * make those sessions' transcripts for real instead of leaving them "pending" for ever.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' });
});
afterAll(() => t?.close());

describe('Migration20261125000000Transcripts', () => {
  it('queues the transcript of every session finished under the earlier version, which then gets its results', async () => {
    const api = apiAs(t.http, await t.createTenant());
    const { sessionId } = await completedTextInterview(t, api, undefined, { runJobs: false });
    const migrator = t.runtime.orm.getMigrator();
    // Back to before this migration (and any later one), as a database of the earlier version is.
    await migrator.down({ to: 'Migration20261125000000Transcripts' });
    // What the earlier version's placeholder chain left behind: its steps' times, and no jobs.
    await t
      .em()
      .execute(`update sessions set transcript_generated_at = now(), insights_generated_at = now(), completion_announced_at = now() where id = ?`, [sessionId]);
    await t.em().execute(`delete from graphile_worker._private_jobs`);

    await migrator.up();

    const [row] = await t
      .em()
      .execute<{ transcript_generated_at: string | null; insights_generated_at: string | null }[]>(
        `select transcript_generated_at, insights_generated_at from sessions where id = ?`,
        [sessionId],
      );
    expect(row).toEqual({ transcript_generated_at: null, insights_generated_at: null });
    const jobs = await t.em().execute<{ key: string }[]>(`select key from graphile_worker.jobs`);
    expect(jobs.map((job) => job.key)).toEqual([`session-transcript:${sessionId}`]);

    await runCompletionChain(t, sessionId);
    await api.get(`/v1/sessions/${sessionId}/transcript`).expect(200);
    await api.get(`/v1/sessions/${sessionId}/insights`).expect(200);
  });
});

describe('Migration20261127010000WebhookUrlsAsParsed', () => {
  it('rewrites webhook URLs stored as written to the parsed form that is delivered to', async () => {
    const api = apiAs(t.http, await t.createTenant());
    const created = await api.post('/api/webhooks', { url: 'https://93.184.215.14/hook', events: ['*'] }).expect(201);
    // As the earlier version stored it: verbatim.
    await t.em().execute(`update webhook_endpoints set url = ? where id = ?`, ['https://93.184.215.14\\@127.0.0.1/a', created.body.id]);
    const migrator = t.runtime.orm.getMigrator();
    await migrator.down({ to: 'Migration20261127010000WebhookUrlsAsParsed' });
    await migrator.up();
    expect((await api.get(`/api/webhooks/${created.body.id}`).expect(200)).body.url).toBe('https://93.184.215.14/@127.0.0.1/a');
  });
});
