import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from '../helpers/factories.js';
import { type ListeningTestApp, startListeningTestApp, trpcFailure } from '../helpers/members.js';
import { completedTextInterview } from '../helpers/results.js';

/**
 * Collections (issue 16): named sets of highlights across sessions, shared by the whole
 * organization; items in the order they were added, each with its quote as it is now.
 */

let t: ListeningTestApp;

beforeAll(async () => {
  t = await startListeningTestApp();
});
afterAll(() => t?.close());

async function organizationWithInterview() {
  const tenant = await t.createTenant();
  const interview = await completedTextInterview(t, apiAs(t.http, tenant), undefined, { runJobs: false });
  const utterances = await t
    .em()
    .execute<{ id: string; text: string; speaker: string; start_time: number }[]>(
      `select id, text, speaker, start_time from session_utterances where session_id = ? and speaker = 'participant' order by seq`,
      [interview.sessionId],
    );
  const client = t.clientOf(tenant);
  const highlight = (index: number, label?: string) =>
    client.highlights.create.mutate({ sessionId: interview.sessionId, utteranceId: utterances[index]!.id, start: 0, end: 6, ...(label ? { label } : {}) });
  return { tenant, client, sessionId: interview.sessionId, campaign: await campaignOf(interview.campaign.id), utterances, highlight };
}

async function collectionRow(id: string) {
  const [row] = await t.em().execute<Record<string, unknown>[]>(`select * from collections where id = ?`, [id]);
  return row;
}

async function campaignOf(id: string): Promise<{ id: string; name: string }> {
  const [row] = await t.em().execute<{ name: string }[]>(`select name from campaigns where id = ?`, [id]);
  return { id, name: row!.name };
}

let a: Awaited<ReturnType<typeof organizationWithInterview>>;
let b: Awaited<ReturnType<typeof organizationWithInterview>>;
let counter = 0;
const uniqueName = (prefix = 'Collection') => `${prefix} ${++counter}`;

beforeAll(async () => {
  [a, b] = await Promise.all([organizationWithInterview(), organizationWithInterview()]);
});

