import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/logger.js';
import { type Api, apiAs, createCampaign } from '../helpers/factories.js';
import { whileCampaignLocked } from '../helpers/row-lock.js';
import { IN_ONE_WINDOW_TIMEOUT_MS, inOneWindow } from '../helpers/rate-limit-window.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, callback) {
    logLines.push(String(chunk));
    callback();
  },
});

let t: TestApp;
let tenant: TestTenant;
let api: Api;

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'info', REQUEST_TIMEOUT_SECONDS: '1' }, createLogger('info', sink));
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
});
afterAll(() => t?.close());

function parsedLogs(): Record<string, unknown>[] {
  return logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('request ids', () => {
  it('every response carries a generated X-Request-Id', async () => {
    const first = await api.get('/v1/projects').expect(200);
    const second = await t.http.get('/healthz').expect(200);
    expect(first.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
    expect(second.headers['x-request-id']).toMatch(/^req_/);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
  });

  it("a well-formed caller's X-Request-Id is echoed; a malformed one is replaced", async () => {
    const echoed = await api.get('/v1/projects').set('X-Request-Id', 'trace-42.abc:1').expect(200);
    expect(echoed.headers['x-request-id']).toBe('trace-42.abc:1');
    const replaced = await api.get('/v1/projects').set('X-Request-Id', 'has spaces <script>').expect(200);
    expect(replaced.headers['x-request-id']).toMatch(/^req_/);
    const tooLong = await api.get('/v1/projects').set('X-Request-Id', 'a'.repeat(129)).expect(200);
    expect(tooLong.headers['x-request-id']).toMatch(/^req_/);
  });

  it('each request is logged once with its id, route template, status and duration', async () => {
    const campaign = await createCampaign(api);
    const response = await api.get(`/v1/campaigns/${campaign.id}`).set('X-Request-Id', 'log-line-test').expect(200);
    expect(response.headers['x-request-id']).toBe('log-line-test');
    const lines = parsedLogs().filter((line) => line.requestId === 'log-line-test' && line.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      method: 'GET',
      route: '/v1/campaigns/{campaignId}',
      status: 200,
      organizationId: tenant.organizationId,
    });
    expect(typeof lines[0]!.durationMs).toBe('number');
    // The template, never the id: labels and logs stay bounded and carry no identifiers.
    expect(JSON.stringify(lines[0])).not.toContain(campaign.id);
  });

  it('a 401 is logged under its operation, not as an unmatched path', async () => {
    await t.http.get('/v1/campaigns/cam_x').set('X-Request-Id', 'unauthorized-line').expect(401);
    const line = parsedLogs().find((entry) => entry.requestId === 'unauthorized-line' && entry.msg === 'request');
    expect(line).toMatchObject({ route: '/v1/campaigns/{campaignId}', status: 401 });
  });
});

describe('no secrets or personal data in logs', () => {
  it('keys, emails and invite tokens appear nowhere in the log, not even in a failure that quotes SQL', async () => {
    const campaign = await createCampaign(api);
    const email = 'ada.lovelace@example.org';
    const participant = { email, name: 'Grace Hopperton', metadata: { phone: '+1 555 0100' } };
    const invite = (await api.post(`/v1/campaigns/${campaign.id}/invites`, participant).expect(201)).body;
    await t.http.get(new URL(invite.inviteUrl).pathname).expect(200);

    // An unexpected failure whose database error quotes the statement and its parameters.
    await t.em().execute('alter table invites rename to invites_moved');
    let failed;
    try {
      failed = await api.post(`/v1/campaigns/${campaign.id}/invites`, participant).set('X-Request-Id', 'sql-failure');
    } finally {
      await t.em().execute('alter table invites_moved rename to invites');
    }
    expect(failed.status).toBe(500);

    const log = logLines.join('');
    expect(log).not.toContain(email);
    expect(log).not.toContain(tenant.apiKey);
    expect(log).not.toContain(tenant.apiKey.slice(9, 30));
    expect(log).not.toContain(invite.token);
    // The failing statement is logged by its shape; the values a participant gave are not.
    expect(log).not.toContain('Grace Hopperton');
    expect(log).not.toContain('555 0100');
    const failure = parsedLogs().find((line) => line.requestId === 'sql-failure' && line.level === 50);
    expect(failure, 'the unexpected error is logged with the request id').toBeDefined();
    expect(JSON.stringify(failure)).toContain('invites');
  });
});

describe('database errors in logs', () => {
  it('keep the failing statement and constraint, not the row values PostgreSQL quotes', () => {
    const lines: string[] = [];
    const logger = createLogger('info', new Writable({ write: (chunk, _encoding, callback) => (lines.push(String(chunk)), callback()) }));
    const databaseError = Object.assign(
      new Error(
        `insert into "invites" ("id", "name") values ('inv_1', 'Secret Name Value') - new row for relation "invites" violates check constraint "invites_status_check"\n - detail: Failing row contains (inv_1, Secret Name Value, bogus).`,
      ),
      { severity: 'ERROR', code: '23514', detail: 'Failing row contains (inv_1, Secret Name Value, bogus).', constraint: 'invites_status_check' },
    );
    const uniqueError = Object.assign(new Error('duplicate key value violates unique constraint "k"'), {
      severity: 'ERROR',
      code: '23505',
      detail: 'Key (organization_id, key)=(org_1, dup-secret-value) already exists.',
    });
    const wrapper = new Error(`wrapped: insert into "t" values ('wrapped-secret')`, { cause: databaseError });
    logger.error({ err: databaseError }, 'failed');
    logger.error({ err: uniqueError }, 'failed');
    logger.error({ err: wrapper }, 'failed');
    const text = lines.join('');
    for (const secret of ['Secret Name Value', 'dup-secret-value', 'wrapped-secret', 'bogus']) expect(text).not.toContain(secret);
    expect(text).toContain('violates check constraint');
    expect(text).toContain('invites_status_check');
  });
});

describe('GET /metrics', () => {
  it('serves Prometheus text with request counts and latency by route and status, and job counts by task and state', async () => {
    const campaign = await createCampaign(api);
    await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'metrics@example.com' }).expect(201);
    await api.get('/v1/campaigns/cam_doesnotexist00000000000').expect(404);

    const response = await t.http.get('/metrics').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.text;
    expect(text).toMatch(/http_requests_total\{method="POST",route="\/v1\/campaigns\/\{campaignId\}\/invites",status="201"\} [1-9]/);
    expect(text).toMatch(/http_requests_total\{method="GET",route="\/v1\/campaigns\/\{campaignId\}",status="404"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0\.5",method="POST",route="\/v1\/campaigns\/\{campaignId\}\/invites",status="201"\} [1-9]/);
    expect(text).toMatch(/jobs\{task="invite__send_email",state="waiting"\} [1-9]/);
    expect(text).toContain('# TYPE worker_jobs_total counter');
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).not.toContain(campaign.id);
  });

  it('without METRICS_TOKEN it answers loopback clients only (as seen through TRUST_PROXY)', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: 'loopback' });
    try {
      await proxied.http.get('/metrics').expect(200);
      const remote = await proxied.http.get('/metrics').set('X-Forwarded-For', '203.0.113.7');
      expect(remote.status).toBe(404);
      expect(remote.body.error.code).toBe('RESOURCE_NOT_FOUND');
    } finally {
      await proxied.close();
    }
  });

  it('with METRICS_TOKEN it needs that bearer token', async () => {
    const token = 'metrics-token-0123456789';
    const guarded = await startTestApp({ METRICS_TOKEN: token });
    try {
      expect((await guarded.http.get('/metrics')).status).toBe(404);
      expect((await guarded.http.get('/metrics').set('Authorization', 'Bearer wrong-token-0123456789')).status).toBe(404);
      await guarded.http.get('/metrics').set('Authorization', `Bearer ${token}`).expect(200);
    } finally {
      await guarded.close();
    }
  });
});

