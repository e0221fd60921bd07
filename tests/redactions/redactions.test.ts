import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { FileNotFoundError } from '../../server/storage/file-storage.js';
import { PERMISSIONS } from '../../shared/permissions.js';
import { distinctiveWords, derivedTextScrubber } from '../../server/domains/redactions/redaction-text.js';
import { asBytes, wav } from '../helpers/audio.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { interviewFixture, letTimePass, ONE_QUESTION, PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { type ListeningTestApp, startListeningTestApp, type TrpcClient, trpcFailure } from '../helpers/members.js';
import { completedTextInterview, probedTextInterview, runCompletionChain, TEXT_ANSWERS } from '../helpers/results.js';
import { type TestTenant } from '../helpers/test-app.js';

/**
 * Manual redaction (issue 16): a span of a stored utterance becomes `[REDACTED]` for good in every
 * output and every stored copy, the recording is silenced over the utterance's time (measured on
 * the decoded samples), highlights move with the text, and the audit log says who did it without
 * holding the words.
 */

const run = promisify(execFile);

let t: ListeningTestApp;
let tenant: TestTenant;
let api: Api;
let client: TrpcClient;
let work: string;

beforeAll(async () => {
  t = await startListeningTestApp(PARTICIPANT_BUDGET);
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  client = t.clientOf(tenant);
  work = await mkdtemp(path.join(tmpdir(), 'redactions-test-'));
});
afterAll(async () => {
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

interface UtteranceRow {
  id: string;
  text: string;
  keywords: string[] | null;
  start_time: number;
  end_time: number;
  audio_file_id: string | null;
}

async function participantUtterances(sessionId: string): Promise<UtteranceRow[]> {
  return t
    .em()
    .execute<UtteranceRow[]>(
      `select id, text, keywords, start_time, end_time, audio_file_id from session_utterances where session_id = ? and speaker = 'participant' order by seq`,
      [sessionId],
    );
}

async function pdfText(pdf: Buffer): Promise<string> {
  const file = path.join(work, `${randomUUID()}.pdf`);
  await writeFile(file, pdf);
  const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
  return stdout.replace(/\s+/g, ' ');
}

async function stored(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await t.runtime.services.storage.open(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function unzipText(buffer: Buffer): Promise<string> {
  const zip = await yauzl.fromBufferPromise(buffer);
  let text = '';
  for await (const entry of zip.eachEntry()) {
    if (entry.fileName.includes('/audio/')) continue;
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    text += Buffer.concat(chunks).toString('utf8');
  }
  return text;
}

/** The tables with a row of this session (its own row, or one naming it in `session_id`) whose text contains `needle`, case-insensitively. */
async function rowsContaining(needle: string, sessionId: string): Promise<string[]> {
  const tables = await t.em().execute<{ table_name: string }[]>(
    `select c.table_name from information_schema.columns c join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
      where c.table_schema = 'public' and c.column_name = 'session_id' and t.table_type = 'BASE TABLE'`,
  );
  const found: string[] = [];
  for (const table of ['sessions', ...tables.map((row) => row.table_name)]) {
    const column = table === 'sessions' ? 'id' : 'session_id';
    const [row] = await t
      .em()
      .execute<{ count: number }[]>(`select count(*)::int as count from "${table}" t where t."${column}" = ? and t::text ilike ?`, [sessionId, `%${needle}%`]);
    if (row!.count > 0) found.push(table);
  }
  return found;
}

/** The session's stored export files (transcript JSON, PDF report) as text. */
async function storedExports(sessionId: string): Promise<{ name: string; storageKey: string; text: string }[]> {
  const files = await t
    .em()
    .execute<{ name: string; storage_key: string }[]>(`select name, storage_key from session_files where session_id = ? and kind = 'export' order by name`, [
      sessionId,
    ]);
  return Promise.all(
    files.map(async (file) => {
      const bytes = await stored(file.storage_key);
      return { name: file.name, storageKey: file.storage_key, text: file.name.endsWith('.pdf') ? await pdfText(bytes) : bytes.toString('utf8') };
    }),
  );
}

/** The storage__delete_files jobs waiting, their keys. */
async function deletionJobs(): Promise<string[][]> {
  const rows = await t
    .em()
    .execute<{ payload: { keys: string[] } }[]>(
      `select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'storage__delete_files' order by j.id`,
    );
  return rows.map((row) => row.payload.keys);
}

/** Decoded samples, mono 16-bit at `rate`. */
async function pcm(audio: Buffer, rate: number): Promise<Int16Array> {
  const file = path.join(work, randomUUID());
  await writeFile(file, audio);
  const { stdout } = await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', String(rate), '-'], {
    encoding: 'buffer',
    maxBuffer: 256 * 1024 * 1024,
  });
  return new Int16Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.length / 2));
}

function peak(samples: Int16Array, rate: number, from: number, to: number): number {
  let max = 0;
  for (let i = Math.max(0, Math.round(from * rate)); i < Math.min(samples.length, Math.round(to * rate)); i++) max = Math.max(max, Math.abs(samples[i]!));
  return max;
}

function rms(samples: Int16Array, rate: number, from: number, to: number): number {
  let sum = 0;
  let count = 0;
  for (let i = Math.max(0, Math.round(from * rate)); i < Math.min(samples.length, Math.round(to * rate)); i++) {
    sum += samples[i]! * samples[i]!;
    count++;
  }
  return Math.sqrt(sum / Math.max(1, count));
}