describe('collections.create', () => {
  it('creates a collection for the organization, empty, with its author', async () => {
    const collection = await a.client.collections.create.mutate({ name: '  Onboarding pain ', description: 'For the review' });
    expect(collection).toEqual({
      id: expect.stringMatching(/^col_/),
      name: 'Onboarding pain',
      description: 'For the review',
      itemCount: 0,
      author: { kind: 'api_key', id: a.tenant.apiKeyId, name: 'test key' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await collectionRow(collection.id)).toMatchObject({
      organization_id: a.tenant.organizationId,
      name: 'Onboarding pain',
      description: 'For the review',
      author_kind: 'api_key',
    });
  });

  it('answers 409 NAME_TAKEN for a name in use, ignoring case; another organization may use it', async () => {
    const name = uniqueName('Pricing');
    const first = await a.client.collections.create.mutate({ name });
    const failure = await trpcFailure(a.client.collections.create.mutate({ name: name.toUpperCase() }));
    expect(failure).toMatchObject({ appCode: 'NAME_TAKEN', httpStatus: 409, details: { existingId: first.id, fields: [{ path: 'name' }] } });
    await b.client.collections.create.mutate({ name });
  });

  it('answers 422 for an empty or long name, 400 without one, 403 without sessions:write', async () => {
    expect(await trpcFailure(a.client.collections.create.mutate({ name: ' ' }))).toMatchObject({
      appCode: 'VALIDATION_ERROR',
      httpStatus: 422,
      details: { fields: [{ path: 'name' }] },
    });
    expect(await trpcFailure(a.client.collections.create.mutate({ name: 'x'.repeat(101) }))).toMatchObject({
      httpStatus: 422,
      details: { fields: [{ path: 'name' }] },
    });
    expect(await trpcFailure(a.client.collections.create.mutate({} as never))).toMatchObject({
      appCode: 'INVALID_REQUEST',
      httpStatus: 400,
      details: { fields: [{ path: 'name' }] },
    });
    const reader = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read']));
    expect(await trpcFailure(reader.collections.create.mutate({ name: uniqueName() }))).toMatchObject({ appCode: 'INSUFFICIENT_PERMISSIONS', httpStatus: 403 });
  });
});

describe('collections.addHighlight, collections.get and collections.items', () => {
  it('answers items in the order added, with quote, session, campaign and utterance; get is one statement, a page of items two', async () => {
    const collection = await a.client.collections.create.mutate({ name: uniqueName() });
    const second = await a.highlight(1, 'Support');
    const first = await a.highlight(0, 'Onboarding');
    const added = await a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: first.id, note: 'Lead quote' });
    expect(added).toEqual({
      highlight: first,
      note: 'Lead quote',
      addedBy: { kind: 'api_key', id: a.tenant.apiKeyId, name: 'test key' },
      addedAt: expect.any(String),
    });
    await a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: second.id });
    const rows = await t.em().execute(`select highlight_id, note from collection_items where collection_id = ? order by position`, [collection.id]);
    expect(rows).toEqual([
      { highlight_id: first.id, note: 'Lead quote' },
      { highlight_id: second.id, note: null },
    ]);

    const statements: string[] = [];
    const knex = t.runtime.orm.em.getConnection().getKnex();
    const listener = (query: { sql: string }) => statements.push(query.sql);
    knex.on('query', listener);
    const got = await a.client.collections.get.query({ collectionId: collection.id });
    const gotStatements = statements.splice(0).filter((sql) => /collection/.test(sql));
    const items = await a.client.collections.items.query({ collectionId: collection.id });
    knex.removeListener('query', listener);
    expect(gotStatements).toHaveLength(1);
    expect(statements.filter((sql) => /collection/.test(sql))).toHaveLength(2);
    expect(got).toEqual({ ...collection, itemCount: 2, updatedAt: expect.any(String) });
    expect(items).toMatchObject({ hasMore: false, nextCursor: null });
    expect(items.data.map((item) => item.highlight.id)).toEqual([first.id, second.id]);
    expect(items.data[0]!.highlight).toMatchObject({
      quote: a.utterances[0]!.text.slice(0, 6),
      sessionId: a.sessionId,
      campaignId: a.campaign.id,
      campaignName: a.campaign.name,
      speaker: 'participant',
      startTime: a.utterances[0]!.start_time,
      label: 'Onboarding',
      color: '#fde047',
    });
  });

  it('pages items by where they were added: a removal between pages neither repeats nor skips one; a foreign cursor is 400', async () => {
    const collection = await a.client.collections.create.mutate({ name: uniqueName() });
    const highlights = [];
    for (let end = 2; end <= 6; end += 1) {
      highlights.push(await a.client.highlights.create.mutate({ sessionId: a.sessionId, utteranceId: a.utterances[0]!.id, start: 0, end }));
    }
    for (const highlight of highlights) await a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: highlight.id });
    const ids = highlights.map((highlight) => highlight.id);

    const first = await a.client.collections.items.query({ collectionId: collection.id, limit: 2 });
    expect(first.data.map((item) => item.highlight.id)).toEqual(ids.slice(0, 2));
    expect(first).toMatchObject({ hasMore: true, nextCursor: expect.stringMatching(/^cur_/) });
    // The last item of the page goes before the next one is read: the next page starts after its place.
    await a.client.collections.removeHighlight.mutate({ collectionId: collection.id, highlightId: ids[1]! });
    const second = await a.client.collections.items.query({ collectionId: collection.id, limit: 2, cursor: first.nextCursor! });
    expect(second.data.map((item) => item.highlight.id)).toEqual(ids.slice(2, 4));
    const third = await a.client.collections.items.query({ collectionId: collection.id, limit: 2, cursor: second.nextCursor! });
    expect(third).toMatchObject({ hasMore: false, nextCursor: null });
    expect(third.data.map((item) => item.highlight.id)).toEqual(ids.slice(4));

    // A cursor of another list (collections.list pages by creation time) or made up is refused, not a 500.
    await a.client.collections.create.mutate({ name: uniqueName() });
    await a.client.collections.create.mutate({ name: uniqueName() });
    const listCursor = (await a.client.collections.list.query({ limit: 1 })).nextCursor!;
    for (const cursor of [listCursor, 'cur_bm90IGpzb24', 'abc']) {
      expect(await trpcFailure(a.client.collections.items.query({ collectionId: collection.id, cursor })), cursor).toMatchObject({
        appCode: 'INVALID_REQUEST',
        httpStatus: 400,
        details: { fields: [{ path: 'cursor' }] },
      });
    }
    expect(await trpcFailure(a.client.collections.items.query({ collectionId: collection.id, limit: 101 }))).toMatchObject({
      httpStatus: 422,
      details: { fields: [{ path: 'limit' }] },
    });
  });

  it('is idempotent: adding a highlight again answers its item unchanged', async () => {
    const collection = await a.client.collections.create.mutate({ name: uniqueName() });
    const highlight = await a.highlight(0);
    const once = await a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: highlight.id, note: 'first' });
    const twice = await a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: highlight.id, note: 'second' });
    expect(twice).toEqual(once);
    expect(await t.em().execute(`select note from collection_items where collection_id = ?`, [collection.id])).toEqual([{ note: 'first' }]);
  });

  it("answers 404 for another organization's collection or highlight, 403 without sessions:write, 422 for a long note", async () => {
    const collection = await a.client.collections.create.mutate({ name: uniqueName() });
    const mine = await a.highlight(0);
    const theirs = await b.highlight(0);
    expect(await trpcFailure(a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: theirs.id }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
      details: { fields: [{ path: 'highlightId' }] },
    });
    expect(await trpcFailure(b.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: theirs.id }))).toMatchObject({
      httpStatus: 404,
      details: { fields: [{ path: 'collectionId' }] },
    });
    expect(await trpcFailure(b.client.collections.get.query({ collectionId: collection.id }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
    });
    expect(await trpcFailure(b.client.collections.items.query({ collectionId: collection.id }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
    });
    const reader = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read']));
    expect(await trpcFailure(reader.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: mine.id }))).toMatchObject({ httpStatus: 403 });
    expect(
      await trpcFailure(a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: mine.id, note: 'x'.repeat(2001) })),
    ).toMatchObject({
      httpStatus: 422,
      details: { fields: [{ path: 'note' }] },
    });
    expect(await t.em().execute(`select 1 from collection_items where collection_id = ?`, [collection.id])).toHaveLength(0);
    const noRead = t.clientOf(await t.createKey(a.tenant.organizationId, ['campaigns:read']));
    expect(await trpcFailure(noRead.collections.get.query({ collectionId: collection.id }))).toMatchObject({
      httpStatus: 403,
      details: { required: 'sessions:read' },
    });
    expect(await trpcFailure(noRead.collections.items.query({ collectionId: collection.id }))).toMatchObject({
      httpStatus: 403,
      details: { required: 'sessions:read' },
    });
  });
});

