import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, createCampaign, createProject, createScript, type Api } from '../helpers/factories.js';
import { interviewFixture, participantAs } from '../helpers/interviews.js';
import { parametersOf } from '../helpers/openapi-document.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Api;

beforeAll(async () => {
  t = await startTestApp();
  api = apiAs(t.http, await t.createTenant());
  for (let i = 0; i < 23; i += 1) await createProject(api, { name: `Project ${String(i).padStart(2, '0')}` });
});
afterAll(() => t?.close());

describe('pagination', () => {
  it('defaults to limit 20, offset 0', async () => {
    const response = await api.get('/v1/projects').expect(200);
    expect(response.body.data).toHaveLength(20);
    expect(response.body.pagination).toEqual({ total: 23, limit: 20, offset: 0, hasMore: true, nextCursor: expect.stringMatching(/^cur_/) });
  });

  it('the last page has hasMore false', async () => {
    const response = await api.get('/v1/projects?offset=20').expect(200);
    expect(response.body.data).toHaveLength(3);
    expect(response.body.pagination).toEqual({ total: 23, limit: 20, offset: 20, hasMore: false, nextCursor: null });
  });

  it('an offset past the end answers an empty page with the real total', async () => {
    const response = await api.get('/v1/projects?offset=500').expect(200);
    expect(response.body).toEqual({ data: [], pagination: { total: 23, limit: 20, offset: 500, hasMore: false, nextCursor: null } });
  });

  it('limit 1 and limit 100 are accepted', async () => {
    expect((await api.get('/v1/projects?limit=1').expect(200)).body.data).toHaveLength(1);
    expect((await api.get('/v1/projects?limit=100').expect(200)).body.pagination).toMatchObject({ limit: 100, hasMore: false });
  });

  it('pages do not overlap and cover every item once', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 23; offset += 5) {
      const page = await api.get(`/v1/projects?limit=5&offset=${offset}`).expect(200);
      seen.push(...page.body.data.map((p: { id: string }) => p.id));
    }
    expect(new Set(seen).size).toBe(23);
  });

  it.each([
    ['limit=0', 'limit', 'must be at least 1'],
    ['limit=101', 'limit', 'must be at most 100'],
    ['limit=-5', 'limit', 'must be at least 1'],
    ['limit=2.5', 'limit', 'must be an integer'],
    ['limit=ten', 'limit', 'must be a number'],
    ['limit=', 'limit', 'must be a number'],
    ['limit=0x10', 'limit', 'must be a number'],
    ['limit=1e1', 'limit', 'must be a number'],
    ['limit=%205', 'limit', 'must be a number'],
    ['offset=-1', 'offset', 'must be at least 0'],
    ['offset=abc', 'offset', 'must be a number'],
    ['limit=5&limit=6', 'limit', 'must be a number'],
  ])('%s answers 400 INVALID_REQUEST', async (query, path, message) => {
    const response = await api.get(`/v1/projects?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_REQUEST');
    expect(response.body.error.details.fields).toEqual([{ path, message }]);
  });
});

describe('cursor pagination (startingAfter and nextCursor)', () => {
  async function pageIds(client: Api, path: string): Promise<{ ids: string[]; next: string | null; total: number }> {
    const response = await client.get(path).expect(200);
    return {
      ids: (response.body.data as { id: string }[]).map((item) => item.id),
      next: response.body.pagination.nextCursor,
      total: response.body.pagination.total,
    };
  }

  it('pages never repeat or skip while items are created and deleted between them', async () => {
    const own = apiAs(t.http, await t.createTenant());
    const initial: string[] = [];
    for (let i = 0; i < 17; i += 1) initial.unshift((await createProject(own, { name: `Cursor ${i}` })).id);
    // Newest first: `initial` is in list order.
    const seen: string[] = [];
    const deletedUnseen = new Set<string>();
    let next: string | null = null;
    for (let round = 0; ; round += 1) {
      const page = await pageIds(own, `/v1/projects?limit=4${next ? `&startingAfter=${next}` : ''}`);
      seen.push(...page.ids);
      if (!page.next) break;
      next = page.next;
      // Between pages: two new projects (before the cursor), one deleted that was already seen (the
      // cursor's own item on even rounds), and one deleted that is still to come.
      await createProject(own, { name: `Inserted ${round}a` });
      await createProject(own, { name: `Inserted ${round}b` });
      await own.delete(`/v1/projects/${seen.at(round % 2 === 0 ? -1 : 0)}`).expect(204);
      const upcoming = initial.find((id) => !seen.includes(id) && !deletedUnseen.has(id));
      if (upcoming) {
        await own.delete(`/v1/projects/${upcoming}`).expect(204);
        deletedUnseen.add(upcoming);
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(initial.filter((id) => !deletedUnseen.has(id)));
  });

  it('startingAfter also takes an item id of the list; an id of another list or organization, or a cursor it did not make, is 400', async () => {
    const all = await pageIds(api, '/v1/projects?limit=100');
    const afterThird = await pageIds(api, `/v1/projects?limit=5&startingAfter=${all.ids[2]}`);
    expect(afterThird.ids).toEqual(all.ids.slice(3, 8));
    const viaCursor = await pageIds(api, `/v1/projects?limit=3`);
    expect((await pageIds(api, `/v1/projects?limit=5&startingAfter=${viaCursor.next}`)).ids).toEqual(all.ids.slice(3, 8));

    const other = apiAs(t.http, await t.createTenant());
    const foreign = await createProject(other, { name: 'Not yours' });
    // Well-formed cursors whose value PostgreSQL would not read as the sort column's type (a 500 in the query).
    const forged = (value: string) => `cur_${Buffer.from(JSON.stringify([value, all.ids[0]])).toString('base64url')}`;
    for (const value of [foreign.id, 'prj_doesnotexist', 'cur_bm90LWEtY3Vyc29y', forged('yesterday'), forged('2026-02-31 10:00:00+00')]) {
      const response = await api.get(`/v1/projects?startingAfter=${value}`).expect(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { fields: [{ path: 'startingAfter', message: expect.any(String) }] } });
    }
    const both = await api.get(`/v1/projects?offset=2&startingAfter=${all.ids[0]}`).expect(400);
    expect(both.body.error.details.fields).toEqual([{ path: 'offset', message: 'cannot be combined with startingAfter' }]);
  });

  it('a cursor keeps working after the item it points to is deleted', async () => {
    const own = apiAs(t.http, await t.createTenant());
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) ids.unshift((await createProject(own, { name: `Gone ${i}` })).id);
    const first = await pageIds(own, '/v1/projects?limit=2');
    await own.delete(`/v1/projects/${first.ids[1]}`).expect(204);
    expect((await pageIds(own, `/v1/projects?limit=10&startingAfter=${first.next}`)).ids).toEqual(ids.slice(2));
    expect((await own.get(`/v1/projects?startingAfter=${first.ids[1]}`).expect(400)).body.error.details.fields[0].message).toMatch(/nextCursor/);
  });

  it('follows the list sort: campaigns by name ascending, script versions by number; sessions take cursors only when sorted by createdAt', async () => {
    const own = apiAs(t.http, await t.createTenant());
    for (const name of ['delta', 'Alpha', 'charlie', 'bravo', 'echo']) await createCampaign(own, { name });
    const names = ((await own.get('/v1/campaigns?sort=name&order=asc&limit=100').expect(200)).body.data as { name: string }[]).map((campaign) => campaign.name);
    expect(names).toHaveLength(5);
    const first = await own.get('/v1/campaigns?sort=name&order=asc&limit=2').expect(200);
    const rest = await own.get(`/v1/campaigns?sort=name&order=asc&limit=100&startingAfter=${first.body.pagination.nextCursor}`).expect(200);
    expect([...first.body.data, ...rest.body.data].map((campaign: { name: string }) => campaign.name)).toEqual(names);

    const script = await createScript(own);
    for (let i = 0; i < 3; i += 1)
      await own.post(`/v1/scripts/${script.id}/versions`, { systemPrompt: `Version ${i + 2} prompt for the interviewer.` }).expect(201);
    const versions = await own.get(`/v1/scripts/${script.id}/versions?limit=2`).expect(200);
    expect(versions.body.data.map((version: { version: number }) => version.version)).toEqual([4, 3]);
    const older = await own.get(`/v1/scripts/${script.id}/versions?limit=10&startingAfter=${versions.body.pagination.nextCursor}`).expect(200);
    const notANumber = `cur_${Buffer.from(JSON.stringify(['two', 'x'])).toString('base64url')}`;
    expect((await own.get(`/v1/scripts/${script.id}/versions?startingAfter=${notANumber}`).expect(400)).body.error.details.fields).toEqual([
      { path: 'startingAfter', message: expect.any(String) },
    ]);
    expect(older.body.data.map((version: { version: number }) => version.version)).toEqual([2, 1]);
    expect(older.body.pagination).toMatchObject({ hasMore: false, nextCursor: null });

    const campaign = (first.body.data as { id: string }[])[0]!;
    const sessions = await own.get(`/v1/campaigns/${campaign.id}/sessions?sort=completedAt&startingAfter=ses_x`).expect(400);
    expect(sessions.body.error.details.fields).toEqual([{ path: 'startingAfter', message: 'needs sort=createdAt' }]);
  });
});

describe('every list operation answers the pagination envelope', () => {
  type Schema = Record<string, any>;

  it('in the OpenAPI document: every GET that answers a list (a `data` array, a bare array, or a "List …" summary) answers data and pagination and takes limit, offset and startingAfter', async () => {
    const document = (await t.http.get('/v1/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, Schema>>;
      components: { schemas: Record<string, Schema> };
    };
    const resolve = (schema: Schema | undefined): Schema | undefined =>
      schema?.$ref ? document.components.schemas[String(schema.$ref).split('/').pop()!] : schema;
    const lists: string[] = [];
    const problems: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      const operation = item.get;
      if (!operation) continue;
      const schema = resolve(operation.responses?.['200']?.content?.['application/json']?.schema);
      if (!schema) continue;
      const data = resolve(schema.properties?.data);
      const isList = schema.type === 'array' || data?.type === 'array' || /^List\b/.test(operation.summary ?? '');
      if (!isList) continue;
      lists.push(path);
      if (data?.type !== 'array') problems.push(`${path}: no data array`);
      if (schema.properties?.pagination?.$ref !== '#/components/schemas/Pagination') problems.push(`${path}: no pagination`);
      if (!['data', 'pagination'].every((field) => schema.required?.includes(field))) problems.push(`${path}: data and pagination are not both required`);
      const parameters = parametersOf(document, operation)
        .filter((parameter: Schema) => parameter.in === 'query')
        .map((parameter: Schema) => parameter.name);
      for (const name of ['limit', 'offset', 'startingAfter']) if (!parameters.includes(name)) problems.push(`${path}: no ${name} parameter`);
    }
    expect(problems).toEqual([]);
    // The walk finds the lists (so it cannot pass by finding none), members and session files among them.
    expect(lists).toEqual(
      expect.arrayContaining([
        '/v1/projects',
        '/v1/campaigns',
        '/v1/organization/members',
        '/v1/sessions/{sessionId}/files',
        '/api/session/{sessionId}/files',
        '/api/webhooks',
      ]),
    );
    expect(document.components.schemas.Pagination!.required).toEqual(expect.arrayContaining(['total', 'limit', 'offset', 'hasMore']));
  });

  it('GET /v1/organization/members pages members and invitations, oldest first', async () => {
    const own = apiAs(t.http, await t.createTenant());
    const emails = ['first', 'second', 'third'].map((name) => `${name}-${Math.random().toString(36).slice(2)}@example.com`);
    for (const email of emails) await own.post('/v1/organization/members', { email, role: 'member' }).expect(201);
    const all = await own.get('/v1/organization/members').expect(200);
    expect(all.body.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false, nextCursor: null });
    expect(all.body.data.map((member: { email: string }) => member.email)).toEqual(emails);
    const first = await own.get('/v1/organization/members?limit=2').expect(200);
    expect(first.body.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true, nextCursor: expect.stringMatching(/^cur_/) });
    const rest = await own.get(`/v1/organization/members?limit=2&startingAfter=${first.body.pagination.nextCursor}`).expect(200);
    expect([...first.body.data, ...rest.body.data].map((member: { email: string }) => member.email)).toEqual(emails);
    expect((await own.get('/v1/organization/members?offset=2').expect(200)).body.data.map((member: { email: string }) => member.email)).toEqual([emails[2]]);
    expect((await own.get('/v1/organization/members?limit=101').expect(400)).body.error.details.fields).toEqual([
      { path: 'limit', message: 'must be at most 100' },
    ]);
  });

  it("GET /v1/sessions/{sessionId}/files pages a session's files, oldest first", async () => {
    const own = apiAs(t.http, await t.createTenant());
    const { invite } = await interviewFixture(own);
    const sessionId: string = (await participantAs(t.http, invite.token).start().expect(201)).body.session.id;
    const ids: string[] = [];
    for (const name of ['a.txt', 'b.txt', 'c.txt']) {
      ids.push((await own.post(`/v1/sessions/${sessionId}/files`).attach('file', Buffer.from(name), name).expect(201)).body.id);
    }
    for (const path of [`/v1/sessions/${sessionId}/files`, `/api/session/${sessionId}/files`]) {
      const all = await own.get(path).expect(200);
      expect(all.body.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false, nextCursor: null });
      expect(all.body.data.map((file: { id: string }) => file.id)).toEqual(ids);
      const first = await own.get(`${path}?limit=1`).expect(200);
      expect(first.body.pagination).toMatchObject({ total: 3, limit: 1, hasMore: true });
      const rest = await own.get(`${path}?limit=5&startingAfter=${first.body.pagination.nextCursor}`).expect(200);
      expect([...first.body.data, ...rest.body.data].map((file: { id: string }) => file.id)).toEqual(ids);
    }
  });
});
