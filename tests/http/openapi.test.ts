import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestRoutes } from '../../server/http/rest-adapter.js';
import { appRouter } from '../../server/trpc/app-router.js';
import { INVITE_TOKEN } from '../../server/trpc/trpc.js';
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from '../../shared/schemas/webhooks.js';
import { WEBHOOK_PAYLOADS } from '../../shared/schemas/webhook-payloads.js';
import { errorCodesOf, parametersOf, responseAt } from '../helpers/openapi-document.js';
import { strictly } from '../helpers/strict-schema.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let document: Record<string, any>;

beforeAll(async () => {
  t = await startTestApp();
  const response = await t.http.get('/v1/openapi.json').expect(200);
  document = response.body;
});
afterAll(() => t?.close());

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, served without a key', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('publishes the webhook contract: every event type, its body in both designs with an example of each, and every signature header', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE].sort());
    const schemas = document.components.schemas;
    for (const [type, item] of Object.entries(document.webhooks) as [keyof typeof WEBHOOK_PAYLOADS, any][]) {
      const operation = item.post;
      const body = operation.requestBody.content['application/json'];
      const refs = body.schema.oneOf.map((entry: { $ref: string }) => entry.$ref.replace('#/components/schemas/', ''));
      expect(refs, type).toEqual([WEBHOOK_PAYLOADS[type].A.meta()!.id, WEBHOOK_PAYLOADS[type].B.meta()!.id]);
      for (const name of refs) {
        expect(schemas[name], name).toBeDefined();
        // Payloads grow: no published body forbids a field it does not list.
        expect(JSON.stringify(schemas[name]), name).not.toContain('"additionalProperties":false');
      }
      // The examples are bodies as the service builds them: exactly the contract's fields.
      for (const design of ['A', 'B'] as const) {
        const example = body.examples[`design${design}`].value;
        expect(strictly(WEBHOOK_PAYLOADS[type][design]).safeParse(example).error?.issues ?? [], `${type} ${design}`).toEqual([]);
      }
      expect(parametersOf(document, operation).map((parameter: { name: string }) => parameter.name)).toEqual([
        'X-Webhook-Signature',
        'X-Webhook-Event',
        'X-Interview-Timestamp',
        'X-Interview-Signature',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
      expect(Object.keys(operation.responses)).toEqual(['2XX']);
    }
  });

  it('documents every REST operation with its real success status and permission', () => {
    const routes = new RestRoutes(appRouter).routes;
    for (const route of routes) {
      const path = route.meta.openapi!.path;
      const operation = document.paths[path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${path}`).toBeDefined();
      const status = String(route.meta.successStatus ?? 200);
      expect(Object.keys(operation.responses)).toContain(status);
      expect(operation['x-permission']).toEqual(route.meta.permission);
      // The participant API takes the invite token alone; the session lifecycle actions a key or the token.
      const security =
        route.meta.permission === INVITE_TOKEN ? [{ inviteToken: [] }] : route.meta.participant ? [{ ApiKey: [] }, { inviteToken: [] }] : [{ ApiKey: [] }];
      expect(operation.security).toEqual(security);
    }
    expect(document.paths['/v1/scripts/{scriptId}/media'].post.responses['201']).toBeDefined();
  });

  it('describes errors with the envelope schema and the spec statuses', () => {
    const create = document.paths['/v1/campaigns'].post;
    // Its own statuses (the records it names, their state), and the errors every POST with a body
    // can answer once, as `default`: shared by all of them.
    expect(Object.keys(create.responses).sort()).toEqual(['201', '404', '409', 'default']);
    expect(create.responses.default).toEqual({ $ref: '#/components/responses/Errors-ApiKey-Body-Post' });
    const at = (status: string) => responseAt(document, create, status);
    expect(at('503').headers['Retry-After']).toBeDefined();
    expect(at('409').description).toContain('SCRIPT_NOT_PUBLISHED');
    // The envelope, its code narrowed to what the status carries there: generated clients can switch on it.
    const codeOf = (status: string) => errorCodesOf(at(status));
    expect(at('400').content['application/json'].schema.allOf[0]).toEqual({ $ref: '#/components/schemas/Error' });
    expect(codeOf('404')).toEqual(['RESOURCE_NOT_FOUND']);
    expect(codeOf('409')).toEqual(expect.arrayContaining(['SCRIPT_NOT_PUBLISHED', 'SCRIPT_ARCHIVED', 'IDEMPOTENCY_KEY_IN_USE']));
    expect(codeOf('default')).toEqual([
      'INVALID_REQUEST',
      'INVALID_API_KEY',
      'INSUFFICIENT_PERMISSIONS',
      'IDEMPOTENCY_KEY_IN_USE',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
      'VALIDATION_ERROR',
      'IDEMPOTENCY_KEY_REUSED',
      'RATE_LIMITED',
      'INTERNAL_ERROR',
      'SERVICE_UNAVAILABLE',
    ]);
    expect(at('default').description).toContain('413 `PAYLOAD_TOO_LARGE`');
    expect(Object.keys(at('default').headers)).toEqual(
      expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Idempotent-Replayed']),
    );
    // A read has no body and takes no Idempotency-Key: its default says neither.
    const read = document.paths['/v1/campaigns/{campaignId}'].get;
    expect(Object.keys(read.responses).sort()).toEqual(['200', '404', 'default']);
    expect(errorCodesOf(responseAt(document, read, 'default'))).toEqual([
      'INVALID_REQUEST',
      'INVALID_API_KEY',
      'INSUFFICIENT_PERMISSIONS',
      'RATE_LIMITED',
      'INTERNAL_ERROR',
      'SERVICE_UNAVAILABLE',
    ]);
    expect(create.responses['201'].headers['X-Request-Id']).toEqual({ $ref: '#/components/headers/X-Request-Id' });
    expect(create.parameters).toEqual(expect.arrayContaining([{ $ref: '#/components/parameters/X-Request-Id' }]));
    expect(document.components.schemas.Error.properties.error.required).toEqual(expect.arrayContaining(['code', 'message', 'details']));
    expect(at('429').headers['Retry-After']).toBeDefined();
    const remove = document.paths['/v1/projects/{projectId}'].delete;
    expect(remove.responses['204']).toEqual({ description: 'No content', headers: expect.any(Object) });
    expect(Object.keys(document.components.schemas).filter((name) => name.startsWith('error.'))).toEqual([]);
  });

  it('documents the list query parameters with their bounds', () => {
    const list = document.paths['/v1/campaigns'].get;
    const names = parametersOf(document, list)
      .filter((parameter: { in: string }) => parameter.in === 'query')
      .map((parameter: { name: string }) => parameter.name)
      .sort();
    expect(names).toEqual(['limit', 'offset', 'order', 'projectId', 'search', 'sort', 'startingAfter', 'status']);
    const limit = parametersOf(document, list).find((parameter: { name: string }) => parameter.name === 'limit');
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
  });

  it('documents redact_kinds beside redact_pii on every operation that takes it: optional, its kinds named', () => {
    const operations = [
      document.paths['/v1/sessions/{sessionId}/transcript'].get,
      document.paths['/api/session/{sessionId}/transcript'].get,
      document.paths['/v1/sessions/{sessionId}/pdf'].get,
      document.paths['/v1/sessions/{sessionId}/insights'].get,
      document.paths['/api/campaigns/{campaignId}/transcripts'].get,
      document.paths['/api/projects/{projectId}/transcripts'].get,
    ];
    for (const operation of operations) {
      const parameters = parametersOf(document, operation);
      const names = parameters.map((parameter: { name?: string }) => parameter.name);
      expect(names, operation.operationId).toEqual(expect.arrayContaining(['redact_pii', 'redact_kinds']));
      const kinds = parameters.find((parameter: { name?: string }) => parameter.name === 'redact_kinds');
      expect(kinds.in).toBe('query');
      expect(kinds.required ?? false).toBe(false);
      expect(kinds.schema.type).toBe('string');
      expect(JSON.stringify(kinds), operation.operationId).toContain('email, phone, card, ssn, name, address');
    }
  });
});

describe('an SDK-grade document', () => {
  it('has a relative server URL, so no host is baked into clients', () => {
    expect(document.servers).toEqual([{ url: '/' }]);
  });

  it('declares every tag it uses, with a description', () => {
    const used = new Set(Object.values(document.paths).flatMap((item: any) => Object.values(item).flatMap((operation: any) => operation.tags ?? [])));
    expect(new Set(document.tags.map((tag: { name: string }) => tag.name))).toEqual(used);
    for (const tag of document.tags) expect(tag.description, tag.name).toMatch(/\w/);
  });

  it('closes no response schema (responses may gain fields), while request schemas stay closed', () => {
    const closedIn = (node: unknown): boolean =>
      Array.isArray(node)
        ? node.some(closedIn)
        : !!node &&
          typeof node === 'object' &&
          Object.entries(node).some(([key, value]) => (key === 'additionalProperties' && value === false) || closedIn(value));
    const resolve = (node: any, seen = new Set<string>()): unknown => {
      if (!node || typeof node !== 'object') return node;
      if (typeof node.$ref === 'string') {
        const name = node.$ref.split('/').pop()!;
        if (seen.has(name)) return {};
        return resolve(document.components.schemas[name], new Set([...seen, name]));
      }
      return Array.isArray(node)
        ? node.map((item) => resolve(item, seen))
        : Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value, seen)]));
    };
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) expect(closedIn(resolve(operation.responses)), `${method} ${path}`).toBe(false);
    }
    expect(closedIn(resolve(document.paths['/v1/campaigns'].post.requestBody))).toBe(true);
  });
});

describe('GET /docs', () => {
  it('renders the document with a locally served Swagger UI', async () => {
    const page = await t.http.get('/docs').expect(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('/docs/assets/swagger-ui-bundle.js');
    const init = await t.http.get('/docs/init.js').expect(200);
    expect(init.text).toContain("url: '/v1/openapi.json'");
    const bundle = await t.http.get('/docs/assets/swagger-ui-bundle.js').expect(200);
    expect(bundle.headers['content-type']).toContain('javascript');
  });
});

describe('optimistic concurrency in the document', () => {
  it('records answer an ETag on GET and PATCH; PATCH and DELETE take If-Match and may answer 412', () => {
    const record = document.paths['/v1/projects/{projectId}'];
    expect(record.get.responses['200'].headers.ETag).toEqual({ $ref: '#/components/headers/ETag' });
    expect(record.patch.responses['200'].headers.ETag).toBeDefined();
    for (const operation of [record.patch, record.delete]) {
      expect(operation.parameters).toEqual(expect.arrayContaining([{ $ref: '#/components/parameters/If-Match' }]));
      expect(operation.responses['412']).toBeDefined();
    }
    expect(document.paths['/v1/projects'].post.responses['412']).toBeUndefined();
  });
});

describe('examples a generator can use', () => {
  it('states no ±(2^53 - 1) bound zod adds to every integer, and gives timestamps a real example', () => {
    const text = JSON.stringify(document);
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    const project = document.components.schemas.Project ?? document.components.schemas.ProjectOutput;
    expect(project.properties.createdAt.example).toBe('2026-11-25T09:30:00.000Z');
  });
});

describe('a document that states each thing once', () => {
  it("drops zod's patterns where a format says the same, shares repeated parameters, and keeps no Output copy equal to its original", () => {
    const text = JSON.stringify(document);
    const timestamps: any[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      if ((node as any).format === 'date-time') timestamps.push(node);
      Object.values(node).forEach(walk);
    };
    walk(document);
    expect(timestamps.length).toBeGreaterThan(50);
    expect(timestamps.filter((schema) => 'pattern' in schema)).toEqual([]);
    // Shared: the list parameters, and the webhooks' signature headers.
    expect(document.paths['/v1/campaigns'].get.parameters).toContainEqual({ $ref: '#/components/parameters/limit' });
    expect(document.components.parameters.limit).toMatchObject({ in: 'query', name: 'limit' });
    expect(document.webhooks['session.started'].post.parameters).toContainEqual({ $ref: '#/components/parameters/webhook-signature' });
    const inline = Object.values<any>(document.paths).flatMap((item) =>
      Object.values<any>(item).flatMap((operation) => (operation.parameters ?? []).filter((parameter: any) => !parameter.$ref && parameter.in !== 'path')),
    );
    // What stays inline twice is a variant of a name already shared (a name means one parameter).
    const repeated = inline.filter((parameter, index) => inline.findIndex((other) => JSON.stringify(other) === JSON.stringify(parameter)) !== index);
    for (const parameter of repeated) {
      expect(document.components.parameters[parameter.name], parameter.name).toBeDefined();
      expect(document.components.parameters[parameter.name]).not.toEqual(parameter);
    }
    const schemas = document.components.schemas;
    const sameAsOriginal = Object.keys(schemas).filter(
      (name) => name.endsWith('Output') && JSON.stringify(schemas[name]) === JSON.stringify(schemas[name.slice(0, -6)]),
    );
    expect(sameAsOriginal).toEqual([]);
    // Rate-limit headers are stated on the default error responses, not on every success.
    expect(document.paths['/v1/campaigns'].get.responses['200'].headers['X-RateLimit-Limit']).toBeUndefined();
    expect(document.info.description).toContain('X-RateLimit-Remaining');
    console.log(`OpenAPI document: ${Math.round(text.length / 1024)} KB as served`);
  });
});