describe('collections.removeHighlight', () => {
  it('takes the highlight out (the highlight stays); 404 when it is not in the collection', async () => {
    const collection = await a.client.collections.create.mutate({ name: uniqueName() });
    const highlight = await a.highlight(0);
    await a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: highlight.id });
    await a.client.collections.removeHighlight.mutate({ collectionId: collection.id, highlightId: highlight.id });
    expect(await t.em().execute(`select 1 from collection_items where collection_id = ?`, [collection.id])).toHaveLength(0);
    expect(await t.em().execute(`select 1 from highlights where id = ?`, [highlight.id])).toHaveLength(1);
    expect(await trpcFailure(a.client.collections.removeHighlight.mutate({ collectionId: collection.id, highlightId: highlight.id }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
      details: { fields: [{ path: 'highlightId', message: 'is not in this collection' }] },
    });
  });

  it('answers 404 for another organization, 403 without sessions:write', async () => {
    const collection = await a.client.collections.create.mutate({ name: uniqueName() });
    const highlight = await a.highlight(0);
    await a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: highlight.id });
    expect(await trpcFailure(b.client.collections.removeHighlight.mutate({ collectionId: collection.id, highlightId: highlight.id }))).toMatchObject({
      httpStatus: 404,
      details: { fields: [{ path: 'collectionId' }] },
    });
    const reader = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read']));
    expect(await trpcFailure(reader.collections.removeHighlight.mutate({ collectionId: collection.id, highlightId: highlight.id }))).toMatchObject({
      httpStatus: 403,
    });
    expect(await t.em().execute(`select 1 from collection_items where collection_id = ?`, [collection.id])).toHaveLength(1);
  });
});

