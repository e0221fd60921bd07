import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLANS } from '../../shared/plans.js';
import { recordInterviewStart } from '../../server/domains/sessions/queries.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { FOUR_QUESTIONS, interviewFixture, PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { statementsDuring } from '../helpers/statements.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * How a start is written: a pending invite's first interview in one statement that applies only
 * if everything it was read with is unchanged (the campaign, the invite, the published version,
 * the plan, the credits); every other start, and one whose invite or campaign changed meanwhile,
 * through the locked transaction, which says what happened.
 */
let t: TestApp;
let api: Api;
let organizationId: string;
/** The tenant's plan (enterprise) holds this much for a starting session. */
const HOLD = PLANS.enterprise.pricePerMinuteCredits;

beforeAll(async () => {
  t = await startTestApp(PARTICIPANT_BUDGET);
  const tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  organizationId = tenant.organizationId;
});
afterAll(() => t?.close());
afterEach(() => vi.restoreAllMocks());

/** A column's instant as the session's creation, give or take the request (the locked start takes `new Date()` more than once). */
const near = (column: string, to = 'created_at') => `abs(extract(epoch from ${column} - ${to})) < 1 as ${column}_with_creation`;

const SESSION_COLUMNS = `status, completion_status, preview, language, voice, participant_email, participant_name, device, metadata, consent_required,
  consent, pause_reason, ${near('started_at')}, ${near('active_since')}, ${near('last_activity_at')}, ${near('updated_at')}, completed_at, active_seconds,
  duration_seconds, max_duration_seconds, total_questions, questions_answered, answers, question_index, pending, follow_ups_asked, re_asked,
  next_seq, hold_credits, billing, script_version, pending_utterance_id = (select id from session_utterances u where u.session_id = s.id and u.seq = 0) as pending_is_first`;

/** What a start wrote: the session, its first turn, its invite and its jobs (ids and instants left out, their relations kept). */
async function startWritten(sessionId: string) {
  const [session] = await t.em().execute<Record<string, unknown>[]>(`select ${SESSION_COLUMNS} from sessions s where id = ?`, [sessionId]);
  const turns = await t.em().execute(
    `select seq, speaker, kind, text, question_id, value, start_time, end_time, confidence, audio_file_id, decided_by, probe, search_language,
              abs(extract(epoch from created_at - (select created_at from sessions where id = ?))) < 1 as created_with_session
         from session_utterances where session_id = ? order by seq`,
    [sessionId, sessionId],
  );
  const [invite] = await t
    .em()
    .execute(
      `select i.status, abs(extract(epoch from i.started_at - s.created_at)) < 1 as started_with_session from invites i join sessions s on s.invite_id = i.id where s.id = ?`,
      [sessionId],
    );
  const jobs = await t.em().execute(
    `select tk.identifier as task_identifier, j.key like '%' || s.id as keyed_by_session, round(extract(epoch from j.run_at - s.created_at)) as runs_after_seconds
       from graphile_worker._private_jobs j join graphile_worker._private_tasks tk on tk.id = j.task_id join sessions s on s.id = ?
      where j.payload->>'sessionId' = s.id order by tk.identifier`,
    [sessionId],
  );
  return { session, turns, invite, jobs };
}

async function creditsHeld(): Promise<number> {
  const [row] = await t.em().execute<{ credits_held: string }[]>(`select credits_held from organizations where id = ?`, [organizationId]);
  return Number(row!.credits_held);
}

