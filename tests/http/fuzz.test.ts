import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../server/domains/api-keys/create-api-key.js';
import { systemCaller } from '../../server/domains/common/caller.js';
import { createLogger } from '../../server/logger.js';
import { PERMISSIONS } from '../../shared/permissions.js';
import { apiAs, createInvite, createProject, createPublishedScript, createShareLink, uniqueName, type Api } from '../helpers/factories.js';
import { answersEventStream, responseAt } from '../helpers/openapi-document.js';
import {
  bodyArbitrary,
  bodyViolation,
  deref,
  describeBody,
  envelopeProblems,
  HTTP_METHODS,
  hostilePathSegment,
  queryArbitrary,
  queryViolation,
  unwantedBodyArbitrary,
  unwantedQueryArbitrary,
  validArbitrary,
  type Answer,
  type BodyCase,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiOperation,
  type QueryCase,
  type QueryParameter,
  type SchemaContext,
} from '../helpers/fuzz.js';
import { FOUR_QUESTIONS, PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { completedTextInterview } from '../helpers/results.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * Property-based fuzzing of every JSON operation of the REST API, walked from the served OpenAPI
 * document: inputs derived from each operation's schemas, then broken (wrong types, huge and
 * awkward strings, prototype keys, numbers out of range, missing and extra fields, bodies and
 * queries where none are taken, foreign media types, stray Idempotency-Key and If-Match
 * headers). Whatever comes in: never a 5xx, always the envelope, no 401/403/405 for a caller
 * allowed, no 404 for records that exist. In the same run, what the document (and docs/api.md's
 * rules) refuse must be refused, and every answer must be one the operation documents. Another
 * organization's id, on every operation that takes one, answers 404 like an unknown id.
 *
 * FUZZ_SEED replays a run (the seed is printed); FUZZ_REQUESTS sets the fuzzing budget;
 * FUZZ_ONLY="<METHOD> <path template>" fuzzes one operation; FUZZ_DEBUG=1 prints the valid
 * inputs the server refused (to keep the generators honest).
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_517);
const FUZZ_REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2200);
/** Requests a failing operation may spend shrinking its counterexample before the smallest found so far is reported. */
const SHRINK_REQUESTS = 60;
const CONCURRENCY = 3;

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAAAJRU5ErkJggg==', 'base64');

type Method = (typeof HTTP_METHODS)[number];

interface Tenant {
  tenant: TestTenant;
  api: Api;
  /** A value for every path parameter of the document. */
  ids: Record<string, string>;
  /** The invite token of the tenant's completed interview. */
  completedInviteToken: string;
}

let t: TestApp;
let document: OpenApiDocument;
let a: Tenant;
/** A test key of `a` (test mode): operations only test keys may call are fuzzed with it. */
let aTestMode: TestTenant;
let b: Tenant;
/** Tenant A records no fuzzed request names: they must read back unchanged. */
let witnessPaths: string[];
let witnessBefore: Record<string, unknown>;
let tenantBBefore: Record<string, unknown>;
/** A's session in progress and its invite token, for the participant API. */
let live: { sessionId: string; token: string };
/** A's sessions in progress for the session actions and for consent. */
let actionSessionId: string;
let consentSessionId: string;
let requests = 0;
/** What the fuzzing run found, for the contract test after it. */
let fuzzOutcomes: Awaited<ReturnType<typeof fuzz>>[] | undefined;
const serverErrors: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      serverErrors.push(String(chunk));
      done();
    },
  });
  // Webhook endpoints on loopback are allowed; nothing ever delivers to them (no worker runs).
  t = await startTestApp({ ...PARTICIPANT_BUDGET, WEBHOOK_ALLOW_HOSTS: '127.0.0.1' }, createLogger('error', sink));
  document = (await t.http.get('/v1/openapi.json').expect(200)).body as OpenApiDocument;
  a = await seedTenant(await t.createTenant());
  b = await seedTenant(await t.createTenant());
  const testKey = await createApiKey({ em: t.em() }, systemCaller(a.tenant.organizationId), { name: 'test mode', permissions: [...PERMISSIONS], mode: 'test' });
  aTestMode = {
    organizationId: testKey.apiKey.organization.id,
    apiKeyId: testKey.apiKey.id,
    apiKey: testKey.secret,
    authorization: `Bearer ${testKey.secret}`,
  };
  // Webhook endpoints only now: the completion chains above ran every due job, and a test delivery
  // must stay pending rather than be attempted by one of them.
  for (const tenant of [a, b]) await addWebhook(tenant);

  // Sessions in progress: one for the participant API, one for the session actions of API keys
  // (a paused session takes no answers), one for consent (declining it abandons the session).
  const startSession = async () => {
    const invite = await inviteFor(a, a.ids.campaignId!);
    return { sessionId: (await participantAs(t.http, invite.token).start().expect(201)).body.session.id as string, token: invite.token };
  };
  live = await startSession();
  actionSessionId = (await startSession()).sessionId;
  consentSessionId = (await startSession()).sessionId;

  witnessPaths = await seedWitnesses(a);
  witnessBefore = await readAll(a, witnessPaths);
  tenantBBefore = await readAll(b, jsonGetPaths(b.ids));
  console.log(`fuzz: seed ${SEED} (FUZZ_SEED=${SEED} replays this run), budget ${FUZZ_REQUESTS} requests`);
}, 180_000);
afterAll(() => t?.close());