describe('request timeout', () => {
  it('a handler finishing after the timeout answered is not logged as a server error (REST and /trpc)', async () => {
    const campaign = await createCampaign(api);
    await whileCampaignLocked(t.database.url, campaign.id, async () => {
      const rest = await api
        .post(`/v1/campaigns/${campaign.id}/invites`, { email: 'late-rest@example.com', sendEmail: false })
        .set('X-Request-Id', 'late-rest');
      const trpc = await t.http
        .post('/trpc/invites.create')
        .set('Authorization', tenant.authorization)
        .set('X-Request-Id', 'late-trpc')
        .send({ campaignId: campaign.id, email: 'late-trpc@example.com', sendEmail: false });
      expect([rest.status, trpc.status]).toEqual([503, 503]);
    });
    // Both handlers go on once the lock is released, and find their answer already sent.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const late = parsedLogs().filter((line) => (line.requestId === 'late-rest' || line.requestId === 'late-trpc') && Number(line.level) >= 50);
    expect(late).toEqual([]);
    const [row] = await t.em().execute<{ count: string }[]>(`select count(*) from invites where campaign_id = ?`, [campaign.id]);
    expect(Number(row!.count)).toBe(2);
  });

  it('on a participant page the timeout answers an HTML page, not the API JSON', async () => {
    const campaign = await createCampaign(api);
    const link = (await api.post(`/v1/campaigns/${campaign.id}/share-links`, {}).expect(201)).body;
    await whileCampaignLocked(t.database.url, campaign.id, async () => {
      const response = await t.http.get(new URL(link.url).pathname);
      expect(response.status).toBe(503);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.text).toContain('This is taking too long');
    });
  });

  it('a request still running after REQUEST_TIMEOUT_SECONDS answers 503 SERVICE_UNAVAILABLE', async () => {
    const campaign = await createCampaign(api);
    // Another transaction holds the campaign, so creating an invite waits for its lock.
    await whileCampaignLocked(t.database.url, campaign.id, async () => {
      const started = Date.now();
      const response = await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'slow@example.com', sendEmail: false });
      expect(response.status).toBe(503);
      expect(response.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { timeoutSeconds: 1, retryAfter: 2 } });
      expect(response.headers['retry-after']).toBe('2');
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(Date.now() - started).toBeLessThan(5000);
    });
  });
});

