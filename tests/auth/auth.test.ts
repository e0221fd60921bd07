import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, type PermissionRequirement, requiredPermissions } from '../../shared/permissions.js';
import { revokeApiKey } from '../../server/domains/api-keys/revoke-api-key.js';
import { systemCaller } from '../../server/domains/common/caller.js';
import { ApiKey } from '../../server/entities/index.js';
import { listStreamOperations } from '../../server/http/openapi-document.js';
import { answersEventStream } from '../helpers/openapi-document.js';
import { RestRoutes } from '../../server/http/rest-adapter.js';
import { STREAM_OPENAPI_PATHS } from '../../server/http/stream-operations.js';
import { API_KEY_PREFIX, generateApiKey, isWellFormedApiKey } from '../../server/lib/api-key-format.js';
import { appRouter } from '../../server/trpc/app-router.js';
import { INVITE_TOKEN } from '../../server/trpc/trpc.js';
import { apiAs, createCampaign, createProject, createPublishedScript, type Api } from '../helpers/factories.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

let t: TestApp;
let tenant: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.createTenant();
});
afterAll(() => t?.close());

describe('API key format', () => {
  it('keys are isk_live_ + 38 base62 characters and carry a checksum', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^isk_live_[0-9A-Za-z]{38}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    const lastChar = key.at(-1) === 'a' ? 'b' : 'a';
    expect(isWellFormedApiKey(key.slice(0, -1) + lastChar)).toBe(false);
    const secretChar = key[API_KEY_PREFIX.length] === 'a' ? 'b' : 'a';
    expect(isWellFormedApiKey(API_KEY_PREFIX + secretChar + key.slice(API_KEY_PREFIX.length + 1))).toBe(false);
  });

  it('only the SHA-256 hash of a key is stored', async () => {
    const row = await t.em().findOneOrFail(ApiKey, { id: tenant.apiKeyId });
    expect(row.keyHash).toBe(createHash('sha256').update(tenant.apiKey).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(tenant.apiKey);
  });
});