async function seedTenant(tenant: TestTenant): Promise<Tenant> {
  const api = apiAs(t.http, tenant);
  const project = await createProject(api);
  const done = await completedTextInterview(t, api);
  const scriptId = (await api.get(`/v1/campaigns/${done.campaign.id}`).expect(200)).body.scriptId as string;
  await api.patch(`/v1/campaigns/${done.campaign.id}`, { projectId: project.id }).expect(200);
  const invite = await createInvite(api, done.campaign.id, { email: `${uniqueName('p').replace(' ', '-')}@example.com`, sendEmail: false });
  const shareLink = await createShareLink(api, done.campaign.id, { maxRespondents: 10 });
  const media = await t.http.post(`/v1/scripts/${scriptId}/media`).set('Authorization', tenant.authorization).attach('file', PNG, 'welcome.png').expect(201);
  const member = await api.post('/v1/organization/members', { email: `${uniqueName('member').replace(' ', '-')}@example.com`, role: 'viewer' }).expect(201);
  const purchase = await api.post('/v1/billing/credits/purchase', { amount: 5 }).expect(201);
  return {
    tenant,
    api,
    ids: {
      projectId: project.id,
      scriptId,
      version: '1',
      mediaId: media.body.id as string,
      campaignId: done.campaign.id,
      inviteId: invite.id,
      shareLinkId: shareLink.id,
      sessionId: done.sessionId,
      memberId: member.body.id as string,
      invoiceId: purchase.body.invoice.id as string,
    },
    completedInviteToken: done.invite.token,
  };
}

async function addWebhook(tenant: Tenant): Promise<void> {
  const endpoint = await tenant.api.post('/api/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['*'] }).expect(201);
  const delivery = await tenant.api.post(`/api/webhooks/${endpoint.body.id}/test`).expect(201);
  tenant.ids.endpointId = endpoint.body.id as string;
  tenant.ids.deliveryId = delivery.body.id as string;
  tenant.ids.eventId = delivery.body.eventId as string;
}

async function inviteFor(tenant: Tenant, campaignId: string) {
  return createInvite(tenant.api, campaignId, { email: `${uniqueName('live').replace(' ', '-')}@example.com`, sendEmail: false });
}

/** Records of A that no fuzzed request names, and the GETs that read them. */
async function seedWitnesses(tenant: Tenant): Promise<string[]> {
  const project = await createProject(tenant.api, { description: 'witness' });
  const script = (
    await tenant.api
      .post('/v1/scripts', { name: uniqueName('Witness'), systemPrompt: 'You interview people.', questions: FOUR_QUESTIONS, projectId: project.id })
      .expect(201)
  ).body;
  await tenant.api.post(`/v1/scripts/${script.id}/publish`).expect(200);
  const campaign = (await tenant.api.post('/v1/campaigns', { name: uniqueName('Witness'), scriptId: script.id, projectId: project.id }).expect(201)).body;
  const invite = await inviteFor(tenant, campaign.id);
  const shareLink = await createShareLink(tenant.api, campaign.id);
  const endpoint = (await tenant.api.post('/api/webhooks', { url: 'https://127.0.0.1:9/witness', events: ['interview.completed'] }).expect(201)).body;
  return [
    `/v1/projects/${project.id}`,
    `/v1/scripts/${script.id}`,
    `/v1/scripts/${script.id}/versions`,
    `/v1/campaigns/${campaign.id}`,
    `/v1/campaigns/${campaign.id}/invites`,
    `/v1/invites/${invite.id}`,
    `/v1/share-links/${shareLink.id}`,
    `/api/webhooks/${endpoint.id}`,
  ];
}

/** Every JSON GET of the document that needs no query, filled with these ids. */
function jsonGetPaths(ids: Record<string, string>): string[] {
  return Object.entries(document.paths)
    .filter(([, item]) => item.get?.responses['200'] && JSON.stringify(item.get.responses['200']).includes('application/json'))
    .filter(([, item]) => !(item.get!.parameters ?? []).some((parameter) => deref(document, parameter).in === 'query' && deref(document, parameter).required))
    .filter(([, item]) => !(item.get!.security ?? []).every((scheme) => 'inviteToken' in scheme))
    .map(([template]) => template.replace(/\{(\w+)\}/g, (_match, name: string) => ids[name]!));
}

/**
 * An answer without what changes by itself: when an export was made, signed download links
 * (signed afresh at each read), and the origin of links (a fuzzed custom domain moves them).
 */
function comparable(body: unknown): unknown {
  const text = JSON.stringify(body)
    .replace(/https?:\/\/[^/"]+\//g, '<origin>/')
    .replace(/\/files\/[\w-]+\.[\w-]+\.[\w-]+/g, '/files/<signed>');
  return JSON.parse(text, (key, value) => (key === 'exportedAt' || key === 'urlExpiresAt' ? '<now>' : value));
}

/** What each path answers now, as `comparable` has it. */
async function readAll(tenant: Tenant, paths: string[]): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const path of paths) {
    const response = await tenant.api.get(path);
    answers[path] = { status: response.status, body: comparable(response.body) };
  }
  return answers;
}

// ---------------------------------------------------------------------------------------------
// Operations of the document.

interface Operation {
  key: string;
  method: Method;
  template: string;
  operation: OpenApiOperation;
  pathParameters: string[];
  query: QueryParameter[];
  jsonBody: JsonSchema | undefined;
  multipartOnly: boolean;
  /** Callable with an invite token only (the participant API). */
  participantOnly: boolean;
}

function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = (operation.parameters ?? []).map((parameter) => deref(doc, parameter));
      const content = operation.requestBody?.content ?? {};
      operations.push({
        key: `${method.toUpperCase()} ${template}`,
        method,
        template,
        operation,
        pathParameters: [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!),
        query: parameters
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => ({ name: parameter.name, required: parameter.required === true, schema: parameter.schema ?? {} })),
        jsonBody: content['application/json']?.schema,
        multipartOnly: Object.keys(content).length > 0 && !content['application/json'],
        participantOnly: (operation.security ?? []).length > 0 && (operation.security ?? []).every((scheme) => 'inviteToken' in scheme),
      });
    }
  }
  return operations;
}

function fill(template: string, ids: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (ids[name] === undefined) throw new Error(`No id for ${name} in ${template}`);
    return ids[name]!;
  });
}