describe('writing a start', () => {
  it("a pending invite's start is one statement, no transaction, and writes what the locked start writes", async () => {
    const settings = { maxDuration: 600, voice: 'alloy', language: 'en' };
    const { campaign } = await interviewFixture(api, { settings });
    const invite = async () => (await api.post(`/v1/campaigns/${campaign.id}/invites`).send({ email: 'ada@example.com', name: 'Ada', sendEmail: false })).body;
    const device = { type: 'desktop', browser: 'Chromium', os: 'Linux' };

    const first = await invite();
    const held = await creditsHeld();
    let common: { body: { session: { id: string }; turn: { utteranceId: string } } } | undefined;
    const statements = await statementsDuring(t, async () => {
      common = await participantAs(t.http, first.token).start({ device }).expect(201);
    });
    // Authentication and the rate limit, the start's read, then one write.
    const writes = statements.filter((sql) => /^(with|insert|update|delete|begin|commit)/.test(sql) && !sql.includes('rate_limit_counters'));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toContain('insert into sessions');
    expect(statements.some((sql) => sql.startsWith('begin'))).toBe(false);
    expect(await creditsHeld()).toBe(held + HOLD);

    // The same start through the locked transaction (as when the one statement finds something changed).
    const second = await invite();
    vi.spyOn(recordInterviewStart, 'first').mockResolvedValueOnce(undefined);
    const locked = await participantAs(t.http, second.token).start({ device }).expect(201);

    const fast = await startWritten(common!.body.session.id);
    const slow = await startWritten(locked.body.session.id);
    expect(fast).toEqual(slow);
    expect(fast.session).toMatchObject({ status: 'in_progress', next_seq: 1, pending: 'question', pending_is_first: true });
    expect(fast.jobs.map((job) => [job.task_identifier, job.keyed_by_session, job.runs_after_seconds])).toEqual([
      ['session__abandon_idle', true, expect.any(String)],
      ['session__announce_start', true, '0'],
      ['session__time_out', true, '600'],
    ]);
    expect(common!.body).toMatchObject({
      session: { status: 'in_progress', questionsAnswered: 0, totalQuestions: FOUR_QUESTIONS.length },
      turn: { kind: 'question' },
    });
    const [pending] = await t
      .em()
      .execute<{ pending_utterance_id: string }[]>(`select pending_utterance_id from sessions where id = ?`, [common!.body.session.id]);
    expect(pending!.pending_utterance_id).toBe(common!.body.turn.utteranceId);
  });

  it('a campaign paused between the read and the write: the write applies nothing, and the locked start answers 409 CAMPAIGN_NOT_ACTIVE', async () => {
    const { campaign, invite } = await interviewFixture(api);
    const held = await creditsHeld();
    const write = recordInterviewStart.first.bind(recordInterviewStart);
    const spy = vi.spyOn(recordInterviewStart, 'first').mockImplementationOnce(async (em, params) => {
      await t.em().execute(`update campaigns set status = 'paused' where id = ?`, [campaign.id]);
      return write(em, params);
    });
    const refused = await participantAs(t.http, invite.token).start().expect(409);
    expect(refused.body.error.code).toBe('CAMPAIGN_NOT_ACTIVE');
    expect(spy).toHaveBeenCalledTimes(1);
    const [row] = await t
      .em()
      .execute<{ status: string; sessions: string }[]>(
        `select status, (select count(*) from sessions where invite_id = i.id) as sessions from invites i where id = ?`,
        [invite.id],
      );
    expect(row).toEqual({ status: 'pending', sessions: '0' });
    expect(await creditsHeld()).toBe(held);
  });

  it('credits spent between the read and the write: 402 INSUFFICIENT_CREDITS, the invite still pending, nothing held', async () => {
    const { invite } = await interviewFixture(api);
    const [before] = await t
      .em()
      .execute<{ credit_balance: string; credits_held: string }[]>(`select credit_balance, credits_held from organizations where id = ?`, [organizationId]);
    const write = recordInterviewStart.first.bind(recordInterviewStart);
    vi.spyOn(recordInterviewStart, 'first').mockImplementationOnce(async (em, params) => {
      await t.em().execute(`update organizations set credit_balance = credits_held where id = ?`, [organizationId]);
      return write(em, params);
    });
    try {
      const refused = await participantAs(t.http, invite.token).start().expect(402);
      expect(refused.body.error.code).toBe('INSUFFICIENT_CREDITS');
      const [row] = await t.em().execute<{ status: string }[]>(`select status from invites where id = ?`, [invite.id]);
      expect(row!.status).toBe('pending');
      expect(await creditsHeld()).toBe(Number(before!.credits_held));
    } finally {
      await t.em().execute(`update organizations set credit_balance = ? where id = ?`, [before!.credit_balance, organizationId]);
    }
  });

  it('the invite renamed between the read and the write: the session takes the name it has then (the locked start)', async () => {
    const { invite } = await interviewFixture(api);
    const write = recordInterviewStart.first.bind(recordInterviewStart);
    vi.spyOn(recordInterviewStart, 'first').mockImplementationOnce(async (em, params) => {
      await t.em().execute(`update invites set name = 'Grace', updated_at = now() where id = ?`, [invite.id]);
      return write(em, params);
    });
    const started = await participantAs(t.http, invite.token).start().expect(201);
    const [row] = await t.em().execute<{ participant_name: string }[]>(`select participant_name from sessions where id = ?`, [started.body.session.id]);
    expect(row!.participant_name).toBe('Grace');
  });

  it("the campaign switched to another script between the read and the write: the session runs the campaign's script as it is then", async () => {
    const { campaign, invite } = await interviewFixture(api);
    const other = (
      await api
        .post('/v1/scripts')
        .send({ name: 'Another script', systemPrompt: 'You interview customers.', questions: [{ id: 'other', text: 'What else?', type: 'open' }] })
        .expect(201)
    ).body;
    await api.post(`/v1/scripts/${other.id}/publish`).expect(200);
    const write = recordInterviewStart.first.bind(recordInterviewStart);
    vi.spyOn(recordInterviewStart, 'first').mockImplementationOnce(async (em, params) => {
      await t.em().execute(`update campaigns set script_id = ? where id = ?`, [other.id, campaign.id]);
      return write(em, params);
    });
    const started = await participantAs(t.http, invite.token).start().expect(201);
    expect(started.body.turn).toMatchObject({ questionId: 'other', text: 'What else?' });
    const [row] = await t.em().execute<{ script_id: string }[]>(`select script_id from sessions where id = ?`, [started.body.session.id]);
    expect(row!.script_id).toBe(other.id);
  });

  it('ten starts of one invite at once: one session, created once (201), resumed by the others (200), one hold', async () => {
    const { invite } = await interviewFixture(api);
    const held = await creditsHeld();
    const participant = participantAs(t.http, invite.token);
    const responses = await Promise.all(Array.from({ length: 10 }, () => participant.start()));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((response) => response.body.session.id)).size).toBe(1);
    const [row] = await t.em().execute<{ sessions: string }[]>(`select count(*) as sessions from sessions where invite_id = ?`, [invite.id]);
    expect(row!.sessions).toBe('1');
    expect(await creditsHeld()).toBe(held + HOLD);
  });
});
