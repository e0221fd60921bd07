import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { IN_ONE_WINDOW_TIMEOUT_MS, inOneWindow } from '../helpers/rate-limit-window.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/** CORS and OPTIONS: /trpc for first-party frontends on allowed origins, /v1 and /api for servers. */

const ALLOWED = 'http://localhost:5173';
const REFUSED = 'https://evil.example';

let t: TestApp;
let tenant: TestTenant;

beforeAll(async () => {
  t = await startTestApp({ CORS_ORIGINS: `${ALLOWED}, https://dashboard.example.com` });
  tenant = await t.createTenant();
});
afterAll(() => t?.close());

function preflight(path: string, origin: string) {
  return t.http
    .options(path)
    .set('Origin', origin)
    .set('Access-Control-Request-Method', 'POST')
    .set('Access-Control-Request-Headers', 'authorization, content-type');
}

describe('preflights on /trpc', () => {
  it('an allowed origin gets 204 with its origin, credentials, the methods and headers tRPC sends, without an API key', async () => {
    const response = await preflight('/trpc/projects.create', ALLOWED);
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(response.headers['access-control-allow-headers']).toBe('Authorization, Content-Type, trpc-accept, X-Request-Id');
    expect(response.headers['access-control-max-age']).toBe('600');
    expect(response.headers.vary).toMatch(/Origin/);
    expect(response.headers.allow).toBe('GET, POST, OPTIONS');
    expect(response.text).toBe('');
  });

  it('a refused origin gets the same 204 without any CORS header, which browsers read as no', async () => {
    for (const origin of [REFUSED, `${ALLOWED}/`, 'http://localhost:5174', 'null']) {
      const response = await preflight('/trpc/projects.create', origin);
      expect(response.status, origin).toBe(204);
      expect(response.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(response.headers['access-control-allow-credentials'], origin).toBeUndefined();
      expect(response.headers.vary).toMatch(/Origin/);
    }
  });
});

describe('CORS on /trpc answers', () => {
  it('a call from an allowed origin carries its origin and credentials, and exposes the request id and rate limit headers', async () => {
    const response = await t.http.get('/trpc/projects.list?input=%7B%7D').set('Origin', ALLOWED).set('Authorization', tenant.authorization);
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers['access-control-expose-headers']).toBe('X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset');
  });

  it('errors too: a 401 without a key is readable by the allowed page', async () => {
    const response = await t.http.get('/trpc/projects.list?input=%7B%7D').set('Origin', ALLOWED);
    expect(response.status).toBe(401);
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
  });

  it('a call from another origin gets no CORS header', async () => {
    const response = await t.http.get('/trpc/projects.list?input=%7B%7D').set('Origin', REFUSED).set('Authorization', tenant.authorization);
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('/v1 and /api take secret keys, which do not belong in browsers', () => {
  it('no CORS header on their answers or preflights, even from an origin /trpc allows', async () => {
    const call = await t.http.get('/v1/projects').set('Origin', ALLOWED).set('Authorization', tenant.authorization);
    expect(call.status).toBe(200);
    expect(call.headers['access-control-allow-origin']).toBeUndefined();
    for (const path of ['/v1/projects', '/api/webhooks']) {
      const response = await preflight(path, ALLOWED);
      expect(response.status, path).toBe(204);
      expect(response.headers['access-control-allow-origin'], path).toBeUndefined();
      expect(response.headers.allow, path).toBe('GET, HEAD, POST, OPTIONS');
    }
  });
});

describe('OPTIONS', () => {
  it(
    "is answered before authentication and rate limiting: 204 with Allow, no key needed, the key's budget untouched",
    async () => {
      // Both reads in one rate-limit window (they are aligned to the minute).
      await inOneWindow(async () => {
        const first = await t.http.get('/v1/projects').set('Authorization', tenant.authorization).expect(200);
        const before = Number(first.headers['x-ratelimit-remaining']);
        for (let i = 0; i < 5; i += 1) {
          const response = await t.http.options(`/v1/projects/prj_${i}`).set('Authorization', tenant.authorization);
          expect(response.status).toBe(204);
          expect(response.headers.allow).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
          expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
        }
        await t.http.options('/v1/campaigns').expect(204);
        const after = await t.http.get('/v1/projects').set('Authorization', tenant.authorization).expect(200);
        expect(Number(after.headers['x-ratelimit-remaining'])).toBe(before - 1);
      });
    },
    IN_ONE_WINDOW_TIMEOUT_MS,
  );

  it('on a path that does not exist is the 404 every method gets', async () => {
    const response = await t.http.options('/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('CORS_ORIGINS', () => {
  it('takes exact origins only: no path, no trailing slash, no wildcard', () => {
    for (const value of ['*', 'https://app.example.com/', 'https://app.example.com/path', 'app.example.com', 'ftp://x.example']) {
      expect(() => loadConfig({ CORS_ORIGINS: value }), value).toThrow(ConfigError);
    }
    expect([...loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).corsOrigins]).toEqual(['https://a.example', 'http://localhost:5173']);
    expect(loadConfig({}).corsOrigins.size).toBe(0);
  });
});
