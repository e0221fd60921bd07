import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/logger.js';
import { apiAs, createProject, type Api } from '../helpers/factories.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

const ENVELOPE = { error: { code: expect.any(String), message: expect.any(String), details: expect.any(Object) } };

let t: TestApp;
let tenant: TestTenant;
let api: Api;
const logLines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  t = await startTestApp({ JSON_BODY_LIMIT: '2kb' }, createLogger('error', sink));
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
});
afterAll(() => t?.close());

describe('error envelope', () => {
  it('an unknown path outside the API answers 404 in the envelope', async () => {
    const response = await t.http.get('/definitely/not/here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      error: { code: 'RESOURCE_NOT_FOUND', message: 'No route GET /definitely/not/here.', details: {}, requestId: response.headers['x-request-id'] },
    });
  });

  it('malformed JSON answers 400 INVALID_REQUEST', async () => {
    const response = await t.http
      .post('/v1/projects')
      .set('Authorization', tenant.authorization)
      .set('Content-Type', 'application/json')
      .send('{"name": "unterminated');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'INVALID_REQUEST', message: 'The request body is not valid JSON.', details: {}, requestId: expect.stringMatching(/^req_/) },
    });
  });

  it('a body over the JSON limit answers 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await api.post('/v1/projects', { name: 'Big', description: 'x'.repeat(4000) });
    expect(response.status).toBe(413);
    expect(response.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { limitBytes: 2048 } });
  });

  it.each([
    ['an array', '[{"name":"x"}]'],
    ['a string', '"name"'],
    ['null', 'null'],
  ])('a body that is %s answers 400 INVALID_REQUEST', async (_label, body) => {
    const response = await t.http.post('/v1/projects').set('Authorization', tenant.authorization).set('Content-Type', 'application/json').send(body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject(ENVELOPE);
    expect(response.body.error.code).toBe('INVALID_REQUEST');
  });

  it('a body that is not JSON answers 415 UNSUPPORTED_MEDIA_TYPE naming the content type', async () => {
    const response = await t.http.post('/v1/projects').set('Authorization', tenant.authorization).set('Content-Type', 'text/plain').send('name=Project');
    expect(response.status).toBe(415);
    expect(response.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(response.body.error.message).toContain('application/json');
    expect(response.body.error.message).toContain('text/plain');
  });

  it('a JSON content type with a charset parameter is accepted', async () => {
    const response = await t.http
      .post('/v1/projects')
      .set('Authorization', tenant.authorization)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ name: 'Charset' }));
    expect(response.status).toBe(201);
  });

  it('a wrong method on a known path answers 405 with Allow', async () => {
    const response = await api.patch('/v1/campaigns', {});
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD, POST');
    expect(response.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('HEAD on a GET operation answers its status and headers without a body', async () => {
    const response = await t.http.head('/v1/projects').set('Authorization', tenant.authorization);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('API answers are never cached and never sniffed', async () => {
    const response = await api.get('/v1/projects').expect(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const denied = await t.http.get('/v1/projects');
    expect(denied.headers['cache-control']).toBe('no-store');
  });

  it('a field of the wrong type answers 422 with a readable message', async () => {
    const response = await api.post('/v1/projects', { name: 42 });
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields).toEqual([{ path: 'name', message: 'must be a string' }]);
  });

  it('an unexpected failure answers 500 INTERNAL_ERROR without internals, and is logged', async () => {
    await createProject(api);
    const em = t.em();
    await em.execute('alter table projects rename to projects_moved');
    try {
      const response = await api.get('/v1/projects');
      expect(response.status).toBe(500);
      expect(response.body).toEqual({
        error: { code: 'INTERNAL_ERROR', message: expect.stringContaining('unexpected'), details: {}, requestId: expect.stringMatching(/^req_/) },
      });
      expect(response.text).not.toMatch(/projects|select|relation|at \w+ \(/i);
      expect(logLines.join('')).toContain('relation \\"projects\\" does not exist');
    } finally {
      await em.execute('alter table projects_moved rename to projects');
    }
  });
});

describe('/trpc errors', () => {
  it('carry the same code and details in data for first-party clients', async () => {
    const response = await t.http
      .post('/trpc/projects.create')
      .set('Authorization', tenant.authorization)
      .set('Content-Type', 'application/json')
      .send({ name: 'x', color: 'red' });
    expect(response.status).toBe(422);
    expect(response.body.error.data).toMatchObject({
      appCode: 'VALIDATION_ERROR',
      httpStatus: 422,
      details: { fields: [{ path: 'color', message: expect.any(String) }] },
    });
    expect(JSON.stringify(response.body)).not.toContain('stack');
  });
});