describe('redactions.redact on a typed interview', () => {
  const SPAN = 'the setup took two days';

  it('removes the span from the transcript in every format, the PDF, the exports, insights, search, webhook facts and stored files; highlights move; the audit entry holds no words', async () => {
    const { sessionId, campaign } = await completedTextInterview(t, api);
    const [first] = await participantUtterances(sessionId);
    const start = first!.text.indexOf(SPAN);
    const end = start + SPAN.length;
    expect(start).toBeGreaterThan(0);

    // Copies the service could hold: a quote and a summary sentence in the insights, a stored event's facts.
    const sentence = first!.text.slice(first!.text.indexOf('Honestly'), first!.text.indexOf('two days.') + 'two days.'.length);
    await t
      .em()
      .execute(`update session_insights set key_quotes = key_quotes || ?::jsonb, summary = summary || ? where session_id = ?`, [
        JSON.stringify([{ text: sentence, utteranceId: first!.id }]),
        ` They said: "${sentence.toLowerCase()}"`,
        sessionId,
      ]);
    const eventId = randomUUID();
    await t
      .em()
      .execute(
        `insert into webhook_events (id, organization_id, type, session_id, facts, occurred_at) values (?, ?, 'session.feedback_submitted', ?, ?::jsonb, now())`,
        [
          eventId,
          tenant.organizationId,
          sessionId,
          JSON.stringify({ sessionId, campaignId: campaign.id, feedback: { id: 'fbk_x', comments: `Again: ${SPAN}, really.` } }),
        ],
      );
    // Highlights before, over and after the span.
    const highlight = (id: string, from: number, to: number) =>
      t.em().execute(
        `insert into highlights (id, organization_id, session_id, utterance_id, start_offset, end_offset, color, author_kind, author_id, author_name, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, '#fde047', 'api_key', ?, 'test key', now(), now())`,
        [id, tenant.organizationId, sessionId, first!.id, from, to, tenant.apiKeyId],
      );
    await highlight('hlt_before', 0, 8);
    await highlight('hlt_over', start - 5, start + 4);
    await highlight('hlt_after', end + 2, end + 10);
    const afterQuote = first!.text.slice(end + 2, end + 10);
    expect(await rowsContaining('took two days', sessionId)).toEqual(expect.arrayContaining(['session_utterances', 'session_insights', 'webhook_events']));

    const result = await client.redactions.redact.mutate({ sessionId, utteranceId: first!.id, start, end, expectedText: SPAN, reason: 'Identifying detail' });
    const expected = `${first!.text.slice(0, start)}[REDACTED]${first!.text.slice(end)}`;
    expect(result).toMatchObject({
      changed: true,
      sessionId,
      utteranceId: first!.id,
      text: expected,
      marker: { start, end: start + 10 },
      audio: { mode: 'none', start: null, end: null, files: [] },
      highlightsAdjusted: 2,
      entry: { action: 'redact', actor: { kind: 'api_key', id: tenant.apiKeyId, name: 'test key' }, reason: 'Identifying detail' },
    });

    const [row] = await participantUtterances(sessionId);
    expect(row!.text).toBe(expected);
    expect((row!.keywords ?? []).join(' ')).not.toMatch(/setup/i);

    // The transcript in all four formats, with and without sentiment.
    const json = await api.get(`/v1/sessions/${sessionId}/transcript`).expect(200);
    expect(json.body.utterances.find((u: { id: string }) => u.id === first!.id).text).toBe(expected);
    for (const format of ['json', 'text', 'srt', 'vtt']) {
      const body = (await api.get(`/v1/sessions/${sessionId}/transcript?format=${format}&include_sentiment=false`).expect(200)).text;
      expect(body).not.toContain('took two days');
      expect(body).toContain('[REDACTED]');
    }
    expect((await client.transcripts.get.query({ sessionId })).utterances.find((u) => u.id === first!.id)!.text).toBe(expected);

    // The PDF report, asked for and as stored by the completion chain.
    const pdf = await asBytes(api.get(`/v1/sessions/${sessionId}/pdf`)).expect(200);
    const reportText = await pdfText(pdf.body as Buffer);
    expect(reportText).toContain('[REDACTED]');
    expect(reportText).not.toContain('took two days');
    const files = await t
      .em()
      .execute<{ id: string; name: string; storage_key: string; size_bytes: string; sha256: string }[]>(
        `select id, name, storage_key, size_bytes, sha256 from session_files where session_id = ? and kind = 'export' order by name`,
        [sessionId],
      );
    expect(files.map((file) => file.name)).toEqual([`report-${sessionId}.pdf`, `transcript-${sessionId}.json`]);
    for (const file of files) {
      const bytes = await stored(file.storage_key);
      expect(bytes.length).toBe(Number(file.size_bytes));
      const text = file.name.endsWith('.pdf') ? await pdfText(bytes) : bytes.toString('utf8');
      expect(text).toContain('[REDACTED]');
      expect(text).not.toContain('took two days');
    }

    // Exports: JSON, CSV, and the ZIP's transcripts.
    for (const query of ['format=json', 'format=csv', 'format=json&include_audio=true']) {
      const exported = await asBytes(api.get(`/api/campaigns/${campaign.id}/transcripts?${query}`)).expect(200);
      const text = query.includes('include_audio') ? await unzipText(exported.body as Buffer) : (exported.body as Buffer).toString('utf8');
      expect(text).toContain('[REDACTED]');
      expect(text).not.toContain('took two days');
    }

    // Insights: the quote and the summary lost the words, nothing else.
    const insights = await client.transcripts.insights.query({ sessionId });
    expect(JSON.stringify(insights)).not.toMatch(/took two days/i);
    expect(insights.keyQuotes.at(-1)!.text).toBe(`Honestly the onboarding emails had broken links, and [REDACTED].`);
    expect(insights.summary).toContain('They said: "honestly the onboarding emails had broken links, and [REDACTED]."');

    // Search reads the index generated from the text; no table holds the words any more.
    const [hits] = await t
      .em()
      .execute<{ count: number }[]>(
        `select count(*)::int as count from session_utterances where session_id = ? and search_vector @@ plainto_tsquery('english', 'took two days')`,
        [sessionId],
      );
    expect(hits!.count).toBe(0);
    expect(await rowsContaining('took two days', sessionId)).toEqual([]);
    const [event] = await t.em().execute<{ facts: { feedback: { comments: string } } }[]>(`select facts from webhook_events where id = ?`, [eventId]);
    expect(event!.facts.feedback.comments).toBe('Again: [REDACTED], really.');

    // Highlights: before unchanged, over widened to cover the marker, after moved by the change in length.
    const highlights = await t
      .em()
      .execute<{ id: string; start_offset: number; end_offset: number }[]>(
        `select id, start_offset, end_offset from highlights where session_id = ? order by id`,
        [sessionId],
      );
    const delta = 10 - SPAN.length;
    expect(highlights).toEqual([
      { id: 'hlt_after', start_offset: end + 2 + delta, end_offset: end + 10 + delta },
      { id: 'hlt_before', start_offset: 0, end_offset: 8 },
      { id: 'hlt_over', start_offset: start - 5, end_offset: start + 10 },
    ]);
    expect(row!.text.slice(end + 2 + delta, end + 10 + delta)).toBe(afterQuote);

    // The audit entry: offsets and what was scrubbed, never the words.
    const [audit] = await t
      .em()
      .execute<{ action: string; actor_kind: string; actor_id: string; reason: string; details: Record<string, unknown> }[]>(
        `select action, actor_kind, actor_id, reason, details from transcript_audit_log where session_id = ?`,
        [sessionId],
      );
    expect(audit).toMatchObject({ action: 'redact', actor_kind: 'api_key', actor_id: tenant.apiKeyId, reason: 'Identifying detail' });
    expect(audit!.details).toMatchObject({ requested: { start, end }, removed: { start, end, length: SPAN.length }, marker: { start, end: start + 10 } });
    expect(JSON.stringify(audit)).not.toMatch(/took|two days|setup/i);
    const listed = await client.redactions.list.query({ sessionId });
    expect(listed.data).toEqual([result.entry]);
  });

  it('a span inside an earlier marker changes nothing and logs nothing; one cutting into a marker takes it whole', async () => {
    const { sessionId } = await completedTextInterview(t, api);
    const [first] = await participantUtterances(sessionId);
    const start = first!.text.indexOf('broken links');
    const { text } = await client.redactions.redact.mutate({
      sessionId,
      utteranceId: first!.id,
      start,
      end: start + 'broken links'.length,
      expectedText: 'broken links',
    });
    const again = await client.redactions.redact.mutate({ sessionId, utteranceId: first!.id, start: start + 1, end: start + 6, expectedText: 'REDAC' });
    expect(again).toMatchObject({ changed: false, marker: null, entry: null });
    // "had [RED" + "ACTED]": the span reaches into the marker, which goes whole with "had ".
    const had = text.indexOf('had ');
    const cut = await client.redactions.redact.mutate({
      sessionId,
      utteranceId: first!.id,
      start: had,
      end: had + 'had [RED'.length,
      expectedText: 'had [RED',
    });
    expect(cut.text).toContain('emails [REDACTED], and');
    expect(cut.marker).toEqual({ start: had, end: had + 10 });
    expect((await client.redactions.list.query({ sessionId })).data).toHaveLength(2);
  });

  it('answers 409 TRANSCRIPT_CHANGED for offsets beyond the text, 400 for end before start or an expectedText of another length, 404 for unknown utterances and other organizations, 403 without sessions:write, 409 while the session runs', async () => {
    const { sessionId } = await completedTextInterview(t, api);
    const [first] = await participantUtterances(sessionId);
    const length = first!.text.length;
    const span = (start: number, end: number) => ({ sessionId, utteranceId: first!.id, start, end, expectedText: first!.text.slice(start, end) });
    // expectedText is end - start long: a caller naming offsets beyond the text saw another, longer text.
    expect(await trpcFailure(client.redactions.redact.mutate({ ...span(2, length), end: length + 1, expectedText: `${first!.text.slice(2)}.` }))).toMatchObject(
      {
        httpStatus: 409,
        appCode: 'TRANSCRIPT_CHANGED',
        details: { utteranceId: first!.id, requested: { start: 2, end: length + 1 }, current: null, length },
      },
    );
    const wrongLength = await trpcFailure(client.redactions.redact.mutate({ ...span(0, 3), expectedText: 'Hon' + 'x' }));
    expect([400, 422]).toContain(wrongLength.httpStatus);
    expect(wrongLength.details.fields).toEqual([expect.objectContaining({ path: 'expectedText' })]);
    const backwards = await trpcFailure(client.redactions.redact.mutate({ ...span(5, 5) }));
    expect(backwards.httpStatus).toBeGreaterThanOrEqual(400);
    expect(backwards.httpStatus).toBeLessThan(500);
    expect(backwards.details.fields).toEqual([expect.objectContaining({ path: 'end' })]);
    const halfRange = await trpcFailure(client.redactions.redact.mutate({ ...span(0, 3), audioStart: 1 }));
    expect(halfRange.details.fields).toEqual([expect.objectContaining({ path: 'audioEnd' })]);
    expect(await trpcFailure(client.redactions.redact.mutate({ ...span(0, 3), audioStart: 1, audioEnd: 2 }))).toMatchObject({
      httpStatus: 422,
      details: { fields: [{ path: 'audioStart', message: 'the utterance has no recording to silence' }] },
    });
    expect(await trpcFailure(client.redactions.redact.mutate({ ...span(0, 3), utteranceId: 'utt_unknown' }))).toMatchObject({
      httpStatus: 404,
      appCode: 'RESOURCE_NOT_FOUND',
      details: { fields: [{ path: 'utteranceId', message: 'no utterance with this id' }] },
    });

    const other = await t.createTenant();
    const outsider = t.clientOf(other);
    expect(await trpcFailure(outsider.redactions.redact.mutate(span(0, 3)))).toMatchObject({ httpStatus: 404, appCode: 'RESOURCE_NOT_FOUND' });
    expect(await trpcFailure(outsider.redactions.list.query({ sessionId }))).toMatchObject({ httpStatus: 404 });

    const reader = await t.createKey(
      tenant.organizationId,
      PERMISSIONS.filter((permission) => permission !== 'sessions:write'),
    );
    const readOnly = t.clientOf(reader);
    expect(await trpcFailure(readOnly.redactions.redact.mutate(span(0, 3)))).toMatchObject({ httpStatus: 403, appCode: 'INSUFFICIENT_PERMISSIONS' });
    expect(await readOnly.redactions.list.query({ sessionId })).toEqual({ data: [] });
    const blind = await t.createKey(tenant.organizationId, ['campaigns:read']);
    expect(await trpcFailure(t.clientOf(blind).redactions.list.query({ sessionId }))).toMatchObject({ httpStatus: 403 });

    const { invite } = await interviewFixture(api);
    const running = await participantAs(t.http, invite.token).start().expect(201);
    const [question] = await t
      .em()
      .execute<{ id: string }[]>(`select id from session_utterances where session_id = ? order by seq limit 1`, [running.body.session.id]);
    expect(
      await trpcFailure(
        client.redactions.redact.mutate({ sessionId: running.body.session.id, utteranceId: question!.id, start: 0, end: 3, expectedText: 'abc' }),
      ),
    ).toMatchObject({
      httpStatus: 409,
      appCode: 'SESSION_NOT_ACTIVE',
    });
    const [unchanged] = await participantUtterances(sessionId);
    expect(unchanged!.text).toBe(first!.text);
  });
});