/** A's ids for an operation: the session actions act on the session in progress. */
function fuzzIds(operation: Operation): Record<string, string> {
  if (operation.key === 'POST /v1/sessions/{sessionId}/consent') return { ...a.ids, sessionId: consentSessionId };
  const sessionAction = operation.method === 'post' && /^\/v1\/sessions\/\{sessionId\}\/(pause|resume|heartbeat)$/.test(operation.template);
  return sessionAction ? { ...a.ids, sessionId: actionSessionId } : a.ids;
}

/** Operations a live key is refused (403 TEST_MODE_ONLY): they make sample data in the test world. */
function testModeOnly(operation: Operation): boolean {
  return operation.template.startsWith('/v1/test-helpers/');
}

function authorizationFor(operation: Operation): string {
  if (testModeOnly(operation)) return aTestMode.authorization;
  if (!operation.participantOnly) return a.tenant.authorization;
  return `Bearer ${operation.template === '/api/interview/feedback' ? a.completedInviteToken : live.token}`;
}

/** Questions that pass the server's cross-field rules too (unique ids, options and scales only where they belong). */
const validQuestions = fc
  .uniqueArray(
    fc.record({
      id: fc.stringMatching(/^[A-Za-z0-9_.-]{1,20}$/),
      text: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }).filter((text) => text.trim().length > 0),
      kind: fc.constantFrom('open', 'rating', 'yes_no', 'multiple_choice'),
      required: fc.option(fc.boolean(), { nil: undefined }),
      options: fc.uniqueArray(fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,20}$/), { minLength: 2, maxLength: 5 }),
      scale: fc.integer({ min: 2, max: 10 }).map((max) => ({ min: 1, max })),
    }),
    { minLength: 1, maxLength: 4, selector: (question) => question.id },
  )
  .map((questions) =>
    questions.map(({ kind, options, scale, required, ...question }) => ({
      ...question,
      type: kind,
      ...(required === undefined ? {} : { required }),
      ...(kind === 'multiple_choice' ? { options } : {}),
      ...(kind === 'rating' ? { scale } : {}),
    })),
  );

/** At most 365 days, as the server takes it. */
const validExpiresIn = fc.oneof(
  fc.integer({ min: 1, max: 525_600 }).map((minutes) => `${minutes}m`),
  fc.integer({ min: 1, max: 8760 }).map((hours) => `${hours}h`),
  fc.integer({ min: 1, max: 365 }).map((days) => `${days}d`),
  fc.integer({ min: 1, max: 52 }).map((weeks) => `${weeks}w`),
);

/**
 * The schema's own arbitraries, made to pass the server's rules beyond the schema (real ids of the
 * tenant, supported languages, unique events, 365 days at most) so that valid inputs are mostly
 * valid; the mutations then break them.
 */
function schemaContext(ids: Record<string, string>): SchemaContext {
  const language = fc.constantFrom('en', 'nl', 'de', 'fr', 'es', 'nl-BE', 'en-GB', 'de-AT');
  return {
    document,
    byName: {
      scriptId: fc.constantFrom(ids.scriptId!, ids.scriptId!, ids.scriptId!, 'scr_0000000000000000000000'),
      projectId: fc.constantFrom(ids.projectId!, ids.projectId!, ids.projectId!, 'prj_0000000000000000000000'),
      questions: fc.oneof(fc.constant(FOUR_QUESTIONS), validQuestions),
      language,
      locale: language,
      expiresIn: validExpiresIn,
      events: fc.oneof(fc.constant(['*']), fc.subarray(['interview.completed', 'session.feedback_submitted'], { minLength: 1 })),
      paymentMethodId: fc.constantFrom('pm_card_visa', 'pm_card_visa', 'pm_card_chargeDeclined'),
      emailTemplate: fc.constantFrom('default', 'reminder'),
      // The turn's own utteranceId is not known ahead; another one is refused (409) by design.
      utteranceId: fc.constant(undefined),
      from: fc.constantFrom('2026-01-01T00:00:00Z', '2026-03-01T00:00:00.000Z'),
      to: fc.constantFrom('2026-02-01T00:00:00Z', '2026-12-31T00:00:00Z', '2025-01-01T00:00:00Z'),
      startingAfter: fc.constantFrom(ids.projectId!, ids.campaignId!, 'c_not-a-cursor'),
      // Flags of the result downloads are strings `true` or `false` in the document.
      ...Object.fromEntries(
        ['include_sentiment', 'include_keywords', 'include_insights', 'include_timestamps', 'include_audio', 'redact_pii'].map((name) => [
          name,
          fc.constantFrom('true', 'false'),
        ]),
      ),
    },
  };
}

async function send(
  method: Method,
  url: string,
  authorization: string,
  body?: { text: string; contentType: string },
  headers: Record<string, string> = {},
): Promise<Answer> {
  const http = t.http;
  const call: Record<Method, (path: string) => supertest.Test> = {
    get: (path) => http.get(path),
    post: (path) => http.post(path),
    put: (path) => http.put(path),
    patch: (path) => http.patch(path),
    delete: (path) => http.delete(path),
  };
  let request = call[method](url).set('Authorization', authorization);
  for (const [name, value] of Object.entries(headers)) request = request.set(name, value);
  if (body) request = request.set('Content-Type', body.contentType).send(body.text);
  requests++;
  const response = await request;
  return { status: response.status, headers: response.headers as Record<string, unknown>, body: response.body, text: response.text };
}

/** The lines the server logged for a request (its unexpected errors), for a failure report. */
function serverLogOf(answer: Answer): string {
  const requestId = String(answer.headers['x-request-id'] ?? '');
  const lines = requestId ? serverErrors.filter((line) => line.includes(requestId)) : [];
  return lines.map((line) => line.slice(0, 1500)).join('\n');
}