describe('authentication', () => {
  it('a request without a key answers 401 INVALID_API_KEY, naming the Bearer scheme (REST and tRPC) and the request id', async () => {
    const response = await t.http.get('/v1/campaigns');
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="api"');
    const trpc = await t.http.get('/trpc/projects.list?input=%7B%7D');
    expect(trpc.status).toBe(401);
    expect(trpc.headers['www-authenticate']).toBe('Bearer realm="api"');
    // In tRPC's error shape, as a @trpc/client reads it.
    expect(trpc.body.error.data).toMatchObject({ appCode: 'INVALID_API_KEY', httpStatus: 401, code: 'UNAUTHORIZED', requestId: trpc.headers['x-request-id'] });
    // An error from inside a procedure comes in tRPC's shape, with the request id in its data.
    const missing = await t.http
      .get(`/trpc/projects.get?input=${encodeURIComponent(JSON.stringify({ projectId: 'prj_missing' }))}`)
      .set('Authorization', tenant.authorization);
    expect(missing.status).toBe(404);
    expect(missing.body.error.data).toMatchObject({ appCode: 'RESOURCE_NOT_FOUND', requestId: missing.headers['x-request-id'] });
    expect(response.body).toEqual({
      error: { code: 'INVALID_API_KEY', message: expect.stringContaining('Authorization: Bearer'), details: {}, requestId: response.headers['x-request-id'] },
    });
  });

  it.each([
    ['a malformed key', 'Bearer not-a-key'],
    ['a key with a wrong checksum', `Bearer ${API_KEY_PREFIX}${'A'.repeat(38)}`],
    ['a well-formed key that does not exist', `Bearer ${generateApiKey()}`],
    ['another scheme', `Basic ${Buffer.from('user:pass').toString('base64')}`],
    ['an empty bearer', 'Bearer '],
  ])('%s answers 401 INVALID_API_KEY', async (_label, header) => {
    const response = await t.http.get('/v1/campaigns').set('Authorization', header);
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('INVALID_API_KEY');
  });

  it('the scheme is case-insensitive', async () => {
    await t.http.get('/v1/campaigns').set('Authorization', `bearer ${tenant.apiKey}`).expect(200);
  });

  it('a revoked key answers 401 from its next request on', async () => {
    const key = await t.createKey(tenant.organizationId, PERMISSIONS);
    await t.http.get('/v1/campaigns').set('Authorization', key.authorization).expect(200);
    await revokeApiKey({ em: t.em() }, systemCaller(key.organizationId), { apiKeyId: key.apiKeyId });
    const response = await t.http.get('/v1/campaigns').set('Authorization', key.authorization);
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('INVALID_API_KEY');
  });

  it('an expired key answers 401', async () => {
    const key = await t.createKey(tenant.organizationId, PERMISSIONS);
    const em = t.em();
    const row = await em.findOneOrFail(ApiKey, { id: key.apiKeyId });
    row.expiresAt = new Date(Date.now() - 1000);
    await em.flush();
    await t.http.get('/v1/campaigns').set('Authorization', key.authorization).expect(401);
  });

  it('using a key records lastUsedAt', async () => {
    const key = await t.createKey(tenant.organizationId, PERMISSIONS);
    expect((await t.em().findOneOrFail(ApiKey, { id: key.apiKeyId })).lastUsedAt).toBeNull();
    await t.http.get('/v1/projects').set('Authorization', key.authorization).expect(200);
    expect((await t.em().findOneOrFail(ApiKey, { id: key.apiKeyId })).lastUsedAt).toBeInstanceOf(Date);
  });

  it('an unknown route answers 401 without a key and 404 with one', async () => {
    await t.http.get('/v1/no-such-thing').expect(401);
    const response = await t.http.get('/v1/no-such-thing').set('Authorization', tenant.authorization);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('permissions', () => {
  const routes = [
    // The participant API takes an invite token, not a key (tests/sessions/interviews.test.ts).
    ...new RestRoutes(appRouter).routes
      .filter((route) => route.meta.permission !== INVITE_TOKEN)
      .map((route) => ({
        method: route.method,
        path: route.pathPattern.source,
        template: route.meta.openapi!.path as string,
        permissions: requiredPermissions(route.meta.permission as PermissionRequirement),
      })),
    // The participant API takes an invite token, not a key (tests/sessions/interviews.test.ts).
    ...listStreamOperations(STREAM_OPENAPI_PATHS)
      .filter((operation) => operation.permission !== INVITE_TOKEN)
      .map((operation) => ({
        method: operation.method,
        path: operation.path,
        template: operation.path,
        permissions: requiredPermissions(operation.permission as PermissionRequirement),
      })),
  ];

  it('every operation declares one of the spec permissions', () => {
    expect(routes.length).toBeGreaterThan(25);
    for (const route of routes) for (const permission of route.permissions) expect(PERMISSIONS).toContain(permission);
  });

  it.each(routes.map((route) => [`${route.method} ${route.template}`, route] as const))(
    '%s answers 403 INSUFFICIENT_PERMISSIONS without its permission, and not 403 with it',
    async (_name, route) => {
      const path = route.template.replace(/\{[^}]+\}/g, 'x');
      // Lacking any one of the required permissions is enough to be refused.
      for (const required of route.permissions) {
        const others = PERMISSIONS.filter((permission) => permission !== required);
        const without = await t.createKey(tenant.organizationId, others);
        const denied = await t.http[route.method.toLowerCase() as 'get'](path).set('Authorization', without.authorization).send({});
        expect(denied.status).toBe(403);
        expect(denied.body.error).toEqual({
          code: 'INSUFFICIENT_PERMISSIONS',
          message: `This API key lacks the ${required} permission.`,
          details: { required },
          requestId: expect.stringMatching(/^req_/),
        });
      }

      // A stream never ends (the document says `text/event-stream`): tests/webhooks/event-stream.test.ts reads its allowed answer.
      const streamOperation = (STREAM_OPENAPI_PATHS as Record<string, Record<string, unknown>>)[route.template]?.[route.method.toLowerCase()];
      if (streamOperation && answersEventStream(streamOperation)) return;
      const withOnly = await t.createKey(tenant.organizationId, route.permissions);
      const allowed = await t.http[route.method.toLowerCase() as 'get'](path).set('Authorization', withOnly.authorization).send({});
      expect(allowed.status).not.toBe(403);
      expect(allowed.status).toBeLessThan(500);
    },
  );

  it('a read-only key can list campaigns but not create them', async () => {
    const readOnly = apiAs(t.http, await t.createKey(tenant.organizationId, ['campaigns:read']));
    await readOnly.get('/v1/campaigns').expect(200);
    const response = await readOnly.post('/v1/campaigns', { name: 'x', scriptId: 'scr_x' });
    expect(response.status).toBe(403);
  });
});

describe('organization isolation', () => {
  let owner: Api;
  let intruder: Api;
  let ids: { project: string; script: string; campaign: string };

  beforeAll(async () => {
    owner = apiAs(t.http, await t.createTenant());
    intruder = apiAs(t.http, await t.createTenant());
    const project = await createProject(owner);
    const script = await createPublishedScript(owner, { projectId: project.id });
    const campaign = await createCampaign(owner, { scriptId: script.id, projectId: project.id });
    ids = { project: project.id, script: script.id, campaign: campaign.id };
  });

  it.each([
    ['GET', '/v1/projects/{project}'],
    ['PATCH', '/v1/projects/{project}'],
    ['DELETE', '/v1/projects/{project}'],
    ['GET', '/v1/scripts/{script}'],
    ['PATCH', '/v1/scripts/{script}'],
    ['DELETE', '/v1/scripts/{script}'],
    ['POST', '/v1/scripts/{script}/publish'],
    ['POST', '/v1/scripts/{script}/archive'],
    ['POST', '/v1/scripts/{script}/versions'],
    ['GET', '/v1/scripts/{script}/versions'],
    ['GET', '/v1/scripts/{script}/versions/1'],
    ['GET', '/v1/scripts/{script}/export'],
    ['GET', '/v1/scripts/{script}/media'],
    ['GET', '/v1/campaigns/{campaign}'],
    ['PATCH', '/v1/campaigns/{campaign}'],
    ['DELETE', '/v1/campaigns/{campaign}'],
    ['POST', '/v1/campaigns/{campaign}/pause'],
    ['POST', '/v1/campaigns/{campaign}/resume'],
    ['POST', '/v1/campaigns/{campaign}/archive'],
  ])('%s %s of another organization answers 404', async (method, template) => {
    const path = template.replace('{project}', ids.project).replace('{script}', ids.script).replace('{campaign}', ids.campaign);
    const call =
      method === 'GET'
        ? intruder.get(path)
        : method === 'DELETE'
          ? intruder.delete(path)
          : method === 'PATCH'
            ? intruder.patch(path, { name: 'Hijacked' })
            : intruder.post(path, {});
    const response = await call;
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it("another organization's script or project cannot be referenced", async () => {
    const script = await intruder.post('/v1/campaigns', { name: 'Borrowed', scriptId: ids.script });
    expect(script.status).toBe(404);
    const ownScript = await createPublishedScript(intruder);
    const project = await intruder.post('/v1/campaigns', { name: 'Borrowed', scriptId: ownScript.id, projectId: ids.project });
    expect(project.status).toBe(404);
  });

  it('lists never include another organization’s resources, and the owner’s data is intact', async () => {
    for (const path of ['/v1/projects', '/v1/scripts', '/v1/campaigns']) {
      const list = await intruder.get(`${path}?limit=100`).expect(200);
      expect(JSON.stringify(list.body)).not.toContain(ids.project);
      expect(JSON.stringify(list.body)).not.toContain(ids.campaign);
    }
    const campaign = await owner.get(`/v1/campaigns/${ids.campaign}`).expect(200);
    expect(campaign.body.status).toBe('active');
    expect(campaign.body.name).not.toBe('Hijacked');
    await owner.get(`/v1/projects/${ids.project}`).expect(200);
    await owner.get(`/v1/scripts/${ids.script}`).expect(200);
  });
});