describe('collections.list', () => {
  it("pages newest first with item counts, only the organization's", async () => {
    const org = await organizationWithInterview();
    const made = [];
    for (let index = 0; index < 3; index++) made.push(await org.client.collections.create.mutate({ name: uniqueName() }));
    await org.client.collections.addHighlight.mutate({ collectionId: made[2]!.id, highlightId: (await org.highlight(0)).id });
    const first = await org.client.collections.list.query({ limit: 2 });
    expect(first.data.map((collection) => [collection.id, collection.itemCount])).toEqual([
      [made[2]!.id, 1],
      [made[1]!.id, 0],
    ]);
    const second = await org.client.collections.list.query({ limit: 2, cursor: first.nextCursor! });
    expect(second).toMatchObject({ data: [{ id: made[0]!.id }], hasMore: false, nextCursor: null });
  });

  it('answers 403 without sessions:read, 400 for a bad cursor', async () => {
    const noRead = t.clientOf(await t.createKey(a.tenant.organizationId, ['campaigns:read']));
    expect(await trpcFailure(noRead.collections.list.query({}))).toMatchObject({ httpStatus: 403 });
    expect(await trpcFailure(a.client.collections.list.query({ cursor: 'nope' }))).toMatchObject({
      appCode: 'INVALID_REQUEST',
      httpStatus: 400,
      details: { fields: [{ path: 'cursor' }] },
    });
  });
});

describe('collections.update and collections.delete', () => {
  it('renames and clears the description; 409 for a taken name', async () => {
    const taken = await a.client.collections.create.mutate({ name: uniqueName('Taken') });
    const collection = await a.client.collections.create.mutate({ name: uniqueName(), description: 'Old' });
    const updated = await a.client.collections.update.mutate({ collectionId: collection.id, name: 'Renamed collection', description: null });
    expect(updated).toMatchObject({ id: collection.id, name: 'Renamed collection', description: null });
    expect(await collectionRow(collection.id)).toMatchObject({ name: 'Renamed collection', description: null });
    expect(await trpcFailure(a.client.collections.update.mutate({ collectionId: collection.id, name: taken.name.toLowerCase() }))).toMatchObject({
      appCode: 'NAME_TAKEN',
      httpStatus: 409,
      details: { existingId: taken.id },
    });
    expect(await trpcFailure(a.client.collections.update.mutate({ collectionId: collection.id, name: '' }))).toMatchObject({
      httpStatus: 422,
      details: { fields: [{ path: 'name' }] },
    });
  });

  it('deletes the collection and its items, keeping the highlights', async () => {
    const collection = await a.client.collections.create.mutate({ name: uniqueName() });
    const highlight = await a.highlight(0);
    await a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: highlight.id });
    await a.client.collections.delete.mutate({ collectionId: collection.id });
    expect(await collectionRow(collection.id)).toBeUndefined();
    expect(await t.em().execute(`select 1 from collection_items where collection_id = ?`, [collection.id])).toHaveLength(0);
    expect(await t.em().execute(`select 1 from highlights where id = ?`, [highlight.id])).toHaveLength(1);
  });

  it('answers 404 for another organization, 403 without sessions:write', async () => {
    const collection = await a.client.collections.create.mutate({ name: uniqueName() });
    expect(await trpcFailure(b.client.collections.update.mutate({ collectionId: collection.id, name: 'Mine' }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
    });
    expect(await trpcFailure(b.client.collections.delete.mutate({ collectionId: collection.id }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
    });
    const reader = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read']));
    expect(await trpcFailure(reader.collections.update.mutate({ collectionId: collection.id, name: 'x' }))).toMatchObject({ httpStatus: 403 });
    expect(await trpcFailure(reader.collections.delete.mutate({ collectionId: collection.id }))).toMatchObject({ httpStatus: 403 });
    expect(await collectionRow(collection.id)).toMatchObject({ name: collection.name });
  });
});