// ---------------------------------------------------------------------------------------------
// Fuzzing plans: one property per operation.

type Kind = 'body' | 'query' | 'unwanted body' | 'unwanted query';

interface Input {
  query: QueryCase;
  body: BodyCase | undefined;
  contentType: string;
  /** Idempotency-Key and If-Match, sometimes, and sometimes where they do not belong. */
  headers: Record<string, string>;
}

interface Plan {
  operation: Operation;
  kind: Kind;
  weight: number;
  arbitrary: fc.Arbitrary<Input>;
}

const NO_QUERY: QueryCase = { text: '', label: '' };

/** Media types a JSON operation must refuse (415), beside the JSON it takes. */
const FOREIGN_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/jsonx',
];

function contentTypeArbitrary(operation: Operation): fc.Arbitrary<string> {
  const json =
    operation.method === 'patch'
      ? ['application/json', 'application/merge-patch+json', 'Application/JSON; charset=UTF-8']
      : ['application/json', 'application/json; charset=utf-8'];
  return fc.oneof({ weight: 10, arbitrary: fc.constantFrom(...json) }, { weight: 1, arbitrary: fc.constantFrom(...FOREIGN_CONTENT_TYPES) });
}

/** Idempotency keys (fresh, shared by several requests, or malformed) and If-Match values, each now and then. */
function headersArbitrary(operation: Operation): fc.Arbitrary<Record<string, string>> {
  const idempotencyKey = fc.oneof(
    { weight: 4, arbitrary: fc.uuid().map((uuid) => `fuzz-${uuid}`) },
    { weight: 1, arbitrary: fc.constant(`fuzz-shared-${operation.key}`.replace(/[^!-~]/g, '-')) },
    { weight: 1, arbitrary: fc.constantFrom('', 'has spaces', 'x'.repeat(256), 'caf\u00e9', '\t') },
  );
  const ifMatch = fc.constantFrom('*', '"bogus"', 'W/"weak"', 'garbage', '"a", "b"', '');
  return fc
    .record({
      idempotencyKey: fc.oneof({ weight: operation.method === 'post' ? 3 : 15, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: idempotencyKey }),
      ifMatch: fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: ifMatch }),
    })
    .map(({ idempotencyKey: key, ifMatch: tag }) => ({
      ...(key === undefined ? {} : { 'Idempotency-Key': key }),
      ...(tag === undefined ? {} : { 'If-Match': tag }),
    }));
}

function plansOf(operations: Operation[]): { plans: Plan[]; skipped: string[] } {
  const plans: Plan[] = [];
  const skipped: string[] = [];
  for (const operation of operations) {
    const context = schemaContext(fuzzIds(operation));
    const slow = /\/(pdf|transcripts)$/.test(operation.template) ? 0.4 : 1;
    const input = (query: fc.Arbitrary<QueryCase>, body: fc.Arbitrary<BodyCase | undefined>): fc.Arbitrary<Input> =>
      fc.record({ query, body, contentType: contentTypeArbitrary(operation), headers: headersArbitrary(operation) });
    // Now and then a query parameter where the operation takes a body only.
    const strayQuery = fc.oneof({ weight: 14, arbitrary: fc.constant(NO_QUERY) }, { weight: 1, arbitrary: unwantedQueryArbitrary(operation.pathParameters) });
    if (operation.jsonBody) {
      const body = bodyArbitrary(validArbitrary(operation.jsonBody, context));
      plans.push({ operation, kind: 'body', weight: 3, arbitrary: input(strayQuery, body) });
    } else if (operation.query.length > 0) {
      const query = queryArbitrary(operation.query, context, operation.pathParameters);
      plans.push({ operation, kind: 'query', weight: 2 * slow, arbitrary: input(query, fc.constant(undefined)) });
    } else if (operation.multipartOnly) {
      skipped.push(`${operation.key} (multipart upload)`);
    } else if (operation.method === 'post') {
      plans.push({ operation, kind: 'unwanted body', weight: 0.5, arbitrary: input(strayQuery, unwantedBodyArbitrary) });
    } else if (operation.method === 'get') {
      plans.push({
        operation,
        kind: 'unwanted query',
        weight: 0.5 * slow,
        arbitrary: input(unwantedQueryArbitrary(operation.pathParameters), fc.constant(undefined)),
      });
    } else {
      skipped.push(`${operation.key} (takes neither body nor query: ${operation.method.toUpperCase()} is covered by the cross-tenant and path checks)`);
    }
  }
  return { plans, skipped };
}

/** The schema of a body an operation does not take: nothing but `{}`. */
const NO_BODY: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

/** Why the document (or docs/api.md's rules on headers) says this input must be refused, if it does. */
function violationOf(plan: Plan, input: Input): string | undefined {
  const { operation } = plan;
  const parameters = (operation.operation.parameters ?? []).map((parameter) => deref(document, parameter).name as string);
  const key = input.headers['Idempotency-Key'];
  // docs/api.md: refused on PATCH and DELETE rather than ignored (a GET may carry one: nothing to replay).
  if (key !== undefined && ['patch', 'delete', 'put'].includes(operation.method)) return `Idempotency-Key on ${operation.method.toUpperCase()}`;
  if (key !== undefined && parameters.includes('Idempotency-Key') && !/^[!-~]{1,255}$/.test(key))
    return `Idempotency-Key ${JSON.stringify(key.slice(0, 20))} is not 1-255 visible ASCII characters`;
  // docs/api.md: "If-Match anywhere else is 400" than on PATCH and DELETE of a record (the document lists where).
  if (input.headers['If-Match'] !== undefined && !parameters.includes('If-Match')) return `If-Match on ${operation.key}, which does not take it`;
  if (input.body) {
    const mediaType = input.contentType.split(';')[0]!.trim().toLowerCase();
    const accepted = operation.method === 'patch' ? ['application/json', 'application/merge-patch+json'] : ['application/json'];
    if (!accepted.includes(mediaType) || /charset=(?!utf-8)/i.test(input.contentType)) return `Content-Type ${input.contentType}`;
  }
  return (
    (input.query.text ? queryViolation(operation.query, input.query.text) : undefined) ??
    (input.body ? bodyViolation(operation.jsonBody ?? NO_BODY, input.body.text, document) : undefined)
  );
}

