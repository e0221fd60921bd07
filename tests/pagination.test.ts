import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, createProject, type Api } from './helpers/factories.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

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
    expect(response.body.pagination).toEqual({ total: 23, limit: 20, offset: 0, hasMore: true });
  });

  it('the last page has hasMore false', async () => {
    const response = await api.get('/v1/projects?offset=20').expect(200);
    expect(response.body.data).toHaveLength(3);
    expect(response.body.pagination).toEqual({ total: 23, limit: 20, offset: 20, hasMore: false });
  });

  it('an offset past the end answers an empty page with the real total', async () => {
    const response = await api.get('/v1/projects?offset=500').expect(200);
    expect(response.body).toEqual({ data: [], pagination: { total: 23, limit: 20, offset: 500, hasMore: false } });
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
