import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * HTTP manners of the REST API: API-Version, merge patch on PATCH, Idempotency-Key where it is
 * not honoured, Location on 201, ETag and If-Match (CORS and OPTIONS are in cors.test.ts).
 */

let t: TestApp;
let tenant: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.createTenant();
});
afterAll(() => t?.close());

describe('API-Version', () => {
  it('is on every answer of /v1, /api and /trpc, errors and preflights included, and matches the OpenAPI document', async () => {
    const { version } = (await t.http.get('/v1/openapi.json').expect(200)).body.info as { version: string };
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    const answers = [
      await t.http.get('/v1/projects').set('Authorization', tenant.authorization),
      await t.http.get('/api/webhooks').set('Authorization', tenant.authorization),
      await t.http.get('/trpc/projects.list?input=%7B%7D').set('Authorization', tenant.authorization),
      await t.http.get('/v1/projects'),
      await t.http.get('/v1/projects/prj_missing').set('Authorization', tenant.authorization),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 401, 404]);
    for (const answer of answers) expect(answer.headers['api-version']).toBe(version);
    const changelog = await readFile(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
    expect(changelog).toContain(`## ${version} (`);
  });
});

describe('HTTP manners', () => {
  it('PATCH takes JSON Merge Patch (application/merge-patch+json) as well as JSON; other methods do not', async () => {
    const created = await t.http
      .post('/v1/projects')
      .set('Authorization', tenant.authorization)
      .send({ name: 'Merge patch', description: 'before' })
      .expect(201);
    const patched = await t.http
      .patch(`/v1/projects/${created.body.id}`)
      .set('Authorization', tenant.authorization)
      .set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ description: null }));
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: created.body.id, name: 'Merge patch', description: null });
    const posted = await t.http
      .post('/v1/projects')
      .set('Authorization', tenant.authorization)
      .set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ name: 'x' }));
    expect(posted.status).toBe(415);
    expect(posted.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('Idempotency-Key on PATCH and DELETE is refused with 400 naming the header, and nothing changes', async () => {
    const created = await t.http.post('/v1/projects').set('Authorization', tenant.authorization).send({ name: 'Keyed' }).expect(201);
    const patched = await t.http
      .patch(`/v1/projects/${created.body.id}`)
      .set('Authorization', tenant.authorization)
      .set('Idempotency-Key', 'k-1')
      .send({ name: 'Renamed' });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { fields: [{ path: 'Idempotency-Key', message: 'is not supported on PATCH' }] },
    });
    const deleted = await t.http.delete(`/v1/projects/${created.body.id}`).set('Authorization', tenant.authorization).set('Idempotency-Key', 'k-2');
    expect(deleted.status).toBe(400);
    const still = await t.http.get(`/v1/projects/${created.body.id}`).set('Authorization', tenant.authorization).expect(200);
    expect(still.body.name).toBe('Keyed');
  });
});

describe('Location on 201', () => {
  it('names where the created record is read, also on an idempotent replay; and it reads back', async () => {
    const created = await t.http
      .post('/v1/projects')
      .set('Authorization', tenant.authorization)
      .set('Idempotency-Key', 'location-1')
      .send({ name: 'Located' })
      .expect(201);
    expect(created.headers.location).toBe(`/v1/projects/${created.body.id}`);
    const replayed = await t.http
      .post('/v1/projects')
      .set('Authorization', tenant.authorization)
      .set('Idempotency-Key', 'location-1')
      .send({ name: 'Located' })
      .expect(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.headers.location).toBe(created.headers.location);
    const read = await t.http.get(created.headers.location!).set('Authorization', tenant.authorization).expect(200);
    expect(read.body.id).toBe(created.body.id);
    const script = await t.http
      .post('/api/scripts')
      .set('Authorization', tenant.authorization)
      .send({ name: 'Located script', systemPrompt: 'You interview customers.', questions: [{ id: 'q1', text: 'How was it?', type: 'open' }] })
      .expect(201);
    expect(script.headers.location).toBe(`/v1/scripts/${script.body.id}`);
    const { document } = { document: (await t.http.get('/v1/openapi.json').expect(200)).body };
    expect(document.paths['/v1/projects'].post.responses['201'].headers.Location).toBeDefined();
  });
});

