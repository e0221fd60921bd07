import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ParticipantAuth } from '../../server/domains/common/caller.js';
import { commitAnswer, prepareAnswer } from '../../server/domains/sessions/answer-interview.js';
import { recordAnswerTurn } from '../../server/domains/sessions/queries.js';
import { PLANS } from '../../shared/plans.js';
import { AppError } from '../../server/errors.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { FOUR_QUESTIONS, interviewFixture, letTimePass, PARTICIPANT_BUDGET, participantAs, withoutFollowUps } from '../helpers/interviews.js';
import { statementsDuring } from '../helpers/statements.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * How an answer is written: the common turn (an answer that leads to the next AI turn) in one
 * statement that applies only if the session is still as the answer was prepared with it; every
 * other turn, and a session that moved on meanwhile, through the locked transaction.
 */
let t: TestApp;
let api: Api;

beforeAll(async () => {
  t = await startTestApp(PARTICIPANT_BUDGET);
  api = apiAs(t.http, await t.createTenant());
});
afterAll(() => t?.close());
afterEach(() => vi.restoreAllMocks());

async function startedInterview() {
  const { invite } = await interviewFixture(api, { questions: withoutFollowUps(FOUR_QUESTIONS) });
  const participant = participantAs(t.http, invite.token);
  const started = (await participant.start().expect(201)).body;
  const auth: ParticipantAuth = { kind: 'participant', organizationId: await organizationOf(started.session.id), inviteId: invite.id, livemode: true };
  return { participant, sessionId: started.session.id as string, firstTurn: started.turn.utteranceId as string, auth };
}

async function organizationOf(sessionId: string): Promise<string> {
  const [row] = await t.em().execute<{ organization_id: string }[]>(`select organization_id from sessions where id = ?`, [sessionId]);
  return row!.organization_id;
}

async function turnsOf(sessionId: string) {
  return t
    .em()
    .execute<{ seq: number; speaker: string; kind: string; text: string | null; question_id: string | null; value: unknown }[]>(
      `select seq, speaker, kind, text, question_id, value from session_utterances where session_id = ? order by seq`,
      [sessionId],
    );
}

async function sessionOf(sessionId: string) {
  const [row] = await t.em().execute<
    {
      next_seq: number;
      pending: string | null;
      pending_utterance_id: string | null;
      questions_answered: number;
      answers: { questionId: string; value: unknown; utteranceId: string }[];
      duration_seconds: number;
      status: string;
    }[]
  >(`select next_seq, pending, pending_utterance_id, questions_answered, answers, duration_seconds, status from sessions where id = ?`, [sessionId]);
  return row!;
}

const services = () => t.runtime.services;

