import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../server/entities/index.js';
import { pauseSession } from '../../server/domains/sessions/pause-session.js';
import { resumeSession } from '../../server/domains/sessions/resume-session.js';
import { activeSecondsAt, durationAt, offsetAt, startClock, stopClock } from '../../server/domains/sessions/session-clock.js';
import { type Api, apiAs, createCampaign, createInvite, createPublishedScript, inviteRow } from '../helpers/factories.js';
import { interviewFixture, type Participant, participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';
import { inRolledBackTransaction } from '../helpers/transaction.js';

/**
 * The interview engine over HTTP, as a participant's browser and a customer's server use it:
 * the participant API with the invite token, the session lifecycle, the jobs that time out and
 * abandon sessions, and what the API reports afterwards.
 */
let t: TestApp;
let tenant: TestTenant;
let api: Api;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' });
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
});
afterAll(() => t?.close());

async function utterances(sessionId: string) {
  return t.em().execute<
    {
      speaker: string;
      kind: string;
      text: string | null;
      question_id: string | null;
      value: unknown;
      start_time: number;
      end_time: number;
      decided_by: string | null;
    }[]
  >(`select speaker, kind, text, question_id, value, start_time, end_time, decided_by from session_utterances where session_id = ? order by seq`, [sessionId]);
}

async function sessionRow(sessionId: string) {
  return sessionRowIn(t.em(), sessionId);
}

async function sessionRowIn(em: EntityManager, sessionId: string) {
  const [row] = await em.execute<Record<string, any>[]>(`select * from sessions where id = ?`, [sessionId]);
  return row!;
}

/** Makes a session's scheduled jobs due now, as if their moment had come. */
async function makeJobsDue(sessionId: string): Promise<void> {
  await t.em().execute(`update graphile_worker._private_jobs set run_at = now() where payload->>'sessionId' = ?`, [sessionId]);
}

async function jobsOf(sessionId: string): Promise<string[]> {
  const rows = await t
    .em()
    .execute<{ identifier: string }[]>(
      `select t.identifier from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where j.payload->>'sessionId' = ? order by t.identifier`,
      [sessionId],
    );
  return rows.map((row) => row.identifier);
}