describe('redactions.redact against a changed text', () => {
  it('a retried or stale redaction (the span is not expectedText any more) answers 409 TRANSCRIPT_CHANGED with where the span is now, and changes nothing', async () => {
    const { sessionId } = await completedTextInterview(t, api);
    const [first] = await participantUtterances(sessionId);
    const links = first!.text.indexOf('broken links');
    const call = { sessionId, utteranceId: first!.id, start: links, end: links + 'broken links'.length, expectedText: 'broken links' };
    const done = await client.redactions.redact.mutate(call);
    expect(done.changed).toBe(true);
    const files = async () => t.em().execute<{ storage_key: string }[]>(`select storage_key from session_files where session_id = ? order by id`, [sessionId]);
    const filesBefore = await files();

    // The same call again (a retry after a lost answer): the offsets now hold other words.
    expect(await trpcFailure(client.redactions.redact.mutate(call))).toMatchObject({
      httpStatus: 409,
      appCode: 'TRANSCRIPT_CHANGED',
      details: { utteranceId: first!.id, requested: { start: call.start, end: call.end }, current: null, length: done.text.length },
    });
    // Offsets read before that redaction: the words are still there, further left.
    const setup = first!.text.indexOf('the setup');
    const stale = { sessionId, utteranceId: first!.id, start: setup, end: setup + 'the setup'.length, expectedText: 'the setup' };
    const refused = await trpcFailure(client.redactions.redact.mutate(stale));
    const now = done.text.indexOf('the setup');
    expect(refused).toMatchObject({ httpStatus: 409, appCode: 'TRANSCRIPT_CHANGED', details: { current: { start: now, end: now + 'the setup'.length } } });
    expect(JSON.stringify(refused.details)).not.toContain('setup');

    const [row] = await participantUtterances(sessionId);
    expect(row!.text).toBe(done.text);
    expect((await client.redactions.list.query({ sessionId })).data).toHaveLength(1);
    expect(await files()).toEqual(filesBefore);

    // Redacting from where the span is now works.
    const redone = await client.redactions.redact.mutate({ ...stale, start: now, end: now + 'the setup'.length });
    expect(redone.text).toBe(`${done.text.slice(0, now)}[REDACTED]${done.text.slice(now + 'the setup'.length)}`);
  });
});

