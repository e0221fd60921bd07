import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Script, ScriptVersion } from '../../server/entities/index.js';
import { apiAs, createCampaign, createProject, createPublishedScript, createScript, scriptBody, type Api } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let api: Api;

beforeAll(async () => {
  t = await startTestApp();
  api = apiAs(t.http, await t.createTenant());
});
afterAll(() => t?.close());

describe('creating scripts', () => {
  it('answers 201 with a draft at version 1 and all questions normalised', async () => {
    const response = await api.post('/v1/scripts', {
      name: 'Pricing interview',
      description: 'Why plans convert',
      systemPrompt: 'You are a curious interviewer.',
      settings: { maxFollowUps: 2, language: 'en', voice: 'alloy' },
      questions: [
        {
          id: 'intro',
          text: 'Tell me about your team.',
          type: 'open',
          followUp: { enabled: true, maxFollowUps: 1, prompt: 'Ask for an example' },
          maxDuration: 120,
        },
        { id: 'ease', text: 'How easy was it?', type: 'rating', required: false },
        { id: 'plan', text: 'Which plan?', type: 'multiple_choice', options: ['Free', 'Pro'] },
        { id: 'again', text: 'Would you buy again?', type: 'yes_no' },
      ],
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^scr_[0-9A-Za-z]{22}$/),
      livemode: true,
      name: 'Pricing interview',
      description: 'Why plans convert',
      projectId: null,
      systemPrompt: 'You are a curious interviewer.',
      settings: { maxFollowUps: 2, language: 'en', voice: 'alloy' },
      questions: [
        {
          id: 'intro',
          text: 'Tell me about your team.',
          type: 'open',
          required: true,
          order: 1,
          followUp: { enabled: true, maxFollowUps: 1, prompt: 'Ask for an example' },
          maxDuration: 120,
        },
        { id: 'ease', text: 'How easy was it?', type: 'rating', required: false, order: 2, scale: { min: 1, max: 5 } },
        { id: 'plan', text: 'Which plan?', type: 'multiple_choice', required: true, order: 3, options: ['Free', 'Pro'] },
        { id: 'again', text: 'Would you buy again?', type: 'yes_no', required: true, order: 4 },
      ],
      status: 'draft',
      version: 1,
      publishedVersion: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      publishedAt: null,
    });
    const versions = await t.em().find(ScriptVersion, { script: response.body.id });
    expect(versions.map((v) => [v.version, v.status])).toEqual([[1, 'draft']]);
  });

  it('POST /api/scripts creates a script exactly like /v1/scripts', async () => {
    const response = await api.post('/api/scripts', scriptBody({ name: 'Via api prefix' }));
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'Via api prefix', status: 'draft', version: 1 });
    await api.get(`/v1/scripts/${response.body.id}`).expect(200);
  });

  it('assigns order after the highest explicit order and returns questions sorted by order', async () => {
    const response = await api
      .post(
        '/v1/scripts',
        scriptBody({
          questions: [
            { id: 'a', text: 'A?', type: 'open', order: 10 },
            { id: 'b', text: 'B?', type: 'open' },
            { id: 'c', text: 'C?', type: 'open', order: 5 },
          ],
        }),
      )
      .expect(201);
    expect(response.body.questions.map((q: { id: string; order: number }) => [q.id, q.order])).toEqual([
      ['c', 5],
      ['a', 10],
      ['b', 11],
    ]);
  });

  it.each([
    [
      'duplicate question ids',
      [
        { id: 'q', text: 'A?', type: 'open' },
        { id: 'q', text: 'B?', type: 'open' },
      ],
      'questions[1].id',
    ],
    ['an unknown question type', [{ id: 'q', text: 'A?', type: 'essay' }], 'questions[0].type'],
    ['multiple_choice without options', [{ id: 'q', text: 'A?', type: 'multiple_choice' }], 'questions[0].options'],
    ['a single option', [{ id: 'q', text: 'A?', type: 'multiple_choice', options: ['only'] }], 'questions[0].options'],
    ['21 options', [{ id: 'q', text: 'A?', type: 'multiple_choice', options: Array.from({ length: 21 }, (_, i) => `o${i}`) }], 'questions[0].options'],
    ['repeated options', [{ id: 'q', text: 'A?', type: 'multiple_choice', options: ['Yes', 'yes'] }], 'questions[0].options'],
    ['options on an open question', [{ id: 'q', text: 'A?', type: 'open', options: ['a', 'b'] }], 'questions[0].options'],
    ['a scale on a yes_no question', [{ id: 'q', text: 'A?', type: 'yes_no', scale: { min: 1, max: 5 } }], 'questions[0].scale'],
    ['a scale with min above max', [{ id: 'q', text: 'A?', type: 'rating', scale: { min: 5, max: 3 } }], 'questions[0].scale.max'],
    [
      'duplicate orders',
      [
        { id: 'a', text: 'A?', type: 'open', order: 1 },
        { id: 'b', text: 'B?', type: 'open', order: 1 },
      ],
      'questions[1].order',
    ],
    ['no questions', [], 'questions'],
    ['an unknown question field', [{ id: 'q', text: 'A?', type: 'open', colour: 'red' }], 'questions[0].colour'],
  ])('rejects %s with 422 naming the field', async (_label, questions, path) => {
    const before = await t.em().count(Script, {});
    const response = await api.post('/v1/scripts', scriptBody({ questions }));
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    expect(await t.em().count(Script, {})).toBe(before);
  });

  it('a question without text answers 422 naming the item field as required (a bad item of a present list)', async () => {
    const response = await api.post('/v1/scripts', scriptBody({ questions: [{ id: 'q', type: 'open' }] }));
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields).toEqual([{ path: 'questions[0].text', message: 'is required' }]);
  });

  it('missing systemPrompt and questions answer 400 listing both', async () => {
    const response = await api.post('/v1/scripts', { name: 'Incomplete' });
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(['questions', 'systemPrompt']);
  });

  it('a name over 100 characters answers 422', async () => {
    await api.post('/v1/scripts', scriptBody({ name: 's'.repeat(101) })).expect(422);
  });

  it('a project of another organization answers 404 naming projectId', async () => {
    const other = apiAs(t.http, await t.createTenant());
    const foreignProject = await createProject(other);
    const response = await api.post('/v1/scripts', scriptBody({ projectId: foreignProject.id }));
    expect(response.status).toBe(404);
    expect(response.body.error.details.fields).toEqual([{ path: 'projectId', message: 'no project with this id' }]);
  });
});

