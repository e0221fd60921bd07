import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiAs, createCampaign, createPublishedScript } from '../helpers/factories.js';
import { answeredInvite, PARTICIPANT_BUDGET } from '../helpers/interviews.js';
import { type ListeningTestApp, startListeningTestApp, type TrpcClient, trpcFailure } from '../helpers/members.js';
import { type TestTenant } from '../helpers/test-app.js';

/**
 * comparisons.compare (issue 16, "comparison reports"): segments of campaigns side by side,
 * their completion, durations, sentiment (a researcher's override wins) and the answers to
 * structured questions as distributions, all from interviews answered through the real engine.
 */

const QUESTIONS = [
  { id: 'experience', text: 'How was your first week with the product?', type: 'open', followUp: { enabled: false } },
  { id: 'ease', text: 'How easy was the setup?', type: 'rating', scale: { min: 1, max: 5 } },
  { id: 'recommend', text: 'Would you recommend it to a colleague?', type: 'yes_no' },
  { id: 'channel', text: 'Which support channel did you use most?', type: 'multiple_choice', options: ['Email', 'Phone call', 'In-app chat'] },
  { id: 'nps', text: 'How likely are you to recommend us, from 0 to 10?', type: 'rating', scale: { min: 0, max: 10 } },
];

const OPEN = 'The first week went fine overall, the setup guide was clear enough for our team to follow.';

let t: ListeningTestApp;
let tenant: TestTenant;
let api: Api;
let client: TrpcClient;

beforeAll(async () => {
  t = await startListeningTestApp(PARTICIPANT_BUDGET);
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  client = t.clientOf(tenant);
});
afterAll(() => t?.close());

/** Answers `answers` in order through the participant API on a new invite; answers the session id. */
async function interview(campaignId: string, answers: string[], metadata: Record<string, string> = {}): Promise<string> {
  return (await answeredInvite(t, api, campaignId, answers, { metadata })).sessionId;
}

async function sql(query: string, params: unknown[] = []) {
  return t.em().execute(query, params);
}

async function setParticipantSentiment(sessionId: string, sentiment: string | null) {
  await sql(`update session_utterances set sentiment = ? where session_id = ? and speaker = 'participant'`, [sentiment, sessionId]);
}

