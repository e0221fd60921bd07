import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import supertest from 'supertest';
import { createApp } from '../../server/http/app.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { IN_ONE_WINDOW_TIMEOUT_MS, inOneWindow } from '../helpers/rate-limit-window.js';
import { type Api, apiAs, createCampaign, createInvite, createPublishedScript, createShareLink } from '../helpers/factories.js';
import { ONE_QUESTION } from '../helpers/interviews.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('per-key rate limit', () => {
  it(
    'sends X-RateLimit headers on every response, counting down',
    async () => {
      await inOneWindow(async () => {
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
    },
    IN_ONE_WINDOW_TIMEOUT_MS,
  );

  it.each([
    ['starter', '300'],
    ['professional', '1000'],
  ])('the %s plan allows %s requests per minute', async (plan, limit) => {
    const tenant = await t.createTenant({ plan: plan as 'starter' });
    const response = await t.http.get('/v1/projects').set('Authorization', tenant.authorization).expect(200);
    expect(response.headers['x-ratelimit-limit']).toBe(limit);
  });

  it(
    'answers 429 RATE_LIMITED past the limit with retryAfter, a message naming the wait, and Retry-After',
    async () => {
      await inOneWindow(async () => {
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
    },
    IN_ONE_WINDOW_TIMEOUT_MS,
  );

  it(
    'each key has its own budget',
    async () => {
      await inOneWindow(async () => {
        const tenant = await t.createTenant({ rateLimitPerMinute: 2 });
        const second = await t.createKey(tenant.organizationId, ['campaigns:read']);
        for (let i = 0; i < 2; i += 1) await t.http.get('/v1/projects').set('Authorization', tenant.authorization).expect(200);
        await t.http.get('/v1/projects').set('Authorization', tenant.authorization).expect(429);
        await t.http.get('/v1/projects').set('Authorization', second.authorization).expect(200);
      });
    },
    IN_ONE_WINDOW_TIMEOUT_MS,
  );

  it(
    'two app instances on one database share one budget: exactly the limit passes',
    async () => {
      await inOneWindow(async () => {
        const tenant = await t.createTenant({ rateLimitPerMinute: 7 });
        const other = supertest(createApp(t.runtime.services, { isReady: () => true }));
        const responses = await Promise.all(
          Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? t.http : other).get('/v1/projects').set('Authorization', tenant.authorization)),
        );
        expect(responses.filter((r) => r.status === 200)).toHaveLength(7);
        expect(responses.filter((r) => r.status === 429)).toHaveLength(13);
      });
    },
    IN_ONE_WINDOW_TIMEOUT_MS,
  );
});

describe('requests without a valid key', () => {
  it(
    'are limited per client address',
    async () => {
      const limitedApp = await startTestApp({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '3' });
      try {
        await inOneWindow(async () => {
          for (let i = 0; i < 3; i += 1) {
            const response = await limitedApp.http.get('/v1/projects');
            expect(response.status).toBe(401);
            expect(response.headers['x-ratelimit-limit']).toBe('3');
          }
          const limited = await limitedApp.http.get('/v1/projects').set('Authorization', 'Bearer guess');
          expect(limited.status).toBe(429);
          expect(limited.body.error.code).toBe('RATE_LIMITED');
        });
      } finally {
        await limitedApp.close();
      }
    },
    IN_ONE_WINDOW_TIMEOUT_MS,
  );
});

