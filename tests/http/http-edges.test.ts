import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { startListeners } from '../../server/http/listeners.js';
import { createLogger } from '../../server/logger.js';
import { type Api, apiAs, createCampaign, createShareLink } from '../helpers/factories.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { waitForLockWaiters, whileCampaignLocked } from '../helpers/row-lock.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

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
    expect(trpc.body.error.data.appCode).toBe('UNSUPPORTED_MEDIA_TYPE');
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
      expect(response.body.error.message).toBe('The request body is not valid UTF-8.');
      expect(response.body.error.data?.appCode ?? response.body.error.code).toBe('INVALID_REQUEST');
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

  it('OPTIONS answers 204 with Allow on the media upload route as on every other API path', async () => {
    for (const [path, allow] of [
      ['/v1/scripts/scr_x/media', 'GET, HEAD, POST, OPTIONS'],
      ['/v1/campaigns', 'GET, HEAD, POST, OPTIONS'],
      ['/v1/projects/prj_x', 'GET, HEAD, PATCH, DELETE, OPTIONS'],
    ]) {
      const response = await t.http.options(path!).set('Authorization', tenant.authorization);
      expect(response.status, path).toBe(204);
      expect(response.headers.allow, path).toBe(allow);
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
  it('/healthz answers 200 within 1 s while every pool connection is busy with request work', async () => {
    const campaign = await createCampaign(api);
    let load: Promise<number>[] = [];
    await whileCampaignLocked(t.database.url, campaign.id, async (holder) => {
      // Twice the pool (4 in tests): every connection waits on the lock, the rest wait for a connection.
      load = Array.from({ length: 8 }, (_, i) =>
        api.post(`/v1/campaigns/${campaign.id}/invites`, { email: `busy-${i}@example.com`, sendEmail: false }).then((r) => r.status),
      );
      await waitForLockWaiters(holder, 4);
      const started = performance.now();
      const health = await t.http.get('/healthz');
      expect(health.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(1000);
    });
    // Once the lock is released, the load goes through.
    const statuses = await Promise.all(load);
    expect(statuses.every((status) => status === 201)).toBe(true);
  }, 60_000);
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
    expect(health.headers['retry-after']).toBe('5');
    expect(health.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { databaseUp: false }, requestId: health.headers['x-request-id'] });
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

describe('declared media types without a body', () => {
  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream'])(
    'POST /trpc and REST with Content-Type %s and no body answer 415',
    async (contentType) => {
      for (const path of ['/trpc/projects.create', '/v1/projects']) {
        const response = await t.http.post(path).set('Authorization', tenant.authorization).set('Content-Type', contentType).set('Content-Length', '0');
        expect(response.status, path).toBe(415);
        expect(response.body.error.data?.appCode ?? response.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      }
    },
  );

  it('application/json with no body is an empty object, not 415', async () => {
    const response = await t.http
      .post('/v1/projects')
      .set('Authorization', tenant.authorization)
      .set('Content-Type', 'application/json')
      .set('Content-Length', '0');
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields).toEqual([{ path: 'name', message: 'is required' }]);
  });
});

describe('the database lost during a request', () => {
  it('a /trpc call whose database goes away mid-request answers 503 with Retry-After, as REST does', async () => {
    const proxy = await startTcpProxy(Number(new URL(inject('adminDatabaseUrl')).port));
    const lost = await startTestApp({}, undefined, { databaseUrl: (url) => proxy.urlThrough(url) });
    try {
      const owner = await lost.createTenant();
      const campaign = await createCampaign(apiAs(lost.http, owner));
      await whileCampaignLocked(lost.database.url, campaign.id, async (holder) => {
        const trpc = lost.http
          .post('/trpc/invites.create')
          .set('Authorization', owner.authorization)
          .send({ campaignId: campaign.id, email: 'lost@example.com', sendEmail: false })
          .then((response) => response); // a supertest request starts only once awaited or then-ed
        // Once the request waits on the lock, its connection is cut.
        await waitForLockWaiters(holder);
        await proxy.stop();
        const response = await trpc;
        expect(response.status).toBe(503);
        expect(response.headers['retry-after']).toBe('5');
        expect(response.body.error.data).toMatchObject({ appCode: 'SERVICE_UNAVAILABLE', httpStatus: 503 });
      });
    } finally {
      await proxy.close();
      await lost.close();
    }
  });

  it('a failed call to another service is not reported as a database outage', async () => {
    const { describeError } = await import('../../server/http/error-envelope.js');
    const fetchFailure = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
    });
    expect(describeError(fetchFailure).status).toBe(500);
    const protocolViolation = Object.assign(new Error('bind message has 70000 parameter formats'), { code: '08P01', severity: 'ERROR' });
    expect(describeError(protocolViolation).status).toBe(500);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' });
    expect(describeError(refused)).toMatchObject({ status: 503, headers: { 'Retry-After': '5' } });
  });
});

describe('the health check against a database that never answers', () => {
  it('answers false within about a second, and leaves no connection behind', async () => {
    const { createServer } = await import('node:net');
    const { DatabaseProbe } = await import('../../server/db/database-probe.js');
    const sockets = new Set<import('node:net').Socket>();
    const blackHole = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const port = (blackHole.address() as import('node:net').AddressInfo).port;
    const probe = new DatabaseProbe(`postgres://user:secret@127.0.0.1:${port}/none`);
    try {
      const started = performance.now();
      expect(await probe.check(1000)).toBe(false);
      expect(performance.now() - started).toBeLessThan(1500);
      expect(await probe.check(1000)).toBe(false);
    } finally {
      await probe.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => blackHole.close(() => resolve()));
    }
  });
});

describe('OPTIONS everywhere', () => {
  it('answers 204 with Allow on the pages and files outside the API too, and HTML 405 on participant pages', async () => {
    for (const path of ['/healthz', '/docs', '/v1/openapi.json', '/files/x']) {
      const response = await t.http.options(path);
      expect(response.status, path).toBe(204);
      expect(response.headers.allow).toBe('GET, HEAD, OPTIONS');
    }
    const page = await t.http.options(`/interview/inv_${'x'.repeat(43)}`);
    expect(page.status).toBe(405);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });

  it('paths outside the API are exact too: /DOCS, /docs/ and /Join/… are 404', async () => {
    for (const path of ['/DOCS', '/docs/', '/Join/abc', '/INTERVIEW/x', '/FILES/x', '/v1/scripts/scr_x/MEDIA']) {
      const response = await t.http.get(path).set('Authorization', tenant.authorization);
      expect(response.status, path).toBe(404);
    }
    const upload = await t.http.post('/v1/scripts/scr_x/media/').set('Authorization', tenant.authorization);
    expect(upload.status).toBe(404);
  });
});