/** An answer whose status, or error code at that status, the operation's document does not list. */
function undocumented(operation: Operation, answer: Answer): string[] {
  const documented = responseAt(document, operation.operation, answer.status) as { content?: Record<string, { schema?: JsonSchema }> } | undefined;
  if (!documented) return [`status ${answer.status} is not among the documented answers of ${operation.key}`];
  const code = (answer.body as { error?: { code?: string } } | undefined)?.error?.code;
  const codes = documented.content?.['application/json']?.schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum as string[] | undefined;
  if (answer.status >= 400 && code && codes && !codes.includes(code))
    return [`${code} is not among the documented ${answer.status} codes of ${operation.key} (${codes.join(', ')})`];
  return [];
}

/**
 * What the brief calls a server bug, beyond a 5xx or a broken envelope: a 401, 403 or 405 for a
 * caller allowed to call a method the document lists; a 404 although every record the path names
 * exists (a 404 for an id in the body or query names that field).
 */
function statusProblems(answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status === 401 || answer.status === 403) problems.push(`${answer.status} for a caller allowed to call the operation`);
  if (answer.status === 405) problems.push('405 on a method the document lists');
  if (answer.status === 404) {
    const fields = (answer.body as { error?: { details?: { fields?: unknown } } })?.error?.details?.fields;
    if (!Array.isArray(fields) || fields.length === 0) problems.push('404 although the records the path names exist, and no field of the input is named');
  }
  return problems;
}

/**
 * Where the answer departs from the contract (the document and docs/api.md's rules): an input
 * they refuse that was accepted, a status or error code the operation does not document, a
 * success in a media type it does not list.
 */
