import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from '../helpers/factories.js';
import { type ListeningTestApp, startListeningTestApp, trpcFailure } from '../helpers/members.js';
import { completedTextInterview } from '../helpers/results.js';
import { waitForLockWaiters } from '../helpers/row-lock.js';

/**
 * Highlights (issue 16): labelled, coloured spans of an utterance's text. Only the offsets are
 * stored; the quote is cut from the utterance's current text whenever it is read.
 */

let t: ListeningTestApp;

beforeAll(async () => {
  t = await startListeningTestApp();
});
afterAll(() => t?.close());

interface UtteranceRow {
  id: string;
  text: string | null;
  speaker: 'ai' | 'participant';
  start_time: number;
}

/** An organization with one finished interview, and a tRPC client on its all-permission key. */
async function organizationWithInterview() {
  const tenant = await t.createTenant();
  const interview = await completedTextInterview(t, apiAs(t.http, tenant), undefined, { runJobs: false });
  const utterances = await t
    .em()
    .execute<UtteranceRow[]>(`select id, text, speaker, start_time from session_utterances where session_id = ? order by seq`, [interview.sessionId]);
  const answer = utterances.find((utterance) => utterance.speaker === 'participant' && utterance.text?.includes('broken links'))!;
  return { tenant, client: t.clientOf(tenant), sessionId: interview.sessionId, campaign: await campaignOf(interview.campaign.id), utterances, answer };
}

async function highlightRow(id: string) {
  const [row] = await t.em().execute<Record<string, unknown>[]>(`select * from highlights where id = ?`, [id]);
  return row;
}

function spanOf(text: string, words: string) {
  const start = text.indexOf(words);
  return { start, end: start + words.length };
}

async function campaignOf(id: string): Promise<{ id: string; name: string }> {
  const [row] = await t.em().execute<{ name: string }[]>(`select name from campaigns where id = ?`, [id]);
  return { id, name: row!.name };
}

let a: Awaited<ReturnType<typeof organizationWithInterview>>;
let b: Awaited<ReturnType<typeof organizationWithInterview>>;

beforeAll(async () => {
  [a, b] = await Promise.all([organizationWithInterview(), organizationWithInterview()]);
});

