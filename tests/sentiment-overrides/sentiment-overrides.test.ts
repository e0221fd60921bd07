import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../shared/permissions.js';
import { FileNotFoundError } from '../../server/storage/file-storage.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { PARTICIPANT_BUDGET } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { type ListeningTestApp, startListeningTestApp, type TrpcClient, trpcFailure } from '../helpers/members.js';
import { completedTextInterview } from '../helpers/results.js';
import { type TestTenant } from '../helpers/test-app.js';

/**
 * Sentiment override per utterance (issue 16): audited, and what every output shows — the
 * transcript in each format, exports, the session's overall sentiment.
 */

let t: ListeningTestApp;
let tenant: TestTenant;
let api: Api;
let client: TrpcClient;

beforeAll(async () => {
  t = await startListeningTestApp(PARTICIPANT_BUDGET);
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  client = t.clientOf(tenant);
});
afterAll(() => t?.close());

interface Row {
  id: string;
  speaker: string;
  sentiment: string;
  sentiment_override: string | null;
  sentiment_overridden_by: unknown;
}

async function utterances(sessionId: string): Promise<Row[]> {
  return t
    .em()
    .execute<Row[]>(`select id, speaker, sentiment, sentiment_override, sentiment_overridden_by from session_utterances where session_id = ? order by seq`, [
      sessionId,
    ]);
}

const OTHER = { positive: 'negative', neutral: 'negative', negative: 'positive' } as const;