describe('comparisons.compare', () => {
  let campaignA: { id: string; name: string };
  let campaignB: { id: string; name: string };
  const sessions: Record<string, string> = {};

  beforeAll(async () => {
    const script = await createPublishedScript(api, { questions: QUESTIONS });
    campaignA = await createCampaign(api, { scriptId: script.id });
    campaignB = await createCampaign(api, { scriptId: script.id });
    sessions.a1 = await interview(campaignA.id, [OPEN, '4', 'yes', 'Email', '9'], { cohort: 'beta' });
    sessions.a2 = await interview(campaignA.id, [OPEN, '5', 'no', 'Phone call', '10']);
    sessions.a3 = await interview(campaignA.id, [OPEN, '4', 'yes', 'Email', '3'], { cohort: 'beta' });
    sessions.aAbandoned = await interview(campaignA.id, [OPEN, '4']);
    sessions.aInProgress = await interview(campaignA.id, [OPEN]);
    sessions.b1 = await interview(campaignB.id, [OPEN, '2', 'no', 'In-app chat', '6']);
    sessions.b2 = await interview(campaignB.id, [OPEN, '3', 'yes', 'In-app chat', '8']);

    // An answer the engine could not read is stored as null: it counts as unreadable, not in the shares.
    await sql(`update sessions set answers = answers || '[{"questionId":"recommend","value":null,"utteranceId":null}]'::jsonb where id = ?`, [
      sessions.aInProgress,
    ]);
    await sql(`update sessions set status = 'abandoned', completion_status = 'abandoned', completed_at = now() where id = ?`, [sessions.aAbandoned]);
    const durations: Record<string, number> = { a1: 60, a2: 120, a3: 300, aAbandoned: 30, b1: 100, b2: 200 };
    for (const [key, seconds] of Object.entries(durations)) await sql(`update sessions set duration_seconds = ? where id = ?`, [seconds, sessions[key]]);
    // Known sentiments (the transcript job is not run): a2 negative with one answer overridden to positive.
    await setParticipantSentiment(sessions.a1!, 'positive');
    await setParticipantSentiment(sessions.a2!, 'negative');
    await setParticipantSentiment(sessions.a3!, 'neutral');
    await setParticipantSentiment(sessions.b1!, 'negative');
    await setParticipantSentiment(sessions.b2!, 'negative');
    await sql(
      `update session_utterances set sentiment_override = 'positive' where id = (select id from session_utterances where session_id = ? and speaker = 'participant' order by seq limit 1)`,
      [sessions.a2],
    );
  });

  it("states each segment's completion, durations, effective sentiment and answer distributions", async () => {
    const report = await client.comparisons.compare.query({ segments: [{ campaignId: campaignA.id, label: 'Spring' }, { campaignId: campaignB.id }] });
    expect(report.sameScript).toBe(true);
    expect(report.questions.map((question) => [question.questionId, question.segments])).toEqual([
      ['ease', [0, 1]],
      ['recommend', [0, 1]],
      ['channel', [0, 1]],
      ['nps', [0, 1]],
    ]);
    const [a, b] = report.segments;
    expect(a).toMatchObject({ index: 0, label: 'Spring', campaignId: campaignA.id, campaignName: campaignA.name, filters: {} });
    expect(b).toMatchObject({ index: 1, label: campaignB.name, campaignId: campaignB.id });

    expect(a!.sessions).toEqual({ started: 5, completed: 3, timedOut: 0, abandoned: 1, inProgress: 1, completionRate: 0.6 });
    // 60, 120, 300: p90 interpolates 120 + 0.8 × 180.
    expect(a!.duration).toEqual({ count: 3, mean: 160, median: 120, p90: 264 });
    expect(b!.sessions).toEqual({ started: 2, completed: 2, timedOut: 0, abandoned: 0, inProgress: 0, completionRate: 1 });
    expect(b!.duration).toEqual({ count: 2, mean: 150, median: 150, p90: 190 });

    // a1 5 positive; a2 4 negative + 1 overridden positive; a3 5 neutral; abandoned 2 and in-progress 1 unrated.
    expect(a!.sentiment).toEqual({ positive: 6, neutral: 5, negative: 4, unrated: 3, shares: { positive: 0.4, neutral: 0.3333, negative: 0.2667 } });
    expect(b!.sentiment).toEqual({ positive: 0, neutral: 0, negative: 10, unrated: 0, shares: { positive: 0, neutral: 0, negative: 1 } });

    const question = (segment: typeof a, id: string) => segment!.questions.find((entry) => entry.questionId === id)!;
    expect(question(a, 'ease')).toEqual({
      questionId: 'ease',
      text: 'How easy was the setup?',
      type: 'rating',
      scale: { min: 1, max: 5 },
      answered: 4,
      unreadable: 0,
      counts: [
        { value: 1, count: 0, share: 0 },
        { value: 2, count: 0, share: 0 },
        { value: 3, count: 0, share: 0 },
        { value: 4, count: 3, share: 0.75 },
        { value: 5, count: 1, share: 0.25 },
      ],
      mean: 4.25,
      nps: null,
    });
    expect(question(a, 'recommend')).toMatchObject({
      type: 'yes_no',
      answered: 3,
      unreadable: 1,
      counts: [
        { value: true, count: 2, share: 0.6667 },
        { value: false, count: 1, share: 0.3333 },
      ],
      mean: null,
      nps: null,
    });
    expect(question(a, 'channel')).toMatchObject({
      type: 'multiple_choice',
      answered: 3,
      counts: [
        { value: 'Email', count: 2, share: 0.6667 },
        { value: 'Phone call', count: 1, share: 0.3333 },
        { value: 'In-app chat', count: 0, share: 0 },
      ],
    });
    // 9, 10, 3 on 0–10: two promoters, one detractor.
    expect(question(a, 'nps')).toMatchObject({
      type: 'rating',
      scale: { min: 0, max: 10 },
      answered: 3,
      mean: 7.33,
      nps: { promoters: 2, passives: 0, detractors: 1, score: 33.3 },
    });
    expect(question(a, 'nps').counts).toHaveLength(11);
    expect(question(b, 'ease')).toMatchObject({ answered: 2, mean: 2.5 });
    expect(question(b, 'channel').counts).toEqual([
      { value: 'Email', count: 0, share: 0 },
      { value: 'Phone call', count: 0, share: 0 },
      { value: 'In-app chat', count: 2, share: 1 },
    ]);
    // 6 and 8: a detractor and a passive.
    expect(question(b, 'nps').nps).toEqual({ promoters: 0, passives: 1, detractors: 1, score: -50 });
  });

  it('narrows a segment by completion status, invite metadata, start time and language', async () => {
    await sql(`update sessions set started_at = '2026-01-10T12:00:00Z', language = 'nl-BE' where id = ?`, [sessions.a3]);
    try {
      const report = await client.comparisons.compare.query({
        segments: [
          { campaignId: campaignA.id, completionStatus: ['completed'], metadata: { cohort: 'beta' } },
          { campaignId: campaignA.id, from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' },
          { campaignId: campaignA.id, language: 'nl' },
          { campaignId: campaignA.id, metadata: { cohort: 'gamma' } },
        ],
      });
      const [beta, january, dutch, nobody] = report.segments;
      expect(beta!.filters).toEqual({ completionStatus: ['completed'], metadata: { cohort: 'beta' } });
      expect(beta!.sessions).toMatchObject({ started: 2, completed: 2, completionRate: 1 });
      expect(beta!.duration).toEqual({ count: 2, mean: 180, median: 180, p90: 276 });
      expect(beta!.questions.find((question) => question.questionId === 'nps')!.nps).toEqual({ promoters: 1, passives: 0, detractors: 1, score: 0 });
      expect(january!.sessions).toMatchObject({ started: 1, completed: 1 });
      expect(dutch!.sessions).toMatchObject({ started: 1, completed: 1 });
      expect(dutch!.sentiment).toMatchObject({ neutral: 5, positive: 0, negative: 0 });
      // A segment nobody falls in still lists the script's questions, with zero counts.
      expect(nobody!.sessions).toEqual({ started: 0, completed: 0, timedOut: 0, abandoned: 0, inProgress: 0, completionRate: null });
      expect(nobody!.duration).toEqual({ count: 0, mean: null, median: null, p90: null });
      expect(nobody!.sentiment.shares).toEqual({ positive: null, neutral: null, negative: null });
      expect(nobody!.questions.map((question) => [question.questionId, question.answered])).toEqual([
        ['ease', 0],
        ['recommend', 0],
        ['channel', 0],
        ['nps', 0],
      ]);
    } finally {
      await sql(`update sessions set started_at = now(), language = 'en' where id = ?`, [sessions.a3]);
    }
  });

  it("lists each segment's own questions when the campaigns follow different scripts, aligned by id", async () => {
    const other = await createPublishedScript(api, {
      questions: [
        { id: 'ease', text: 'How easy was it?', type: 'rating', scale: { min: 1, max: 5 } },
        { id: 'plan', text: 'Which plan are you on?', type: 'multiple_choice', options: ['Free', 'Pro'] },
      ],
    });
    const campaignC = await createCampaign(api, { scriptId: other.id });
    await interview(campaignC.id, ['5', 'Pro']);
    const report = await client.comparisons.compare.query({ segments: [{ campaignId: campaignA.id }, { campaignId: campaignC.id }] });
    expect(report.sameScript).toBe(false);
    expect(report.questions.map((question) => [question.questionId, question.segments])).toEqual([
      ['ease', [0, 1]],
      ['recommend', [0]],
      ['channel', [0]],
      ['nps', [0]],
      ['plan', [1]],
    ]);
    expect(report.segments[1]!.questions.map((question) => question.questionId)).toEqual(['ease', 'plan']);
    expect(report.segments[1]!.questions[1]!.counts).toEqual([
      { value: 'Free', count: 0, share: 0 },
      { value: 'Pro', count: 1, share: 1 },
    ]);
  });

  it("reads every segment's sessions in three statements, whatever the number of segments and sessions", async () => {
    const knex = t.runtime.orm.em.getConnection().getKnex();
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    knex.on('query', record);
    try {
      await client.comparisons.compare.query({ segments: Array.from({ length: 6 }, (_, i) => ({ campaignId: i % 2 ? campaignA.id : campaignB.id })) });
    } finally {
      knex.off('query', record);
    }
    expect(statements.filter((text) => text.includes('from sessions s'))).toHaveLength(3);
    expect(statements.filter((text) => text.includes('session_utterances'))).toHaveLength(1);
  });

  it('answers 404 RESOURCE_NOT_FOUND, naming the segment, for a campaign of another organization', async () => {
    const stranger = await t.createTenant();
    const foreign = await createCampaign(apiAs(t.http, stranger));
    const failure = await trpcFailure(client.comparisons.compare.query({ segments: [{ campaignId: campaignA.id }, { campaignId: foreign.id }] }));
    expect(failure).toMatchObject({ httpStatus: 404, appCode: 'RESOURCE_NOT_FOUND' });
    expect(failure.details.fields).toEqual([{ path: 'segments[1].campaignId', message: 'no campaign with this id' }]);
  });

  it('answers 403 to a key without sessions:read', async () => {
    const key = await t.createKey(tenant.organizationId, ['campaigns:read']);
    const failure = await trpcFailure(t.clientOf(key).comparisons.compare.query({ segments: [{ campaignId: campaignA.id }, { campaignId: campaignB.id }] }));
    expect(failure).toMatchObject({ httpStatus: 403, appCode: 'INSUFFICIENT_PERMISSIONS' });
  });

  it('refuses one segment, seven segments and a window that ends before it starts, with field paths', async () => {
    const one = await trpcFailure(client.comparisons.compare.query({ segments: [{ campaignId: campaignA.id }] }));
    expect(one).toMatchObject({ httpStatus: 422, appCode: 'VALIDATION_ERROR' });
    expect(one.details.fields).toEqual([{ path: 'segments', message: 'compare at least 2 segments' }]);
    const seven = await trpcFailure(client.comparisons.compare.query({ segments: Array.from({ length: 7 }, () => ({ campaignId: campaignA.id })) }));
    expect(seven.details.fields).toEqual([{ path: 'segments', message: 'compare at most 6 segments' }]);
    const backwards = await trpcFailure(
      client.comparisons.compare.query({
        segments: [{ campaignId: campaignA.id }, { campaignId: campaignB.id, from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }],
      }),
    );
    expect(backwards).toMatchObject({ httpStatus: 422, appCode: 'VALIDATION_ERROR' });
    expect(backwards.details.fields).toEqual([{ path: 'segments[1].to', message: 'must be after from' }]);
    const badStatus = await trpcFailure(
      client.comparisons.compare.query({
        segments: [{ campaignId: campaignA.id }, { campaignId: campaignB.id, completionStatus: ['finished' as 'completed'] }],
      }),
    );
    expect(badStatus.httpStatus).toBeGreaterThanOrEqual(400);
    expect(badStatus.httpStatus).toBeLessThan(500);
    expect((badStatus.details.fields as { path: string }[])[0]!.path).toBe('segments[1].completionStatus[0]');
  });
});
