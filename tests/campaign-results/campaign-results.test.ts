import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiAs, createCampaign, createInvite, createPublishedScript, uniqueName } from '../helpers/factories.js';
import { answeredInvite, PARTICIPANT_BUDGET } from '../helpers/interviews.js';
import { type ListeningTestApp, startListeningTestApp, type TrpcClient, trpcFailure } from '../helpers/members.js';
import type { TestTenant } from '../helpers/test-app.js';

/**
 * campaignResults.get and campaignResults.sessions (issue 31, "Results per campaign"): the
 * funnel, every structured question counted from interviews answered through the real engine,
 * every open question with how many answered and the newest answers, the participants' feedback, and filters (segment, language, window, completion) that every
 * number obeys; preview sessions never count.
 */

const QUESTIONS = [
  { id: 'experience', text: 'How was your first week with the product?', type: 'open', followUp: { enabled: false } },
  { id: 'nps', text: 'How likely are you to recommend us, from 0 to 10?', type: 'rating', scale: { min: 0, max: 10 } },
  { id: 'recommend', text: 'Would you recommend it to a colleague?', type: 'yes_no' },
  { id: 'channel', text: 'Which support channel did you use most?', type: 'multiple_choice', options: ['Email', 'Phone call', 'In-app chat'] },
];

const OPEN = 'The first week went fine overall, the setup guide was clear enough for our team to follow.';
/** Each session's answer to the open question: the quotes say whose words they are. */
const open = (who: string) => `${OPEN} (${who})`;

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

async function sql(query: string, params: unknown[] = []) {
  return t.em().execute(query, params);
}

/** One question's result by id: open questions stand among the structured ones, in the script's order. */
function question(results: { questions: { questionId: string }[] }, id: string) {
  const found = results.questions.find((entry) => entry.questionId === id);
  if (!found) throw new Error(`no question ${id} in ${JSON.stringify(results.questions.map((entry) => entry.questionId))}`);
  return found as Awaited<ReturnType<typeof client.campaignResults.get.query>>['questions'][number];
}

/** The participant's answer utterance to `questionId` in a session: what a quote must point at. */
async function answerUtterance(sessionId: string, questionId = 'experience') {
  const [row] = await sql(
    `select id from session_utterances where session_id = ? and question_id = ? and speaker = 'participant' and kind = 'answer' order by seq limit 1`,
    [sessionId, questionId],
  );
  return (row as { id: string }).id;
}

/** Answers `answers` in order on a new invite with `metadata`; answers the session and invite ids. */
function interview(campaignId: string, answers: string[], metadata: Record<string, string>, name = uniqueName('Participant')) {
  return answeredInvite(t, api, campaignId, answers, { metadata, name });
}

