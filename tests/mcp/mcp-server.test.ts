import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiAs } from '../helpers/factories.js';
import { participantAs } from '../helpers/interviews.js';
import { RESULTS_QUESTIONS, runCompletionChain, TEXT_ANSWERS } from '../helpers/results.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * The MCP server at `/mcp`, driven by the SDK's own client over streamable HTTP, as an AI agent
 * would: a study created from questions, a participant invited, the interview run, then its
 * transcript, insights, search, comparison and summary read through tools. Read-only keys see
 * read-only tools; another organization's records are not found; a mistake answers the API's
 * envelope with its field path.
 */

type Json = any;

let t: TestApp;
let server: Server;
let mcpUrl: URL;
let owner: TestTenant;
let api: Api;
let readOnly: TestTenant;
let stranger: TestTenant;
const clients: Client[] = [];

async function connect(tenant: Pick<TestTenant, 'authorization'>): Promise<Client> {
  const client = new Client({ name: 'mcp-server-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { Authorization: tenant.authorization } } }));
  clients.push(client);
  // As agents do: the tools first. The client then checks every structured answer against its tool's output schema.
  await client.listTools();
  return client;
}

/** A tool's structured answer; fails with the error envelope when the call was refused. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Json> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  // The text is the same JSON, for clients that read only text.
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent;
}

/** A refused call's error envelope. */
async function refusal(client: Client, name: string, args: Record<string, unknown>): Promise<Json> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return JSON.parse((result.content[0] as { text: string }).text);
}

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' });
  owner = await t.createTenant();
  api = apiAs(t.http, owner);
  readOnly = await t.createKey(owner.organizationId, ['campaigns:read', 'invites:read', 'sessions:read']);
  stranger = await t.createTenant();
  server = createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mcpUrl = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  if (server) await new Promise((resolve) => server.close(resolve));
  await t?.close();
});

const ALL_TOOLS = [
  'compare_segments',
  'create_study',
  'get_campaign_results',
  'get_insights',
  'get_session',
  'get_transcript',
  'invite_participant',
  'list_campaigns',
  'list_projects',
  'list_sessions',
  'search_transcripts',
  'summarize_sessions',
];

