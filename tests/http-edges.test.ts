import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config.js';
import { startListeners } from '../server/http/listeners.js';
import { createLogger } from '../server/logger.js';
import { type Api, apiAs, createCampaign, createShareLink } from './helpers/factories.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';
import { startTestApp, type TestApp, type TestTenant } from './helpers/test-app.js';

/** Faults found by a black-box probe at the edges of HTTP: each answers the envelope with its own status, never 500. */
let t: TestApp;
let tenant: TestTenant;
let api: Api;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
});
afterAll(() => t?.close());

describe('bodies that are not JSON', () => {
  it.each([
    ['text/plain', 'hello'],
    ['application/x-www-form-urlencoded', 'name=Project'],
    ['application/xml', '<project/>'],
    ['application/octet-stream', 'binary'],
  ])('/trpc with %s answers 415 UNSUPPORTED_MEDIA_TYPE, as REST does', async (contentType, body) => {
    const trpc = await t.http.post('/trpc/projects.create').set('Authorization', tenant.authorization).set('Content-Type', contentType).send(body);
    expect(trpc.status).toBe(415);
    expect(trpc.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(trpc.body.error.message).toContain(contentType);
    const rest = await t.http.post('/v1/projects').set('Authorization', tenant.authorization).set('Content-Type', contentType).send(body);
    expect(rest.status).toBe(415);
    expect(rest.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('JSON that is not valid UTF-8 is refused with 400, on REST and /trpc, and nothing is stored', async () => {
    // "Caf" + a lone 0xE9 (Latin-1 é): not UTF-8.
    const body = Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from(' research"}')]);
    for (const path of ['/v1/projects', '/trpc/projects.create']) {
      const response = await t.http
        .post(path)
        .set('Authorization', tenant.authorization)
        .set('Content-Type', 'application/json')
        // The raw bytes, not superagent's JSON of a Buffer object.
        .serialize((value: unknown) => value as string)
        .send(body as unknown as string);
      expect(response.status, path).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_REQUEST', message: 'The request body is not valid UTF-8.' });
    }
    const rows = await t.em().execute(`select 1 from projects where name like 'Caf%'`);
    expect(rows).toEqual([]);
  });
});

describe('paths are exact', () => {
  it('routing is case-sensitive: /V1/CAMPAIGNS is 404', async () => {
    const response = await api.get('/V1/CAMPAIGNS');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
    await api.get('/v1/Campaigns').expect(404);
    await api.get('/v1/campaigns').expect(200);
  });

  it('a trailing slash is another path: 404', async () => {
    await api.get('/v1/campaigns/').expect(404);
    const campaign = await createCampaign(api);
    await api.get(`/v1/campaigns/${campaign.id}/`).expect(404);
  });

  it('OPTIONS answers the same JSON 405 on the media upload route as on every other path', async () => {
    for (const path of ['/v1/scripts/scr_x/media', '/v1/campaigns', '/v1/projects/prj_x']) {
      const response = await t.http.options(path).set('Authorization', tenant.authorization);
      expect(response.status, path).toBe(405);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body.error.code).toBe('METHOD_NOT_ALLOWED');
      expect(response.headers.allow).toBeTruthy();
    }
  });
});

describe('share codes that cannot exist', () => {
  it.each(['/join/%00', `/join/${'a'.repeat(20)}%00`, '/join/abc%00def'])('GET and HEAD %s answer the 404 page without asking the database', async (path) => {
    const response = await t.http.get(path);
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect((await t.http.head(path)).status).toBe(404);
  });
});

describe('request lines and headers over the limit', () => {
  it('answer 431 REQUEST_HEADERS_TOO_LARGE in the envelope, not an empty body', async () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://unused/x', PORT: '0', HOST: '127.0.0.1' });
    const listeners = await startListeners(t.app, config, undefined);
    const port = Number(new URL(listeners.listeners[0]!.url).port);
    try {
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let received = '';
        socket.on('data', (chunk) => (received += chunk));
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
        socket.write(`GET /v1/projects HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
      });
      const [head, body] = raw.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 431 /);
      expect(head).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(body!)).toEqual({ error: { code: 'REQUEST_HEADERS_TOO_LARGE', message: expect.any(String), details: {} } });
    } finally {
      await listeners.close(0);
    }
  });
});

describe('health under load', () => {
  it('/healthz answers within 1 s while 50 bulk requests keep every pool connection busy', async () => {
    const campaign = await createCampaign(api);
    const bulk = (n: number) => ({ invites: Array.from({ length: 500 }, (_, i) => ({ email: `load-${n}-${i}@example.com` })), sendEmail: false });
    let done = false;
    const load = Promise.all(Array.from({ length: 50 }, (_, n) => api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, bulk(n)))).finally(() => {
      done = true;
    });
    const timings: number[] = [];
    // Probe while the load runs (the first probe after the requests are in flight).
    await new Promise((resolve) => setTimeout(resolve, 200));
    while (!done && timings.length < 20) {
      const started = performance.now();
      const health = await t.http.get('/healthz');
      timings.push(performance.now() - started);
      expect(health.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const responses = await load;
    expect(responses.every((response) => response.status === 201)).toBe(true);
    expect(timings.length).toBeGreaterThan(0);
    expect(Math.max(...timings)).toBeLessThan(1000);
  }, 120_000);
});

describe('the database unreachable', () => {
  let proxy: TcpProxy;
  let down: TestApp;
  let downTenant: TestTenant;
  const logLines: string[] = [];
  let code: string;

  beforeAll(async () => {
    proxy = await startTcpProxy(Number(new URL(inject('adminDatabaseUrl')).port));
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        logLines.push(String(chunk));
        callback();
      },
    });
    down = await startTestApp({ LOG_LEVEL: 'info' }, createLogger('info', sink), { databaseUrl: (url) => proxy.urlThrough(url) });
    downTenant = await down.createTenant();
    const downApi = apiAs(down.http, downTenant);
    code = (await createShareLink(downApi, (await createCampaign(downApi)).id)).code;
    await proxy.stop();
  });
  afterAll(async () => {
    await proxy?.close();
    await down?.close();
  });

  it('API calls answer 503 SERVICE_UNAVAILABLE with Retry-After, on REST and /trpc', async () => {
    const rest = await down.http.get('/v1/campaigns').set('Authorization', downTenant.authorization);
    expect(rest.status).toBe(503);
    expect(rest.headers['retry-after']).toBe('5');
    expect(rest.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { retryAfter: 5 } });
    const trpc = await down.http.get('/trpc/campaigns.list?input=%7B%7D').set('Authorization', downTenant.authorization);
    expect(trpc.status).toBe(503);
  });

  it('/healthz answers 503 at once', async () => {
    const started = performance.now();
    const health = await down.http.get('/healthz');
    expect(health.status).toBe(503);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('a participant page answers a 503 page, and its log line names the route template, not /join/join/:code', async () => {
    const response = await down.http.get(`/join/${code}`).set('X-Request-Id', 'join-while-down');
    expect(response.status).toBe(503);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    const lines = logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.requestId === 'join-while-down');
    expect(lines.find((line) => line.msg === 'request')).toMatchObject({ route: '/join/{code}', status: 503 });
    expect(lines.find((line) => line.msg === 'participant page failed')).toMatchObject({ route: '/join/{code}' });
    expect(JSON.stringify(lines)).not.toContain(code);
  });
});
