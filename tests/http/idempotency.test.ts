import { randomBytes } from 'node:crypto';
import { makeWorkerUtils, type WorkerUtils } from 'graphile-worker';
import pg from 'pg';
import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../server/errors.js';
import { Sealer } from '../../server/lib/sealer.js';
import { requestFingerprint } from '../../server/http/idempotency.js';
import { claimIdempotencyKey } from '../../server/platform/idempotency-store.js';
import { type Api, apiAs, createCampaign, createScript, uniqueName } from '../helpers/factories.js';
import { responseAt } from '../helpers/openapi-document.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { whileCampaignLocked } from '../helpers/row-lock.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';
import { PNG } from '../helpers/images.js';

let t: TestApp;
let tenant: TestTenant;
let api: Api;
let utils: WorkerUtils;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  utils = await makeWorkerUtils({ connectionString: t.database.url });
});
afterAll(async () => {
  await utils?.release();
  await t?.close();
});

function newKey(): string {
  return `key-${randomBytes(8).toString('hex')}`;
}

function postWithKey(path: string, body: unknown, key: string, as: TestTenant = tenant) {
  return t.http
    .post(path)
    .set('Authorization', as.authorization)
    .set('Idempotency-Key', key)
    .send(body as object);
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const [row] = await t.em().execute<{ count: string }[]>(`select count(*) as count from ${sql}`, params);
  return Number(row!.count);
}

const projectsNamed = (name: string) => count(`projects where name = ?`, [name]);

async function storedKey(key: string, organizationId = tenant.organizationId) {
  const [row] = await t
    .em()
    .execute<{ status: string; response_status: number | null }[]>(
      `select status, response_status from idempotency_keys where organization_id = ? and key = ?`,
      [organizationId, key],
    );
  return row;
}