describe('tools offered', () => {
  it("lists every tool to a key with every permission, each with its procedure's input and output schema", async () => {
    const client = await connect(owner);
    expect(client.getServerVersion()).toMatchObject({ name: 'interview-service' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(ALL_TOOLS);
    const createStudy = tools.find((tool) => tool.name === 'create_study')!;
    // ZQuickstartInput: strict, title and questions required, a question's type one of the four.
    expect(createStudy.inputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['title', 'questions']), additionalProperties: false });
    expect(JSON.stringify(createStudy.inputSchema)).toContain('"enum":["open","rating","multiple_choice","yes_no"]');
    expect(createStudy.outputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['share_link', 'campaignId']) });
    expect(createStudy.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    const transcript = tools.find((tool) => tool.name === 'get_transcript')!;
    expect(transcript.inputSchema).toMatchObject({ required: ['sessionId'] });
    expect(transcript.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('lists a read-only key only the tools that read, and its write is refused as REST refuses it, writing nothing', async () => {
    const client = await connect(readOnly);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(ALL_TOOLS.filter((name) => name !== 'create_study' && name !== 'invite_participant'));
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);

    const refused = await refusal(client, 'create_study', { title: 'Not allowed', questions: [{ id: 'q1', text: 'Why?', type: 'open' }] });
    expect(refused.error).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', details: { required: 'campaigns:write' } });
    const campaigns = await api.get('/v1/campaigns').expect(200);
    expect(campaigns.body.data.map((campaign: Json) => campaign.name)).not.toContain('Not allowed');
  });
});

describe('an agent runs a study', () => {
  let campaignId: string;
  let sessionId: string;
  let agent: Client;
  let inviteToken: string;

  beforeAll(async () => {
    agent = await connect(owner);
    const study = await call(agent, 'create_study', { title: 'Onboarding interviews', questions: RESULTS_QUESTIONS });
    campaignId = study.campaignId;
    expect(study.share_link.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/join\//);

    const invite = await call(agent, 'invite_participant', { campaignId, email: 'ada.lovelace@example.com', name: 'Ada', sendEmail: false });
    expect(invite).toMatchObject({ campaignId, status: 'pending' });
    inviteToken = invite.token;
    const participant = participantAs(t.http, invite.token);
    sessionId = (await participant.start().expect(201)).body.session.id;
    for (const answer of TEXT_ANSWERS) await participant.answer(answer).expect(200);
    await runCompletionChain(t, sessionId);
  }, 120_000);

  it('creates a study the REST API reads as the same campaign, with the questions given', async () => {
    const campaign = (await api.get(`/v1/campaigns/${campaignId}`).expect(200)).body;
    expect(campaign).toMatchObject({ id: campaignId, status: 'active' });
    const script = (await api.get(`/v1/scripts/${campaign.scriptId}`).expect(200)).body;
    expect(script.questions.map((question: Json) => question.text)).toEqual(RESULTS_QUESTIONS.map((question) => question.text));

    const listed = await call(agent, 'list_campaigns', { search: 'Onboarding' });
    expect(listed.data.map((item: Json) => item.id)).toEqual([campaignId]);
    const projects = await call(agent, 'list_projects', {});
    expect(projects.data).toEqual([]);
  });

  it("reads the session, its transcript and its insights, in the participant's words", async () => {
    const sessions = await call(agent, 'list_sessions', { campaignId });
    expect(sessions.data.map((session: Json) => [session.id, session.status])).toEqual([[sessionId, 'completed']]);
    const results = await call(agent, 'get_campaign_results', { campaignId });
    expect(results).toMatchObject({ campaignId, sessionCount: 1 });
    expect(results.questions.map((question: Json) => question.questionId)).toEqual(RESULTS_QUESTIONS.map((question) => question.id));
    const session = await call(agent, 'get_session', { sessionId });
    expect(session).toMatchObject({ id: sessionId, campaignId, status: 'completed' });

    const transcript = await call(agent, 'get_transcript', { sessionId });
    const said = transcript.utterances.filter((utterance: Json) => utterance.speaker === 'participant').map((utterance: Json) => utterance.text);
    expect(said.join(' ')).toContain('the new reporting dashboard saves me a lot of time');
    const insights = await call(agent, 'get_insights', { sessionId });
    expect(insights.sessionId).toBe(sessionId);
    const participantIds = new Set(
      transcript.utterances.filter((utterance: Json) => utterance.speaker === 'participant').map((utterance: Json) => utterance.id),
    );
    expect(insights.keyQuotes.length).toBeGreaterThan(0);
    for (const quote of insights.keyQuotes) expect(participantIds.has(quote.utteranceId)).toBe(true);
  });

  it('searches, compares and summarizes across interviews', async () => {
    const found = await call(agent, 'search_transcripts', { query: 'reporting dashboard' });
    expect(found.data.length).toBeGreaterThan(0);
    expect(found.data[0]).toMatchObject({ sessionId, campaignId });

    const comparison = await call(agent, 'compare_segments', {
      segments: [
        { label: 'Everyone', campaignId },
        { label: 'Dutch', campaignId, language: 'nl' },
      ],
    });
    expect(comparison.segments.map((segment: Json) => [segment.label, segment.sessions.started])).toEqual([
      ['Everyone', 1],
      ['Dutch', 0],
    ]);

    const summary = await call(agent, 'summarize_sessions', { campaignId });
    expect(summary.method).toBe('extractive');
    const quotes = summary.themes.flatMap((theme: Json) => theme.quotes);
    expect(quotes.length).toBeGreaterThan(0);
    // Each quote is the participant's: an utterance of theirs in this session, its text within theirs.
    const transcript = await call(agent, 'get_transcript', { sessionId });
    const answers = new Map(
      transcript.utterances.filter((utterance: Json) => utterance.speaker === 'participant').map((utterance: Json) => [utterance.id, utterance.text]),
    );
    for (const quote of quotes) {
      expect(quote.sessionId).toBe(sessionId);
      expect(answers.get(quote.utteranceId)).toContain(quote.text);
    }
  });

  it("refuses the participant's invite token: it acts on its own interview only", async () => {
    await expect(connect({ authorization: `Bearer ${inviteToken}` })).rejects.toThrow(/The MCP server takes an API key/);
  });

  it("finds nothing of another organization's: its session is not found, its search is empty", async () => {
    const outsider = await connect(stranger);
    const refused = await refusal(outsider, 'get_session', { sessionId });
    expect(refused.error.code).toBe('RESOURCE_NOT_FOUND');
    expect((await refusal(outsider, 'get_transcript', { sessionId })).error.code).toBe('RESOURCE_NOT_FOUND');
    const found = await call(outsider, 'search_transcripts', { query: 'reporting dashboard' });
    expect(found.data).toEqual([]);
    const invite = await refusal(outsider, 'invite_participant', { campaignId, email: 'intruder@example.com', sendEmail: false });
    expect(invite.error.code).toBe('RESOURCE_NOT_FOUND');
    const invites = await api.get(`/v1/campaigns/${campaignId}/invites`).expect(200);
    expect(invites.body.data.map((item: Json) => item.email)).toEqual(['ada.lovelace@example.com']);
  });
});

describe('mistakes', () => {
  it("answers invalid input with the API's envelope and its field path, and creates nothing", async () => {
    const client = await connect(owner);
    const empty = await refusal(client, 'create_study', { title: 'Empty study', questions: [] });
    expect(empty.error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(empty.error.details.fields).toEqual([expect.objectContaining({ path: 'questions' })]);
    const unknown = await refusal(client, 'list_campaigns', { colour: 'red' });
    expect(unknown.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ path: 'colour' })] } });
    const missing = await refusal(client, 'get_session', {});
    expect(missing.error).toMatchObject({ code: 'INVALID_REQUEST', details: { fields: [expect.objectContaining({ path: 'sessionId' })] } });
    const campaigns = await api.get('/v1/campaigns').expect(200);
    expect(campaigns.body.data.map((campaign: Json) => campaign.name)).not.toContain('Empty study');
  });

  it('answers a tool that does not exist as a protocol error', async () => {
    const client = await connect(owner);
    await expect(client.callTool({ name: 'drop_database', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool: drop_database'),
    });
  });

  it('takes an API key: none or an unknown one is a 401; GET is a 405', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = () => t.http.post('/mcp').set('Accept', 'application/json, text/event-stream').send(initialize);
    const none = await post().expect(401);
    expect(none.body.error.code).toBe('INVALID_API_KEY');
    expect((await post().set('Authorization', 'Bearer isk_live_notakey').expect(401)).body.error.code).toBe('INVALID_API_KEY');
    await expect(connect({ authorization: 'Bearer isk_live_notakey' })).rejects.toThrow(/INVALID_API_KEY/);

    const get = await t.http.get('/mcp').set('Authorization', owner.authorization).expect(405);
    expect(get.headers.allow).toBe('POST');
    expect(get.body.error.code).toBe('METHOD_NOT_ALLOWED');

    // One message per request: a batch would run many calls on one unit of the rate limit.
    const batch = await t.http
      .post('/mcp')
      .set('Authorization', owner.authorization)
      .set('Accept', 'application/json, text/event-stream')
      .send([initialize, { ...initialize, id: 2 }])
      .expect(400);
    expect(batch.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { fields: [{ path: 'body' }] } });
    const notJson = await t.http.post('/mcp').set('Authorization', owner.authorization).set('Content-Type', 'text/plain').send('hello').expect(415);
    expect(notJson.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    // A retry would run the call again: the header is refused rather than ignored.
    const keyed = await post().set('Authorization', owner.authorization).set('Idempotency-Key', 'mcp-retry-1').expect(400);
    expect(keyed.body.error.details.fields).toEqual([expect.objectContaining({ path: 'Idempotency-Key' })]);
    const deleted = await t.http.delete('/mcp').set('Authorization', owner.authorization).expect(405);
    expect(deleted.headers.allow).toBe('POST');

    const answered = await post().set('Authorization', owner.authorization).expect(200);
    expect(answered.headers['content-type']).toMatch(/^application\/json/);
    expect(answered.body.result.serverInfo).toMatchObject({ name: 'interview-service' });
    expect(answered.headers['cache-control']).toBe('no-store');
  });
});