describe('campaignResults', () => {
  let campaign: { id: string; name: string; scriptId: string };
  const s: Record<string, { sessionId: string; inviteId: string }> = {};

  beforeAll(async () => {
    const script = await createPublishedScript(api, { questions: QUESTIONS });
    campaign = await createCampaign(api, { scriptId: script.id });
    const s1 = await interview(campaign.id, [open('s1'), '9', 'yes', 'Email'], { cohort: 'beta', plan: 'pro' }, 'Beatrice Beta');
    await s1.participant.feedback({ overall_rating: 5, ease_of_use_rating: 4, would_recommend: true, comments: 'Quick and friendly.' }).expect(201);
    const s2 = await interview(campaign.id, [open('s2'), '10', 'no', 'Phone call'], { cohort: 'beta', plan: 'free' });
    await s2.participant.feedback({ overall_rating: 3, would_recommend: false, technical_issues: 'The audio cut out once.' }).expect(201);
    const s3 = await interview(campaign.id, [open('s3'), '3', 'yes', 'Email'], { cohort: 'gamma', plan: 'pro' });
    await s3.participant.feedback({ overall_rating: 4 }).expect(201);
    const s4 = await interview(campaign.id, [open('s4'), '7'], { cohort: 'gamma' });
    const s5 = await interview(campaign.id, [open('s5')], { cohort: 'beta' });
    // A "Preview as participant" session: answers and feedback that must count nowhere.
    const preview = await interview(campaign.id, [open('preview'), '0', 'no', 'In-app chat'], { cohort: 'preview-only' });
    await preview.participant.feedback({ overall_rating: 1, would_recommend: false, comments: 'Preview comment' }).expect(201);
    Object.assign(s, { s1, s2, s3, s4, s5, preview });
    await sql(`update sessions set preview = true where id = ?`, [preview.sessionId]);
    await sql(`update sessions set status = 'abandoned', completion_status = 'abandoned', completed_at = now() where id = ?`, [s4.sessionId]);
    // Invited, never started; and an invite cancelled before anyone used it.
    await createInvite(api, campaign.id, { email: `${uniqueName('n').replace(' ', '-')}@example.com`, sendEmail: false, metadata: { cohort: 'gamma' } });
    const cancelled = await createInvite(api, campaign.id, {
      email: `${uniqueName('c').replace(' ', '-')}@example.com`,
      sendEmail: false,
      metadata: { cohort: 'beta' },
    });
    await api.post(`/v1/invites/${cancelled.id}/cancel`, {}).expect(200);
  });

  it('counts the funnel, every structured question, NPS on 0–10 and the feedback, leaving preview sessions out', async () => {
    const results = await client.campaignResults.get.query({ campaignId: campaign.id });
    expect(results.campaignId).toBe(campaign.id);
    expect(results.filter).toEqual({});
    expect(results.sessionCount).toBe(5);
    // Five participants' invites plus the one never started; the cancelled one and the preview's are out.
    expect(results.funnel).toEqual({ invited: 6, started: 5, completed: 3, abandoned: 1, timedOut: 0, inProgress: 1 });

    expect(results.questions.map((question) => question.questionId)).toEqual(['experience', 'nps', 'recommend', 'channel']);
    const [experience, nps, recommend, channel] = results.questions;
    // Every kept session answered the open question; the newest first, the preview's (newer still) never.
    expect(experience).toEqual({
      questionId: 'experience',
      text: 'How was your first week with the product?',
      type: 'open',
      answered: 5,
      unreadable: 0,
      counts: [],
      rating: null,
      quotes: await Promise.all(
        (['s5', 's4', 's3', 's2', 's1'] as const).map(async (who) => ({
          sessionId: s[who]!.sessionId,
          utteranceId: await answerUtterance(s[who]!.sessionId),
          text: open(who),
        })),
      ),
    });
    // 9, 10 promoters; 7 passive (the abandoned session's answer counts); 3 detractor: (2 − 1) / 4.
    expect(nps).toEqual({
      questionId: 'nps',
      text: 'How likely are you to recommend us, from 0 to 10?',
      type: 'rating',
      answered: 4,
      unreadable: 0,
      counts: Array.from({ length: 11 }, (_, value) => ({ value: String(value), count: [3, 7, 9, 10].includes(value) ? 1 : 0 })),
      rating: { min: 0, max: 10, mean: 7.25, nps: 25 },
      quotes: [],
    });
    expect(recommend).toMatchObject({
      type: 'yes_no',
      answered: 3,
      counts: [
        { value: 'yes', count: 2 },
        { value: 'no', count: 1 },
      ],
      rating: null,
    });
    expect(channel).toMatchObject({
      type: 'multiple_choice',
      answered: 3,
      counts: [
        { value: 'Email', count: 2 },
        { value: 'Phone call', count: 1 },
        { value: 'In-app chat', count: 0 },
      ],
    });

    expect(results.feedback).toMatchObject({
      count: 3,
      overall: 4,
      easeOfUse: 4,
      audioQuality: null,
      questionClarity: null,
      wouldRecommend: { yes: 1, no: 1 },
    });
    // Newest first; only feedback with words in it; never the preview's.
    expect(results.feedback.comments.map((comment) => [comment.sessionId, comment.comments, comment.technicalIssues, comment.overallRating])).toEqual([
      [s.s2!.sessionId, null, 'The audio cut out once.', 3],
      [s.s1!.sessionId, 'Quick and friendly.', null, 5],
    ]);
    expect(results.feedback.comments[1]!.participant).toBe('Beatrice Beta');

    expect(results.segmentKeys).toEqual([
      { key: 'cohort', values: ['beta', 'gamma'] },
      { key: 'plan', values: ['free', 'pro'] },
    ]);
    expect(results.languages).toEqual(['en']);
  });

  it('applies a metadata segment to every number', async () => {
    const beta = await client.campaignResults.get.query({ campaignId: campaign.id, filter: { segment: { cohort: 'beta' } } });
    expect(beta.filter).toEqual({ segment: { cohort: 'beta' } });
    expect(beta.funnel).toEqual({ invited: 3, started: 3, completed: 2, abandoned: 0, timedOut: 0, inProgress: 1 });
    expect(question(beta, 'experience')).toMatchObject({ answered: 3, quotes: [{ text: open('s5') }, { text: open('s2') }, { text: open('s1') }] });
    expect(question(beta, 'nps').rating).toEqual({ min: 0, max: 10, mean: 9.5, nps: 100 });
    expect(question(beta, 'recommend').counts).toEqual([
      { value: 'yes', count: 1 },
      { value: 'no', count: 1 },
    ]);
    expect(beta.feedback).toMatchObject({ count: 2, overall: 4, wouldRecommend: { yes: 1, no: 1 } });
    // The picker still offers every segment of the campaign.
    expect(beta.segmentKeys.map((entry) => entry.key)).toEqual(['cohort', 'plan']);

    const betaPro = await client.campaignResults.get.query({ campaignId: campaign.id, filter: { segment: { cohort: 'beta', plan: 'pro' } } });
    expect(betaPro.sessionCount).toBe(1);
    expect(betaPro.funnel.invited).toBe(1);
  });

  it('keeps the questions and draws nothing for a segment nobody falls in', async () => {
    const nobody = await client.campaignResults.get.query({ campaignId: campaign.id, filter: { segment: { cohort: 'delta' } } });
    expect(nobody.sessionCount).toBe(0);
    expect(nobody.funnel).toEqual({ invited: 0, started: 0, completed: 0, abandoned: 0, timedOut: 0, inProgress: 0 });
    expect(nobody.questions.map((question) => [question.questionId, question.answered])).toEqual([
      ['experience', 0],
      ['nps', 0],
      ['recommend', 0],
      ['channel', 0],
    ]);
    expect(question(nobody, 'experience').quotes).toEqual([]);
    expect(question(nobody, 'nps').rating).toEqual({ min: 0, max: 10, mean: null, nps: null });
    expect(nobody.feedback).toEqual({
      count: 0,
      overall: null,
      easeOfUse: null,
      audioQuality: null,
      questionClarity: null,
      wouldRecommend: { yes: 0, no: 0 },
      comments: [],
    });
  });

  it('filters by completion status', async () => {
    const completed = await client.campaignResults.get.query({ campaignId: campaign.id, filter: { completion: 'completed', segment: { cohort: 'gamma' } } });
    // Only s3: the gamma invite never started has no completion and is not counted as invited.
    expect(completed.funnel).toEqual({ invited: 1, started: 1, completed: 1, abandoned: 0, timedOut: 0, inProgress: 0 });
    expect(question(completed, 'nps').rating!.mean).toBe(3);
    expect(question(completed, 'experience')).toMatchObject({ answered: 1, quotes: [{ sessionId: s.s3!.sessionId, text: open('s3') }] });
    const abandoned = await client.campaignResults.get.query({ campaignId: campaign.id, filter: { completion: 'abandoned' } });
    expect(abandoned.funnel).toMatchObject({ started: 1, abandoned: 1 });
    expect(question(abandoned, 'nps').counts.find((count) => count.value === '7')!.count).toBe(1);
    const unfinished = await client.campaignResults.get.query({ campaignId: campaign.id, filter: { completion: 'unfinished' } });
    expect(unfinished.funnel).toMatchObject({ started: 1, inProgress: 1 });
    // s5 is still going: it answered the open question and nothing else yet.
    expect(unfinished.questions.map((question) => [question.questionId, question.answered])).toEqual([
      ['experience', 1],
      ['nps', 0],
      ['recommend', 0],
      ['channel', 0],
    ]);
    expect(question(unfinished, 'experience').quotes).toEqual([
      { sessionId: s.s5!.sessionId, utteranceId: await answerUtterance(s.s5!.sessionId), text: open('s5') },
    ]);
  });

  it('filters by language (a tag keeps its regions) and by the window the session was created in', async () => {
    await sql(`update sessions set language = 'nl-BE' where id = ?`, [s.s3!.sessionId]);
    await sql(`update invites set language = 'nl-BE' where id = ?`, [s.s3!.inviteId]);
    await sql(`update sessions set created_at = '2026-01-10T12:00:00Z' where id = ?`, [s.s1!.sessionId]);
    try {
      const dutch = await client.campaignResults.get.query({ campaignId: campaign.id, filter: { language: 'nl' } });
      expect(dutch.funnel).toMatchObject({ invited: 1, started: 1, completed: 1 });
      expect(dutch.languages).toEqual(['en', 'nl-BE']);
      const january = await client.campaignResults.get.query({ campaignId: campaign.id, filter: { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' } });
      // The invite was created today, yet it led to a kept session: the funnel never narrows upwards.
      expect(january.funnel).toMatchObject({ invited: 1, started: 1, completed: 1 });
      expect(question(january, 'nps').rating!.mean).toBe(9);
      expect(question(january, 'experience').quotes.map((quote) => quote.sessionId)).toEqual([s.s1!.sessionId]);
      expect(question(dutch, 'experience').quotes.map((quote) => quote.sessionId)).toEqual([s.s3!.sessionId]);
      const page = await client.campaignResults.sessions.query({ campaignId: campaign.id, filter: { language: 'nl-BE' } });
      expect(page.data.map((row) => row.id)).toEqual([s.s3!.sessionId]);
    } finally {
      await sql(`update sessions set language = 'en' where id = ?`, [s.s3!.sessionId]);
      await sql(`update invites set language = null where id = ?`, [s.s3!.inviteId]);
      await sql(`update sessions set created_at = now() - interval '1 hour' where id = ?`, [s.s1!.sessionId]);
    }
  });

  it('lists the filtered sessions, newest first, with their segment values and paging', async () => {
    const all = await client.campaignResults.sessions.query({ campaignId: campaign.id, limit: 2 });
    expect(all.pagination).toEqual({ total: 5, limit: 2, offset: 0, hasMore: true, nextCursor: null });
    const beta = await client.campaignResults.sessions.query({ campaignId: campaign.id, filter: { segment: { cohort: 'beta' } }, limit: 10 });
    expect(beta.pagination.total).toBe(3);
    expect(new Set(beta.data.map((row) => row.id))).toEqual(new Set([s.s1!.sessionId, s.s2!.sessionId, s.s5!.sessionId]));
    const first = beta.data.find((row) => row.id === s.s1!.sessionId)!;
    expect(first).toMatchObject({
      participant: 'Beatrice Beta',
      status: 'completed',
      completionStatus: 'completed',
      language: 'en',
      segment: { cohort: 'beta', plan: 'pro' },
    });
    expect(first.startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(typeof first.duration).toBe('number');
    expect(beta.data.find((row) => row.id === s.s5!.sessionId)).toMatchObject({ status: 'in_progress', completionStatus: null });
    const past = await client.campaignResults.sessions.query({ campaignId: campaign.id, offset: 10 });
    expect(past).toEqual({ data: [], pagination: { total: 5, limit: 20, offset: 10, hasMore: false, nextCursor: null } });
  });

  it('takes question texts from the newest script version and counts older answers by question id', async () => {
    const renamed = QUESTIONS.map((question) =>
      question.id === 'nps' ? { ...question, text: 'From 0 to 10, how likely are you to recommend us?' } : question,
    );
    await api.patch(`/v1/scripts/${campaign.scriptId}`, { questions: renamed }).expect(200);
    await api.post(`/v1/scripts/${campaign.scriptId}/publish`).expect(200);
    const results = await client.campaignResults.get.query({ campaignId: campaign.id });
    expect(question(results, 'nps')).toMatchObject({ questionId: 'nps', text: 'From 0 to 10, how likely are you to recommend us?', answered: 4 });
  });

  it('reads the results in a handful of statements, whatever the number of sessions', async () => {
    const knex = t.runtime.orm.em.getConnection().getKnex();
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    knex.on('query', record);
    try {
      await client.campaignResults.get.query({ campaignId: campaign.id, filter: { segment: { cohort: 'beta' }, language: 'en' } });
    } finally {
      knex.off('query', record);
    }
    // The funnel, the answers, the open answers and the feedback: one each.
    expect(statements.filter((text) => /\bsessions s\b/.test(text))).toHaveLength(5);
    // Every value bound: the segment's words never appear in the SQL text.
    expect(statements.some((text) => text.includes('beta'))).toBe(false);
  });

  it("quotes the newest 5 sessions' answers to an open question, each session's longest (a probe's reply, not its \"ok\")", async () => {
    const script = await createPublishedScript(api, {
      questions: [{ id: 'week', text: 'How did your first week go?', type: 'open', followUp: { depth: 'medium' } }],
    });
    const probed = await createCampaign(api, { scriptId: script.id });
    const sessions: string[] = [];
    for (let n = 1; n <= 6; n++) {
      // "ok" draws a follow-up; the reply to it is the answer worth quoting.
      const { sessionId, participant } = await answeredInvite(t, api, probed.id, ['ok']);
      let state = (await participant.answer(`The import failed, so I gave up after ${n} tries and asked a colleague.`).expect(200)).body;
      while (state.turn !== null) state = (await participant.answer('That is all, thank you.').expect(200)).body;
      sessions.push(sessionId);
    }
    const [{ answers }] = (await sql(
      `select count(*)::int as answers from session_utterances where session_id = ? and kind = 'answer' and question_id = 'week'`,
      [sessions[5]],
    )) as [{ answers: number }];
    expect(answers).toBeGreaterThanOrEqual(2);
    const results = await client.campaignResults.get.query({ campaignId: probed.id });
    const week = question(results, 'week');
    expect(week).toMatchObject({ type: 'open', answered: 6, unreadable: 0, counts: [], rating: null });
    expect(week.quotes.map((quote) => [quote.sessionId, quote.text])).toEqual(
      [6, 5, 4, 3, 2].map((n) => [sessions[n - 1], `The import failed, so I gave up after ${n} tries and asked a colleague.`]),
    );
    const [row] = await sql(`select session_id, speaker, kind, question_id from session_utterances where id = ?`, [week.quotes[0]!.utteranceId]);
    expect(row).toEqual({ session_id: sessions[5], speaker: 'participant', kind: 'answer', question_id: 'week' });
  });

  it('answers 404 RESOURCE_NOT_FOUND for a campaign of another organization, and for a preview campaign', async () => {
    const stranger = await t.createTenant();
    const foreign = await createCampaign(apiAs(t.http, stranger));
    const failure = await trpcFailure(client.campaignResults.get.query({ campaignId: foreign.id }));
    expect(failure).toMatchObject({ httpStatus: 404, appCode: 'RESOURCE_NOT_FOUND' });
    expect(failure.details.fields).toEqual([{ path: 'campaignId', message: 'no campaign with this id' }]);
    const listed = await trpcFailure(client.campaignResults.sessions.query({ campaignId: foreign.id }));
    expect(listed).toMatchObject({ httpStatus: 404, appCode: 'RESOURCE_NOT_FOUND' });
    // The stranger sees nothing of ours either.
    const theirs = await trpcFailure(t.clientOf(stranger).campaignResults.get.query({ campaignId: campaign.id }));
    expect(theirs).toMatchObject({ httpStatus: 404 });

    const hidden = await createCampaign(api, { scriptId: campaign.scriptId });
    await sql(`update campaigns set preview = true where id = ?`, [hidden.id]);
    expect(await trpcFailure(client.campaignResults.get.query({ campaignId: hidden.id }))).toMatchObject({ httpStatus: 404, appCode: 'RESOURCE_NOT_FOUND' });
  });

  it('answers 403 to a key without sessions:read', async () => {
    const key = await t.createKey(tenant.organizationId, ['campaigns:read', 'invites:read']);
    expect(await trpcFailure(t.clientOf(key).campaignResults.get.query({ campaignId: campaign.id }))).toMatchObject({
      httpStatus: 403,
      appCode: 'INSUFFICIENT_PERMISSIONS',
    });
    expect(await trpcFailure(t.clientOf(key).campaignResults.sessions.query({ campaignId: campaign.id }))).toMatchObject({
      httpStatus: 403,
      appCode: 'INSUFFICIENT_PERMISSIONS',
    });
  });

  it('refuses bad filters with field paths: 400 for a missing campaign, 422 for a broken rule', async () => {
    const missing = await trpcFailure(client.campaignResults.get.query({} as { campaignId: string }));
    expect(missing).toMatchObject({ httpStatus: 400, appCode: 'INVALID_REQUEST' });
    expect(missing.details.fields).toEqual([{ path: 'campaignId', message: 'is required' }]);

    const backwards = await trpcFailure(
      client.campaignResults.get.query({ campaignId: campaign.id, filter: { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' } }),
    );
    expect(backwards).toMatchObject({ httpStatus: 422, appCode: 'VALIDATION_ERROR' });
    expect(backwards.details.fields).toEqual([{ path: 'filter.to', message: 'must be after from' }]);

    const bad = await trpcFailure(
      client.campaignResults.sessions.query({
        campaignId: campaign.id,
        filter: { completion: 'finished' as 'completed', from: 'yesterday', segment: { ['k'.repeat(41)]: 'x' }, colour: 'red' } as never,
        limit: 500,
      }),
    );
    expect(bad.httpStatus).toBeGreaterThanOrEqual(400);
    expect(bad.httpStatus).toBeLessThan(500);
    expect((bad.details.fields as { path: string }[]).map((field) => field.path).sort()).toEqual(
      ['filter.colour', 'filter.completion', 'filter.from', `filter.segment.${'k'.repeat(41)}`, 'limit'].sort(),
    );
  });
});