describe('redactions.redact on text made from the utterance', () => {
  it("removes the span and the parts of it that name someone or something from insights (summary, action items, topics), webhook facts and parsed answers; re-cuts the utterance's key quotes; drops topics left with nothing but markers", async () => {
    const SPAN = 'John Smith and I live at 12 Elm Road';
    const answer = `Honestly my name is ${SPAN}, so the office is a short walk and I really like the commute there.`;
    const { sessionId, campaign } = await completedTextInterview(t, api, [answer, ...TEXT_ANSWERS.slice(1)]);
    const [first] = await participantUtterances(sessionId);
    expect(first!.text).toBe(answer);
    await t.em().execute(`update session_insights set summary = ?, action_items = ?::jsonb, topics = ?::jsonb, key_quotes = ?::jsonb where session_id = ?`, [
      'The participant, John Smith, described a short walk to the office.',
      JSON.stringify(['Lives at Elm Road: send the welcome pack there.', 'Fix the broken links.']),
      JSON.stringify([
        { label: 'Smith', utteranceIds: [first!.id] },
        { label: 'Office walk', utteranceIds: [first!.id] },
      ]),
      JSON.stringify([{ text: answer, utteranceId: first!.id }]),
      sessionId,
    ]);
    await t
      .em()
      .execute(
        `update sessions set answers = (select jsonb_agg(case when a->>'questionId' = 'channel' then jsonb_set(a, '{value}', '"Chat with John"') else a end order by n) from jsonb_array_elements(answers) with ordinality as x(a, n)) where id = ?`,
        [sessionId],
      );
    const eventId = randomUUID();
    await t
      .em()
      .execute(
        `insert into webhook_events (id, organization_id, type, session_id, facts, occurred_at) values (?, ?, 'session.feedback_submitted', ?, ?::jsonb, now())`,
        [
          eventId,
          tenant.organizationId,
          sessionId,
          JSON.stringify({ sessionId, campaignId: campaign.id, feedback: { id: 'fbk_y', comments: 'Smith said the walk from Elm Road takes 12 minutes.' } }),
        ],
      );

    const start = answer.indexOf(SPAN);
    const result = await client.redactions.redact.mutate({ sessionId, utteranceId: first!.id, start, end: start + SPAN.length, expectedText: SPAN });
    expect(result.text).toBe('Honestly my name is [REDACTED], so the office is a short walk and I really like the commute there.');

    const insights = await client.transcripts.insights.query({ sessionId });
    expect(insights.summary).toBe('The participant, [REDACTED], described a short walk to the office.');
    expect(insights.actionItems).toEqual(['Lives at [REDACTED]: send the welcome pack there.', 'Fix the broken links.']);
    expect(insights.topics.map((topic) => topic.label)).toEqual(['Office walk']);
    expect(insights.keyQuotes).toEqual([{ text: result.text, utteranceId: first!.id }]);
    const [event] = await t.em().execute<{ facts: { feedback: { comments: string } } }[]>(`select facts from webhook_events where id = ?`, [eventId]);
    // The 12 of "12 minutes" is not the house number: a digit of the span on its own is no copy of it (issue 28).
    expect(event!.facts.feedback.comments).toBe('[REDACTED] said the walk from [REDACTED] takes 12 minutes.');
    const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    expect(session.answers.find((a: { questionId: string }) => a.questionId === 'channel').value).toBe('Chat with [REDACTED]');
    for (const needle of ['Smith', 'Elm Road', '12 Elm']) expect(await rowsContaining(needle, sessionId), needle).toEqual([]);
    for (const file of await storedExports(sessionId)) expect(file.text).not.toMatch(/Smith|Elm Road/);
  });

  it("removes the span from the probe ledgers that picked it up (a follow-up's pickedUp), and nothing else of them", async () => {
    const SPAN = 'Jane Doe at Northwind';
    const answer = `I asked ${SPAN} twice and gave up after two tries.`;
    // "ok" draws a follow-up; the span is in the answer to it.
    const { sessionId } = await probedTextInterview(t, api, answer);
    const [followUp] = await t.em().execute<{ id: string }[]>(`select id from session_utterances where session_id = ? and kind = 'follow_up'`, [sessionId]);
    const spanAnswer = (await participantUtterances(sessionId)).find((row) => row.text === answer)!;
    // The ledger as a probe that picked up these words records it (tests/interviewer/probe-ledger.test.ts records one through the API).
    await t
      .em()
      .execute(`update session_utterances set probe = ?::jsonb where id = ?`, [
        JSON.stringify({ reason: 'workaround', pickedUp: `asked ${SPAN} twice`, source: 'llm', probeNumber: 1 }),
        followUp!.id,
      ]);
    const start = answer.indexOf(SPAN);
    await client.redactions.redact.mutate({ sessionId, utteranceId: spanAnswer.id, start, end: start + SPAN.length, expectedText: SPAN });
    const [row] = await t.em().execute<{ probe: unknown }[]>(`select probe from session_utterances where id = ?`, [followUp!.id]);
    expect(row!.probe).toEqual({ reason: 'workaround', pickedUp: 'asked [REDACTED] twice', source: 'llm', probeNumber: 1 });
    const transcript = (await api.get(`/v1/sessions/${sessionId}/transcript`).expect(200)).body;
    expect(JSON.stringify(transcript)).not.toMatch(/Jane|Northwind/);
  });

  it('redacting a phone number changes only the copies of it: a rating of 4, a duration of 3 min 14 s and an option "14 or more" stay in the insights, the answers, the webhook facts and the PDF', async () => {
    const PHONE = '+33 4 14 22 35 01';
    const questions = [
      { id: 'contact', text: 'How can our team reach you about your answers?', type: 'open', followUp: { enabled: false } },
      { id: 'ease', text: 'How hard was the setup, from 1 (very easy) to 4 (very hard)?', type: 'rating', scale: { min: 1, max: 4 } },
      { id: 'team', text: 'How many people on your team use it?', type: 'multiple_choice', options: ['Just me', '2 to 4 people', '14 or more'] },
    ];
    const { campaign } = await interviewFixture(api, { questions });
    const answers = [`Call me on ${PHONE} any weekday after lunch, or write if that is easier for you.`, '4', '14 or more'];
    const { sessionId } = await completedTextInterview(t, api, answers, { campaignId: campaign.id, runJobs: false });
    // 194 s: the summary and the PDF say "3 min 14 s", whose 14 is also a digit group of the phone number.
    await t.em().execute(`update sessions set duration_seconds = 194 where id = ?`, [sessionId]);
    await runCompletionChain(t, sessionId);
    const [contact] = await participantUtterances(sessionId);
    const session = async () => (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body as { answers: { questionId: string; value: unknown }[] };
    const facts = async () =>
      (await t.em().execute<{ facts: unknown }[]>(`select facts from webhook_events where session_id = ? order by id`, [sessionId])).map((row) => row.facts);
    const reportText = async () => (await storedExports(sessionId)).find((file) => file.name.endsWith('.pdf'))!.text;
    const insightsBefore = await client.transcripts.insights.query({ sessionId });
    expect(insightsBefore.summary).toContain('3 min 14 s');
    expect(insightsBefore.summary).toContain('(very hard)? 4');
    const answersBefore = (await session()).answers;
    expect(answersBefore.map((answer) => [answer.questionId, answer.value])).toEqual([
      ['ease', 4],
      ['team', '14 or more'],
    ]);
    const factsBefore = await facts();
    const pdfBefore = await reportText();
    for (const value of ['3 min 14 s', '(very hard)', '14 or more']) expect(pdfBefore).toContain(value);

    const start = contact!.text.indexOf(PHONE);
    const result = await client.redactions.redact.mutate({ sessionId, utteranceId: contact!.id, start, end: start + PHONE.length, expectedText: PHONE });
    expect(result.text).toBe('Call me on [REDACTED] any weekday after lunch, or write if that is easier for you.');

    // Every copy changes exactly where it held the phone number, and nowhere else.
    const redacted = (value: unknown) => JSON.parse(JSON.stringify(value).split(PHONE).join('[REDACTED]'));
    const insightsAfter = await client.transcripts.insights.query({ sessionId });
    expect({ ...insightsAfter, generatedAt: null }).toEqual(redacted({ ...insightsBefore, generatedAt: null }));
    expect((await session()).answers).toEqual(redacted(answersBefore));
    expect(await facts()).toEqual(redacted(factsBefore));
    const pdfAfter = await reportText();
    for (const value of ['3 min 14 s', '(very hard)', '14 or more', 'in 3 min 14 s, answering']) expect(pdfAfter, value).toContain(value);
    expect(pdfAfter.split('[REDACTED]').length).toBe(pdfBefore.split(PHONE).length);
    expect(pdfAfter).not.toContain('22 35 01');
    expect(await rowsContaining('22 35 01', sessionId)).toEqual([]);
  });

  it("a copy loses the span written another way and the names in it, and nothing else: not a digit group on its own, a common word, a name's lower-case homonym or a word that starts with the span", () => {
    const scrubberFor = (original: string, span: string, language = 'en') =>
      derivedTextScrubber(original, original.indexOf(span), original.indexOf(span) + span.length, language);
    const phone = scrubberFor('Call me on +33 4 14 22 35 01 any weekday after lunch.', '+33 4 14 22 35 01');
    expect(phone('Ring 04 14 22 35 01, 0414223501, +33 (0)4 14 22 35 01 or 0033 4 14 22 35 01.')).toBe(
      'Ring [REDACTED], [REDACTED], [REDACTED] or [REDACTED].',
    );
    const unrelated = 'Completed in 3 min 14 s. Rate it from 1 (very easy) to 4 (very hard)? 4; 14 or more; 22 of 35 (0.01).';
    expect(phone(unrelated)).toBe(unrelated);
    const address = scrubberFor('Honestly my name is Will Turner and I live at 12 Elm Road, near the station.', 'Will Turner and I live at 12 Elm Road');
    expect(address('We will live with it: 12 people agreed.')).toBe('We will live with it: 12 people agreed.');
    expect(address('Will Turner lives in 12 Elm Road; Turner walks.')).toBe('[REDACTED] lives in [REDACTED]; [REDACTED] walks.');
    const short = scrubberFor('Ask Al about it, he knows.', 'Al');
    expect(short('Also ask Al, or AL.')).toBe('Also ask [REDACTED], or [REDACTED].');
  });

  it("takes a word for distinctive by the interview language's stop words: at least two letters or a digit", () => {
    // Dutch: "de", "uit", "en", "ik", "in" are stop words; the name, the town, the postcode and "woon" are not.
    expect(distinctiveWords('Marieke de Vries uit Utrecht, en ik woon in 3512 AB', 'nl-BE').sort()).toEqual([
      '3512',
      'ab',
      'marieke',
      'utrecht',
      'vries',
      'woon',
    ]);
    expect(distinctiveWords('I am J. [REDACTED] from B4', 'en').sort()).toEqual(['b4']);
    const original = 'Je kunt Marieke de Vries bellen, ze woont in Utrecht.';
    const span = 'Marieke de Vries';
    const scrub = derivedTextScrubber(original, original.indexOf(span), original.indexOf(span) + span.length, 'nl');
    expect(scrub('Mevrouw De Vries (Marieke) is de contactpersoon; de VRIESKIST niet.')).toBe(
      'Mevrouw De [REDACTED] ([REDACTED]) is de contactpersoon; de VRIESKIST niet.',
    );
    expect(scrub('Geen namen hier.')).toBe('Geen namen hier.');
  });
});

describe('redactions.redact and the stored exports', () => {
  it('waits for the exports: once announced but before the transcript JSON and PDF are stored, 409 TRANSCRIPT_NOT_READY and nothing changes; then it redacts them', async () => {
    const { sessionId } = await completedTextInterview(t, api, TEXT_ANSWERS, { runJobs: false });
    await runJobsOnce(t, { tasks: ['session__generate_transcript', 'session__generate_insights', 'session__prepare_files', 'session__announce_completion'] });
    const channel = (await participantUtterances(sessionId)).find((row) => row.text.startsWith('In-app chat'))!;
    const redact = () => client.redactions.redact.mutate({ sessionId, utteranceId: channel.id, start: 0, end: 11, expectedText: 'In-app chat' });
    expect(await trpcFailure(redact())).toMatchObject({ httpStatus: 409, appCode: 'TRANSCRIPT_NOT_READY', details: { status: 'pending' } });
    expect((await participantUtterances(sessionId)).find((row) => row.id === channel.id)!.text).toBe(channel.text);

    await runJobsOnce(t, { tasks: ['session__prepare_exports'] });
    await redact();
    const exports = await storedExports(sessionId);
    expect(exports.map((file) => file.name).sort()).toEqual([`report-${sessionId}.pdf`, `transcript-${sessionId}.json`]);
    for (const file of exports) expect(file.text).not.toContain('In-app chat');
  });

  it('two redactions in a row: the stored PDF report and transcript JSON hold neither span (the answers section included), and the files they replaced are deleted by the job added with each', async () => {
    const { sessionId } = await completedTextInterview(t, api);
    const channel = (await participantUtterances(sessionId)).find((row) => row.text.startsWith('In-app chat'))!;
    const before = await storedExports(sessionId);
    const report = before.find((file) => file.name.endsWith('.pdf'))!;
    // The answers section and the transcript both show the choice.
    expect(report.text.split('In-app chat').length - 1).toBeGreaterThanOrEqual(2);
    const jobsBefore = await deletionJobs();

    const firstCut = await client.redactions.redact.mutate({
      sessionId,
      utteranceId: channel.id,
      start: 0,
      end: 'In-app chat'.length,
      expectedText: 'In-app chat',
    });
    const afterFirst = await storedExports(sessionId);
    for (const file of afterFirst) expect(file.text, file.name).not.toContain('In-app chat');
    expect(afterFirst.find((file) => file.name.endsWith('.pdf'))!.text).toContain('[REDACTED]');
    // The replaced exports stay stored until the job the redaction added runs.
    expect((await deletionJobs()).slice(jobsBefore.length)).toEqual([expect.arrayContaining(before.map((file) => file.storageKey))]);
    for (const file of before) expect((await stored(file.storageKey)).length).toBeGreaterThan(0);
    await runJobsOnce(t, { tasks: ['storage__delete_files'] });
    for (const file of before) await expect(t.runtime.services.storage.open(file.storageKey)).rejects.toBeInstanceOf(FileNotFoundError);
    expect(await deletionJobs()).toEqual([]);

    const from = firstCut.text.indexOf('kept my history');
    await client.redactions.redact.mutate({
      sessionId,
      utteranceId: channel.id,
      start: from,
      end: from + 'kept my history'.length,
      expectedText: 'kept my history',
    });
    for (const file of await storedExports(sessionId)) {
      expect(file.text, file.name).not.toContain('In-app chat');
      expect(file.text, file.name).not.toContain('kept my history');
    }
    const served = await pdfText((await asBytes(api.get(`/v1/sessions/${sessionId}/pdf`)).expect(200)).body as Buffer);
    expect(served).not.toMatch(/In-app chat|kept my history/);
    await runJobsOnce(t, { tasks: ['storage__delete_files'] });
    for (const file of afterFirst) await expect(t.runtime.services.storage.open(file.storageKey)).rejects.toBeInstanceOf(FileNotFoundError);
  });
});

describe('redactions.redact on an audio answer', () => {
  it("silences the range in the answer recording (sample-exact), the merged recording and the participant's track, rewrites the files, deletes the old ones; without a range the whole answer goes silent", async () => {
    const { invite } = await interviewFixture(api, { questions: ONE_QUESTION });
    const participant = participantAs(t.http, invite.token);
    const started = await participant.start().expect(201);
    const sessionId: string = started.body.session.id;
    const recording = wav(3, 440);
    // Recorded in the 4 s its turn took: the merged recording holds the answer's time only.
    await letTimePass(t, sessionId, 4);
    await participant.answerAudio(recording, 'answer.wav', { text: 'My name is Ada Lovelace and I live in London near the river.' }).expect(200);
    await runCompletionChain(t, sessionId);

    const [answer] = await participantUtterances(sessionId);
    const audioFiles = async () =>
      t
        .em()
        .execute<{ id: string; kind: string; storage_key: string; size_bytes: string; sha256: string; content_type: string }[]>(
          `select id, kind, storage_key, size_bytes, sha256, content_type from session_files where session_id = ? and kind in ('audio', 'merged_audio', 'participant_audio') order by kind`,
          [sessionId],
        );
    const before = await audioFiles();
    expect(before.map((file) => [file.kind, file.content_type])).toEqual([
      ['audio', 'audio/wav'],
      ['merged_audio', 'audio/ogg'],
      ['participant_audio', 'audio/ogg'],
    ]);
    const originalAnswer = await pcm(recording, 16_000);
    const originalMerged = await pcm(await stored(before[1]!.storage_key), 16_000);

    const text = answer!.text;
    const from = text.indexOf('Ada Lovelace');
    const audioStart = answer!.start_time + 1;
    const audioEnd = answer!.start_time + 2;
    const jobsBefore = await deletionJobs();
    const began = performance.now();
    const result = await client.redactions.redact.mutate({
      sessionId,
      utteranceId: answer!.id,
      start: from,
      end: from + 'Ada Lovelace'.length,
      expectedText: 'Ada Lovelace',
      audioStart,
      audioEnd,
    });
    const took = performance.now() - began;
    console.info(`redaction of an audio answer (two recordings silenced, exports made again): ${Math.round(took)} ms`);
    expect(took).toBeLessThan(10_000);
    expect(result.audio).toEqual({
      mode: 'range',
      start: audioStart,
      end: audioEnd,
      files: [
        { fileId: before[0]!.id, kind: 'audio', start: expect.closeTo(1, 6), end: expect.closeTo(2, 6) },
        { fileId: before[1]!.id, kind: 'merged_audio', start: audioStart, end: audioEnd },
        { fileId: before[2]!.id, kind: 'participant_audio', start: audioStart, end: audioEnd },
      ],
    });

    const after = await audioFiles();
    // The unsilenced recordings are deleted by the job added in the redaction's transaction.
    expect((await deletionJobs()).slice(jobsBefore.length)).toEqual([expect.arrayContaining(before.map((file) => file.storage_key))]);
    for (const file of before) expect((await stored(file.storage_key)).length).toBeGreaterThan(0);
    await runJobsOnce(t, { tasks: ['storage__delete_files'] });
    for (const [index, file] of after.entries()) {
      expect(file.storage_key).not.toBe(before[index]!.storage_key);
      await expect(t.runtime.services.storage.open(before[index]!.storage_key)).rejects.toBeInstanceOf(FileNotFoundError);
      const bytes = await stored(file.storage_key);
      expect(bytes.length).toBe(Number(file.size_bytes));
      expect(file.sha256).toBe((await import('node:crypto')).createHash('sha256').update(bytes).digest('hex'));
    }
    // The answer's WAV: silent inside the range, every other sample as recorded.
    const answerAudio = await pcm(await stored(after[0]!.storage_key), 16_000);
    expect(answerAudio.length).toBe(originalAnswer.length);
    expect(peak(originalAnswer, 16_000, 1, 2)).toBeGreaterThan(4000);
    expect(peak(answerAudio, 16_000, 1.0005, 1.9995)).toBe(0);
    let changedOutside = 0;
    for (let i = 0; i < answerAudio.length; i++) if ((i < 16_000 || i > 32_000) && answerAudio[i] !== originalAnswer[i]) changedOutside++;
    expect(changedOutside).toBe(0);
    // The merged Ogg Opus (re-encoded): silent inside (codec edges aside), as loud as before outside.
    const merged = await pcm(await stored(after[1]!.storage_key), 16_000);
    expect(peak(originalMerged, 16_000, audioStart + 0.05, audioEnd - 0.05)).toBeGreaterThan(4000);
    expect(peak(merged, 16_000, audioStart + 0.05, audioEnd - 0.05)).toBeLessThan(64);
    const loudBefore = rms(originalMerged, 16_000, answer!.start_time + 0.1, audioStart - 0.1);
    expect(rms(merged, 16_000, answer!.start_time + 0.1, audioStart - 0.1)).toBeGreaterThan(loudBefore * 0.8);
    expect(rms(merged, 16_000, audioEnd + 0.1, answer!.start_time + 2.9)).toBeGreaterThan(loudBefore * 0.8);
    // The participant's track likewise (the AI's holds no participant speech and is left as it was).
    const participantTrack = await pcm(await stored(after[2]!.storage_key), 16_000);
    expect(peak(participantTrack, 16_000, audioStart + 0.05, audioEnd - 0.05)).toBeLessThan(64);
    expect(rms(participantTrack, 16_000, audioEnd + 0.1, answer!.start_time + 2.9)).toBeGreaterThan(loudBefore * 0.8);

    // The recording is served as stored now.
    const [{ url }] = (await api.get(`/v1/sessions/${sessionId}/files`).expect(200)).body.data.filter((file: { kind: string }) => file.kind === 'audio');
    const served = await asBytes(t.http.get(new URL(url).pathname)).expect(200);
    expect(peak(await pcm(served.body as Buffer, 16_000), 16_000, 1.0005, 1.9995)).toBe(0);

    // No word timings and no range: the whole answer's recording goes.
    const london = result.text.indexOf('London');
    const whole = await client.redactions.redact.mutate({
      sessionId,
      utteranceId: answer!.id,
      start: london,
      end: london + 'London'.length,
      expectedText: 'London',
    });
    expect(whole.audio).toMatchObject({ mode: 'utterance', start: answer!.start_time });
    expect(whole.audio.end).toBeGreaterThanOrEqual(answer!.start_time + 2.99);
    const [silent] = await audioFiles();
    expect(peak(await pcm(await stored(silent!.storage_key), 16_000), 16_000, 0, 10)).toBe(0);

    const entries = (await client.redactions.list.query({ sessionId })).data;
    expect(entries.map((entry) => (entry.details.audio as { mode: string }).mode)).toEqual(['range', 'utterance']);
    expect(JSON.stringify(entries)).not.toMatch(/Lovelace|London/);
    expect(await rowsContaining('Lovelace', sessionId)).toEqual([]);
  });

  it('a recording in a format that cannot be rewritten answers 422 naming it, and nothing is redacted', async () => {
    const { invite } = await interviewFixture(api, { questions: ONE_QUESTION });
    const participant = participantAs(t.http, invite.token);
    const started = await participant.start().expect(201);
    const sessionId: string = started.body.session.id;
    await participant.answerAudio(wav(2, 440), 'answer.wav', { text: 'My name is Ada Lovelace.' }).expect(200);
    await runCompletionChain(t, sessionId);
    const [answer] = await participantUtterances(sessionId);
    await t.em().execute(`update session_files set content_type = 'audio/flac' where id = ?`, [answer!.audio_file_id]);
    const jobsBefore = await deletionJobs();
    const from = answer!.text.indexOf('Ada Lovelace');
    expect(
      await trpcFailure(
        client.redactions.redact.mutate({ sessionId, utteranceId: answer!.id, start: from, end: from + 'Ada Lovelace'.length, expectedText: 'Ada Lovelace' }),
      ),
    ).toMatchObject({
      httpStatus: 422,
      appCode: 'VALIDATION_ERROR',
      details: {
        fileId: answer!.audio_file_id,
        contentType: 'audio/flac',
        fields: [{ path: 'utteranceId', message: 'its recording (audio/flac) cannot be silenced' }],
      },
    });
    expect((await participantUtterances(sessionId))[0]!.text).toBe(answer!.text);
    expect(await deletionJobs()).toEqual(jobsBefore);
    expect((await client.redactions.list.query({ sessionId })).data).toEqual([]);
  });
});
