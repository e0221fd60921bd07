import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Campaign, Project, Script } from '../../server/entities/index.js';
import { apiAs, createCampaign, createProject, createScript, type Api } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** Lets the clock move so that updatedAt comparisons are strict. */
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

let t: TestApp;
let api: Api;

beforeAll(async () => {
  t = await startTestApp();
  api = apiAs(t.http, await t.createTenant());
});
afterAll(() => t?.close());

describe('projects', () => {
  it('create answers 201 with the project record', async () => {
    const response = await api.post('/v1/projects', { name: 'Churn research', description: 'Why customers leave', color: '#3B82F6' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^prj_[0-9A-Za-z]{22}$/),
      livemode: true,
      name: 'Churn research',
      description: 'Why customers leave',
      color: '#3B82F6',
      campaignCount: 0,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: response.body.createdAt,
    });
    const row = await t.em().findOneOrFail(Project, { id: response.body.id });
    expect(row.name).toBe('Churn research');
  });

  it('create without name answers 400 INVALID_REQUEST naming the field', async () => {
    const response = await api.post('/v1/projects', { color: '#000000' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { fields: [{ path: 'name', message: 'is required' }] } });
  });

  it('a name over 100 characters answers 422 VALIDATION_ERROR and stores nothing', async () => {
    const before = await t.em().count(Project, {});
    const response = await api.post('/v1/projects', { name: 'x'.repeat(101) });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.fields).toEqual([{ path: 'name', message: 'must be at most 100 characters' }]);
    expect(await t.em().count(Project, {})).toBe(before);
  });

  it('a name of exactly 100 characters is accepted', async () => {
    await api.post('/v1/projects', { name: 'y'.repeat(100) }).expect(201);
  });

  it.each(['red', '#12345', '#1234567', '#GGGGGG', '123456'])('color %s answers 422', async (color) => {
    const response = await api.post('/v1/projects', { name: 'Colors', color });
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields[0].path).toBe('color');
  });

  it('get answers the project; an unknown id answers 404 RESOURCE_NOT_FOUND', async () => {
    const project = await createProject(api);
    const found = await api.get(`/v1/projects/${project.id}`).expect(200);
    expect(found.body.id).toBe(project.id);
    const missing = await api.get('/v1/projects/prj_doesnotexist0000000000').expect(404);
    expect(missing.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('update changes only the given fields; null clears description and color', async () => {
    const project = await createProject(api, { description: 'Old', color: '#111111' });
    const renamed = await api.patch(`/v1/projects/${project.id}`, { name: 'Renamed' }).expect(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', description: 'Old', color: '#111111' });
    expect(Date.parse(renamed.body.updatedAt)).toBeGreaterThan(Date.parse(renamed.body.createdAt));
    await pause();
    const cleared = await api.patch(`/v1/projects/${project.id}`, { description: null, color: null }).expect(200);
    expect(cleared.body).toMatchObject({ name: 'Renamed', description: null, color: null });
    expect(Date.parse(cleared.body.updatedAt)).toBeGreaterThan(Date.parse(renamed.body.updatedAt));
    const unchanged = await api.patch(`/v1/projects/${project.id}`, {}).expect(200);
    expect(unchanged.body.updatedAt).toBe(cleared.body.updatedAt);
  });

  it('update with an invalid color answers 422 and changes nothing', async () => {
    const project = await createProject(api, { color: '#111111' });
    await api.patch(`/v1/projects/${project.id}`, { name: 'Changed', color: 'blue' }).expect(422);
    const row = await t.em().findOneOrFail(Project, { id: project.id });
    expect(row.color).toBe('#111111');
    expect(row.name).not.toBe('Changed');
  });

  it('list answers the pagination envelope with campaignCount computed from campaigns', async () => {
    const tenant = await t.createTenant();
    const own = apiAs(t.http, tenant);
    const project = await createProject(own, { name: 'Counted' });
    await createCampaign(own, { projectId: project.id });
    await createCampaign(own, { projectId: project.id });
    await createProject(own, { name: 'Empty' });
    const response = await own.get('/v1/projects').expect(200);
    expect(response.body.pagination).toEqual({ total: 2, limit: 20, offset: 0, hasMore: false, nextCursor: null });
    expect(response.body.data.map((p: { name: string }) => p.name)).toEqual(['Empty', 'Counted']);
    expect(response.body.data[1].campaignCount).toBe(2);
    expect(response.body.data[0].campaignCount).toBe(0);
  });

  it('list breaks createdAt ties by id, so pages never overlap', async () => {
    const own = apiAs(t.http, await t.createTenant());
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await createProject(own)).id);
    await t.em().execute(`update projects set created_at = '2026-01-01T00:00:00Z' where id in (?)`, [ids]);
    const seen: string[] = [];
    for (let offset = 0; offset < 5; offset += 1) {
      const page = await own.get(`/v1/projects?limit=1&offset=${offset}`).expect(200);
      seen.push(page.body.data[0].id);
    }
    expect(seen).toEqual([...ids].sort().reverse());
  });

  it('list search matches names case-insensitively and treats % literally', async () => {
    const own = apiAs(t.http, await t.createTenant());
    await createProject(own, { name: 'Alpha study' });
    await createProject(own, { name: 'Beta STUDY' });
    await createProject(own, { name: '100% done' });
    const studies = await own.get('/v1/projects?search=study').expect(200);
    expect(studies.body.data.map((p: { name: string }) => p.name).sort()).toEqual(['Alpha study', 'Beta STUDY']);
    const percent = await own.get('/v1/projects?search=%25').expect(200);
    expect(percent.body.data.map((p: { name: string }) => p.name)).toEqual(['100% done']);
  });

  it('delete answers 204; its campaigns and scripts are unassigned, not deleted', async () => {
    const project = await createProject(api);
    const script = await createScript(api, { projectId: project.id });
    await api.post(`/v1/scripts/${script.id}/publish`).expect(200);
    const campaign = await createCampaign(api, { projectId: project.id, scriptId: script.id });
    const before = await t.em().findOneOrFail(Campaign, { id: campaign.id });
    const scriptBefore = await t.em().findOneOrFail(Script, { id: script.id });
    await pause();

    const response = await api.delete(`/v1/projects/${project.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');

    await api.get(`/v1/projects/${project.id}`).expect(404);
    const kept = await api.get(`/v1/campaigns/${campaign.id}`).expect(200);
    expect(kept.body.projectId).toBeNull();
    expect(Date.parse(kept.body.updatedAt)).toBeGreaterThan(before.updatedAt.getTime());
    const keptScript = await api.get(`/v1/scripts/${script.id}`).expect(200);
    expect(keptScript.body.projectId).toBeNull();
    expect(Date.parse(keptScript.body.updatedAt)).toBeGreaterThan(scriptBefore.updatedAt.getTime());
    expect(await t.em().count(Campaign, { id: campaign.id })).toBe(1);
    expect(await t.em().count(Script, { id: script.id })).toBe(1);
  });

  it('delete of an unknown project answers 404', async () => {
    const response = await api.delete('/v1/projects/prj_unknown');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });
});
