import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParticipantAuth } from '../../server/domains/common/caller.js';
import { commitAnswer, prepareAnswer } from '../../server/domains/sessions/answer-interview.js';
import { AppError } from '../../server/errors.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { FOUR_QUESTIONS, interviewFixture, PARTICIPANT_BUDGET, participantAs, withoutFollowUps } from '../helpers/interviews.js';
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

/** The SQL the service sends while `work` runs. */
async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const knex = t.runtime.orm.em.getConnection().getKnex();
  const listener = (query: { sql: string }) => statements.push(query.sql.trim().toLowerCase());
  knex.on('query', listener);
  try {
    await work();
  } finally {
    knex.removeListener('query', listener);
  }
  return statements;
}

async function startedInterview() {
  const { invite } = await interviewFixture(api, { questions: withoutFollowUps(FOUR_QUESTIONS) });
  const participant = participantAs(t.http, invite.token);
  const started = (await participant.start().expect(201)).body;
  const auth: ParticipantAuth = { kind: 'participant', organizationId: await organizationOf(started.session.id), inviteId: invite.id };
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
  it('an answer that leads to the next question is one statement, no transaction; the closing answer takes the locked transaction', async () => {
    const { participant, sessionId } = await startedInterview();
    let state: { turn: { utteranceId: string; questionId: string } } | undefined;
    const common = await statementsDuring(async () => {
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

    await participant.answer('yes').expect(200);
    const closing = await statementsDuring(() => participant.answer('Email').expect(200));
    expect(closing.some((sql) => sql.startsWith('begin'))).toBe(true);
    expect((await sessionOf(sessionId)).status).toBe('completed');
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