describe('a whole interview by text', () => {
  it('asks every question in order, follows up on a vague answer, re-asks an unreadable rating once, parses the answers and completes', async () => {
    const { campaign, invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);

    const started = await participant
      .start({})
      .set('User-Agent', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15');
    expect(started.status).toBe(201);
    expect(started.body.session).toMatchObject({ status: 'in_progress', questionsAnswered: 0, totalQuestions: 4, language: 'en', consentRequired: false });
    expect(started.body.turn).toEqual({
      utteranceId: expect.stringMatching(/^utt_/),
      text: 'How was your first week with the product?',
      questionId: 'experience',
      kind: 'question',
      question: { type: 'open' },
      // Spoken by the server when it has speech synthesis (espeak-ng installed here, or TTS_BASE_URL).
      ...(t.runtime.services.synthesis.synthesizer ? { audioUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:3000\/files\//) } : {}),
    });
    const sessionId = started.body.session.id as string;

    const steps: [string, { kind: string; questionId: string } | null][] = [
      ['ok', { kind: 'follow_up', questionId: 'experience' }],
      ['The onboarding emails had broken links and setup took two days.', { kind: 'question', questionId: 'ease' }],
      ['banana', { kind: 're_ask', questionId: 'ease' }],
      ['I would say four out of five', { kind: 'question', questionId: 'recommend' }],
      ['not really', { kind: 'question', questionId: 'channel' }],
      ['the second one', null],
    ];
    let last;
    for (const [text, expected] of steps) {
      last = await participant.answer(text).expect(200);
      if (expected) expect(last.body.turn, text).toMatchObject(expected);
      else expect(last.body.turn).toBeNull();
    }
    expect(last!.body.session).toMatchObject({ status: 'completed', completionStatus: 'completed', questionsAnswered: 4 });
    expect(last!.body.closing).toMatch(/last question/);
    const reAsk = steps.findIndex(([text]) => text === 'banana');
    expect(reAsk).toBeGreaterThan(0);

    const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    expect(session).toMatchObject({
      id: sessionId,
      campaignId: campaign.id,
      inviteId: invite.id,
      scriptVersion: 1,
      status: 'completed',
      completionStatus: 'completed',
      participant: { email: expect.stringMatching(/@example\.com$/), name: 'Ada' },
      questionsAnswered: 4,
      totalQuestions: 4,
      device: { browser: 'Safari 17', os: expect.stringMatching(/^macOS/), type: 'desktop' },
      consent: null,
    });
    expect(session.answers.map((answer: { questionId: string; value: unknown }) => [answer.questionId, answer.value])).toEqual([
      ['ease', 4],
      ['recommend', false],
      ['channel', 'Phone call'],
    ]);

    const rows = await utterances(sessionId);
    expect(rows.map((row) => `${row.speaker}:${row.kind}:${row.question_id ?? '-'}`)).toEqual([
      'ai:question:experience',
      'participant:answer:experience',
      'ai:follow_up:experience',
      'participant:answer:experience',
      'ai:question:ease',
      'participant:answer:ease',
      'ai:re_ask:ease',
      'participant:answer:ease',
      'ai:question:recommend',
      'participant:answer:recommend',
      'ai:question:channel',
      'participant:answer:channel',
      'ai:closing:-',
    ]);
    // The unreadable answer carries null, the re-asked one the rating; times never run backwards.
    expect(rows[5]!.value).toBeNull();
    expect(rows[7]!.value).toBe(4);
    for (let i = 1; i < rows.length; i += 1) expect(rows[i]!.start_time).toBeGreaterThanOrEqual(rows[i - 1]!.start_time);
    expect(rows.every((row) => row.end_time >= row.start_time)).toBe(true);
    expect(rows.filter((row) => row.speaker === 'ai').every((row) => row.decided_by === 'engine' || row.decided_by === 'builtin')).toBe(true);

    expect((await inviteRow(t, invite.id)).status).toBe('completed');
    const stats = (await api.get(`/v1/campaigns/${campaign.id}`).expect(200)).body.stats;
    expect(stats).toMatchObject({ totalInvites: 1, completedSessions: 1 });
    // session.started is announced by a job of its own, beside the watching and the finishing ones.
    expect(await jobsOf(sessionId)).toEqual(['session__abandon_idle', 'session__announce_start', 'session__generate_transcript']);
  });

  it('a required structured answer unreadable twice is recorded as null and the interview moves on', async () => {
    const { invite } = await interviewFixture(api, {
      questions: [
        { id: 'score', text: 'From 1 to 5?', type: 'rating' },
        { id: 'why', text: 'Why?', type: 'open', followUp: { enabled: false } },
      ],
    });
    const participant = participantAs(t.http, invite.token);
    const { session } = (await participant.start().expect(201)).body;
    expect((await participant.answer('purple').expect(200)).body.turn.kind).toBe('re_ask');
    expect((await participant.answer('still purple').expect(200)).body.turn).toMatchObject({ kind: 'question', questionId: 'why' });
    await participant.answer('No reason.').expect(200);
    expect((await api.get(`/v1/sessions/${session.id}`).expect(200)).body.answers).toEqual([
      { questionId: 'score', value: null, utteranceId: expect.stringMatching(/^utt_/), confidence: null },
    ]);
  });

  it("the question's own follow-up prompt and limit win over the script's; enabled false means none", async () => {
    const { invite } = await interviewFixture(api, {
      scriptSettings: { maxFollowUps: 3 },
      questions: [
        { id: 'a', text: 'What do you think?', type: 'open', followUp: { maxFollowUps: 1, prompt: 'Could you give an example?' } },
        { id: 'b', text: 'Anything else?', type: 'open', followUp: { enabled: false } },
        { id: 'c', text: 'Last one?', type: 'open' },
      ],
    });
    const participant = participantAs(t.http, invite.token);
    await participant.start().expect(201);
    expect((await participant.answer('fine').expect(200)).body.turn).toMatchObject({ kind: 'follow_up', text: 'Could you give an example?' });
    // One follow-up allowed on a: even a vague reply moves on.
    expect((await participant.answer('dunno').expect(200)).body.turn).toMatchObject({ kind: 'question', questionId: 'b' });
    expect((await participant.answer('no').expect(200)).body.turn).toMatchObject({ kind: 'question', questionId: 'c' });
    // The script's maxFollowUps (3) applies to c: vague answers get follow-ups, each worded once.
    const first = (await participant.answer('meh').expect(200)).body.turn;
    const second = (await participant.answer('nothing').expect(200)).body.turn;
    expect(first.kind).toBe('follow_up');
    expect(second.kind).toBe('follow_up');
    expect(second.text).not.toBe(first.text);
  });

  it('follows the published version pinned at the start, even when a newer one is published during the interview', async () => {
    const script = await createPublishedScript(api, { questions: [{ id: 'one', text: 'Version one question?', type: 'open', followUp: { enabled: false } }] });
    const campaign = await createCampaign(api, { scriptId: script.id });
    const invite = await createInvite(api, campaign.id, { email: 'pinned@example.com', sendEmail: false });
    const participant = participantAs(t.http, invite.token);
    const started = (await participant.start().expect(201)).body;
    await api.post(`/v1/scripts/${script.id}/versions`, { questions: [{ id: 'two', text: 'Version two question?', type: 'open' }] }).expect(201);
    await api.post(`/v1/scripts/${script.id}/publish`).expect(200);
    const done = (await participant.answer('A clear and specific answer about version one.').expect(200)).body;
    expect(done.turn).toBeNull();
    expect((await api.get(`/v1/sessions/${started.session.id}`).expect(200)).body.scriptVersion).toBe(1);
  });
});

describe('the invite token', () => {
  it('reused on an unfinished session resumes it: 200, the same session, the same pending turn', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const first = (await participant.start().expect(201)).body;
    await participant.answer('ok').expect(200);
    const again = await participant.start().expect(200);
    expect(again.body.session.id).toBe(first.session.id);
    expect(again.body.turn).toMatchObject({ kind: 'follow_up', questionId: 'experience' });
  });

  it('after completion answers 409 INVITE_ALREADY_USED', async () => {
    const { invite } = await interviewFixture(api, { questions: [{ id: 'only', text: 'Only question?', type: 'yes_no' }] });
    const participant = participantAs(t.http, invite.token);
    await participant.start().expect(201);
    await participant.answer('yes').expect(200);
    const again = await participant.start();
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVITE_ALREADY_USED');
  });

  it('of an expired invite answers 409 INVITE_EXPIRED; cancelled or unknown answers 401 INVALID_INVITE_TOKEN', async () => {
    const { invite } = await interviewFixture(api);
    await t.em().execute(`update invites set expires_at = now() - interval '1 second' where id = ?`, [invite.id]);
    const expired = await participantAs(t.http, invite.token).start();
    expect(expired.status).toBe(409);
    expect(expired.body.error.code).toBe('INVITE_EXPIRED');

    const other = await interviewFixture(api);
    await api.post(`/v1/invites/${other.invite.id}/cancel`).expect(200);
    const cancelled = await participantAs(t.http, other.invite.token).start();
    expect(cancelled.status).toBe(401);
    expect(cancelled.body.error.code).toBe('INVALID_INVITE_TOKEN');

    const unknown = await participantAs(t.http, `inv_${'x'.repeat(43)}`).start();
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('INVALID_INVITE_TOKEN');
  });

  it('of a paused or archived campaign cannot start: 409 CAMPAIGN_NOT_ACTIVE', async () => {
    for (const action of ['pause', 'archive']) {
      const { campaign, invite } = await interviewFixture(api);
      await api.post(`/v1/campaigns/${campaign.id}/${action}`).expect(200);
      const response = await participantAs(t.http, invite.token).start();
      expect(response.status, action).toBe(409);
      expect(response.body.error.code).toBe('CAMPAIGN_NOT_ACTIVE');
    }
  });

  it('is the only credential of the participant API: an API key answers 401 there, and the token opens nothing else', async () => {
    const response = await api.post('/api/interview/start', {});
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('INVALID_INVITE_TOKEN');
    const { campaign, invite } = await interviewFixture(api);
    const asToken = (path: string) => t.http.get(path).set('Authorization', `Bearer ${invite.token}`);
    for (const path of [`/v1/campaigns/${campaign.id}`, '/v1/projects', `/v1/invites/${invite.id}`]) {
      const denied = await asToken(path);
      expect(denied.status, path).toBe(401);
      expect(denied.body.error.code).toBe('INVALID_API_KEY');
    }
  });

  it("acting on another participant's session is 404, as is another organization's key", async () => {
    const mine = await interviewFixture(api);
    const theirs = await interviewFixture(api);
    const mySession = (await participantAs(t.http, mine.invite.token).start().expect(201)).body.session.id;
    await participantAs(t.http, theirs.invite.token).pause(mySession).expect(404);
    const stranger = apiAs(t.http, await t.createTenant());
    await stranger.get(`/v1/sessions/${mySession}`).expect(404);
    await stranger.post(`/v1/sessions/${mySession}/pause`, {}).expect(404);
  });

  it('two starts racing on one token open one session', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const responses = await Promise.all(Array.from({ length: 6 }, () => participant.start()));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((response) => response.body.session.id)).size).toBe(1);
    const [row] = await t.em().execute<{ count: string }[]>(`select count(*) from sessions where invite_id = ?`, [invite.id]);
    expect(Number(row!.count)).toBe(1);
  });
});