describe('listing scripts', () => {
  it('filters by projectId, status and search, with pagination', async () => {
    const own = apiAs(t.http, await t.createTenant());
    const project = await createProject(own);
    const draft = await createScript(own, { name: 'Draft about onboarding', projectId: project.id });
    const published = await createPublishedScript(own, { name: 'Published about pricing', projectId: project.id });
    await createScript(own, { name: 'Unassigned onboarding' });

    const byProject = await own.get(`/v1/scripts?projectId=${project.id}`).expect(200);
    expect(byProject.body.data.map((s: { id: string }) => s.id).sort()).toEqual([draft.id, published.id].sort());
    const drafts = await own.get('/v1/scripts?status=draft').expect(200);
    expect(drafts.body.pagination.total).toBe(2);
    const publishedOnly = await own.get('/v1/scripts?status=published').expect(200);
    expect(publishedOnly.body.data.map((s: { id: string }) => s.id)).toEqual([published.id]);
    const search = await own.get('/v1/scripts?search=ONBOARDING&limit=1').expect(200);
    expect(search.body.pagination).toEqual({ total: 2, limit: 1, offset: 0, hasMore: true, nextCursor: expect.stringMatching(/^cur_/) });
    expect(search.body.data[0].questions).toHaveLength(2);
  });

  it('an unknown status filter answers 400', async () => {
    const response = await api.get('/v1/scripts?status=deleted');
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields[0].path).toBe('status');
  });
});