describe('Idempotency-Key replays', () => {
  it('the same POST twice answers the first status and body, marked Idempotent-Replayed, and creates one project', async () => {
    const key = newKey();
    const name = uniqueName('Project');
    const first = await postWithKey('/v1/projects', { name }, key);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await postWithKey('/v1/projects', { name }, key);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.text).toBe(first.text);
    expect(await projectsNamed(name)).toBe(1);
  });

  it('key order and whitespace of the JSON body do not make a different request', async () => {
    const key = newKey();
    const name = uniqueName('Project');
    const first = await postWithKey('/v1/projects', { name, description: 'Same' }, key).expect(201);
    const second = await t.http
      .post('/v1/projects')
      .set('Authorization', tenant.authorization)
      .set('Idempotency-Key', key)
      .set('Content-Type', 'application/json')
      .send(`{ "description": "Same",\n  "name": ${JSON.stringify(name)} }`)
      .expect(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('stores only Content-Type, Location and the created ETag: rate-limit headers describe each request', async () => {
    const key = newKey();
    const name = uniqueName('Project');
    const first = await postWithKey('/v1/projects', { name }, key).expect(201);
    const [row] = await t.em().execute<{ response_headers: Record<string, string> }[]>(`select response_headers from idempotency_keys where key = ?`, [key]);
    expect(row!.response_headers).toEqual({
      'Content-Type': 'application/json; charset=utf-8',
      Location: `/v1/projects/${first.body.id}`,
      ETag: first.headers.etag,
    });
    const replay = await postWithKey('/v1/projects', { name }, key).expect(201);
    expect(replay.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('a replayed invite create returns the same invite and queues one email', async () => {
    const campaign = await createCampaign(api);
    const key = newKey();
    const body = { email: 'ada@example.com', name: 'Ada Lovelace' };
    const first = await postWithKey(`/v1/campaigns/${campaign.id}/invites`, body, key).expect(201);
    const second = await postWithKey(`/v1/campaigns/${campaign.id}/invites`, body, key).expect(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await count(`invites where campaign_id = ?`, [campaign.id])).toBe(1);
    const jobs = await count(
      `graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
       where t.identifier = 'invite__send_email' and j.payload->>'inviteId' = ?`,
      [first.body.id],
    );
    expect(jobs).toBe(1);
  });

  it('a 409 from the handler is stored and replayed, even once the conflict is gone', async () => {
    const script = await createScript(api);
    const key = newKey();
    const body = { name: uniqueName('Campaign'), scriptId: script.id };
    const first = await postWithKey('/v1/campaigns', body, key);
    expect(first.status).toBe(409);
    expect(first.body.error.code).toBe('SCRIPT_NOT_PUBLISHED');
    await api.post(`/v1/scripts/${script.id}/publish`).expect(200);
    const second = await postWithKey('/v1/campaigns', body, key);
    expect(second.status).toBe(409);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
    expect(await count(`campaigns where script_id = ?`, [script.id])).toBe(0);
  });

  it('a multipart media upload replays the same media id and stores one file', async () => {
    const script = await createScript(api);
    const key = newKey();
    const upload = () =>
      t.http
        .post(`/v1/scripts/${script.id}/media`)
        .set('Authorization', tenant.authorization)
        .set('Idempotency-Key', key)
        .field('questionId', 'q1')
        .attach('file', PNG, 'welcome.png');
    const first = await upload();
    expect(first.status).toBe(201);
    const second = await upload();
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body.id).toBe(first.body.id);
    expect(await count(`script_media where script_id = ?`, [script.id])).toBe(1);
  });

  it('a different file under the same key on the upload route is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const script = await createScript(api);
    const key = newKey();
    const upload = (file: Buffer) =>
      t.http.post(`/v1/scripts/${script.id}/media`).set('Authorization', tenant.authorization).set('Idempotency-Key', key).attach('file', file, 'welcome.png');
    await upload(PNG).expect(201);
    const other = Buffer.concat([PNG, Buffer.from([0])]);
    const response = await upload(other);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await count(`script_media where script_id = ?`, [script.id])).toBe(1);
  });
});

describe('Idempotency-Key mismatches and concurrency', () => {
  it('the same key with a different body answers 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = newKey();
    await postWithKey('/v1/projects', { name: uniqueName('Project') }, key).expect(201);
    const otherName = uniqueName('Project');
    const response = await postWithKey('/v1/projects', { name: otherName }, key);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(response.headers['idempotent-replayed']).toBeUndefined();
    expect(await projectsNamed(otherName)).toBe(0);
  });

  it('the same key on a different path answers 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = newKey();
    const name = uniqueName('Thing');
    await postWithKey('/v1/projects', { name }, key).expect(201);
    const response = await postWithKey('/v1/scripts', { name }, key);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('simultaneous requests with one key run the handler once; the others get 409 IDEMPOTENCY_KEY_IN_USE or the replay', async () => {
    const key = newKey();
    const name = uniqueName('Project');
    const responses = await Promise.all(Array.from({ length: 5 }, () => postWithKey('/v1/projects', { name }, key)));
    const originals = responses.filter((response) => response.status === 201 && response.headers['idempotent-replayed'] === undefined);
    expect(originals).toHaveLength(1);
    for (const response of responses) {
      if (response === originals[0]) continue;
      if (response.status === 409) {
        expect(response.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      } else {
        expect(response.status).toBe(201);
        expect(response.headers['idempotent-replayed']).toBe('true');
        expect(response.body).toEqual(originals[0]!.body);
      }
    }
    expect(await projectsNamed(name)).toBe(1);
  });

  it('of simultaneous claims of one key exactly one wins, the rest are refused 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const input = {
      organizationId: tenant.organizationId,
      key: newKey(),
      requestHash: requestFingerprint('POST', '/v1/projects', {}),
      lockSeconds: 60,
      sealer: t.runtime.services.sealer,
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => claimIdempotencyKey(t.em(), input)));
    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled' && 'claimed' in outcome.value);
    expect(won).toHaveLength(1);
    const winner = (won[0] as PromiseFulfilledResult<{ claimed: { stopRenewal(): void } }>).value;
    winner.claimed.stopRenewal();
    for (const outcome of outcomes.filter((outcome) => outcome.status === 'rejected')) {
      expect((outcome.reason as AppError).code).toBe('IDEMPOTENCY_KEY_IN_USE');
    }
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(9);
  });

  it('a key held by a running request answers 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const key = newKey();
    const body = { name: uniqueName('Project') };
    await t.em().execute(
      `insert into idempotency_keys (organization_id, key, request_hash, status, locked_until, created_at, expires_at)
       values (?, ?, ?, 'in_flight', now() + interval '1 minute', now(), now() + interval '1 day')`,
      [tenant.organizationId, key, requestFingerprint('POST', '/v1/projects', body)],
    );
    const response = await postWithKey('/v1/projects', body, key);
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(await projectsNamed(body.name)).toBe(0);
  });

  it('a stale in-flight claim (its process died) is taken over by the same request', async () => {
    const key = newKey();
    const body = { name: uniqueName('Project') };
    await t.em().execute(
      `insert into idempotency_keys (organization_id, key, request_hash, status, locked_until, created_at, expires_at)
       values (?, ?, ?, 'in_flight', now() - interval '1 second', now() - interval '2 minutes', now() + interval '1 day')`,
      [tenant.organizationId, key, requestFingerprint('POST', '/v1/projects', body)],
    );
    const response = await postWithKey('/v1/projects', body, key);
    expect(response.status).toBe(201);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
    expect(await storedKey(key)).toEqual({ status: 'completed', response_status: 201 });
    const replay = await postWithKey('/v1/projects', body, key).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await projectsNamed(body.name)).toBe(1);
  });

  it('the same key in two organizations is independent: both create', async () => {
    const other = await t.createTenant();
    const key = newKey();
    const name = uniqueName('Project');
    const mine = await postWithKey('/v1/projects', { name }, key).expect(201);
    const theirs = await postWithKey('/v1/projects', { name }, key, other).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(await projectsNamed(name)).toBe(2);
  });
});

