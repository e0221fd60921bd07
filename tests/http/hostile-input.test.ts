import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Campaign, Project } from '../../server/entities/index.js';
import { apiAs, createCampaign, createProject, createPublishedScript, createScript, type Api } from '../helpers/factories.js';
import { IN_ONE_WINDOW_TIMEOUT_MS, inOneWindow } from '../helpers/rate-limit-window.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAAAJRU5ErkJggg==', 'base64');

let t: TestApp;
let tenant: TestTenant;
let api: Api;

beforeAll(async () => {
  t = await startTestApp({ JSON_BODY_LIMIT: '4kb' });
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
});
afterAll(() => t?.close());

describe('text PostgreSQL cannot store', () => {
  it.each([
    ['a NUL in a name', { name: 'a\u0000b' }, 'name', 'must not contain NUL (\\u0000) characters'],
    ['an unpaired surrogate', { name: 'emoji \ud83d' }, 'name', 'must be valid Unicode (no unpaired surrogates)'],
  ])('%s in a body answers 422 and stores nothing', async (_label, body, path, message) => {
    const before = await t.em().count(Project, {});
    const response = await api.post('/v1/projects', body);
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path, message }] } });
    expect(await t.em().count(Project, {})).toBe(before);
  });

  it('metadata keys and values are checked too, and __proto__ is refused rather than dropped', async () => {
    const script = await createPublishedScript(api);
    const cases: [Record<string, unknown>, string][] = [
      [{ ok: 'x\u0000' }, 'metadata.ok'],
      [{ ['k\u0000']: 1 }, 'metadata.k\u0000'],
      [JSON.parse('{"__proto__": {"polluted": 1}}'), 'metadata.__proto__'],
    ];
    for (const [metadata, path] of cases) {
      const response = await api.post('/v1/campaigns', { name: 'Meta', scriptId: script.id, metadata });
      expect(response.status).toBe(422);
      expect(response.body.error.details.fields[0].path).toBe(path);
    }
    const campaign = await createCampaign(api);
    const patched = await api.patch(`/v1/campaigns/${campaign.id}`, { metadata: { a: '\ud800' } });
    expect(patched.status).toBe(422);
  });

  it('in a query parameter answers 400, in a path 404', async () => {
    const search = await api.get('/v1/projects?search=%00');
    expect(search.status).toBe(400);
    expect(search.body.error.details.fields[0].path).toBe('search');
    await api.get('/v1/projects/%00').expect(404);
    await api.get('/v1/campaigns?projectId=%00').expect(400);
    const upload = await t.http.post('/v1/scripts/%00/media').set('Authorization', tenant.authorization).attach('file', PNG, 'x.png');
    expect(upload.status).toBe(404);
  });

  it('through /trpc answers 422 as well', async () => {
    const response = await t.http
      .get(`/trpc/projects.get?input=${encodeURIComponent(JSON.stringify({ projectId: 'x\u0000' }))}`)
      .set('Authorization', tenant.authorization);
    expect(response.status).toBe(422);
    expect(response.body.error.data.appCode).toBe('VALIDATION_ERROR');
  });
});

describe('malformed requests', () => {
  it('malformed percent-encoding answers 404 in the envelope, also without a key', async () => {
    const file = await t.http.get('/files/%ZZ');
    expect(file.status).toBe(404);
    expect(file.body.error.code).toBe('RESOURCE_NOT_FOUND');
    const upload = await t.http.post('/v1/scripts/%ZZ/media').set('Authorization', tenant.authorization);
    expect(upload.status).toBe(404);
  });

  it('a compressed body that does not decompress answers 400', async () => {
    const response = await t.http
      .post('/v1/projects')
      .set('Authorization', tenant.authorization)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('definitely not gzip');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_REQUEST');
  });

  it('a gzip-compressed JSON body is accepted', async () => {
    const response = await t.http
      .post('/v1/projects')
      .set('Authorization', tenant.authorization)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      // Sent as raw bytes: superagent would otherwise JSON-encode the Buffer.
      .serialize((body: Buffer) => body as unknown as string)
      .send(gzipSync(JSON.stringify({ name: 'Zipped' })));
    expect(response.status).toBe(201);
    expect(response.body.name).toBe('Zipped');
  });

  it('a path parameter repeated in the query or body is refused, not silently overridden', async () => {
    const campaign = await createCampaign(api);
    const query = await api.get(`/v1/campaigns/${campaign.id}?campaignId=cam_other`);
    expect(query.status).toBe(400);
    expect(query.body.error.details.fields).toEqual([{ path: 'campaignId', message: 'is taken from the URL path; do not send it here' }]);
    const project = await createProject(api);
    const body = await api.patch(`/v1/projects/${project.id}`, { projectId: 'prj_other', name: 'x' });
    expect(body.status).toBe(422);
  });

  it.each(['0x1', '1e0', '01.0x'])('version %s in the path answers 404', async (version) => {
    const script = await createScript(api);
    await api.get(`/v1/scripts/${script.id}/versions/${version}`).expect(404);
  });
});

