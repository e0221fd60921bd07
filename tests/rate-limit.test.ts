import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import supertest from 'supertest';
import { createApp } from '../server/http/app.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { atStartOfWindow } from './helpers/rate-limit-window.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('per-key rate limit', () => {
  it('sends X-RateLimit headers on every response, counting down', async () => {
    await atStartOfWindow();
    const tenant = await t.createTenant({ plan: 'free' });
    const first = await t.http.get('/v1/projects').set('Authorization', tenant.authorization).expect(200);
    expect(first.headers['x-ratelimit-limit']).toBe('60');
    expect(first.headers['x-ratelimit-remaining']).toBe('59');
    const reset = Number(first.headers['x-ratelimit-reset']);
    expect(reset % 60).toBe(0);
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 60);
    const notFound = await t.http.get('/v1/projects/prj_missing').set('Authorization', tenant.authorization).expect(404);
    expect(notFound.headers['x-ratelimit-remaining']).toBe('58');
  });

  it.each([
    ['starter', '300'],
    ['professional', '1000'],
  ])('the %s plan allows %s requests per minute', async (plan, limit) => {
    const tenant = await t.createTenant({ plan: plan as 'starter' });
    const response = await t.http.get('/v1/projects').set('Authorization', tenant.authorization).expect(200);
    expect(response.headers['x-ratelimit-limit']).toBe(limit);
  });

  it('answers 429 RATE_LIMITED past the limit with retryAfter, a message naming the wait, and Retry-After', async () => {
    await atStartOfWindow();
    const tenant = await t.createTenant({ rateLimitPerMinute: 5 });
    for (let i = 0; i < 5; i += 1) {
      const ok = await t.http.get('/v1/projects').set('Authorization', tenant.authorization);
      expect(ok.status).toBe(200);
      expect(ok.headers['x-ratelimit-remaining']).toBe(String(4 - i));
    }
    const limited = await t.http.get('/v1/projects').set('Authorization', tenant.authorization);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: `Rate limit of 5 requests per minute exceeded. Retry in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
        details: { limit: 5, retryAfter },
        retryAfter,
        requestId: expect.stringMatching(/^req_/),
      },
    });
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-ratelimit-limit']).toBe('5');
  });

  it('each key has its own budget', async () => {
    await atStartOfWindow();
    const tenant = await t.createTenant({ rateLimitPerMinute: 2 });
    const second = await t.createKey(tenant.organizationId, ['campaigns:read']);
    for (let i = 0; i < 2; i += 1) await t.http.get('/v1/projects').set('Authorization', tenant.authorization).expect(200);
    await t.http.get('/v1/projects').set('Authorization', tenant.authorization).expect(429);
    await t.http.get('/v1/projects').set('Authorization', second.authorization).expect(200);
  });

  it('two app instances on one database share one budget: exactly the limit passes', async () => {
    await atStartOfWindow();
    const tenant = await t.createTenant({ rateLimitPerMinute: 7 });
    const other = supertest(createApp(t.runtime.services, { isReady: () => true }));
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? t.http : other).get('/v1/projects').set('Authorization', tenant.authorization)),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(7);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(13);
  });
});

describe('requests without a valid key', () => {
  it('are limited per client address', async () => {
    const limitedApp = await startTestApp({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '3' });
    try {
      await atStartOfWindow();
      for (let i = 0; i < 3; i += 1) {
        const response = await limitedApp.http.get('/v1/projects');
        expect(response.status).toBe(401);
        expect(response.headers['x-ratelimit-limit']).toBe('3');
      }
      const limited = await limitedApp.http.get('/v1/projects').set('Authorization', 'Bearer guess');
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
    } finally {
      await limitedApp.close();
    }
  });
});