describe('input the API refuses rather than fails on', () => {
  it('JSON nested deeper than 32 levels is 400 INVALID_REQUEST naming where, on REST and /trpc alike, never a 500 from a recursion limit', async () => {
    const nest = (levels: number) => {
      let nested: unknown = 'x';
      for (let i = 0; i < levels; i += 1) nested = [nested];
      return nested;
    };
    const response = await api.post('/v1/projects', { name: nest(3000) });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_REQUEST');
    expect(response.body.error.details.fields[0].message).toBe('must not nest deeper than 32 levels');
    // 32 levels are input like any other: refused by the schema, not by the depth rule.
    const shallow = await api.post('/v1/projects', { name: nest(31) });
    expect(shallow.status).toBe(422);
    expect(shallow.body.error.details.fields[0].message).not.toContain('nest');
    const raw = `{"name":${'['.repeat(20000)}"x"${']'.repeat(20000)}}`;
    const deepest = await t.http.post('/v1/projects').set('Authorization', tenant.authorization).set('Content-Type', 'application/json').send(raw);
    expect(deepest.status).toBe(400);
  });

  it('a body nested 5,000 deep: 400 on REST, and on /trpc the tRPC error shape (BAD_REQUEST, INVALID_REQUEST in data), single, batched or as a query input; nothing logged as a server error', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const send = (path: string, body: string, requestId: string) =>
      t.http.post(path).set('Authorization', tenant.authorization).set('Content-Type', 'application/json').set('X-Request-Id', requestId).send(body);

    const rest = await send('/v1/projects', deep, 'deep-rest');
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { fields: [{ path: expect.stringMatching(/^a(\.a){31}$/), message: 'must not nest deeper than 32 levels' }] },
    });

    const trpcError = {
      code: -32600,
      message: expect.stringContaining('must not nest deeper than 32 levels'),
      data: {
        code: 'BAD_REQUEST',
        httpStatus: 400,
        appCode: 'INVALID_REQUEST',
        details: { fields: [{ path: expect.any(String), message: 'must not nest deeper than 32 levels' }] },
      },
    };
    const single = await send('/trpc/projects.create', deep, 'deep-trpc');
    expect(single.status).toBe(400);
    expect(single.body.error).toMatchObject(trpcError);
    const batch = await send('/trpc/projects.create,projects.create?batch=1', `{"0":{"name":"fine"},"1":${deep}}`, 'deep-trpc-batch');
    expect(batch.status).toBe(400);
    expect(batch.body).toHaveLength(2);
    for (const call of batch.body) expect(call.error).toMatchObject(trpcError);
    const query = await t.http
      .get(`/trpc/projects.list?input=${encodeURIComponent(`${'['.repeat(1000)}1${']'.repeat(1000)}`)}`)
      .set('Authorization', tenant.authorization)
      .set('X-Request-Id', 'deep-trpc-query');
    expect(query.status).toBe(400);
    expect(query.body.error).toMatchObject(trpcError);
    // Nothing was created by the batch's good call: the whole batch was refused before it ran.
    expect((await api.get('/v1/projects?limit=100').expect(200)).body.data.filter((project: { name: string }) => project.name === 'fine')).toEqual([]);

    const logged = parsedLogs().filter((line) => String(line.requestId).startsWith('deep-') && Number(line.level) >= 50);
    expect(logged).toEqual([]);
  });

  it('/trpc refuses an Idempotency-Key it would not honour (400), rather than ignoring it', async () => {
    const response = await t.http
      .post('/trpc/projects.create')
      .set('Authorization', tenant.authorization)
      .set('Idempotency-Key', 'k-1')
      .send({ name: 'Over tRPC' });
    expect(response.status).toBe(400);
    expect(response.body.error.data).toMatchObject({
      appCode: 'INVALID_REQUEST',
      details: { fields: [{ path: 'Idempotency-Key', message: 'is not supported on /trpc' }] },
    });
  });
});