describe('sentimentOverrides.set', () => {
  it('overrides an answer: stored with who did it, audited with old and new values, shown by the transcript in every format and by exports, the session sentiment recomputed; null clears it', async () => {
    const { sessionId, campaign } = await completedTextInterview(t, api);
    const answer = (await utterances(sessionId)).find((row) => row.speaker === 'participant' && row.sentiment !== 'positive')!;
    const analyzed = answer.sentiment as keyof typeof OTHER;
    const override = OTHER[analyzed];

    const result = await client.sentimentOverrides.set.mutate({ sessionId, utteranceId: answer.id, sentiment: override, reason: 'Sarcasm' });
    expect(result).toMatchObject({
      sessionId,
      utteranceId: answer.id,
      analyzed,
      override,
      effective: override,
      changed: true,
      overriddenBy: { kind: 'api_key', id: tenant.apiKeyId, name: 'test key' },
      entry: {
        action: 'sentiment_override',
        reason: 'Sarcasm',
        details: { analyzed, previousOverride: null, override, previousEffective: analyzed, effective: override },
      },
    });
    const [row] = (await utterances(sessionId)).filter((candidate) => candidate.id === answer.id);
    expect(row).toMatchObject({ sentiment: analyzed, sentiment_override: override, sentiment_overridden_by: { kind: 'api_key', id: tenant.apiKeyId } });
    const [session] = await t
      .em()
      .execute<{ sentiment: string; sentiment_score: number }[]>(`select sentiment, sentiment_score from sessions where id = ?`, [sessionId]);
    expect(result.sessionSentiment).toEqual({ overall: session!.sentiment, score: session!.sentiment_score });
    expect((await api.get(`/v1/sessions/${sessionId}`).expect(200)).body.sentiment).toEqual(result.sessionSentiment);

    const json = (await api.get(`/v1/sessions/${sessionId}/transcript`).expect(200)).body;
    expect(json.utterances.find((u: { id: string }) => u.id === answer.id).sentiment).toBe(override);
    const vtt = (await api.get(`/v1/sessions/${sessionId}/transcript?format=vtt`).expect(200)).text;
    expect(vtt.split(`${answer.id}\n`)[1]!.split('\n\n')[0]).toContain(`[${override}`);
    for (const format of ['text', 'srt']) {
      expect((await api.get(`/v1/sessions/${sessionId}/transcript?format=${format}`).expect(200)).text).toContain(`[${override}`);
    }
    expect((await client.transcripts.get.query({ sessionId })).utterances.find((u) => u.id === answer.id)!.sentiment).toBe(override);
    const exported = JSON.parse((await api.get(`/api/campaigns/${campaign.id}/transcripts?format=json`).expect(200)).text);
    expect(exported.sessions[0].transcript.utterances.find((u: { id: string }) => u.id === answer.id).sentiment).toBe(override);
    expect(exported.sessions[0].sentiment).toEqual(result.sessionSentiment);
    const csv = parse((await api.get(`/api/campaigns/${campaign.id}/transcripts?format=csv`).expect(200)).text, {
      columns: true,
      record_delimiter: '\r\n',
    }) as Record<string, string>[];
    expect(csv.find((record) => record.utterance_id === answer.id)!.sentiment).toBe(override);

    // The same value again: nothing changes, nothing is logged.
    expect(await client.sentimentOverrides.set.mutate({ sessionId, utteranceId: answer.id, sentiment: override })).toMatchObject({
      changed: false,
      entry: null,
    });

    const cleared = await client.sentimentOverrides.set.mutate({ sessionId, utteranceId: answer.id, sentiment: null });
    expect(cleared).toMatchObject({
      override: null,
      effective: analyzed,
      overriddenAt: null,
      overriddenBy: null,
      entry: { action: 'sentiment_override_cleared', details: { previousOverride: override, override: null, effective: analyzed } },
    });
    expect((await api.get(`/v1/sessions/${sessionId}/transcript`).expect(200)).body.utterances.find((u: { id: string }) => u.id === answer.id).sentiment).toBe(
      analyzed,
    );

    await client.sentimentOverrides.set.mutate({ sessionId, utteranceId: answer.id, sentiment: 'neutral' });
    const listed = await client.sentimentOverrides.list.query({ sessionId });
    expect(listed.overrides).toEqual([expect.objectContaining({ utteranceId: answer.id, analyzed, override: 'neutral', effective: 'neutral' })]);
    expect(listed.history.map((entry) => entry.action)).toEqual(['sentiment_override', 'sentiment_override_cleared', 'sentiment_override']);
    const [count] = await t.em().execute<{ count: number }[]>(`select count(*)::int as count from transcript_audit_log where session_id = ?`, [sessionId]);
    expect(count!.count).toBe(3);
  });

  it('reaches the stored session files: the transcript JSON served for download shows the override, the PDF report is made again; the replaced files are deleted by the job added with it', async () => {
    const { sessionId } = await completedTextInterview(t, api);
    const answer = (await utterances(sessionId)).find((row) => row.speaker === 'participant' && row.sentiment !== 'positive')!;
    const override = OTHER[answer.sentiment as keyof typeof OTHER];
    const exportKeys = async () =>
      (
        await t
          .em()
          .execute<{ storage_key: string }[]>(`select storage_key from session_files where session_id = ? and kind = 'export' order by name`, [sessionId])
      ).map((row) => row.storage_key);
    const before = await exportKeys();
    expect(before).toHaveLength(2);
    const storedTranscript = async () => {
      const files = (await api.get(`/v1/sessions/${sessionId}/files`).expect(200)).body.data as { name: string; url: string }[];
      const file = files.find((candidate) => candidate.name === `transcript-${sessionId}.json`)!;
      const url = new URL(file.url);
      return JSON.parse((await t.http.get(url.pathname + url.search).expect(200)).text) as { utterances: { id: string; sentiment: string }[] };
    };
    expect((await storedTranscript()).utterances.find((u) => u.id === answer.id)!.sentiment).toBe(answer.sentiment);

    const result = await client.sentimentOverrides.set.mutate({ sessionId, utteranceId: answer.id, sentiment: override });
    const downloaded = await storedTranscript();
    expect(downloaded.utterances.find((u) => u.id === answer.id)!.sentiment).toBe(override);
    expect(result.entry!.details.exportsRewritten).toHaveLength(2);

    const after = await exportKeys();
    expect(after.filter((key) => before.includes(key))).toEqual([]);
    const [job] = await t.em().execute<{ payload: { keys: string[] } }[]>(
      `select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = 'storage__delete_files' and (j.payload::jsonb)->'keys' @> jsonb_build_array(?::text)`,
      [before[0]],
    );
    expect([...job!.payload.keys].sort()).toEqual([...before].sort());
    await runJobsOnce(t, { tasks: ['storage__delete_files'] });
    for (const key of before) await expect(t.runtime.services.storage.open(key)).rejects.toBeInstanceOf(FileNotFoundError);
    for (const key of after) await expect(t.runtime.services.storage.open(key)).resolves.toBeDefined();
  });

  it('answers 422 for an interviewer turn, 400 for an unknown label, 404 for another organization, 403 without sessions:write, 409 before the transcript exists', async () => {
    const { sessionId } = await completedTextInterview(t, api);
    const rows = await utterances(sessionId);
    const question = rows.find((row) => row.speaker === 'ai')!;
    const answer = rows.find((row) => row.speaker === 'participant')!;
    expect(await trpcFailure(client.sentimentOverrides.set.mutate({ sessionId, utteranceId: question.id, sentiment: 'positive' }))).toMatchObject({
      httpStatus: 422,
      details: { fields: [{ path: 'utteranceId', message: "only a participant's answer with text has a sentiment to override" }] },
    });
    const bad = await trpcFailure(client.sentimentOverrides.set.mutate({ sessionId, utteranceId: answer.id, sentiment: 'happy' as never }));
    expect([400, 422]).toContain(bad.httpStatus);
    expect(bad.details.fields).toEqual([expect.objectContaining({ path: 'sentiment' })]);

    const other = await t.createTenant();
    const outsider = t.clientOf(other);
    expect(await trpcFailure(outsider.sentimentOverrides.set.mutate({ sessionId, utteranceId: answer.id, sentiment: 'positive' }))).toMatchObject({
      httpStatus: 404,
      appCode: 'RESOURCE_NOT_FOUND',
    });
    expect(await trpcFailure(outsider.sentimentOverrides.list.query({ sessionId }))).toMatchObject({ httpStatus: 404 });

    const reader = await t.createKey(
      tenant.organizationId,
      PERMISSIONS.filter((permission) => permission !== 'sessions:write'),
    );
    const readOnly = t.clientOf(reader);
    expect(await trpcFailure(readOnly.sentimentOverrides.set.mutate({ sessionId, utteranceId: answer.id, sentiment: 'positive' }))).toMatchObject({
      httpStatus: 403,
    });
    expect(await readOnly.sentimentOverrides.list.query({ sessionId })).toEqual({ overrides: [], history: [] });

    const pending = await completedTextInterview(t, api, undefined, { runJobs: false });
    const [pendingAnswer] = (await utterances(pending.sessionId)).filter((row) => row.speaker === 'participant');
    expect(
      await trpcFailure(client.sentimentOverrides.set.mutate({ sessionId: pending.sessionId, utteranceId: pendingAnswer!.id, sentiment: 'positive' })),
    ).toMatchObject({
      httpStatus: 409,
      appCode: 'TRANSCRIPT_NOT_READY',
    });
    expect((await utterances(sessionId)).every((row) => row.sentiment_override === null)).toBe(true);
  });
});