describe('Idempotency-Key outcomes that are not stored', () => {
  it('a validation failure (422) is not stored: the fixed request with the same key succeeds', async () => {
    const key = newKey();
    const refused = await postWithKey('/v1/projects', { name: 42 }, key);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    expect(await storedKey(key)).toBeUndefined();
    const name = uniqueName('Project');
    const fixed = await postWithKey('/v1/projects', { name }, key);
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(await projectsNamed(name)).toBe(1);
  });

  it('a refusal for a missing permission (403) is not stored', async () => {
    const reader = await t.createKey(tenant.organizationId, ['campaigns:read']);
    const key = newKey();
    const name = uniqueName('Project');
    await postWithKey('/v1/projects', { name }, key, reader).expect(403);
    await postWithKey('/v1/projects', { name }, key).expect(201);
    expect(await projectsNamed(name)).toBe(1);
  });

  it('a 5xx is not stored: the retry with the same key runs again', async () => {
    const key = newKey();
    const name = uniqueName('Project');
    const em = t.em();
    await em.execute('alter table projects rename to projects_moved');
    try {
      const failed = await postWithKey('/v1/projects', { name }, key);
      expect(failed.status).toBe(500);
    } finally {
      await em.execute('alter table projects_moved rename to projects');
    }
    expect(await storedKey(key)).toBeUndefined();
    const retried = await postWithKey('/v1/projects', { name }, key);
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await projectsNamed(name)).toBe(1);
  });

  it('a key of 256 characters answers 400 INVALID_REQUEST; 255 is accepted', async () => {
    const tooLong = await postWithKey('/v1/projects', { name: uniqueName('Project') }, 'k'.repeat(256));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.code).toBe('INVALID_REQUEST');
    expect(tooLong.body.error.details.fields).toEqual([{ path: 'Idempotency-Key', message: 'must be at most 255 characters' }]);
    await postWithKey('/v1/projects', { name: uniqueName('Project') }, `${newKey()}${'k'.repeat(255)}`.slice(0, 255)).expect(201);
  });

  it('an empty key or one with characters outside visible ASCII answers 400 INVALID_REQUEST', async () => {
    for (const key of ['', 'has space', 'naïve']) {
      const response = await t.http
        .post('/v1/projects')
        .set('Authorization', tenant.authorization)
        .set('Idempotency-Key', Buffer.from(key, 'utf8').toString('latin1'))
        .send({ name: uniqueName('Project') });
      expect(response.status, JSON.stringify(key)).toBe(400);
      expect(response.body.error.code).toBe('INVALID_REQUEST');
    }
  });
});