describe('updating and versioning', () => {
  it('updating a draft edits it in place (still version 1)', async () => {
    const script = await createScript(api);
    const response = await api.patch(`/v1/scripts/${script.id}`, { systemPrompt: 'New prompt', name: 'Renamed' }).expect(200);
    expect(response.body).toMatchObject({ version: 1, status: 'draft', systemPrompt: 'New prompt', name: 'Renamed' });
    expect(await t.em().count(ScriptVersion, { script: script.id })).toBe(1);
  });

  it('updating the content of a published script creates version 2 as a draft and keeps version 1 published', async () => {
    const script = await createPublishedScript(api);
    const updated = await api.patch(`/v1/scripts/${script.id}`, { questions: [{ id: 'only', text: 'Only question?', type: 'yes_no' }] }).expect(200);
    // Still usable by campaigns (status published); the open draft is version 2 > publishedVersion 1.
    expect(updated.body).toMatchObject({ version: 2, status: 'published', publishedVersion: 1 });
    const v2 = await api.get(`/v1/scripts/${script.id}/versions/2`).expect(200);
    expect(v2.body.status).toBe('draft');
    const listed = await api.get('/v1/scripts?status=published&limit=100').expect(200);
    expect(listed.body.data.map((s: { id: string }) => s.id)).toContain(script.id);
    expect(updated.body.questions.map((q: { id: string }) => q.id)).toEqual(['only']);

    const v1 = await api.get(`/v1/scripts/${script.id}/versions/1`).expect(200);
    expect(v1.body).toMatchObject({ version: 1, status: 'published' });
    expect(v1.body.questions.map((q: { id: string }) => q.id)).toEqual(['q1', 'q2']);

    // A second edit of the open draft does not open version 3.
    const again = await api.patch(`/v1/scripts/${script.id}`, { systemPrompt: 'Edited draft' }).expect(200);
    expect(again.body.version).toBe(2);

    const republished = await api.post(`/v1/scripts/${script.id}/publish`).expect(200);
    expect(republished.body).toMatchObject({ version: 2, status: 'published', publishedVersion: 2 });
  });

  it('settings are a merge patch: given keys replace, null removes a key', async () => {
    const script = await createScript(api, { settings: { language: 'en', voice: 'alloy', maxFollowUps: 2 } });
    const patched = await api.patch(`/v1/scripts/${script.id}`, { settings: { voice: null, maxFollowUps: 3 } }).expect(200);
    expect(patched.body.settings).toEqual({ language: 'en', maxFollowUps: 3 });
    const bad = await api.patch(`/v1/scripts/${script.id}`, { settings: { tone: 'warm' } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields[0].path).toBe('settings.tone');
  });

  it('renaming a published script changes it in place without a new version', async () => {
    const script = await createPublishedScript(api);
    const renamed = await api.patch(`/v1/scripts/${script.id}`, { name: 'Renamed published', description: 'Now described' }).expect(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed published', description: 'Now described', version: 1, status: 'published' });
  });

  it('POST /versions creates version n+1 as a draft with its changelog, copying omitted fields', async () => {
    const script = await createPublishedScript(api);
    const created = await api.post(`/v1/scripts/${script.id}/versions`, { changelog: 'Sharper prompt', systemPrompt: 'Sharper' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ version: 2, status: 'published', publishedVersion: 1, systemPrompt: 'Sharper' });
    expect(created.body.questions.map((q: { id: string }) => q.id)).toEqual(['q1', 'q2']);

    const list = await api.get(`/v1/scripts/${script.id}/versions`).expect(200);
    expect(list.body.pagination.total).toBe(2);
    expect(list.body.data.map((v: { version: number; status: string; changelog: string | null }) => [v.version, v.status, v.changelog])).toEqual([
      [2, 'draft', 'Sharper prompt'],
      [1, 'published', null],
    ]);
  });

  it('an unknown version answers 404', async () => {
    const script = await createScript(api);
    await api.get(`/v1/scripts/${script.id}/versions/7`).expect(404);
    // A malformed id in the path names no resource: 404, not a validation error.
    await api.get(`/v1/scripts/${script.id}/versions/zero`).expect(404);
  });

  it('publishing twice changes nothing the second time', async () => {
    const script = await createPublishedScript(api);
    const first = await api.get(`/v1/scripts/${script.id}`).expect(200);
    const second = await api.post(`/v1/scripts/${script.id}/publish`).expect(200);
    expect(second.body).toEqual(first.body);
  });
});

describe('archiving and deleting', () => {
  it('an archived script cannot be updated, versioned or published (409 SCRIPT_ARCHIVED)', async () => {
    const script = await createScript(api);
    const archived = await api.post(`/v1/scripts/${script.id}/archive`).expect(200);
    expect(archived.body.status).toBe('archived');
    for (const response of [
      await api.patch(`/v1/scripts/${script.id}`, { name: 'No' }),
      await api.post(`/v1/scripts/${script.id}/versions`, {}),
      await api.post(`/v1/scripts/${script.id}/publish`),
    ]) {
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('SCRIPT_ARCHIVED');
    }
    const listed = await api.get('/v1/scripts?status=archived').expect(200);
    expect(listed.body.data.map((s: { id: string }) => s.id)).toContain(script.id);
  });

  it('delete answers 409 SCRIPT_IN_USE while an active or paused campaign uses it, 204 once archived', async () => {
    const script = await createPublishedScript(api);
    const campaign = await createCampaign(api, { scriptId: script.id });
    const inUse = await api.delete(`/v1/scripts/${script.id}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toMatchObject({ code: 'SCRIPT_IN_USE', details: { campaignIds: [campaign.id] } });

    await api.post(`/v1/campaigns/${campaign.id}/pause`).expect(200);
    expect((await api.delete(`/v1/scripts/${script.id}`)).status).toBe(409);

    await api.post(`/v1/campaigns/${campaign.id}/archive`).expect(200);
    const deleted = await api.delete(`/v1/scripts/${script.id}`);
    expect(deleted.status).toBe(204);
    await api.get(`/v1/scripts/${script.id}`).expect(404);
    // The archived campaign still names the script it ran on.
    const kept = await api.get(`/v1/campaigns/${campaign.id}`).expect(200);
    expect(kept.body.scriptId).toBe(script.id);
  });

  it('a deleted script no longer appears in lists and cannot be deleted again', async () => {
    const script = await createScript(api);
    await api.delete(`/v1/scripts/${script.id}`).expect(204);
    const list = await api.get('/v1/scripts?limit=100').expect(200);
    expect(list.body.data.map((s: { id: string }) => s.id)).not.toContain(script.id);
    await api.delete(`/v1/scripts/${script.id}`).expect(404);
  });
});

describe('export and import', () => {
  it('round-trips: importing an export yields a new draft whose export matches', async () => {
    const script = await createScript(api, {
      settings: { language: 'nl', maxFollowUps: 1 },
      questions: [
        { id: 'r', text: 'Rate us', type: 'rating', scale: { min: 0, max: 10, minLabel: 'Never', maxLabel: 'Always' } },
        { id: 'm', text: 'Pick one', type: 'multiple_choice', options: ['A', 'B', 'C'], required: false },
      ],
    });
    const exported = await api.get(`/v1/scripts/${script.id}/export`).expect(200);
    expect(exported.body).toMatchObject({ format: 'interview-script', formatVersion: 1, source: { scriptId: script.id, version: 1 } });

    const imported = await api.post('/v1/scripts/import', exported.body);
    expect(imported.status).toBe(201);
    expect(imported.body.id).not.toBe(script.id);
    expect(imported.body).toMatchObject({ status: 'draft', version: 1 });

    const reexported = await api.get(`/v1/scripts/${imported.body.id}/export`).expect(200);
    expect(reexported.body.script).toEqual(exported.body.script);
  });

  it('an import of another format version answers 422', async () => {
    const script = await createScript(api);
    const exported = await api.get(`/v1/scripts/${script.id}/export`).expect(200);
    const response = await api.post('/v1/scripts/import', { ...exported.body, formatVersion: 99 });
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields[0].path).toBe('formatVersion');
  });

  it('an import with invalid questions answers 422 and creates nothing', async () => {
    const before = await t.em().count(Script, {});
    const response = await api.post('/v1/scripts/import', {
      format: 'interview-script',
      formatVersion: 1,
      script: { name: 'Bad', systemPrompt: 'p', questions: [{ id: 'x', text: 'x', type: 'multiple_choice' }] },
    });
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields[0].path).toBe('script.questions[0].options');
    expect(await t.em().count(Script, {})).toBe(before);
  });
});
