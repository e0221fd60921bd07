import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/http/app.js';
import { type Api, apiAs, createCampaign, createInvite, createPublishedScript, uniqueName } from '../helpers/factories.js';
import { chatReply, type FakeOpenAi, type FakeOpenAiRequest, startFakeOpenAi } from '../helpers/fake-openai.js';
import { PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { listen, type ListeningTestApp, startListeningTestApp, type TrpcClient, trpcClient, trpcFailure } from '../helpers/members.js';
import { runCompletionChain } from '../helpers/results.js';
import { type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * summaries.create (issue 16, "AI summary across a set of sessions"): the built-in extractive
 * method finds the themes several participants raised and quotes them from the right sessions;
 * with an LLM configured the model gets the answers with PII redacted, its quotes are checked,
 * and a failing model hands over to the extractive method, saying why.
 */

const QUESTIONS = [
  { id: 'liked', text: 'What stood out in your first month?', type: 'open', followUp: { enabled: false } },
  { id: 'change', text: 'What would you change?', type: 'open', followUp: { enabled: false } },
];

const EMAIL = 'ada.lovelace@example.com';
const PHONE = '+44 20 7946 0958';

/** Five interviews: pricing comes up in p1–p3, the dashboard in p2, p4 and p5. */
const ANSWERS: Record<string, string[]> = {
  p1: [
    'The pricing is far too high for a small company like ours. The onboarding emails were confusing and had broken links.',
    `A cheaper starter plan would change the pricing story for us. Write to ${EMAIL} or call ${PHONE} about it.`,
  ],
  p2: [
    'The reporting dashboard is brilliant and saves me hours every week. The pricing feels steep compared to other tools.',
    'Please add more charts to the dashboard for our sales managers.',
  ],
  p3: [
    'Our finance department complained about the pricing when the renewal invoice arrived.',
    `Nothing much else, though you can reach me on ${PHONE} for details.`,
  ],
  p4: [
    'The dashboard loads slowly when we have many projects open at the same time.',
    'Exporting reports from the dashboard to PDF would help our managers a lot.',
  ],
  p5: ['I check the dashboard every morning before our standup meeting starts.', 'The mobile app crashes sometimes when I upload photos from my phone camera.'],
};

let t: ListeningTestApp;
let llmServer: { url: string; close(): Promise<void> };
let fake: FakeOpenAi;
let tenant: TestTenant;
let api: Api;
let client: TrpcClient;
let llmClient: TrpcClient;
let campaignId: string;
const sessions: Record<string, string> = {};
let unanswered: string;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  t = await startListeningTestApp(PARTICIPANT_BUDGET);
  // The same runtime and database, served once more with an LLM configured (the built app reads it per call).
  const services = t.runtime.services;
  const llmApp = createApp(
    {
      ...services,
      config: {
        ...services.config,
        llm: { baseUrl: fake.baseUrl, apiKey: 'sk-test-summary', model: 'summary-model', timeoutMs: 5000, analysisTimeoutMs: 5000 },
      },
    },
    { isReady: () => true },
  );
  llmServer = await listen({ app: llmApp } as TestApp);
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  client = t.clientOf(tenant);
  llmClient = trpcClient(llmServer.url, { token: () => tenant.apiKey });

  const script = await createPublishedScript(api, { questions: QUESTIONS });
  campaignId = (await createCampaign(api, { scriptId: script.id })).id;
  for (const [key, answers] of Object.entries(ANSWERS)) {
    const invite = await createInvite(api, campaignId, { email: `${uniqueName('p').replace(' ', '-')}@example.com`, sendEmail: false });
    const participant = participantAs(t.http, invite.token);
    const started = await participant.start().expect(201);
    for (const answer of answers) await participant.answer(answer).expect(200);
    sessions[key] = started.body.session.id;
    await runCompletionChain(t, sessions[key]!);
  }
  const invite = await createInvite(api, campaignId, { email: `${uniqueName('p').replace(' ', '-')}@example.com`, sendEmail: false });
  unanswered = (await participantAs(t.http, invite.token).start().expect(201)).body.session.id;
}, 120_000);
afterAll(async () => {
  await llmServer?.close();
  await t?.close();
  await fake?.close();
});