describe('ETag and If-Match', () => {
  it('a record carries its ETag; PATCH with the current one applies and answers the next, with a stale one is 412 and changes nothing', async () => {
    const created = await t.http.post('/v1/projects').set('Authorization', tenant.authorization).send({ name: 'Versioned' }).expect(201);
    const path = `/v1/projects/${created.body.id}`;
    const read = await t.http.get(path).set('Authorization', tenant.authorization).expect(200);
    const etag = read.headers.etag!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect((await t.http.get(path).set('Authorization', tenant.authorization)).headers.etag).toBe(etag);

    const patched = await t.http.patch(path).set('Authorization', tenant.authorization).set('If-Match', etag).send({ name: 'Versioned 2' }).expect(200);
    expect(patched.headers.etag).not.toBe(etag);
    expect((await t.http.get(path).set('Authorization', tenant.authorization)).headers.etag).toBe(patched.headers.etag);

    const stale = await t.http.patch(path).set('Authorization', tenant.authorization).set('If-Match', etag).send({ name: 'Lost update' });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ code: 'PRECONDITION_FAILED', details: { etag: patched.headers.etag } });
    expect(stale.headers.etag).toBe(patched.headers.etag);
    expect((await t.http.get(path).set('Authorization', tenant.authorization)).body.name).toBe('Versioned 2');

    const staleDelete = await t.http.delete(path).set('Authorization', tenant.authorization).set('If-Match', etag);
    expect(staleDelete.status).toBe(412);
    await t.http.delete(path).set('Authorization', tenant.authorization).set('If-Match', `"nope", ${patched.headers.etag}`).expect(204);
  });

  it('two writers with the same If-Match: exactly one wins, the other gets 412', async () => {
    const created = await t.http.post('/v1/projects').set('Authorization', tenant.authorization).send({ name: 'Contended' }).expect(201);
    const path = `/v1/projects/${created.body.id}`;
    const etag = (await t.http.get(path).set('Authorization', tenant.authorization)).headers.etag!;
    const answers = await Promise.all(
      ['A', 'B', 'C'].map((name) =>
        t.http
          .patch(path)
          .set('Authorization', tenant.authorization)
          .set('If-Match', etag)
          .send({ name: `Contended ${name}` }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412, 412]);
  });

  it('a create (201) answers the strong ETag the next GET of the record answers, and If-Match with it applies', async () => {
    const auth = (test: supertest.Test) => test.set('Authorization', tenant.authorization);
    const STRONG = /^"[\w-]{27}"$/;
    /** Creates, reads the record at Location: both answers carry one strong tag. Then changes it with If-Match of the create's tag. */
    const createThenChange = async (path: string, body: Record<string, unknown>, change: Record<string, unknown> | 'delete' | null, key?: string) => {
      const request = auth(t.http.post(path));
      const created = await (key ? request.set('Idempotency-Key', key) : request).send(body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.headers.etag, `${path}: ${created.headers.etag}`).toMatch(STRONG);
      const location = created.headers.location!;
      const read = await auth(t.http.get(location)).expect(200);
      expect(created.headers.etag, `the create of ${path} and the GET of its record answer the same tag`).toBe(read.headers.etag);
      if (change === 'delete') {
        await auth(t.http.delete(location)).set('If-Match', created.headers.etag!).expect(204);
      } else if (change) {
        const patched = await auth(t.http.patch(location)).set('If-Match', created.headers.etag!).send(change);
        expect(patched.status, `PATCH ${location} with the create's ETag: ${JSON.stringify(patched.body)}`).toBe(200);
      }
      return created;
    };

    const script = await createThenChange(
      '/v1/scripts',
      { name: 'Tagged script', systemPrompt: 'You interview customers.', questions: [{ id: 'q1', text: 'How was it?', type: 'open' }] },
      { name: 'Tagged script 2' },
    );
    await auth(t.http.post(`/v1/scripts/${script.body.id}/publish`)).expect(200);
    await createThenChange('/v1/projects', { name: 'Tagged' }, { name: 'Tagged 2' });
    await createThenChange('/v1/projects', { name: 'Tagged, deleted' }, 'delete');
    const campaign = await createThenChange('/v1/campaigns', { name: 'Tagged campaign', scriptId: script.body.id }, { name: 'Tagged campaign 2' });
    // The webhook's create answers its secret once, the GET does not: the tag is the GET's.
    const webhook = await createThenChange('/api/webhooks', { url: 'https://93.184.216.34/hook', events: ['*'] }, { description: 'Tagged hook' });
    expect(webhook.body.secret).toBeDefined();
    await createThenChange(`/v1/campaigns/${campaign.body.id}/invites`, { email: 'tagged@example.com', sendEmail: false }, null);
    await createThenChange(`/v1/campaigns/${campaign.body.id}/share-links`, {}, null);
    // An idempotent replay carries the create's tag too.
    const keyed = await createThenChange('/v1/projects', { name: 'Tagged keyed' }, null, 'etag-create-1');
    const replayed = await auth(t.http.post('/v1/projects')).set('Idempotency-Key', 'etag-create-1').send({ name: 'Tagged keyed' }).expect(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.headers.etag).toBe(keyed.headers.etag);
    await auth(t.http.patch(keyed.headers.location!)).set('If-Match', replayed.headers.etag!).send({ name: 'Tagged keyed 2' }).expect(200);
    const document = (await t.http.get('/v1/openapi.json').expect(200)).body;
    expect(document.paths['/v1/projects'].post.responses['201'].headers.ETag).toEqual({ $ref: '#/components/headers/ETag' });
  });

  it('a create by a key that may not read the record answers no ETag rather than failing', async () => {
    const writeOnly = await t.createKey(tenant.organizationId, ['campaigns:write']);
    const created = await t.http.post('/v1/projects').set('Authorization', writeOnly.authorization).send({ name: 'Write only' }).expect(201);
    expect(created.headers.etag).toBeUndefined();
    expect(created.headers.location).toBe(`/v1/projects/${created.body.id}`);
  });

  it('no JSON answer of the API carries a weak (Express default) ETag', async () => {
    const auth = (test: supertest.Test) => test.set('Authorization', tenant.authorization);
    const answers: [string, supertest.Response][] = [
      ['a list', await auth(t.http.get('/v1/projects')).expect(200)],
      ['an action', await auth(t.http.post('/v1/scripts/import')).send({ name: 'x' })],
      ['the organization', await auth(t.http.get('/v1/organization')).expect(200)],
      ['an error', await auth(t.http.get('/v1/projects/prj_missing')).expect(404)],
      ['a tRPC query', await auth(t.http.get('/trpc/projects.list?input=%7B%7D')).expect(200)],
      ['the OpenAPI document', await t.http.get('/v1/openapi.json').expect(200)],
    ];
    for (const [label, answer] of answers) expect(answer.headers.etag ?? '', label).not.toMatch(/^W\//);
    expect(answers[0]![1].headers.etag, 'a list has no version').toBeUndefined();
  });

  it('If-Match where it has no meaning (a POST, a list) is 400 naming the header, not ignored', async () => {
    const response = await t.http.post('/v1/projects').set('Authorization', tenant.authorization).set('If-Match', '"x"').send({ name: 'No' });
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields).toEqual([{ path: 'If-Match', message: 'is not supported on POST /v1/projects' }]);
  });
});