describe('participant budgets', () => {
  it(
    'participant pages never spend the customer key budget',
    async () => {
      const campaign = await createCampaign(api);
      const invite = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'p@example.com', sendEmail: false }).expect(201)).body;
      // Both reads in one rate-limit window (they are aligned to the minute).
      await inOneWindow(async () => {
        const before = Number((await api.get('/v1/projects').expect(200)).headers['x-ratelimit-remaining']);
        for (let i = 0; i < 5; i += 1) await t.http.get(new URL(invite.inviteUrl).pathname).expect(200);
        const after = Number((await api.get('/v1/projects').expect(200)).headers['x-ratelimit-remaining']);
        expect(before - after).toBe(1);
      });
    },
    IN_ONE_WINDOW_TIMEOUT_MS,
  );

  it('one invite token has its own budget whatever the address; other tokens are unaffected', async () => {
    const limited = await startTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '3' });
    try {
      const owner = apiAs(limited.http, await limited.createTenant());
      const campaign = await createCampaign(owner);
      const invite = (await owner.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'a@example.com', sendEmail: false }).expect(201)).body;
      const other = (await owner.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'b@example.com', sendEmail: false }).expect(201)).body;
      const path = new URL(invite.inviteUrl).pathname;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        statuses.push((await limited.http.get(path).set('X-Forwarded-For', `198.51.100.${i + 1}`)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await limited.http.get(path).set('X-Forwarded-For', '198.51.100.99');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.text).toContain('Too many requests');
      await limited.http.get(new URL(other.inviteUrl).pathname).set('X-Forwarded-For', '198.51.100.1').expect(200);

      // A share code is public by design: many people join through it, each limited by address only.
      const link = (await owner.post(`/v1/campaigns/${campaign.id}/share-links`, {}).expect(201)).body;
      for (let i = 0; i < 6; i += 1) {
        await limited.http
          .get(new URL(link.url).pathname)
          .set('X-Forwarded-For', `192.0.2.${i + 1}`)
          .expect(303);
      }
    } finally {
      await limited.close();
    }
  });
});