function sessionKey(sessionId: string): string {
  return Object.entries(sessions).find(([, id]) => id === sessionId)![0];
}

/** Each quote is its utterance's words, from a participant of the session it names. */
async function expectQuotesFromTheirSessions(themes: { quotes: { sessionId: string; utteranceId: string; text: string }[] }[]) {
  const quotes = themes.flatMap((theme) => theme.quotes);
  const rows = await t
    .em()
    .execute<{ id: string; session_id: string; speaker: string; text: string }[]>(
      `select id, session_id, speaker, text from session_utterances where id = any(array[?]::text[])`,
      [quotes.map((quote) => quote.utteranceId)],
    );
  for (const quote of quotes) {
    const row = rows.find((candidate) => candidate.id === quote.utteranceId)!;
    expect(row).toMatchObject({ session_id: quote.sessionId, speaker: 'participant' });
    expect(row.text).toContain(quote.text);
  }
}

describe('summaries.create, extractive', () => {
  it('finds the themes several sessions share and quotes them from those sessions', async () => {
    const summary = await client.summaries.create.mutate({ sessionIds: Object.values(sessions) });
    expect(summary).toMatchObject({ method: 'extractive', fallbackReason: null, sessionCount: 5, capped: false });
    expect(new Date(summary.generatedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const pricing = summary.themes.find((theme) => /pric/i.test(theme.title))!;
    const dashboard = summary.themes.find((theme) => /dashboard/i.test(theme.title))!;
    expect(pricing).toMatchObject({ sessionCount: 3 });
    expect(dashboard).toMatchObject({ sessionCount: 3 });
    expect(summary.themes.indexOf(pricing)).toBeLessThan(2);
    expect(summary.themes.indexOf(dashboard)).toBeLessThan(2);
    for (const [theme, word, keys] of [
      [pricing, 'pric', ['p1', 'p2', 'p3']],
      [dashboard, 'dashboard', ['p2', 'p4', 'p5']],
    ] as const) {
      expect(theme.quotes.length).toBeGreaterThanOrEqual(2);
      // Quotes come from different sessions first.
      expect(new Set(theme.quotes.map((quote) => quote.sessionId)).size).toBe(theme.quotes.length);
      for (const quote of theme.quotes) {
        expect(keys).toContain(sessionKey(quote.sessionId));
        expect(quote.text.toLowerCase()).toContain(word);
      }
    }
    await expectQuotesFromTheirSessions(summary.themes);
    expect(summary.summary).toMatch(/^Across 5 sessions, participants talked most about /);
    expect(summary.summary).toMatch(/pricing \(3 sessions\)/i);
    expect(summary.summary).toMatch(/dashboard \(3 sessions\)/i);
    expect(JSON.stringify(summary)).not.toContain(EMAIL);
    expect(JSON.stringify(summary)).not.toContain('7946');
  });

  it("summarizes a campaign's answered sessions, with the sentiment a researcher set", async () => {
    await t
      .em()
      .execute(
        `update session_utterances set sentiment_override = 'negative' where session_id in (select id from sessions where campaign_id = ?) and speaker = 'participant'`,
        [campaignId],
      );
    try {
      const summary = await client.summaries.create.mutate({ campaignId });
      expect(summary).toMatchObject({ method: 'extractive', sessionCount: 5, capped: false });
      expect(summary.summary).toContain('Of 10 answers rated for sentiment, 0% were positive, 0% neutral and 100% negative.');
      const none = await client.summaries.create.mutate({ campaignId, from: '2020-01-01T00:00:00Z', to: '2020-02-01T00:00:00Z' });
      expect(none).toMatchObject({ sessionCount: 0, themes: [], summary: '' });
    } finally {
      await t
        .em()
        .execute(`update session_utterances set sentiment_override = null where session_id in (select id from sessions where campaign_id = ?)`, [campaignId]);
    }
  });

  it('answers an empty summary for sessions without participant answers', async () => {
    const summary = await client.summaries.create.mutate({ sessionIds: [unanswered] });
    expect(summary).toMatchObject({ method: 'extractive', fallbackReason: null, summary: '', themes: [], sessionCount: 0, capped: false });
  });

  it('answers 404 naming the field for a session or campaign of another organization', async () => {
    const stranger = await t.createTenant();
    const foreignCampaign = await createCampaign(apiAs(t.http, stranger));
    const session = await trpcFailure(client.summaries.create.mutate({ sessionIds: [sessions.p1!, 'ses_doesnotexist'] }));
    expect(session).toMatchObject({ httpStatus: 404, appCode: 'RESOURCE_NOT_FOUND' });
    expect(session.details.fields).toEqual([{ path: 'sessionIds[1]', message: 'no session with this id' }]);
    const campaign = await trpcFailure(client.summaries.create.mutate({ campaignId: foreignCampaign.id }));
    expect(campaign).toMatchObject({ httpStatus: 404, appCode: 'RESOURCE_NOT_FOUND' });
    expect(campaign.details.fields).toEqual([{ path: 'campaignId', message: 'no campaign with this id' }]);
    // And a session of this organization is 404 to the other one.
    const theirClient = t.clientOf(stranger);
    expect(await trpcFailure(theirClient.summaries.create.mutate({ sessionIds: [sessions.p1!] }))).toMatchObject({ httpStatus: 404 });
  });

  it('answers 403 to a key without sessions:read', async () => {
    const key = await t.createKey(tenant.organizationId, ['campaigns:read', 'sessions:write']);
    const failure = await trpcFailure(t.clientOf(key).summaries.create.mutate({ campaignId }));
    expect(failure).toMatchObject({ httpStatus: 403, appCode: 'INSUFFICIENT_PERMISSIONS' });
  });

  it('refuses both or neither of sessionIds and campaignId, and more than 200 sessions, with field paths', async () => {
    const both = await trpcFailure(client.summaries.create.mutate({ sessionIds: [sessions.p1!], campaignId }));
    expect(both).toMatchObject({ httpStatus: 422, appCode: 'VALIDATION_ERROR' });
    expect(both.details.fields).toEqual([{ path: 'campaignId', message: 'give either sessionIds or campaignId' }]);
    const neither = await trpcFailure(client.summaries.create.mutate({}));
    expect(neither.details.fields).toEqual([{ path: 'sessionIds', message: 'give either sessionIds or campaignId' }]);
    const many = await trpcFailure(client.summaries.create.mutate({ sessionIds: Array.from({ length: 201 }, (_, i) => `ses_${i}`) }));
    expect(many).toMatchObject({ httpStatus: 422, appCode: 'VALIDATION_ERROR' });
    expect(many.details.fields).toEqual([{ path: 'sessionIds', message: 'at most 200 sessions' }]);
    const window = await trpcFailure(client.summaries.create.mutate({ sessionIds: [sessions.p1!], from: '2026-01-01T00:00:00Z' }));
    expect(window.details.fields).toEqual([{ path: 'from', message: 'only with campaignId' }]);
  });
});

const SUMMARY_SYSTEM = 'You summarize research interviews';

interface SummaryRequest {
  sessions: { session: string; answers: { id: string; question?: string; text: string }[] }[];
}

function summaryRequests(): FakeOpenAiRequest[] {
  return fake.requests.filter((request) => (request.json?.messages?.[0]?.content as string | undefined)?.startsWith(SUMMARY_SYSTEM));
}

function dataOf(request: FakeOpenAiRequest): SummaryRequest {
  const content = request.json.messages[1].content as string;
  return JSON.parse(content.slice(content.indexOf('\n') + 1)) as SummaryRequest;
}

describe('summaries.create with an LLM', () => {
  it('sends the answers with PII redacted and keeps only verbatim quotes, mapped back to their sessions', async () => {
    fake.requests.length = 0;
    fake.respond = (request) => {
      const data = dataOf(request);
      const answers = data.sessions.flatMap((session) => session.answers);
      const aboutPricing = answers.filter((answer) => /pricing/i.test(answer.text));
      return chatReply({
        summary: 'Participants find the pricing steep and like the dashboard.',
        themes: [
          {
            title: 'Pricing is too high',
            utteranceIds: aboutPricing.map((answer) => answer.id),
            quotes: [
              { utteranceId: aboutPricing[0]!.id, text: aboutPricing[0]!.text.split('. ')[0] },
              { utteranceId: aboutPricing[1]!.id, text: 'words nobody said' },
            ],
          },
          { title: 'Invented', utteranceIds: ['u999'], quotes: [{ utteranceId: 'u999', text: 'made up' }] },
        ],
      });
    };
    const summary = await llmClient.summaries.create.mutate({ sessionIds: Object.values(sessions) });
    expect(summary).toMatchObject({
      method: 'llm',
      fallbackReason: null,
      summary: 'Participants find the pricing steep and like the dashboard.',
      sessionCount: 5,
    });
    expect(summary.themes).toHaveLength(1);
    expect(summary.themes[0]).toMatchObject({ title: 'Pricing is too high', sessionCount: 3 });
    // Sessions reach the model in the order they started: p1's answer about pricing comes first.
    expect(summary.themes[0]!.quotes).toEqual([
      { sessionId: sessions.p1, utteranceId: expect.any(String), text: 'The pricing is far too high for a small company like ours' },
    ]);
    await expectQuotesFromTheirSessions(summary.themes);

    const [request] = summaryRequests();
    expect(summaryRequests()).toHaveLength(1);
    expect(request!.json.model).toBe('summary-model');
    const body = JSON.stringify(request!.json);
    expect(body).not.toContain(EMAIL);
    expect(body).not.toContain('ada.lovelace');
    expect(body).not.toContain('7946');
    expect(body).toContain('[EMAIL REDACTED]');
    expect(body).toContain('[PHONE REDACTED]');
    // No session or utterance ids either: short aliases stand in for them.
    for (const id of Object.values(sessions)) expect(body).not.toContain(id);
    const data = dataOf(request!);
    expect(data.sessions).toHaveLength(5);
    expect(data.sessions[0]!.answers[0]).toMatchObject({ question: 'What stood out in your first month?' });
  });

  it('falls back to the extractive summary when the model answers 500, and says so', async () => {
    fake.requests.length = 0;
    fake.respond = () => ({ status: 500, body: { error: { message: 'upstream exploded' } } });
    const summary = await llmClient.summaries.create.mutate({ campaignId });
    expect(summary).toMatchObject({ method: 'extractive', fallbackReason: 'http_status', sessionCount: 5 });
    expect(summary.themes.some((theme) => /dashboard/i.test(theme.title))).toBe(true);
    expect(summaryRequests().length).toBeGreaterThanOrEqual(1);
  });

  it('falls back when no quote the model gives is verbatim', async () => {
    fake.respond = () =>
      chatReply({ summary: 'Made up.', themes: [{ title: 'Nothing real', utteranceIds: [], quotes: [{ utteranceId: 'u1', text: 'never said this' }] }] });
    const summary = await llmClient.summaries.create.mutate({ campaignId });
    expect(summary).toMatchObject({ method: 'extractive', fallbackReason: 'invalid_answer' });
  });

  it('does not call the model for a set without answers', async () => {
    fake.requests.length = 0;
    const summary = await llmClient.summaries.create.mutate({ sessionIds: [unanswered] });
    expect(summary).toMatchObject({ method: 'extractive', sessionCount: 0 });
    expect(summaryRequests()).toHaveLength(0);
  });
});
