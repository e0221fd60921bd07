import { Collection, type Item } from 'postman-collection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiAs } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The Postman collection, read by Postman's own SDK (`postman-collection`): every operation of the
 * OpenAPI document once, in its tag's folder, with its method, path variables and key; and its
 * requests, sent as Postman would send them with the variables filled in, work.
 */

let t: TestApp;
let api: Api;
let document: Record<string, any>;
let collection: Collection;
let raw: Record<string, any>;

beforeAll(async () => {
  t = await startTestApp();
  api = apiAs(t.http, await t.createTenant());
  document = (await t.http.get('/v1/openapi.json').expect(200)).body;
  const response = await t.http.get('/v1/postman-collection.json').expect(200);
  expect(response.headers['content-disposition']).toContain('interview-service.postman_collection.json');
  raw = response.body;
  collection = new Collection(raw);
});
afterAll(() => t?.close());

function requests(): Item[] {
  const items: Item[] = [];
  collection.forEachItem((item) => items.push(item));
  return items;
}

/** `GET /v1/projects/:projectId` as the document writes it: `GET /v1/projects/{projectId}`. */
const keyOf = (item: Item) => `${item.request.method} /${item.request.url.path!.map((segment) => segment.replace(/^:(\w+)$/, '{$1}')).join('/')}`;

describe('GET /v1/postman-collection.json', () => {
  it('is a v2.1 collection, served without a key, holding every operation of the document once, in its tag folder', () => {
    expect(raw.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(raw.info.version).toBe(document.info.version);
    const operations = Object.entries<Record<string, any>>(document.paths).flatMap(([path, item]) =>
      ['get', 'post', 'put', 'patch', 'delete'].filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const keys = requests().map(keyOf);
    expect(keys.sort()).toEqual(operations.sort());
    const folderOf = new Map(raw.item.flatMap((folder: any) => folder.item.map((item: any) => [item.request.url.raw, folder.name])));
    expect(folderOf.get('{{baseUrl}}/v1/events')).toBe('Events');
    expect(collection.variables.get('baseUrl')).toBe(t.runtime.services.config.publicUrl);
  });

  it("carries each operation's path variables, query parameters (off until set), body and key", () => {
    const byKey = new Map(requests().map((item) => [keyOf(item), item]));
    const redeliver = byKey.get('POST /v1/events/{eventId}/redeliver')!;
    expect(redeliver.request.url.variables.all().map((variable) => variable.key)).toEqual(['eventId']);
    expect(JSON.parse(redeliver.request.body!.raw!)).toEqual({ endpointId: '' });
    const list = byKey.get('GET /v1/events')!;
    expect(list.request.url.query.all().map((parameter) => [parameter.key, parameter.disabled])).toEqual(
      expect.arrayContaining([
        ['type', true],
        ['limit', true],
      ]),
    );
    // The document's own example, where it has one.
    expect(JSON.parse(byKey.get('POST /v1/projects')!.request.body!.raw!)).toEqual(
      document.paths['/v1/projects'].post.requestBody.content['application/json'].example,
    );
    // An upload is a form with its file.
    const upload = byKey.get('POST /v1/scripts/{scriptId}/media')!;
    expect(upload.request.body!.mode).toBe('formdata');
    expect(upload.request.body!.formdata!.all().find((field) => field.key === 'file')).toMatchObject({ type: 'file' });
    // The API takes the key; the participant's calls the invite token.
    expect(raw.auth).toEqual({ type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] });
    const answer = raw.item.flatMap((folder: any) => folder.item).find((item: any) => item.request.url.raw === '{{baseUrl}}/api/interview/answer');
    expect(answer.request.auth.bearer[0].value).toBe('{{inviteToken}}');
  });

  it('its requests work once the variables are set: create a project, then read it back', async () => {
    const byKey = new Map(requests().map((item) => [keyOf(item), item]));
    const create = byKey.get('POST /v1/projects')!;
    const created = await api.post(`/${create.request.url.path!.join('/')}`, JSON.parse(create.request.body!.raw!)).expect(201);
    const get = byKey.get('GET /v1/projects/{projectId}')!;
    const path = get.request.url.path!.map((segment) => (segment === ':projectId' ? created.body.id : segment)).join('/');
    expect((await api.get(`/${path}`).expect(200)).body.name).toBe(created.body.name);
  });
});