describe('the session clock (session-clock.ts)', () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 9) + seconds * 1000);
  const clockOf = (fields: Partial<Session>) => ({ activeSeconds: 0, activeSince: null, startedAt: null, durationSeconds: null, ...fields }) as Session;

  it('counts seconds in progress only: a running stretch adds to what was folded in, a stopped clock stands still', () => {
    expect(activeSecondsAt(clockOf({ activeSeconds: 30, activeSince: at(0) }), at(12.5))).toBe(42.5);
    expect(durationAt(clockOf({ activeSeconds: 30, activeSince: at(0) }), at(12.5))).toBe(42);
    expect(activeSecondsAt(clockOf({ activeSeconds: 30 }), at(3600))).toBe(30);
    // A clock read before its own start (clock skew between processes) never runs backwards.
    expect(activeSecondsAt(clockOf({ activeSeconds: 30, activeSince: at(10) }), at(5))).toBe(30);
  });

  it('a stop folds the stretch in; a pause between stop and start is not counted; the first start sets startedAt once', () => {
    const session = clockOf({});
    startClock(session, at(0));
    expect(session).toMatchObject({ activeSince: at(0), startedAt: at(0), durationSeconds: 0 });
    stopClock(session, at(90.7));
    expect(session).toMatchObject({ activeSeconds: 90.7, activeSince: null, durationSeconds: 90 });
    startClock(session, at(3690.7));
    expect(session).toMatchObject({ activeSince: at(3690.7), startedAt: at(0), durationSeconds: 90 });
    expect(durationAt(session, at(3700))).toBe(100);
    // Starting a running clock again keeps the stretch it is in.
    startClock(session, at(3710));
    expect(session.activeSince).toEqual(at(3690.7));
  });

  it('utterance offsets run from the first question, pauses included, never negative', () => {
    expect(offsetAt(clockOf({}), at(50))).toBe(0);
    expect(offsetAt(clockOf({ startedAt: at(0) }), at(3650))).toBe(3650);
    expect(offsetAt(clockOf({ startedAt: at(10) }), at(0))).toBe(0);
  });
});