describe('/trpc limits', () => {
  it(
    'counts every call of a batch against the rate limit',
    async () => {
      const own = await t.createTenant({ rateLimitPerMinute: 1000 });
      // Both reads in one rate-limit window (they are aligned to the minute).
      await inOneWindow(async () => {
        const first = await t.http.get('/v1/projects').set('Authorization', own.authorization).expect(200);
        const before = Number(first.headers['x-ratelimit-remaining']);
        const input = encodeURIComponent(JSON.stringify({ 0: {}, 1: {}, 2: {} }));
        const batch = await t.http.get(`/trpc/projects.list,projects.list,projects.list?batch=1&input=${input}`).set('Authorization', own.authorization);
        expect(batch.status).toBe(200);
        expect(Number(batch.headers['x-ratelimit-remaining'])).toBe(before - 3);
      });
    },
    IN_ONE_WINDOW_TIMEOUT_MS,
  );

  it('refuses batches of more than 10 calls', async () => {
    const paths = Array.from({ length: 11 }, () => 'projects.list').join(',');
    const input = encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [i, {}]))));
    const response = await t.http.get(`/trpc/${paths}?batch=1&input=${input}`).set('Authorization', tenant.authorization);
    expect(response.status).toBe(400);
  });

  it('applies the JSON body limit', async () => {
    const response = await t.http
      .post('/trpc/projects.create')
      .set('Authorization', tenant.authorization)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x', description: 'd'.repeat(10_000) }));
    expect(response.status).toBe(413);
  });
});

describe('multipart details', () => {
  it('keeps UTF-8 filenames and refuses a repeated questionId', async () => {
    const script = await createScript(api);
    const stored = await t.http.post(`/v1/scripts/${script.id}/media`).set('Authorization', tenant.authorization).attach('file', PNG, 'café.png');
    expect(stored.status).toBe(201);
    expect(stored.body.filename).toBe('café.png');
    const repeated = await t.http
      .post(`/v1/scripts/${script.id}/media`)
      .set('Authorization', tenant.authorization)
      .field('questionId', 'q1')
      .field('questionId', 'nope')
      .attach('file', PNG, 'x.png');
    expect(repeated.status).toBe(400);
    expect(repeated.body.error.details.fields[0].path).toBe('questionId');
  });
});

describe('concurrent project deletion', () => {
  it('never deadlocks with campaign and script updates that assign the project', async () => {
    for (let round = 0; round < 8; round += 1) {
      const project = await createProject(api);
      const script = await createPublishedScript(api, { projectId: project.id });
      const campaigns = await Promise.all(Array.from({ length: 4 }, () => createCampaign(api, { projectId: project.id, scriptId: script.id })));
      const otherScript = await createPublishedScript(api, { projectId: project.id });
      const responses = await Promise.all([
        ...campaigns.map((campaign, i) =>
          api.patch(`/v1/campaigns/${campaign.id}`, { name: `r${round}`, projectId: project.id, ...(i % 2 ? { scriptId: otherScript.id } : {}) }),
        ),
        api.patch(`/v1/scripts/${otherScript.id}`, { projectId: project.id, name: `s${round}` }),
        api.delete(`/v1/projects/${project.id}`),
      ]);
      for (const response of responses) expect([200, 204, 404]).toContain(response.status);
      await api.get(`/v1/projects/${project.id}`).expect(404);
      expect(await t.em().count(Campaign, { project: project.id })).toBe(0);
    }
  }, 60_000);
});
