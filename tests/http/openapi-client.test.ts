import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, type Api } from '../helpers/factories.js';
import { participantAs } from '../helpers/interviews.js';
import { answersEventStream } from '../helpers/openapi-document.js';
import { ROOT } from '../helpers/processes.js';
import { RESULTS_QUESTIONS, runCompletionChain, TEXT_ANSWERS } from '../helpers/results.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * What a third party does: generate types from the served document (openapi-typescript) and use
 * them unedited. Live answers of every JSON GET operation (and the creates) are written into a
 * TypeScript file as values of the generated response types and compiled strictly: a field the
 * document misses (excess property), lacks (missing property) or types otherwise fails here.
 */

let t: TestApp;
let api: Api;
let document: Record<string, any>;
let work: string;

beforeAll(async () => {
  // The webhook endpoint below is on loopback (never called: its test delivery is not run).
  t = await startTestApp({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1' });
  api = apiAs(t.http, await t.createTenant());
  document = (await t.http.get('/v1/openapi.json').expect(200)).body;
  work = await mkdtemp(path.join(tmpdir(), 'interview-openapi-client-'));
});
afterAll(async () => {
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** An answer fit for public docs: the public host name, and no secret, invite token or signed link of the test run. */
function publishable(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => publishable(item));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, publishable(inner, name)]));
  if (typeof value !== 'string') return value;
  if (key === 'secret' && value.startsWith('whsec_')) return 'whsec_EXAMPLEshownOnceStoreItNow0000000000000';
  if (key === 'token' && value.startsWith('inv_')) return 'inv_EXAMPLEparticipantToken00000000000000000';
  return value
    .replaceAll('http://127.0.0.1:3000', 'https://interviews.example.com')
    .replaceAll('https://127.0.0.1:9/', 'https://hooks.example.com/')
    .replace(/\/files\/[\w-]+\.[\w-]+\.[\w-]+/g, '/files/SIGNED-LINK-valid-one-hour');
}

function compile(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').slice(0, 600));
}