describe('session lifecycle', () => {
  async function inProgress(): Promise<{ participant: Participant; sessionId: string; inviteId: string }> {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    return { participant, sessionId, inviteId: invite.id };
  }

  it('pause records its reason and stops the answers; resume restarts; each in the wrong state is 409 SESSION_NOT_ACTIVE', async () => {
    const { participant, sessionId } = await inProgress();
    const paused = await participant.pause(sessionId, { reason: 'doorbell' }).expect(200);
    // The participant sees their own view of the session; the customer sees the reason recorded.
    expect(paused.body).toMatchObject({ id: sessionId, status: 'paused' });
    expect(paused.body.metadata).toBeUndefined();
    expect((await api.get(`/v1/sessions/${sessionId}`).expect(200)).body).toMatchObject({ status: 'paused', pauseReason: 'doorbell' });
    for (const response of [await participant.pause(sessionId), await participant.answer('hello there, a full answer')]) {
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('SESSION_NOT_ACTIVE');
    }
    expect((await participant.start().expect(200)).body.session.status).toBe('paused');
    // An API key with sessions:write may act on the lifecycle too.
    await api.post(`/v1/sessions/${sessionId}/resume`, {}).expect(200);
    const resumed = await participant.resume(sessionId);
    expect(resumed.status).toBe(409);
    expect(resumed.body.error.code).toBe('SESSION_NOT_ACTIVE');
    await participant.answer('A clear and detailed answer about my first week.').expect(200);
  });

  it('pause excludes the paused time from the duration (pauseSession and resumeSession in process, rolled back)', async () => {
    const { sessionId } = await inProgress();
    const customer = { kind: 'api_key', organizationId: tenant.organizationId } as const;
    await inRolledBackTransaction(t, async (em) => {
      await pauseSession({ em, services: t.runtime.services }, customer, { sessionId });
      expect((await sessionRowIn(em, sessionId)).active_since).toBeNull();
      // Half an hour in progress before the pause, then an hour paused: every clock column moves an
      // hour back, so a clock still running through the pause would add that hour.
      await em.execute(
        `update sessions set active_seconds = 1800, active_since = active_since - interval '1 hour', updated_at = updated_at - interval '1 hour' where id = ?`,
        [sessionId],
      );
      em.clear();
      const resumed = await resumeSession({ em, services: t.runtime.services }, customer, { sessionId });
      expect(resumed.duration).toBe(1800);
      expect((await sessionRowIn(em, sessionId)).active_since).not.toBeNull();
    });
    // Rolled back: the session is as the participant left it.
    expect((await sessionRow(sessionId)).status).toBe('in_progress');
  });

  it('heartbeat keeps an unfinished session alive and answers 409 once it is finished; end abandons it', async () => {
    const { participant, sessionId } = await inProgress();
    const before = new Date((await sessionRow(sessionId)).last_activity_at);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const beat = await participant.heartbeat(sessionId).expect(200);
    expect(beat.body.status).toBe('in_progress');
    expect(new Date((await sessionRow(sessionId)).last_activity_at).getTime()).toBeGreaterThan(before.getTime());
    const ended = await participant.end().expect(200);
    expect(ended.body.session).toMatchObject({ status: 'abandoned', completionStatus: 'abandoned' });
    const late = await participant.heartbeat(sessionId);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('SESSION_NOT_ACTIVE');
  });

  it('after abandonment the invite may start a new session', async () => {
    const { participant, sessionId, inviteId } = await inProgress();
    await participant.end().expect(200);
    const again = await participant.start().expect(201);
    expect(again.body.session.id).not.toBe(sessionId);
    expect((await inviteRow(t, inviteId)).status).toBe('started');
  });

  it('with requireConsent the session waits as created; consent granted begins it, and the next start returns the first question', async () => {
    const { invite } = await interviewFixture(api, { settings: { requireConsent: true } });
    const participant = participantAs(t.http, invite.token);
    const started = (await participant.start().expect(201)).body;
    expect(started.session).toMatchObject({ status: 'created', consentRequired: true, startedAt: null });
    expect(started.turn).toBeNull();
    const early = await participant.answer('an answer before consent');
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('SESSION_NOT_ACTIVE');

    const consented = await participant.consent(started.session.id, { granted: true, type: 'all' }).expect(200);
    expect(consented.body).toMatchObject({ status: 'in_progress', consent: { granted: true, type: 'all', grantedAt: expect.any(String) } });
    expect(consented.body.consent.ip).toBeUndefined();
    expect((await api.get(`/v1/sessions/${started.session.id}`).expect(200)).body.consent).toMatchObject({ granted: true, ip: expect.any(String) });
    const resumed = (await participant.start().expect(200)).body;
    expect(resumed.turn).toMatchObject({ kind: 'question', questionId: 'experience' });
    // A server recording consent on the participant's behalf gives their address.
    const other = await interviewFixture(api, { settings: { requireConsent: true } });
    const otherSession = (await participantAs(t.http, other.invite.token).start().expect(201)).body.session.id;
    const byKey = await api.post(`/v1/sessions/${otherSession}/consent`, { granted: true, type: 'data_processing', ip: '203.0.113.7' }).expect(200);
    expect(byKey.body.consent).toMatchObject({ granted: true, type: 'data_processing', ip: '203.0.113.7' });
  });

  it('consent refused abandons the session; consent on a finished one is 409', async () => {
    const { invite } = await interviewFixture(api, { settings: { requireConsent: true } });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id;
    const refused = await participant.consent(sessionId, { granted: false, type: 'recording' }).expect(200);
    expect(refused.body).toMatchObject({ status: 'abandoned', consent: { granted: false, type: 'recording' } });
    const late = await participant.consent(sessionId, { granted: true, type: 'all' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('SESSION_NOT_ACTIVE');
  });

  it('consent validates its body: type is required, ip must be an address', async () => {
    const { participant, sessionId } = await inProgress();
    const missing = await participant.consent(sessionId, { granted: true });
    expect(missing.status).toBe(400);
    const badIp = await participant.consent(sessionId, { granted: true, type: 'all', ip: 'not-an-ip' });
    expect(badIp.status).toBe(422);
    expect(badIp.body.error.details.fields[0].path).toBe('ip');
  });

  it('a campaign with an interview under way cannot be deleted: 409 CAMPAIGN_HAS_ACTIVE_SESSIONS; once it ended it can', async () => {
    const { campaign, invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    await participant.start().expect(201);
    const refused = await api.delete(`/v1/campaigns/${campaign.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CAMPAIGN_HAS_ACTIVE_SESSIONS');
    await participant.end().expect(200);
    await api.delete(`/v1/campaigns/${campaign.id}`).expect(204);
  });
});

describe('jobs', () => {
  it('maxDuration: the timeout job completes the session as timed_out once its time in progress is used up, and consumes the invite', async () => {
    const { invite } = await interviewFixture(api, { settings: { maxDuration: 60 } });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    expect(await jobsOf(sessionId)).toEqual(['session__abandon_idle', 'session__announce_start', 'session__time_out']);

    // Not yet used up (paused for a while): the job re-arms itself for the time left.
    await t.em().execute(`update sessions set active_since = now() - interval '30 seconds' where id = ?`, [sessionId]);
    await makeJobsDue(sessionId);
    await runJobsOnce(t, { tasks: ['session__time_out'] });
    expect((await sessionRow(sessionId)).status).toBe('in_progress');
    const [rearmed] = await t
      .em()
      .execute<{ seconds: number }[]>(`select extract(epoch from run_at - now()) as seconds from graphile_worker._private_jobs where key = ?`, [
        `session-timeout:${sessionId}`,
      ]);
    expect(Number(rearmed!.seconds)).toBeGreaterThan(20);
    expect(Number(rearmed!.seconds)).toBeLessThanOrEqual(31);

    await t.em().execute(`update sessions set active_since = now() - interval '61 seconds' where id = ?`, [sessionId]);
    await makeJobsDue(sessionId);
    await runJobsOnce(t, { tasks: ['session__time_out'] });
    const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    expect(session).toMatchObject({ status: 'completed', completionStatus: 'timed_out' });
    expect(session.duration).toBeGreaterThanOrEqual(61);
    expect((await inviteRow(t, invite.id)).status).toBe('completed');
    expect(await jobsOf(sessionId)).toContain('session__generate_transcript');
    const late = await participant.answer('too late');
    expect(late.status).toBe(409);
  });

  it('an answer that comes after maxDuration is recorded and completes the session as timed_out', async () => {
    const { invite } = await interviewFixture(api, { settings: { maxDuration: 60 } });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    await t.em().execute(`update sessions set active_since = now() - interval '65 seconds' where id = ?`, [sessionId]);
    const answered = await participant.answer('My first week was fine but the docs were thin.').expect(200);
    expect(answered.body).toMatchObject({ turn: null, session: { status: 'completed', completionStatus: 'timed_out' } });
    expect((await utterances(sessionId)).filter((row) => row.speaker === 'participant')).toHaveLength(1);
  });

  it('idleness: without a heartbeat or answer for SESSION_ABANDON_AFTER the session is abandoned; activity re-arms the watch', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    // Activity a moment ago: not idle yet, the job waits for the new deadline.
    await makeJobsDue(sessionId);
    await runJobsOnce(t, { tasks: ['session__abandon_idle'] });
    expect((await sessionRow(sessionId)).status).toBe('in_progress');

    await t.em().execute(`update sessions set last_activity_at = now() - interval '601 seconds' where id = ?`, [sessionId]);
    await makeJobsDue(sessionId);
    await runJobsOnce(t, { tasks: ['session__abandon_idle'] });
    const session = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    expect(session).toMatchObject({ status: 'abandoned', completionStatus: 'abandoned' });
    expect((await inviteRow(t, invite.id)).status).toBe('started');
  });

  it('a paused session is not abandoned for idleness', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    await participant.pause(sessionId).expect(200);
    await t.em().execute(`update sessions set last_activity_at = now() - interval '2 hours' where id = ?`, [sessionId]);
    await makeJobsDue(sessionId);
    await runJobsOnce(t, { tasks: ['session__abandon_idle'] });
    expect((await sessionRow(sessionId)).status).toBe('paused');
  });

  it('after finishing, the transcript, insights, recordings, then the announcement and the exports run in that order, once each', async () => {
    const { invite } = await interviewFixture(api, { questions: [{ id: 'only', text: 'Only question?', type: 'yes_no' }] });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    await participant.answer('yes').expect(200);
    await runJobsOnce(t, { tasks: ['session__generate_transcript'] });
    let row = await sessionRow(sessionId);
    expect(row.transcript_generated_at).not.toBeNull();
    expect(row.insights_generated_at).toBeNull();
    await runJobsOnce(t, { tasks: ['session__generate_insights', 'session__announce_completion'] });
    row = await sessionRow(sessionId);
    expect(row.insights_generated_at).not.toBeNull();
    // The announcement waits for the session's files.
    expect(row.completion_announced_at).toBeNull();
    await runJobsOnce(t, { tasks: ['session__prepare_files'] });
    row = await sessionRow(sessionId);
    expect(row.files_prepared_at).not.toBeNull();
    expect(row.completion_announced_at).toBeNull();
    // The announcement does not wait for the exports (the PDF report): they are made beside it.
    await runJobsOnce(t, { tasks: ['session__announce_completion'] });
    row = await sessionRow(sessionId);
    expect(row.completion_announced_at).not.toBeNull();
    expect(row.exports_prepared_at).toBeNull();
    await runJobsOnce(t, { tasks: ['session__prepare_exports'] });
    row = await sessionRow(sessionId);
    expect(row.exports_prepared_at).not.toBeNull();
    // A retried step finds its work done and adds nothing.
    await t.em().execute(`select graphile_worker.add_job('session__generate_transcript', json_build_object('sessionId', ?::text))`, [sessionId]);
    await runJobsOnce(t);
    expect((await sessionRow(sessionId)).insights_generated_at).toEqual(row.insights_generated_at);
  });
});

describe('reading sessions', () => {
  it('lists a campaign’s sessions with status, time range and sort, sessions without a value last', async () => {
    const script = await createPublishedScript(api, { questions: [{ id: 'only', text: 'Only question?', type: 'yes_no' }] });
    const campaign = await createCampaign(api, { scriptId: script.id });
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      const invite = await createInvite(api, campaign.id, { email: `${name}@example.com`, sendEmail: false });
      const participant = participantAs(t.http, invite.token);
      ids.push((await participant.start().expect(201)).body.session.id);
      if (name !== 'three') await participant.answer('yes').expect(200);
    }
    await t
      .em()
      .execute(`update sessions set active_seconds = case id when ? then 30 when ? then 90 else active_seconds end where id in (?, ?)`, [
        ids[0],
        ids[1],
        ids[0],
        ids[1],
      ]);

    const completed = (await api.get(`/v1/campaigns/${campaign.id}/sessions?status=completed`).expect(200)).body;
    expect(completed.pagination).toMatchObject({ total: 2, limit: 20, offset: 0, hasMore: false, nextCursor: null });
    const byDuration = (await api.get(`/v1/campaigns/${campaign.id}/sessions?sort=duration&order=desc`).expect(200)).body.data.map((s: { id: string }) => s.id);
    expect(byDuration.slice(0, 2)).toEqual([ids[1], ids[0]]);
    const byCompletion = (await api.get(`/v1/campaigns/${campaign.id}/sessions?sort=completedAt&order=asc`).expect(200)).body.data.map(
      (s: { id: string }) => s.id,
    );
    expect(byCompletion).toEqual([ids[0], ids[1], ids[2]]);
    const future = (await api.get(`/v1/campaigns/${campaign.id}/sessions?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`).expect(200))
      .body;
    expect(future.pagination.total).toBe(0);
    const bad = await api.get(`/v1/campaigns/${campaign.id}/sessions?status=done`);
    expect(bad.status).toBe(400);
    await api.get('/v1/campaigns/cam_missing/sessions').expect(404);
  });

  it('session reads need sessions:read; lifecycle actions sessions:write', async () => {
    const { invite } = await interviewFixture(api);
    const sessionId = (await participantAs(t.http, invite.token).start().expect(201)).body.session.id;
    const readOnly = apiAs(t.http, await t.createKey(tenant.organizationId, ['sessions:read']));
    await readOnly.get(`/v1/sessions/${sessionId}`).expect(200);
    const denied = await readOnly.post(`/v1/sessions/${sessionId}/pause`, {});
    expect(denied.status).toBe(403);
    expect(denied.body.error.details).toEqual({ required: 'sessions:write' });
  });
});

describe('feedback', () => {
  it('is taken once after the interview: 201 the first time, 409 FEEDBACK_ALREADY_SUBMITTED after; before the end 409', async () => {
    const { invite } = await interviewFixture(api, { questions: [{ id: 'only', text: 'Only question?', type: 'yes_no' }] });
    const participant = participantAs(t.http, invite.token);
    await participant.start().expect(201);
    const early = await participant.feedback({ overall_rating: 5 });
    expect(early.status).toBe(409);
    await participant.answer('yes').expect(200);
    const given = await participant.feedback({ overall_rating: 5, comments: 'Smooth.', would_recommend: true }).expect(201);
    expect(given.body.feedback).toMatchObject({
      id: expect.stringMatching(/^fbk_/),
      overall_rating: 5,
      ease_of_use_rating: null,
      comments: 'Smooth.',
      would_recommend: true,
      submitted_at: expect.any(String),
    });
    const again = await participant.feedback({ overall_rating: 1 });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('FEEDBACK_ALREADY_SUBMITTED');
    const invalid = await participant.feedback({ overall_rating: 6 });
    expect(invalid.status).toBe(422);
  });
});

describe('Idempotency-Key on the participant API', () => {
  it('a retried answer is replayed, never taken as the answer to the next question', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id;
    const first = await participant.answer('The onboarding emails had broken links in them.').set('Idempotency-Key', 'answer-1').expect(200);
    const retry = await participant.answer('The onboarding emails had broken links in them.').set('Idempotency-Key', 'answer-1').expect(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect((await utterances(sessionId)).filter((row) => row.speaker === 'participant')).toHaveLength(1);
  });
});

describe('edges of the interview', () => {
  it('an invite whose session was abandoned cannot start again on a paused or archived campaign', async () => {
    const { campaign, invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    await participant.start().expect(201);
    await participant.end().expect(200);
    await api.post(`/v1/campaigns/${campaign.id}/pause`).expect(200);
    const paused = await participant.start();
    expect(paused.status).toBe(409);
    expect(paused.body.error.code).toBe('CAMPAIGN_NOT_ACTIVE');
  });

  it('a paused session left alone for SESSION_PAUSED_ABANDON_AFTER is abandoned, its hold released', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    await participant.pause(sessionId).expect(200);
    await t.em().execute(`update sessions set last_activity_at = now() - interval '25 hours' where id = ?`, [sessionId]);
    await makeJobsDue(sessionId);
    await runJobsOnce(t, { tasks: ['session__abandon_idle'] });
    expect(await sessionRow(sessionId)).toMatchObject({ status: 'abandoned', hold_credits: '0.0000' });
  });

  it('cancelling a started invite abandons its interview under way and releases its hold', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    await api.post(`/v1/invites/${invite.id}/cancel`).expect(200);
    expect(await sessionRow(sessionId)).toMatchObject({ status: 'abandoned', completion_status: 'abandoned', hold_credits: '0.0000' });
    expect((await participant.answer('too late')).status).toBe(401);
  });

  it('text PostgreSQL cannot store is refused with 422 naming the field, on every participant call', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const start = await participant.start({ device: { browser: 'a\u0000', os: 'x', type: 'desktop' } });
    expect(start.status).toBe(422);
    expect(start.body.error.details.fields).toEqual([{ path: 'device.browser', message: expect.stringContaining('NUL') }]);
    await participant.start().expect(201);
    const answer = await participant.answer('hello\u0000world');
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.fields[0].path).toBe('text');
  });

  it("an answer naming another turn than the pending one (a late retry) is 409 TURN_ALREADY_ANSWERED, not the next question's answer", async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const first = (await participant.start().expect(201)).body.turn.utteranceId as string;
    await participant.answer('The onboarding emails had broken links in them.', { utteranceId: first }).expect(200);
    const retry = await participant.answer('The onboarding emails had broken links in them.', { utteranceId: first });
    expect(retry.status).toBe(409);
    expect(retry.body.error.code).toBe('TURN_ALREADY_ANSWERED');
  });

  it('utterance times never run backwards, whatever offsets the client sends', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    await t.em().execute(`update sessions set started_at = started_at - interval '10 seconds' where id = ?`, [sessionId]);
    await t.em().execute(`update session_utterances set start_time = 2, end_time = 5 where session_id = ?`, [sessionId]);
    await participant.answer('The onboarding emails had broken links in them.', { startTime: 0, endTime: 14 }).expect(200);
    const rows = await utterances(sessionId);
    for (let i = 1; i < rows.length; i += 1) expect(rows[i]!.start_time, JSON.stringify(rows)).toBeGreaterThanOrEqual(rows[i - 1]!.start_time);
    expect(rows[1]!.start_time).toBe(2);
    expect(rows[2]!.start_time).toBeGreaterThanOrEqual(rows[1]!.end_time);
  });

  it('answers sent back to back (faster than the question could be said) still last a while: never startTime == endTime, never after now', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    // An answer that leaves nothing open: a probe would take the next answer and the session would not complete.
    for (const answer of ['Mostly the weekly reports and the team calendar.', '4', 'yes', 'Email']) await participant.answer(answer).expect(200);
    const rows = await utterances(sessionId);
    const session = await sessionRow(sessionId);
    const sessionEnd = (new Date(session.completed_at).getTime() - new Date(session.started_at).getTime()) / 1000;
    const answers = rows.filter((row) => row.speaker === 'participant');
    expect(answers).toHaveLength(4);
    for (const [index, answer] of answers.entries()) {
      const question = rows[rows.indexOf(answer) - 1]!;
      expect(answer.end_time, JSON.stringify(rows)).toBeGreaterThan(answer.start_time);
      expect(answer.start_time, `answer ${index}`).toBeGreaterThanOrEqual(question.start_time);
      // Seconds from the session's start: an answer cannot end after the session did.
      expect(answer.end_time, `answer ${index}`).toBeLessThanOrEqual(sessionEnd + 0.001);
    }
  });

  it('feedback is for completed interviews only, not abandoned ones', async () => {
    const { invite } = await interviewFixture(api);
    const participant = participantAs(t.http, invite.token);
    await participant.start().expect(201);
    await participant.end().expect(200);
    const response = await participant.feedback({ overall_rating: 3 });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('SESSION_NOT_ACTIVE');
  });
});