describe('Idempotency-Key expiry', () => {
  it('after its 24 hours a key no longer replays: the request runs again, and the purge task deletes expired keys', async () => {
    const key = newKey();
    const name = uniqueName('Project');
    const first = await postWithKey('/v1/projects', { name }, key).expect(201);
    await t.em().execute(`update idempotency_keys set expires_at = now() - interval '1 second' where key = ?`, [key]);
    const again = await postWithKey('/v1/projects', { name }, key).expect(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.id).not.toBe(first.body.id);
    expect(await projectsNamed(name)).toBe(2);

    const kept = newKey();
    await postWithKey('/v1/projects', { name: uniqueName('Project') }, kept).expect(201);
    await t.em().execute(`update idempotency_keys set expires_at = now() - interval '1 second' where key = ?`, [key]);
    await utils.addJob('maintenance__purge_idempotency_keys', {});
    await runJobsOnce(t, { tasks: ['maintenance__purge_idempotency_keys'] });
    expect(await storedKey(key)).toBeUndefined();
    expect(await storedKey(kept)).toEqual({ status: 'completed', response_status: 201 });
  });
});

describe('Idempotency-Key in the OpenAPI document', () => {
  it('every POST takes the header, may answer the two idempotency errors, and marks replays', async () => {
    const document = (await t.http.get('/v1/openapi.json').expect(200)).body;
    expect(document.components.parameters['Idempotency-Key']).toMatchObject({ in: 'header', required: false, schema: { maxLength: 255 } });
    const posts = Object.values(document.paths as Record<string, Record<string, any>>).flatMap((item) => (item.post ? [item.post] : []));
    expect(posts.length).toBeGreaterThan(10);
    for (const operation of posts) {
      expect(operation.parameters, operation.operationId).toContainEqual({ $ref: '#/components/parameters/Idempotency-Key' });
      expect(responseAt(document, operation, 409).description, operation.operationId).toContain('IDEMPOTENCY_KEY_IN_USE');
      expect(responseAt(document, operation, 422).description, operation.operationId).toContain('IDEMPOTENCY_KEY_REUSED');
      const success = Object.keys(operation.responses).find((status) => status.startsWith('2'))!;
      expect(operation.responses[success].headers['Idempotent-Replayed'], operation.operationId).toBeDefined();
    }
    expect(document.paths['/v1/scripts/{scriptId}/media'].post.parameters).toContainEqual({ $ref: '#/components/parameters/Idempotency-Key' });
  });
});