describe('writing an answer', () => {
  it('an answer that leads to the next question is one statement, no transaction; the closing answer is the same statement, in a transaction with its bill', async () => {
    const { participant, sessionId } = await startedInterview();
    let state: { turn: { utteranceId: string; questionId: string } } | undefined;
    const common = await statementsDuring(t, async () => {
      state = (await participant.answer('The first week went well, the reports were clear.').expect(200)).body;
    });
    // Authentication, rate limit and the answer's context are reads; then one write.
    const writes = common.filter((sql) => /^(with|insert|update|delete|begin|commit)/.test(sql) && !sql.includes('rate_limit_counters'));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toContain('update sessions');
    expect(writes[0]).toContain('insert into session_utterances');
    expect(common.some((sql) => sql.startsWith('begin'))).toBe(false);

    // What it wrote: the answer and the next question, the session moved on to it.
    const turns = await turnsOf(sessionId);
    expect(turns.map((turn) => [turn.seq, turn.speaker, turn.kind, turn.question_id])).toEqual([
      [0, 'ai', 'question', 'experience'],
      [1, 'participant', 'answer', 'experience'],
      [2, 'ai', 'question', 'ease'],
    ]);
    const session = await sessionOf(sessionId);
    expect(session).toMatchObject({
      next_seq: 3,
      pending: 'question',
      pending_utterance_id: state!.turn.utteranceId,
      questions_answered: 1,
      status: 'in_progress',
    });
    expect(state!.turn.questionId).toBe('ease');

    // A rating's value is the session's parsed answer, pointing at its utterance.
    await participant.answer('four out of five').expect(200);
    const rated = await sessionOf(sessionId);
    const [, , , answerRow] = await t.em().execute<{ id: string }[]>(`select id from session_utterances where session_id = ? order by seq`, [sessionId]);
    expect(rated.answers).toEqual([{ questionId: 'ease', value: 4, utteranceId: answerRow!.id, confidence: expect.any(Number) }]);

    // The closing answer: the same statement, completing the session, in a transaction with its bill; no row read through the ORM.
    await participant.answer('yes').expect(200);
    const closing = await statementsDuring(t, () => participant.answer('Email').expect(200));
    expect(closing.filter((sql) => /update sessions s\s+set/.test(sql))).toHaveLength(1);
    expect(closing.some((sql) => sql.includes('for update'))).toBe(false);
    expect((await sessionOf(sessionId)).status).toBe('completed');
  });

  it('the closing answer written in one statement completes, bills and queues exactly what the locked closing does', async () => {
    // A paid plan whose free minutes this month are used up, so each interview is charged.
    const tenant = await t.createTenant({ plan: 'starter' });
    const paid = apiAs(t.http, tenant);
    const period = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
    await t
      .em()
      .execute(`insert into billing_usage (organization_id, period_start, minutes, free_minutes_used, sessions) values (?, ?, 60, ?, 1)`, [
        tenant.organizationId,
        period,
        PLANS.starter.freeMinutesPerMonth,
      ]);
    const organization = async () =>
      (
        await t
          .em()
          .execute<{ credit_balance: string; credits_held: string }[]>(`select credit_balance, credits_held from organizations where id = ?`, [
            tenant.organizationId,
          ])
      )[0]!;
    const before = await organization();

    const { campaign } = await interviewFixture(paid, { questions: withoutFollowUps(FOUR_QUESTIONS) });
    const interviewToClosing = async () => {
      const invite = (await paid.post(`/v1/campaigns/${campaign.id}/invites`).send({ email: 'ada@example.com', sendEmail: false })).body;
      const participant = participantAs(t.http, invite.token);
      const started = (await participant.start().expect(201)).body;
      for (const text of ['The first week went well, the reports were clear.', 'four out of five', 'yes']) await participant.answer(text).expect(200);
      // Ninety seconds in progress: two billable minutes.
      await letTimePass(t, started.session.id, 90);
      return { participant, sessionId: started.session.id as string };
    };
    const fast = await interviewToClosing();
    const fastClosing = (await fast.participant.answer('Email').expect(200)).body;
    const locked = await interviewToClosing();
    const write = vi.spyOn(recordAnswerTurn, 'first').mockResolvedValueOnce(undefined);
    const lockedClosing = (await locked.participant.answer('Email').expect(200)).body;
    expect(write).toHaveBeenCalledTimes(1);

    const finished = async (sessionId: string) => {
      const [session] = await t.em().execute<Record<string, unknown>[]>(
        `select status, completion_status, pending, pending_utterance_id, active_since, floor(active_seconds) as active_seconds, duration_seconds,
                questions_answered, next_seq, hold_credits, billing, jsonb_array_length(answers) as answers,
                abs(extract(epoch from completed_at - last_activity_at)) < 1 as completed_with_last_activity
           from sessions where id = ?`,
        [sessionId],
      );
      const turns = (
        await t.em().execute(
          `select seq, speaker, kind, text, question_id, value, decided_by, round((end_time - start_time)::numeric, 3) as spoken_seconds,
                  start_time >= (select max(end_time) from session_utterances p where p.session_id = u.session_id and p.seq < u.seq and p.speaker = 'ai') as after_question
             from session_utterances u where session_id = ? order by seq`,
          [sessionId],
        )
      ).slice(-2);
      const [answers] = await t.em().execute(
        `select jsonb_agg(jsonb_build_array(a->>'questionId', a->'value', (select seq from session_utterances u where u.id = a->>'utteranceId')) order by ord) as answers
           from sessions s, jsonb_array_elements(s.answers) with ordinality as e(a, ord) where s.id = ?`,
        [sessionId],
      );
      const [invite] = await t
        .em()
        .execute(`select i.status, i.completed_at is not null as completed from invites i join sessions s on s.invite_id = i.id where s.id = ?`, [sessionId]);
      const jobs = await t.em().execute(
        `select tk.identifier from graphile_worker._private_jobs j join graphile_worker._private_tasks tk on tk.id = j.task_id
          where j.payload->>'sessionId' = ? and tk.identifier = 'session__generate_transcript'`,
        [sessionId],
      );
      const charges = await t.em().execute(`select kind, amount from credit_transactions where source = ?`, [`session:${sessionId}`]);
      return { session, turns, answers, invite, jobs, charges };
    };
    const fastRows = await finished(fast.sessionId);
    expect(fastRows).toEqual(await finished(locked.sessionId));
    expect(fastRows.session).toMatchObject({ status: 'completed', completion_status: 'completed', pending: null, active_since: null, hold_credits: '0.0000' });
    expect(fastRows.session!.billing).toMatchObject({
      totalMinutes: 2,
      freeMinutesApplied: 0,
      billableMinutes: 2,
      chargedCredits: 2 * PLANS.starter.pricePerMinuteCredits,
    });
    expect(fastRows.charges.map((charge) => [charge.kind, Number(charge.amount)])).toEqual([['charge', -2 * PLANS.starter.pricePerMinuteCredits]]);
    expect(fastRows.jobs).toHaveLength(1);
    expect(fastClosing).toMatchObject({ session: { status: 'completed' }, turn: null, closing: lockedClosing.closing });
    // Both holds released, both interviews charged.
    const after = await organization();
    expect(Number(after.credits_held)).toBe(Number(before.credits_held));
    expect(Number(after.credit_balance)).toBe(Number(before.credit_balance) - 4 * PLANS.starter.pricePerMinuteCredits);
  });

  it('a session ended after its closing answer was prepared is not finished twice: 409 SESSION_NOT_ACTIVE, billed once', async () => {
    const { sessionId, auth, participant } = await startedInterview();
    for (const text of ['The first week went well, the reports were clear.', 'four out of five', 'yes']) await participant.answer(text).expect(200);
    const prepared = await prepareAnswer({ em: t.em(), services: services() }, auth, { text: 'Email' });
    expect(prepared.outcome.next.kind).toBe('closing');
    await participant.end().expect(200);
    const write = vi.spyOn(recordAnswerTurn, 'first');
    const [ended] = await t.em().execute<{ billing: unknown; status: string }[]>(`select billing, status from sessions where id = ?`, [sessionId]);
    const refused = await commitAnswer({ em: t.em(), services: services() }, prepared).then(
      () => null,
      (error: unknown) => error,
    );
    expect((refused as AppError).code).toBe('SESSION_NOT_ACTIVE');
    // The one statement was tried and applied nothing; the locked path said why.
    expect(write).toHaveBeenCalledTimes(1);
    await expect(write.mock.results[0]!.value).resolves.toBeUndefined();
    const [after] = await t.em().execute<{ billing: unknown; status: string }[]>(`select billing, status from sessions where id = ?`, [sessionId]);
    expect(after).toEqual(ended);
    expect(ended!.status).toBe('abandoned');
    // Nothing of the closing answer was written: the last turn is still the question it answered.
    expect((await turnsOf(sessionId)).map((turn) => turn.kind).at(-1)).toBe('question');
  });

  it('a session whose clock changed after the answer was prepared (a pause and resume) is written with the clock as it is then', async () => {
    const { sessionId, auth } = await startedInterview();
    const prepared = await prepareAnswer({ em: t.em(), services: services() }, auth, { text: 'The first week went well, the reports were clear.' });
    // As if the participant had paused and resumed meanwhile, after 100 s in progress.
    await t.em().execute(`update sessions set active_seconds = 100, active_since = now() where id = ?`, [sessionId]);
    const state = await commitAnswer({ em: t.em(), services: services() }, prepared);
    expect(state.turn?.questionId).toBe('ease');
    const session = await sessionOf(sessionId);
    expect(session.duration_seconds).toBeGreaterThanOrEqual(100);
    expect(session.next_seq).toBe(3);
    expect((await turnsOf(sessionId)).map((turn) => turn.kind)).toEqual(['question', 'answer', 'question']);
  });

  it('two answers prepared for the same turn: the first is written, the second is 409 TURN_ALREADY_ANSWERED and writes nothing', async () => {
    const { sessionId, auth } = await startedInterview();
    const deps = () => ({ em: t.em(), services: services() });
    const first = await prepareAnswer(deps(), auth, { text: 'The reports were clear and quick to set up.' });
    const second = await prepareAnswer(deps(), auth, { text: 'Something else entirely, sent from another tab.' });
    await commitAnswer(deps(), first);
    const refused = await commitAnswer(deps(), second).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('TURN_ALREADY_ANSWERED');
    const turns = await turnsOf(sessionId);
    expect(turns.map((turn) => turn.text)).toEqual([
      'How was your first week with the product?',
      'The reports were clear and quick to set up.',
      'How easy was the setup?',
    ]);
    expect((await sessionOf(sessionId)).next_seq).toBe(3);
  });

  it('a session ended after the answer was prepared is not written to: 409 SESSION_NOT_ACTIVE', async () => {
    const { sessionId, auth, participant } = await startedInterview();
    const prepared = await prepareAnswer({ em: t.em(), services: services() }, auth, { text: 'The first week went well, the reports were clear.' });
    await participant.end().expect(200);
    const refused = await commitAnswer({ em: t.em(), services: services() }, prepared).then(
      () => null,
      (error: unknown) => error,
    );
    expect((refused as AppError).code).toBe('SESSION_NOT_ACTIVE');
    expect((await turnsOf(sessionId)).map((turn) => turn.kind)).toEqual(['question']);
  });

  it('an answer timed after now, to a session ended meanwhile: the session is told first (409), as the locked path always did', async () => {
    const { sessionId, auth, participant } = await startedInterview();
    const prepared = await prepareAnswer({ em: t.em(), services: services() }, auth, { text: 'The first week went well.', endTime: 100_000 });
    await participant.end().expect(200);
    const refused = await commitAnswer({ em: t.em(), services: services() }, prepared).then(
      () => null,
      (error: unknown) => error,
    );
    expect((refused as AppError).code).toBe('SESSION_NOT_ACTIVE');
    // On a session still in progress the same answer is 422 at the field.
    const { auth: other } = await startedInterview();
    const timedAfterNow = await prepareAnswer({ em: t.em(), services: services() }, other, { text: 'The first week went well.', endTime: 100_000 });
    const invalid = await commitAnswer({ em: t.em(), services: services() }, timedAfterNow).then(
      () => null,
      (error: unknown) => error,
    );
    expect((invalid as AppError).code).toBe('VALIDATION_ERROR');
    expect((await turnsOf(sessionId)).map((turn) => turn.kind)).toEqual(['question']);
  });
});