describe('highlights.create', () => {
  it('stores the offsets only and answers the quote, the default colour and the author', async () => {
    const span = spanOf(a.answer.text!, 'broken links');
    const highlight = await a.client.highlights.create.mutate({ sessionId: a.sessionId, utteranceId: a.answer.id, ...span, label: '  Onboarding ' });
    expect(highlight).toEqual({
      id: expect.stringMatching(/^hlt_/),
      sessionId: a.sessionId,
      campaignId: a.campaign.id,
      campaignName: a.campaign.name,
      utteranceId: a.answer.id,
      speaker: 'participant',
      startTime: a.answer.start_time,
      start: span.start,
      end: span.end,
      quote: 'broken links',
      label: 'Onboarding',
      color: '#fde047',
      note: null,
      author: { kind: 'api_key', id: a.tenant.apiKeyId, name: 'test key' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const row = await highlightRow(highlight.id);
    expect(row).toMatchObject({
      organization_id: a.tenant.organizationId,
      session_id: a.sessionId,
      utterance_id: a.answer.id,
      start_offset: span.start,
      end_offset: span.end,
      label: 'Onboarding',
      color: '#fde047',
      author_kind: 'api_key',
      author_id: a.tenant.apiKeyId,
    });
    // No copy of the words anywhere in the row.
    expect(JSON.stringify(row)).not.toContain('broken links');
  });

  it('normalizes a colour to lower-case #rrggbb and keeps a note', async () => {
    const highlight = await a.client.highlights.create.mutate({
      sessionId: a.sessionId,
      utteranceId: a.answer.id,
      start: 0,
      end: 8,
      color: '#A0F',
      note: 'Tone',
    });
    expect(highlight).toMatchObject({ color: '#aa00ff', note: 'Tone', quote: a.answer.text!.slice(0, 8), label: null });
  });

  it('answers 422 with field paths for a span outside the text, an empty span, a bad colour and a long label', async () => {
    const length = a.answer.text!.length;
    const base = { sessionId: a.sessionId, utteranceId: a.answer.id };
    const outside = await trpcFailure(a.client.highlights.create.mutate({ ...base, start: length, end: length + 5 }));
    expect(outside).toMatchObject({ appCode: 'VALIDATION_ERROR', httpStatus: 422 });
    expect(outside.details.fields).toEqual([
      { path: 'start', message: `must be less than ${length} (the utterance's length)` },
      { path: 'end', message: `must be at most ${length} (the utterance's length)` },
    ]);
    const empty = await trpcFailure(a.client.highlights.create.mutate({ ...base, start: 5, end: 5 }));
    expect(empty).toMatchObject({
      appCode: 'VALIDATION_ERROR',
      httpStatus: 422,
      details: { fields: [{ path: 'end', message: 'must be greater than start' }] },
    });
    const colour = await trpcFailure(a.client.highlights.create.mutate({ ...base, start: 0, end: 3, color: 'red' }));
    expect(colour).toMatchObject({ httpStatus: 422, details: { fields: [{ path: 'color' }] } });
    const label = await trpcFailure(a.client.highlights.create.mutate({ ...base, start: 0, end: 3, label: 'x'.repeat(61) }));
    expect(label).toMatchObject({ httpStatus: 422, details: { fields: [{ path: 'label', message: 'must be at most 60 characters' }] } });
    const note = await trpcFailure(a.client.highlights.create.mutate({ ...base, start: 0, end: 3, note: 'x'.repeat(2001) }));
    expect(note).toMatchObject({ httpStatus: 422, details: { fields: [{ path: 'note' }] } });
    const negative = await trpcFailure(a.client.highlights.create.mutate({ ...base, start: -1, end: 3 }));
    expect(negative).toMatchObject({ httpStatus: 422, details: { fields: [{ path: 'start' }] } });
  });

  it('checks the span against the text it will live with: a change committed while it waits for the row (a redaction) is the text it sees', async () => {
    const org = await organizationWithInterview();
    const text = org.answer.text!;
    const shorter = 'Call me.';
    // Fits the text as it is now, not the text the holder is about to commit.
    const span = { start: text.length - 4, end: text.length };
    expect(span.start).toBeGreaterThan(shorter.length);
    const holder = new pg.Client({ connectionString: t.database.url });
    await holder.connect();
    try {
      // As a redaction does: the utterance's row locked for update while its text is rewritten.
      await holder.query('begin');
      await holder.query('select id from session_utterances where id = $1 for update', [org.answer.id]);
      const creating = trpcFailure(org.client.highlights.create.mutate({ sessionId: org.sessionId, utteranceId: org.answer.id, ...span }));
      await waitForLockWaiters(holder);
      await holder.query('update session_utterances set text = $1 where id = $2', [shorter, org.answer.id]);
      await holder.query('commit');
      expect(await creating).toMatchObject({
        appCode: 'VALIDATION_ERROR',
        httpStatus: 422,
        details: { fields: [{ path: 'start', message: `must be less than ${shorter.length} (the utterance's length)` }, { path: 'end' }] },
      });
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await holder.end();
    }
    expect(await t.em().execute(`select 1 from highlights where utterance_id = ?`, [org.answer.id])).toHaveLength(0);
    // Against the new text, the same request for a span inside it is taken.
    const created = await org.client.highlights.create.mutate({ sessionId: org.sessionId, utteranceId: org.answer.id, start: 0, end: 4 });
    expect(created.quote).toBe('Call');
  });

  it('answers 400 when a required field is missing', async () => {
    const failure = await trpcFailure(a.client.highlights.create.mutate({ sessionId: a.sessionId, start: 0, end: 3 } as never));
    expect(failure).toMatchObject({ appCode: 'INVALID_REQUEST', httpStatus: 400, details: { fields: [{ path: 'utteranceId', message: 'is required' }] } });
  });

  it('answers 422 for an utterance without text', async () => {
    const [row] = await t.em().execute<{ id: string }[]>(
      `insert into session_utterances (id, organization_id, session_id, seq, speaker, kind, text, start_time, end_time, created_at)
       values ('utt_notext' || substr(md5(random()::text), 1, 10), ?, ?, 999, 'participant', 'answer', null, 1, 2, now()) returning id`,
      [a.tenant.organizationId, a.sessionId],
    );
    const failure = await trpcFailure(a.client.highlights.create.mutate({ sessionId: a.sessionId, utteranceId: row!.id, start: 0, end: 1 }));
    expect(failure).toMatchObject({ appCode: 'VALIDATION_ERROR', httpStatus: 422, details: { fields: [{ path: 'utteranceId', message: 'has no text' }] } });
  });

  it("answers 404 for another organization's session, and for an utterance of another session", async () => {
    const other = await trpcFailure(a.client.highlights.create.mutate({ sessionId: b.sessionId, utteranceId: b.answer.id, start: 0, end: 3 }));
    expect(other).toMatchObject({ appCode: 'RESOURCE_NOT_FOUND', httpStatus: 404, details: { resource: 'session', fields: [{ path: 'sessionId' }] } });
    const mixed = await trpcFailure(a.client.highlights.create.mutate({ sessionId: a.sessionId, utteranceId: b.answer.id, start: 0, end: 3 }));
    expect(mixed).toMatchObject({ appCode: 'RESOURCE_NOT_FOUND', httpStatus: 404, details: { resource: 'utterance', fields: [{ path: 'utteranceId' }] } });
    expect(await t.em().execute(`select 1 from highlights where utterance_id = ?`, [b.answer.id])).toHaveLength(0);
  });

  it('answers 403 to a key without sessions:write', async () => {
    const reader = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read']));
    const failure = await trpcFailure(reader.highlights.create.mutate({ sessionId: a.sessionId, utteranceId: a.answer.id, start: 0, end: 3 }));
    expect(failure).toMatchObject({ appCode: 'INSUFFICIENT_PERMISSIONS', httpStatus: 403, details: { required: 'sessions:write' } });
  });
});

describe('highlights.list', () => {
  it('pages newest first with a cursor, filters by session, campaign and label, in one statement per page', async () => {
    const org = await organizationWithInterview();
    const made = [];
    for (const label of ['Pricing', 'pricing', 'Support']) {
      made.push(await org.client.highlights.create.mutate({ sessionId: org.sessionId, utteranceId: org.answer.id, start: 0, end: 5, label }));
    }
    const first = await org.client.highlights.list.query({ limit: 2 });
    expect(first.data.map((highlight) => highlight.id)).toEqual([made[2]!.id, made[1]!.id]);
    expect(first.hasMore).toBe(true);
    const second = await org.client.highlights.list.query({ limit: 2, cursor: first.nextCursor! });
    expect(second).toEqual({ data: [made[0]], hasMore: false, nextCursor: null });

    const statements: string[] = [];
    const knex = t.runtime.orm.em.getConnection().getKnex();
    const listener = (query: { sql: string }) => statements.push(query.sql);
    knex.on('query', listener);
    const bySession = await org.client.highlights.list.query({ sessionId: org.sessionId });
    knex.removeListener('query', listener);
    expect(bySession.data).toHaveLength(3);
    expect(statements.filter((sql) => /session_utterances/.test(sql))).toHaveLength(1);
    const byCampaign = await org.client.highlights.list.query({ campaignId: org.campaign.id, label: 'PRICING' });
    expect(byCampaign.data.map((highlight) => highlight.id)).toEqual([made[1]!.id, made[0]!.id]);
  });

  it("cuts the quote from the utterance's current text, never from a stored copy", async () => {
    const org = await organizationWithInterview();
    const created = await org.client.highlights.create.mutate({ sessionId: org.sessionId, utteranceId: org.answer.id, start: 0, end: 8 });
    await t.em().execute(`update session_utterances set text = ? where id = ?`, ['[REDACTED] the rest', org.answer.id]);
    const [listed] = (await org.client.highlights.list.query({ sessionId: org.sessionId })).data;
    expect(listed).toMatchObject({ id: created.id, quote: '[REDACTE' });
  });

  it('answers 400 for a cursor it did not make', async () => {
    const failure = await trpcFailure(a.client.highlights.list.query({ cursor: 'cur_bm90IGEgY3Vyc29y' }));
    expect(failure).toMatchObject({ appCode: 'INVALID_REQUEST', httpStatus: 400, details: { fields: [{ path: 'cursor' }] } });
    // Shaped like PostgreSQL's text of a timestamp, but no such moment: refused here, never a 500 from `::timestamptz`.
    for (const when of [
      '2026-13-01 10:00:00+00',
      '2026-02-30 10:00:00+00',
      '2026-01-01 24:00:00+00',
      '2026-01-01 10:60:00+00',
      '2026-01-01 10:00:00+16',
      '0000-01-01 10:00:00+00',
    ]) {
      const cursor = `cur_${Buffer.from(JSON.stringify([when, 'hlt_x'])).toString('base64url')}`;
      expect(await trpcFailure(a.client.highlights.list.query({ cursor })), when).toMatchObject({
        appCode: 'INVALID_REQUEST',
        httpStatus: 400,
        details: { fields: [{ path: 'cursor' }] },
      });
    }
    // A real moment in every shape PostgreSQL writes is read.
    for (const when of ['2024-02-29 23:59:59.999999+00', '2026-11-26 10:15:30+05:30', '2026-11-26 10:15:30.1-08']) {
      const cursor = `cur_${Buffer.from(JSON.stringify([when, 'hlt_x'])).toString('base64url')}`;
      expect(await a.client.highlights.list.query({ cursor })).toMatchObject({ hasMore: expect.any(Boolean) });
    }
    const limit = await trpcFailure(a.client.highlights.list.query({ limit: 500 }));
    expect(limit).toMatchObject({ httpStatus: 422, details: { fields: [{ path: 'limit' }] } });
  });

  it("answers 404 for another organization's session or campaign, and never lists its highlights", async () => {
    await b.client.highlights.create.mutate({ sessionId: b.sessionId, utteranceId: b.answer.id, start: 0, end: 4 });
    expect(await trpcFailure(a.client.highlights.list.query({ sessionId: b.sessionId }))).toMatchObject({ appCode: 'RESOURCE_NOT_FOUND', httpStatus: 404 });
    expect(await trpcFailure(a.client.highlights.list.query({ campaignId: b.campaign.id }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      details: { fields: [{ path: 'campaignId' }] },
    });
    const all = await a.client.highlights.list.query({ limit: 100 });
    expect(all.data.every((highlight) => highlight.sessionId === a.sessionId)).toBe(true);
  });

  it('answers 403 to a key without sessions:read', async () => {
    const writerOnly = t.clientOf(await t.createKey(a.tenant.organizationId, ['campaigns:read']));
    expect(await trpcFailure(writerOnly.highlights.list.query({}))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      httpStatus: 403,
      details: { required: 'sessions:read' },
    });
  });
});

describe('highlights.update', () => {
  it('changes label, colour and note, and null clears them', async () => {
    const created = await a.client.highlights.create.mutate({ sessionId: a.sessionId, utteranceId: a.answer.id, start: 0, end: 4, label: 'Old', note: 'n' });
    const updated = await a.client.highlights.update.mutate({ highlightId: created.id, label: 'New', color: '#112233' });
    expect(updated).toMatchObject({ id: created.id, label: 'New', color: '#112233', note: 'n', start: 0, end: 4 });
    const cleared = await a.client.highlights.update.mutate({ highlightId: created.id, label: null, note: null });
    expect(cleared).toMatchObject({ label: null, note: null, color: '#112233' });
    expect(await highlightRow(created.id)).toMatchObject({ label: null, note: null, color: '#112233' });
  });

  it('answers 422 for a bad colour, 404 for another organization, 403 without sessions:write', async () => {
    const created = await a.client.highlights.create.mutate({ sessionId: a.sessionId, utteranceId: a.answer.id, start: 0, end: 4 });
    expect(await trpcFailure(a.client.highlights.update.mutate({ highlightId: created.id, color: '#12345g' }))).toMatchObject({
      httpStatus: 422,
      details: { fields: [{ path: 'color' }] },
    });
    expect(await trpcFailure(b.client.highlights.update.mutate({ highlightId: created.id, label: 'Mine' }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
    });
    const reader = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read']));
    expect(await trpcFailure(reader.highlights.update.mutate({ highlightId: created.id, label: 'x' }))).toMatchObject({ httpStatus: 403 });
    expect(await highlightRow(created.id)).toMatchObject({ label: null, color: '#fde047' });
  });
});

describe('highlights.delete', () => {
  it('removes the highlight and takes it out of every collection', async () => {
    const created = await a.client.highlights.create.mutate({ sessionId: a.sessionId, utteranceId: a.answer.id, start: 0, end: 4 });
    const collection = await a.client.collections.create.mutate({ name: `Quotes ${created.id}` });
    await a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: created.id });
    await a.client.highlights.delete.mutate({ highlightId: created.id });
    expect(await highlightRow(created.id)).toBeUndefined();
    expect(await t.em().execute(`select 1 from collection_items where highlight_id = ?`, [created.id])).toHaveLength(0);
    expect((await a.client.collections.items.query({ collectionId: collection.id })).data).toEqual([]);
  });

  it('answers 404 for another organization, 403 without sessions:write', async () => {
    const created = await a.client.highlights.create.mutate({ sessionId: a.sessionId, utteranceId: a.answer.id, start: 0, end: 4 });
    expect(await trpcFailure(b.client.highlights.delete.mutate({ highlightId: created.id }))).toMatchObject({ appCode: 'RESOURCE_NOT_FOUND', httpStatus: 404 });
    const reader = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read']));
    expect(await trpcFailure(reader.highlights.delete.mutate({ highlightId: created.id }))).toMatchObject({ httpStatus: 403 });
    expect(await highlightRow(created.id)).toBeDefined();
  });
});