describe('Idempotency-Key records at rest', () => {
  it('a stored response is sealed: no invite token or address readable in the table, and the replay is exact', async () => {
    const campaign = await createCampaign(api);
    const key = newKey();
    const first = await postWithKey(`/v1/campaigns/${campaign.id}/invites`, { email: 'sealed@example.com', sendEmail: false }, key).expect(201);
    const [row] = await t.em().execute<{ response_body: string }[]>(`select response_body from idempotency_keys where key = ?`, [key]);
    expect(row!.response_body).toMatch(/^v1:/);
    expect(row!.response_body).not.toContain(first.body.token);
    expect(row!.response_body).not.toContain('sealed@example.com');
    const replay = await postWithKey(`/v1/campaigns/${campaign.id}/invites`, { email: 'sealed@example.com', sendEmail: false }, key).expect(201);
    expect(replay.text).toBe(first.text);
  });

  it('a stored answer that cannot be opened (SIGNING_SECRET changed) is dropped and the request runs again, never a 500', async () => {
    const key = newKey();
    const body = { name: uniqueName('Project') };
    await postWithKey('/v1/projects', body, key).expect(201);
    // What a body sealed under another secret looks like to this one: well-formed, not openable.
    const foreign = new Sealer('another-signing-secret-0123456789abcdef').seal('{"id":"prj_x"}');
    await t.em().execute(`update idempotency_keys set response_body = ? where key = ?`, [foreign, key]);
    const again = await postWithKey('/v1/projects', body, key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    const replay = await postWithKey('/v1/projects', body, key).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('a percent-encoded path is the same request as its decoded form', async () => {
    const campaign = await createCampaign(api);
    const key = newKey();
    const body = { email: 'encoded@example.com', sendEmail: false };
    await postWithKey(`/v1/campaigns/${campaign.id}/invites`, body, key).expect(201);
    const encoded = campaign.id.replace('_', '%5F');
    const replay = await postWithKey(`/v1/campaigns/${encoded}/invites`, body, key).expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });
});

describe('Idempotency-Key and slow requests', () => {
  it('a request answered 503 by the timeout keeps its claim while it runs: retries get 409, then the one outcome', async () => {
    const slow = await startTestApp({ REQUEST_TIMEOUT_SECONDS: '1' });
    const holder = new pg.Client({ connectionString: slow.database.url });
    try {
      const owner = await slow.createTenant();
      const ownerApi = apiAs(slow.http, owner);
      const campaign = await createCampaign(ownerApi);
      const key = newKey();
      const body = { email: 'slow@example.com', sendEmail: false };
      const post = () =>
        slow.http.post(`/v1/campaigns/${campaign.id}/invites`).set('Authorization', owner.authorization).set('Idempotency-Key', key).send(body);

      await holder.connect();
      await holder.query('begin');
      await holder.query('select id from campaigns where id = $1 for update', [campaign.id]);
      expect((await post()).status).toBe(503);
      const lockedUntil = async () =>
        Date.parse(
          (await holder.query<{ locked_until: Date }>('select locked_until from idempotency_keys where key = $1', [key])).rows[0]!.locked_until.toISOString(),
        );
      const before = await lockedUntil();
      // The claim is renewed while the first request still waits on the lock.
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      expect(await lockedUntil()).toBeGreaterThan(before);
      const retry = await post();
      expect(retry.status).toBe(409);
      expect(retry.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');

      await holder.query('rollback');
      const replay = await waitForReplay(post);
      expect(replay.status).toBe(201);
      const [row] = await slow.em().execute<{ count: string }[]>(`select count(*) from invites where campaign_id = ?`, [campaign.id]);
      expect(Number(row!.count)).toBe(1);
    } finally {
      await holder.end().catch(() => undefined);
      await slow.close();
    }
  }, 30_000);
});

async function waitForReplay(post: () => supertest.Test): Promise<supertest.Response> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const response = await post();
    if (response.status !== 409) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the first request never finished');
}

describe('Idempotency-Key and a busy pool', () => {
  it('as many keyed requests as the pool has connections, each outliving a claim renewal, all finish once the lock they wait on is released', async () => {
    // DATABASE_POOL_SIZE is 4 in tests: four transactions hold every connection while their
    // claims are renewed; finishing must never wait for a renewal that needs a fifth.
    const campaign = await createCampaign(api);
    const started = Date.now();
    const finished = await whileCampaignLocked(t.database.url, campaign.id, async () => {
      const requests = Array.from({ length: 4 }, (_, i) =>
        postWithKey(`/v1/campaigns/${campaign.id}/invites`, { email: `busy-${i}@example.com`, sendEmail: false }, newKey()).then((response) => ({
          status: response.status,
          at: Date.now() - started,
        })),
      );
      // Past the 10 s renewal interval, then the lock goes.
      await new Promise((resolve) => setTimeout(resolve, 11_000));
      return requests;
    });
    const results = await Promise.all(finished);
    expect(results.map((result) => result.status)).toEqual([201, 201, 201, 201]);
    expect(Math.max(...results.map((result) => result.at))).toBeLessThan(20_000);
  }, 60_000);
});