function contractProblems(plan: Plan, input: Input, answer: Answer): string[] {
  const problems: string[] = [...undocumented(plan.operation, answer)];
  const violation = violationOf(plan, input);
  if (violation && answer.status < 400) problems.push(`accepted (${answer.status}) although it must be refused: ${violation}`);
  if (answer.status < 300) {
    const { responses } = plan.operation.operation;
    const documented = (responses[String(answer.status)] ?? responses[Object.keys(responses).find((status) => status.startsWith('2')) ?? '']) as
      { content?: Record<string, unknown> } | undefined;
    const mediaType = String(answer.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    const listed = Object.keys(documented?.content ?? {});
    if (listed.length > 0 && !listed.includes(mediaType))
      problems.push(`${answer.status} answered as ${mediaType || 'no content type'}, not as ${listed.join(' or ')}`);
  }
  return problems;
}

interface Failure {
  operation: string;
  seed: number;
  path: string;
  request: string;
  answer: string;
  problems: string[];
}

interface Outcome {
  plan: Plan;
  runs: number;
  milliseconds: number;
  statuses: Map<number, number>;
  /** The smallest counterexample of a 5xx, a broken envelope or a wrong 401/403/404/405. */
  failure?: Failure;
  /** Departures from the contract, by problem: the shortest request that showed each. */
  contract: Map<string, Omit<Failure, 'seed' | 'path'>>;
}

function seedOf(key: string): number {
  let hash = SEED | 0;
  for (const char of key) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

function describeRequest(operation: Operation, url: string, input: Input): string {
  return [
    `${operation.method.toUpperCase()} ${url.length > 600 ? `${url.slice(0, 600)}…` : url} (${[input.query.label, input.body?.label].filter(Boolean).join('; ')})`,
    ...Object.entries({ ...(input.body ? { 'Content-Type': input.contentType } : {}), ...input.headers }).map(
      ([name, value]) => `${name}: ${JSON.stringify(value).slice(0, 80)}`,
    ),
    ...(input.body ? [`body: ${describeBody(input.body.text)}`] : []),
  ].join('\n    ');
}

/**
 * One operation's property: each generated input is sent with A's key; the property fails on a
 * 5xx, a broken envelope or a wrong 401/403/404/405 (and fast-check shrinks it, within
 * SHRINK_REQUESTS); departures from the contract are collected without stopping the run.
 */
async function fuzz(plan: Plan, numRuns: number): Promise<Outcome> {
  const { operation } = plan;
  const statuses = new Map<number, number>();
  const contract = new Map<string, Omit<Failure, 'seed' | 'path'>>();
  const ids = fuzzIds(operation);
  const authorization = authorizationFor(operation);
  let shrinkBudget = SHRINK_REQUESTS;
  let last: Omit<Failure, 'seed' | 'path'> | undefined;
  const seed = seedOf(operation.key);
  const started = Date.now();
  const details = await fc.check(
    fc.asyncProperty(plan.arbitrary, async (input) => {
      if (last && --shrinkBudget < 0) return true; // bounded shrinking: keep the smallest failure found so far
      const url = fill(operation.template, ids) + (input.query.text ? `?${input.query.text}` : '');
      const answer = await send(
        operation.method,
        url,
        authorization,
        input.body ? { text: input.body.text, contentType: input.contentType } : undefined,
        input.headers,
      );
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (process.env.FUZZ_DEBUG && (input.body ?? input.query).label === 'valid' && answer.status >= 400) {
        console.log(
          `valid input refused: ${operation.method.toUpperCase()} ${url} ${describeBody(input.body?.text)} → ${answer.status} ${(answer.text ?? '').slice(0, 400)}`,
        );
      }
      const seen = () => ({
        operation: operation.key,
        request: describeRequest(operation, url, input),
        answer: `${answer.status} ${(answer.text ?? '').slice(0, 600)}${serverLogOf(answer) ? `\n    server log: ${serverLogOf(answer)}` : ''}`,
      });
      for (const problem of contractProblems(plan, input, answer)) {
        // One example per kind of problem (names and numbers aside), the shortest; three kinds per operation at most.
        const kind = problem.replace(/"[^"]*"|\d+/g, '…');
        const example = { ...seen(), problems: [problem] };
        const kept = contract.get(kind);
        if ((kept || contract.size < 3) && (!kept || example.request.length < kept.request.length)) contract.set(kind, example);
      }
      const problems = [...envelopeProblems(answer), ...statusProblems(answer)];
      if (problems.length === 0) return true;
      last = { ...seen(), problems };
      return false;
    }),
    { numRuns, seed },
  );
  // A property that threw (rather than answered false) is a failure of this test's own making: reported as such.
  const thrown =
    details.failed && !last
      ? {
          operation: operation.key,
          request: JSON.stringify(details.counterexample).slice(0, 1500),
          answer: '(none)',
          problems: [`the property threw: ${String(details.errorInstance)}`],
        }
      : undefined;
  const failure = details.failed ? { ...(last ?? thrown!), seed, path: details.counterexamplePath ?? '' } : undefined;
  return { plan, runs: details.numRuns, milliseconds: Date.now() - started, statuses, contract, ...(failure ? { failure } : {}) };
}

async function inPool<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

function formatFailure(failure: Failure): string {
  return [
    `${failure.operation}: ${failure.problems.join('; ')}`,
    `    ${failure.request}`,
    `    answer: ${failure.answer}`,
    `    replay: FUZZ_SEED=${SEED} (property seed ${failure.seed}, path "${failure.path}")`,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------

describe('fuzzing every JSON operation of the REST API', () => {
  it('every path parameter of the document has an id of each tenant', () => {
    const names = new Set(operationsOf(document).flatMap((operation) => operation.pathParameters));
    // A new resource type in a path fails here until seedTenant makes one for both tenants.
    expect([...names].sort()).toEqual(Object.keys(a.ids).sort());
    expect(Object.keys(b.ids).sort()).toEqual(Object.keys(a.ids).sort());
  });

  it("another organization's id answers 404 RESOURCE_NOT_FOUND on every operation, exactly as an unknown id does", async () => {
    const failures: string[] = [];
    const covered = new Set<string>();
    const before = requests;
    const withIds = operationsOf(document).filter((operation) => operation.pathParameters.length > 0);
    for (const operation of withIds) {
      // Every mix of the two tenants' ids in which at least one is B's (a version number is no
      // one's: it goes with its script), then unknown ids of the right kind.
      const owned = operation.pathParameters.filter((name) => a.ids[name] !== b.ids[name]);
      const mixes = combinations(owned).filter((fromB) => fromB.length > 0);
      const unknown = Object.fromEntries(owned.map((name) => [name, unknownIdLike(a.ids[name]!)]));
      const cases: { label: string; ids: Record<string, string> }[] = [
        ...mixes.map((fromB) => ({ label: `B's ${fromB.join(', ')}`, ids: { ...a.ids, ...Object.fromEntries(fromB.map((name) => [name, b.ids[name]!])) } })),
        { label: 'unknown ids', ids: { ...a.ids, ...unknown } },
      ];
      const messages: string[] = [];
      for (const { label, ids } of cases) {
        const url = fill(operation.template, ids);
        const answer = await crossTenantRequest(operation, url, a.tenant.authorization);
        const code = (answer.body as { error?: { code?: string } })?.error?.code;
        const problems = [...envelopeProblems(answer), ...undocumented(operation, answer)];
        if (answer.status !== 404 || code !== 'RESOURCE_NOT_FOUND' || problems.length > 0) {
          failures.push(
            `${operation.key} with ${label}: ${operation.method.toUpperCase()} ${url} answered ${answer.status} ${(answer.text ?? '').slice(0, 300)}`,
          );
        }
        // The message may name the id asked for, nothing else: B's record must not read differently from none.
        const message = String((answer.body as { error?: { message?: string } })?.error?.message ?? '');
        messages.push(owned.reduce((text, name) => text.replaceAll(ids[name]!, '<id>'), message));
        for (const name of operation.pathParameters) covered.add(name);
      }
      if (new Set(messages).size > 1 && owned.length === 1)
        failures.push(`${operation.key}: B's id and an unknown id answer different messages: ${JSON.stringify([...new Set(messages)])}`);
    }
    // The participant's invite token on another organization's session.
    for (const operation of operationsOf(document).filter(
      (candidate) => (candidate.operation.security ?? []).some((scheme) => 'inviteToken' in scheme) && candidate.pathParameters.includes('sessionId'),
    )) {
      const url = fill(operation.template, { sessionId: b.ids.sessionId! });
      const answer = await crossTenantRequest(operation, url, `Bearer ${live.token}`);
      if (answer.status !== 404) failures.push(`${operation.key} with A's invite token on B's session: ${answer.status} ${(answer.text ?? '').slice(0, 300)}`);
    }
    console.log(`cross-tenant: ${withIds.length} operations with ids in their path, ${requests - before} requests`);
    expect([...covered].sort()).toEqual(Object.keys(a.ids).sort());
    expect(failures, failures.join('\n')).toEqual([]);
  }, 120_000);

  it('malformed ids in a path answer 404 in the envelope', async () => {
    const failures: string[] = [];
    const withIds = operationsOf(document).filter((operation) => operation.pathParameters.length > 0);
    const segments = fc.sample(hostilePathSegment, { numRuns: withIds.length * 2, seed: SEED });
    let next = 0;
    for (const operation of withIds) {
      for (const name of operation.pathParameters) {
        for (let round = 0; round < 2; round++) {
          const segment = segments[next++ % segments.length]!;
          const url = fill(operation.template, { ...a.ids, [name]: segment });
          const answer = await crossTenantRequest(operation, url, a.tenant.authorization);
          const problems = [...envelopeProblems(answer), ...undocumented(operation, answer)];
          if (answer.status !== 404 || problems.length > 0)
            failures.push(`${operation.method.toUpperCase()} ${url}: ${answer.status} ${[...problems, (answer.text ?? '').slice(0, 300)].join('; ')}`);
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  }, 120_000);

  it('never answers 5xx nor leaves the envelope, whatever the body or query of any operation', async () => {
    // The event stream never ends (tests/webhooks/event-stream.test.ts holds it to its contract).
    const operations = operationsOf(document).filter(
      (operation) => (operation.template.startsWith('/v1/') || operation.template.startsWith('/api/')) && !answersEventStream(operation.operation),
    );
    const { plans: all, skipped } = plansOf(operations);
    // FUZZ_ONLY="PATCH /v1/campaigns/{campaignId}" replays one operation (with its share of the budget).
    const plans = process.env.FUZZ_ONLY ? all.filter((plan) => plan.operation.key === process.env.FUZZ_ONLY) : all;
    const totalWeight = all.reduce((sum, plan) => sum + plan.weight, 0);
    const started = Date.now();
    const before = requests;
    const outcomes = await inPool(plans, CONCURRENCY, (plan) => fuzz(plan, Math.max(4, Math.round((FUZZ_REQUESTS * plan.weight) / totalWeight))));
    fuzzOutcomes = outcomes;
    const failures = outcomes.flatMap((outcome) => (outcome.failure ? [outcome.failure] : []));
    const table = outcomes.map(
      (outcome) =>
        `  ${outcome.plan.operation.key.padEnd(58)} ${outcome.plan.kind.padEnd(14)} ${String(outcome.runs).padStart(4)} runs ${String(outcome.milliseconds).padStart(6)} ms  ${[
          ...outcome.statuses,
        ]
          .sort(([x], [y]) => x - y)
          .map(([status, count]) => `${status}×${count}`)
          .join(' ')}`,
    );
    console.log(
      [
        `fuzz: ${plans.length} operations, ${requests - before} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${SEED}`,
        ...table,
        `  not fuzzed: ${skipped.join('; ') || 'none'}`,
      ].join('\n'),
    );
    // Every JSON operation of the document is fuzzed but uploads and DELETEs (checked above for ids).
    expect(all.length + skipped.length).toBe(operations.length);
    expect(failures.map(formatFailure).join('\n\n'), `${failures.length} operations failed`).toBe('');
  }, 300_000);

  it('refuses what the document and docs/api.md refuse, and answers only what the document lists (same run)', () => {
    expect(fuzzOutcomes, 'the fuzzing run above did not complete').toBeDefined();
    const departures = fuzzOutcomes!.flatMap((outcome) => [...outcome.contract.values()]);
    const report = departures.map((example) =>
      [`${example.operation}: ${example.problems.join('; ')}`, `    ${example.request}`, `    answer: ${example.answer.slice(0, 300)}`].join('\n'),
    );
    expect(report.join('\n\n'), `${departures.length} departures from the contract`).toBe('');
  });

  it('a DELETE refuses a query parameter it does not take, and deletes nothing', async () => {
    const failures: string[] = [];
    const deletes = operationsOf(document).filter((operation) => operation.method === 'delete');
    const queries = fc.sample(unwantedQueryArbitrary([]), { numRuns: deletes.length, seed: SEED });
    for (const [index, operation] of deletes.entries()) {
      if (operation.pathParameters.length === 0) {
        // DELETE /v1/test-data names no record: its witness is a campaign of the test world.
        const testApi = apiAs(t.http, aTestMode);
        const scriptId = (await createPublishedScript(testApi)).id;
        const witness = (await testApi.post('/v1/campaigns', { name: uniqueName('Witness'), scriptId }).expect(201)).body.id as string;
        const answer = await send('delete', `${operation.template}?${queries[index]!.text}`, a.tenant.authorization);
        const stillThere = (await testApi.get(`/v1/campaigns/${witness}`)).status === 200;
        const problems = [...envelopeProblems(answer), ...undocumented(operation, answer)];
        if (answer.status !== 400 || problems.length > 0 || !stillThere) {
          failures.push(
            `DELETE ${operation.template}?${queries[index]!.text}: ${answer.status}${stillThere ? '' : ' and the test data is gone'} ${problems.join('; ')}`,
          );
        }
        continue;
      }
      const ids = await freshRecordsFor(operation);
      const url = fill(operation.template, ids);
      const answer = await send('delete', `${url}?${queries[index]!.text}`, a.tenant.authorization);
      // Read back by its own GET, or from its list where it has none (media, members).
      const reader = document.paths[operation.template]?.get ? url : url.replace(/\/[^/]+$/, '');
      const stillThere = (await a.api.get(reader)).text.includes(ids[operation.pathParameters.at(-1)!]!);
      const problems = [...envelopeProblems(answer), ...undocumented(operation, answer)];
      if (answer.status !== 400 || problems.length > 0 || !stillThere) {
        failures.push(
          `DELETE ${url}?${queries[index]!.text}: ${answer.status}${stillThere ? '' : ' and the record is gone'} ${[...problems, (answer.text ?? '').slice(0, 300)].join('; ')}`,
        );
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  }, 60_000);

  it('an upload refuses a query parameter, or an If-Match, it does not take', async () => {
    const failures: string[] = [];
    for (const operation of operationsOf(document).filter((candidate) => candidate.multipartOnly)) {
      const url = fill(operation.template, a.ids);
      for (const [label, query, headers] of [
        ['an unknown query parameter', '?unknown=1', {}],
        ['a path parameter repeated in the query', `?${operation.pathParameters[0]}=${a.ids[operation.pathParameters[0]!]}`, {}],
        ['If-Match', '', { 'If-Match': '*' }],
      ] as const) {
        requests++;
        let request = t.http.post(`${url}${query}`).set('Authorization', a.tenant.authorization);
        for (const [name, value] of Object.entries(headers)) request = request.set(name, value);
        const response = await request.attach('file', PNG, 'stray.png');
        const answer = { status: response.status, headers: response.headers as Record<string, unknown>, body: response.body, text: response.text };
        const problems = [...envelopeProblems(answer), ...undocumented(operation, answer)];
        if (answer.status !== 400 || problems.length > 0)
          failures.push(`${operation.key} with ${label} (POST ${url}${query}): ${answer.status} ${[...problems, answer.text.slice(0, 200)].join('; ')}`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it("afterwards B's records, and A's records no fuzzed request named, read back unchanged; the service is healthy", async () => {
    expect(await readAll(b, Object.keys(tenantBBefore))).toEqual(tenantBBefore);
    expect(await readAll(a, witnessPaths)).toEqual(witnessBefore);
    // A's own records still read, whatever the fuzzing did to them.
    for (const path of jsonGetPaths(a.ids)) {
      const response = await a.api.get(path);
      expect(response.status, `GET ${path}: ${JSON.stringify(response.body).slice(0, 300)}`).toBe(200);
    }
    await t.http.get('/healthz').expect(200, { status: 'ok' });
    console.log(`fuzz: ${requests} requests in all`);
  }, 60_000);
});

/** New records of A for a DELETE to aim at (never the fuzzing's own), by path parameter. */
async function freshRecordsFor(operation: Operation): Promise<Record<string, string>> {
  const api = a.api;
  const made: Record<string, string> = { ...a.ids };
  for (const name of operation.pathParameters) {
    switch (name) {
      case 'projectId':
        made.projectId = (await createProject(api)).id;
        break;
      case 'scriptId':
        made.scriptId = (
          await api.post('/v1/scripts', { name: uniqueName('Doomed'), systemPrompt: 'You interview people.', questions: FOUR_QUESTIONS }).expect(201)
        ).body.id;
        break;
      case 'mediaId':
        made.mediaId = (
          await t.http.post(`/v1/scripts/${made.scriptId}/media`).set('Authorization', a.tenant.authorization).attach('file', PNG, 'doomed.png').expect(201)
        ).body.id;
        break;
      case 'campaignId':
        made.campaignId = (await api.post('/v1/campaigns', { name: uniqueName('Doomed'), scriptId: a.ids.scriptId }).expect(201)).body.id;
        break;
      case 'endpointId':
        made.endpointId = (await api.post('/api/webhooks', { url: 'https://127.0.0.1:9/doomed', events: ['*'] }).expect(201)).body.id;
        break;
      case 'memberId':
        made.memberId = (
          await api.post('/v1/organization/members', { email: `${uniqueName('doomed').replace(' ', '-')}@example.com`, role: 'viewer' }).expect(201)
        ).body.id;
        break;
      default:
        throw new Error(`No fresh record for ${name} (${operation.key})`);
    }
  }
  return made;
}

/** Every subset of names, in a stable order. */
function combinations(names: string[]): string[][] {
  return names.reduce<string[][]>((subsets, name) => [...subsets, ...subsets.map((subset) => [...subset, name])], [[]]);
}

/** An id of the same kind that nobody has: the same prefix, other random characters; a version nobody made. */
function unknownIdLike(id: string): string {
  if (/^\d+$/.test(id)) return '999999';
  const [prefix] = id.split('_');
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  return `${prefix}_${[...randomBytes(22)].map((byte) => alphabet[byte % 62]).join('')}`;
}

/** Bodies that would succeed on one's own record, so only the id can make an answer 404 (a function: one naming A's records). */
const VALID_BODIES: Record<string, unknown> = {
  'POST /v1/events/{eventId}/redeliver': () => ({ endpointId: a.ids.endpointId }),
  'PATCH /v1/projects/{projectId}': { description: 'cross-tenant' },
  'PATCH /v1/scripts/{scriptId}': { description: 'cross-tenant' },
  'POST /v1/scripts/{scriptId}/versions': { changelog: 'cross-tenant' },
  'PATCH /v1/campaigns/{campaignId}': { description: 'cross-tenant' },
  'POST /v1/campaigns/{campaignId}/invites': { email: 'cross.tenant@example.com', sendEmail: false },
  'POST /api/campaigns/{campaignId}/invites': { email: 'cross.tenant@example.com', sendEmail: false },
  'POST /v1/campaigns/{campaignId}/invites/bulk': { invites: [{ email: 'cross.tenant@example.com' }], sendEmail: false },
  'POST /v1/campaigns/{campaignId}/share-links': { maxRespondents: 5 },
  'POST /v1/sessions/{sessionId}/pause': { reason: 'cross-tenant' },
  'POST /v1/sessions/{sessionId}/consent': { granted: true, type: 'all' },
  'PATCH /api/webhooks/{endpointId}': { description: 'cross-tenant' },
  'PATCH /v1/organization/members/{memberId}': { role: 'admin' },
};

async function crossTenantRequest(operation: Operation, url: string, authorization: string): Promise<Answer> {
  if (operation.multipartOnly) {
    requests++;
    const response = await t.http.post(url).set('Authorization', authorization).attach('file', PNG, 'cross-tenant.png');
    return { status: response.status, headers: response.headers as Record<string, unknown>, body: response.body, text: response.text };
  }
  if (operation.jsonBody) {
    const entry = VALID_BODIES[operation.key];
    const body = typeof entry === 'function' ? (entry as () => unknown)() : entry;
    if (body === undefined) throw new Error(`No valid body for ${operation.key}: add one to VALID_BODIES`);
    return send(operation.method, url, authorization, { text: JSON.stringify(body), contentType: 'application/json' });
  }
  return send(operation.method, url, authorization);
}