describe('participants (invite tokens)', () => {
  let shared: TestApp;
  let api: Api;
  let campaignId: string;
  beforeAll(async () => {
    // Behind a trusted proxy on loopback, so each test comes from an address of its own.
    shared = await startTestApp({ TRUST_PROXY: 'loopback' });
    api = apiAs(shared.http, await shared.createTenant({ plan: 'professional' }));
    campaignId = (await createCampaign(api, { scriptId: (await createPublishedScript(api, { questions: ONE_QUESTION })).id })).id;
  }, 150_000);
  afterAll(() => shared?.close());

  const participantFrom = (address: string, token: string) => ({
    start: () => shared.http.post('/api/interview/start').set('Authorization', `Bearer ${token}`).set('X-Forwarded-For', address).send({}),
    heartbeat: (sessionId: string) =>
      shared.http.post(`/v1/sessions/${sessionId}/heartbeat`).set('Authorization', `Bearer ${token}`).set('X-Forwarded-For', address).send({}),
  });

  it(
    'valid tokens are limited per token, not per address: 25 people interviewing from one office make 150 calls in a minute',
    async () => {
      await inOneWindow(async () => {
        const invites = [];
        for (let i = 0; i < 25; i += 1)
          invites.push(await createInvite(api, campaignId, { email: `office-${i}-${Math.random().toString(36).slice(2)}@example.com`, sendEmail: false }));
        const statuses: number[] = [];
        const limits = new Set<string>();
        for (const invite of invites) {
          const participant = participantFrom('203.0.113.10', invite.token);
          const started = await participant.start();
          statuses.push(started.status);
          for (let i = 0; i < 5; i += 1) {
            const beat = await participant.heartbeat(started.body.session?.id ?? 'ses_refused');
            statuses.push(beat.status);
            limits.add(String(beat.headers['x-ratelimit-limit']));
          }
        }
        expect(statuses).toHaveLength(150);
        expect(statuses.filter((status) => status >= 300)).toEqual([]);
        // The budget each call reports is its token's.
        expect([...limits]).toEqual(['60']);
      });
    },
    IN_ONE_WINDOW_TIMEOUT_MS,
  );

  it(
    'one token past its own budget gets 429 RATE_LIMITED with Retry-After, from any address; other tokens go on',
    async () => {
      await inOneWindow(async () => {
        const invite = await createInvite(api, campaignId, { email: `busy-${Math.random().toString(36).slice(2)}@example.com`, sendEmail: false });
        const other = await createInvite(api, campaignId, { email: `calm-${Math.random().toString(36).slice(2)}@example.com`, sendEmail: false });
        const participant = participantFrom('203.0.113.20', invite.token);
        const sessionId = (await participant.start().expect(201)).body.session.id as string;
        for (let i = 1; i < 60; i += 1) await participant.heartbeat(sessionId).expect((response) => expect(response.status).toBeLessThan(300));
        const refused = await participantFrom('198.51.100.20', invite.token).heartbeat(sessionId);
        expect(refused.status).toBe(429);
        expect(refused.body.error.code).toBe('RATE_LIMITED');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        await participantFrom('203.0.113.20', other.token).start().expect(201);
      });
    },
    IN_ONE_WINDOW_TIMEOUT_MS,
  );

  it(
    'unknown tokens are still limited per address (token guessing), whatever token each call presents',
    async () => {
      await inOneWindow(async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 121; i += 1) {
          const guess = `inv_${randomBytes(48)
            .toString('base64')
            .replace(/[^0-9A-Za-z]/g, '')
            .slice(0, 43)
            .padEnd(43, '0')}`;
          statuses.push((await participantFrom('203.0.113.30', guess).start()).status);
        }
        expect(statuses.slice(0, 120).every((status) => status === 401)).toBe(true);
        expect(statuses[120]).toBe(429);
        // A cancelled invite's token is a failed token too: counted on that address, now spent.
        const cancelled = await createInvite(api, campaignId, { email: `gone-${Math.random().toString(36).slice(2)}@example.com`, sendEmail: false });
        await api.post(`/v1/invites/${cancelled.id}/cancel`).expect(200);
        expect((await participantFrom('203.0.113.30', cancelled.token).start()).status).toBe(429);
        // Another address is not held back by this one's guesses.
        expect((await participantFrom('203.0.113.31', `inv_${'0'.repeat(43)}`).start()).status).toBe(401);
      });
    },
    IN_ONE_WINDOW_TIMEOUT_MS,
  );
});

describe('participants who came through a share link', () => {
  let shared: TestApp;
  let api: Api;
  let campaignId: string;
  beforeAll(async () => {
    // An address budget of 10 a minute, so the share-link ceiling (10 times it) is 100.
    shared = await startTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_PARTICIPANT_PER_MINUTE: '10' });
    api = apiAs(shared.http, await shared.createTenant({ plan: 'professional' }));
    campaignId = (await createCampaign(api, { scriptId: (await createPublishedScript(api, { questions: ONE_QUESTION })).id })).id;
  }, 150_000);
  afterAll(() => shared?.close());

  const callsFrom = (address: string, token: string) => ({
    start: () => shared.http.post('/api/interview/start').set('Authorization', `Bearer ${token}`).set('X-Forwarded-For', address).send({}),
    heartbeat: (sessionId: string) =>
      shared.http.post(`/v1/sessions/${sessionId}/heartbeat`).set('Authorization', `Bearer ${token}`).set('X-Forwarded-For', address).send({}),
  });

  it(
    'cannot multiply one address budget by visiting the link again and again: their calls from one address also meet a ceiling of ten address budgets',
    async () => {
      await inOneWindow(async () => {
        const link = await createShareLink(api, campaignId);
        // Twelve visits (from addresses of their own, as /join is limited per address), twelve tokens.
        const tokens: string[] = [];
        for (let i = 0; i < 12; i += 1) {
          const visit = await shared.http
            .get(`/join/${link.code}`)
            .set('X-Forwarded-For', `198.51.100.${60 + i}`)
            .expect(303);
          tokens.push(String(visit.headers.location).split('/').pop()!);
        }
        const emailed = await createInvite(api, campaignId, { email: `office-${Math.random().toString(36).slice(2)}@example.com`, sendEmail: false });
        const statuses: number[] = [];
        const refusedLimits = new Set<string>();
        for (const token of tokens) {
          const participant = callsFrom('203.0.113.50', token);
          const started = await participant.start();
          statuses.push(started.status);
          for (let i = 0; i < 8; i += 1) {
            const beat = await participant.heartbeat(started.body.session?.id ?? 'ses_refused');
            statuses.push(beat.status);
            if (beat.status === 429) refusedLimits.add(String(beat.headers['x-ratelimit-limit']));
          }
        }
        // 108 calls: the first 100 pass, the rest meet the ceiling (each token is far below its own 60).
        expect(statuses.filter((status) => status < 300)).toHaveLength(100);
        expect(statuses.slice(100)).toEqual(Array(8).fill(429));
        expect([...refusedLimits]).toEqual(['100']);
        // An invite addressed to one person, from the same address, is limited by its token only.
        const started = await callsFrom('203.0.113.50', emailed.token).start();
        expect(started.status).toBe(201);
      });
    },
    IN_ONE_WINDOW_TIMEOUT_MS,
  );
});