describe('a client generated from /v1/openapi.json', () => {
  it('compiles, and its response types take the live answer of every JSON GET operation and of the creates', async () => {
    // A tenant with one of everything, and a finished interview with its results. The create
    // bodies are written out: they are the document's request examples.
    const requests: Record<string, Record<string, unknown>> = {
      'POST /v1/projects': { name: 'Onboarding research', description: 'How new customers get started', color: '#3B82F6' },
      'POST /v1/scripts': {
        name: 'Onboarding interview',
        description: 'Ten minutes on the first week',
        systemPrompt: 'You are a friendly researcher interviewing customers about their first week with the product.',
        questions: RESULTS_QUESTIONS,
      },
      'POST /v1/campaigns': { name: 'Onboarding, November cohort', settings: { maxDuration: 900 } },
      'POST /v1/campaigns/{campaignId}/invites': {
        email: 'ada.lovelace@example.com',
        name: 'Ada Lovelace',
        metadata: { external_id: 'cust_4821' },
        sendEmail: false,
      },
      'POST /v1/campaigns/{campaignId}/share-links': { maxRespondents: 50, expiresIn: '14d' },
      'POST /api/webhooks': {
        url: 'https://127.0.0.1:9/interviews',
        events: ['interview.completed', 'session.feedback_submitted'],
        description: 'Research CRM',
      },
      'PATCH /v1/projects/{projectId}': { description: 'How new customers get through their first week' },
    };
    const expectCreated = (response: { status: number; body: any }) => {
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return response.body;
    };
    const project = expectCreated(await api.post('/v1/projects', requests['POST /v1/projects']));
    // The ids made on the way go into the next bodies, so each example is a whole request.
    requests['POST /v1/scripts'] = { ...requests['POST /v1/scripts'], projectId: project.id };
    const script = expectCreated(await api.post('/v1/scripts', requests['POST /v1/scripts']));
    await api.post(`/v1/scripts/${script.id}/publish`).expect(200);
    requests['POST /v1/campaigns'] = { ...requests['POST /v1/campaigns'], scriptId: script.id, projectId: project.id };
    const campaign = expectCreated(await api.post('/v1/campaigns', requests['POST /v1/campaigns']));
    const invite = expectCreated(await api.post(`/v1/campaigns/${campaign.id}/invites`, requests['POST /v1/campaigns/{campaignId}/invites']));
    const shareLink = expectCreated(await api.post(`/v1/campaigns/${campaign.id}/share-links`, requests['POST /v1/campaigns/{campaignId}/share-links']));
    const endpoint = expectCreated(await api.post('/api/webhooks', requests['POST /api/webhooks']));
    const delivery = (await api.post(`/api/webhooks/${endpoint.id}/test`).expect(201)).body;
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    for (const answer of TEXT_ANSWERS) await participant.answer(answer).expect(200);
    await runCompletionChain(t, sessionId);

    const invoiceId = expectCreated(await api.post('/v1/billing/credits/purchase', { amount: 10 })).invoice.id as string;
    const params: Record<string, string> = {
      invoiceId,
      projectId: project.id,
      scriptId: script.id,
      campaignId: campaign.id,
      inviteId: invite.id,
      shareLinkId: shareLink.id,
      endpointId: endpoint.id,
      deliveryId: delivery.id,
      eventId: delivery.eventId,
      sessionId,
      version: '1',
    };
    const samples: { path: string; method: string; status: string; body: unknown }[] = [];
    const skipped: string[] = [];
    for (const [template, item] of Object.entries<any>(document.paths)) {
      if (!item.get) continue;
      if (answersEventStream(item.get)) {
        skipped.push(`${template} (a stream of events, each a webhook body the document's webhooks type)`);
        continue;
      }
      const missing = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).filter((name) => !params[name]);
      if (missing.length > 0) {
        skipped.push(`${template} (no ${missing.join(', ')})`);
        continue;
      }
      // Operations with required query parameters get them.
      const query = template === '/v1/billing/usage' ? '?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z&group_by=week' : '';
      const url = template.replace(/\{(\w+)\}/g, (_m, name: string) => params[name]!) + query;
      const response = await api.get(url);
      expect(response.status, `GET ${url}: ${JSON.stringify(response.body).slice(0, 300)}`).toBe(200);
      if (!String(response.headers['content-type']).startsWith('application/json') || !item.get.responses['200']?.content?.['application/json']) {
        skipped.push(`${template} (answers ${response.headers['content-type']})`);
        continue;
      }
      samples.push({ path: template, method: 'get', status: '200', body: response.body });
    }
    samples.push(
      { path: '/v1/projects', method: 'post', status: '201', body: project },
      { path: '/v1/campaigns', method: 'post', status: '201', body: campaign },
      { path: '/v1/campaigns/{campaignId}/invites', method: 'post', status: '201', body: invite },
      { path: '/v1/campaigns/{campaignId}/share-links', method: 'post', status: '201', body: shareLink },
      { path: '/api/webhooks', method: 'post', status: '201', body: endpoint },
      { path: '/api/webhooks/{endpointId}/test', method: 'post', status: '201', body: delivery },
      {
        path: '/v1/projects/{projectId}',
        method: 'patch',
        status: '200',
        body: (await api.patch(`/v1/projects/${project.id}`, requests['PATCH /v1/projects/{projectId}']).expect(200)).body,
      },
    );
    const gets = Object.values<any>(document.paths).filter((item) => item.get).length;
    // Every JSON GET the document has is covered but those named in `skipped` (binary answers, ids this test does not make).
    expect(samples.filter((sample) => sample.method === 'get').length + skipped.length).toBe(gets);
    expect(samples.length).toBeGreaterThanOrEqual(25);
    console.log(`openapi client: ${samples.length} live answers typed; skipped: ${skipped.join('; ')}`);

    const generated = astToString(await openapiTS(document as never));
    await writeFile(path.join(work, 'schema.d.ts'), generated);
    const checks = samples.map(
      (sample, index) =>
        `export const sample${index}: paths[${JSON.stringify(sample.path)}][${JSON.stringify(sample.method)}]['responses'][${sample.status}]['content']['application/json'] = ${JSON.stringify(sample.body)};`,
    );
    // The document's own response examples (server/docs/response-examples.json, recorded from these
    // answers with UPDATE_OPENAPI_EXAMPLES=1) must still be what the types take.
    const examplesFile = path.join(ROOT, 'server', 'docs', 'response-examples.json');
    if (process.env.UPDATE_OPENAPI_EXAMPLES === '1') {
      const recorded = {
        ...Object.fromEntries(samples.map((sample) => [`${sample.method.toUpperCase()} ${sample.path} ${sample.status}`, publishable(sample.body)])),
        ...Object.fromEntries(Object.entries(requests).map(([operation, body]) => [`${operation} request`, publishable(body)])),
      };
      await writeFile(examplesFile, `${JSON.stringify(recorded, null, 2)}\n`);
    }
    const examples = JSON.parse(await readFile(examplesFile, 'utf8')) as Record<string, unknown>;
    const exampleChecks = Object.entries(examples).map(([key, body], index) => {
      const [method, route, status] = key.split(' ');
      const operation = `paths[${JSON.stringify(route)}][${JSON.stringify(method!.toLowerCase())}]`;
      const type =
        status === 'request'
          ? `NonNullable<${operation}['requestBody']>['content']['application/json']`
          : `${operation}['responses'][${status}]['content']['application/json']`;
      return `export const example${index}: ${type} = ${JSON.stringify(body)};`;
    });
    for (const sample of samples)
      expect(examples, 'record examples with UPDATE_OPENAPI_EXAMPLES=1').toHaveProperty([`${sample.method.toUpperCase()} ${sample.path} ${sample.status}`]);
    for (const operation of Object.keys(requests)) expect(examples, 'record examples with UPDATE_OPENAPI_EXAMPLES=1').toHaveProperty([`${operation} request`]);
    // (A run that records them serves the document it started with: the next run checks this.)
    for (const [key, body] of process.env.UPDATE_OPENAPI_EXAMPLES === '1' ? [] : Object.entries(examples)) {
      const [method, route, status] = key.split(' ');
      const operation = document.paths[route!][method!.toLowerCase()];
      const content = status === 'request' ? operation.requestBody.content['application/json'] : operation.responses[status!].content['application/json'];
      expect(content.example, key).toEqual(body);
    }
    await writeFile(path.join(work, 'client.ts'), [`import type { paths } from './schema';`, ...checks, ...exampleChecks].join('\n'));
    expect(compile([path.join(work, 'schema.d.ts')])).toEqual([]);
    const problems = compile([path.join(work, 'client.ts')]);
    expect(problems, `skipped: ${skipped.join('; ')}`).toEqual([]);

    // The check bites: a wrong type, a field the document lacks and a missing field each fail.
    const projectType = `paths['/v1/projects/{projectId}']['get']['responses'][200]['content']['application/json']`;
    const wrong = [
      `export const wrongType: ${projectType} = ${JSON.stringify({ ...project, name: 42 })};`,
      `export const extraField: ${projectType} = ${JSON.stringify({ ...project, surprise: true })};`,
      `export const missingField: ${projectType} = ${JSON.stringify({ ...project, name: undefined })};`,
    ];
    await writeFile(path.join(work, 'wrong.ts'), [`import type { paths } from './schema';`, ...wrong].join('\n'));
    expect(compile([path.join(work, 'wrong.ts')])).toHaveLength(3);
  }, 120_000);
});
