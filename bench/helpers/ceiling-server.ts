/**
 * The ceiling for `bench/interviews.ts`: bare Express + `pg`, no ORM, no framework layers, doing
 * the SQL an interview turn cannot do without, on the real tables (same indexes and constraints):
 *
 *   answer: BEGIN; the session row (found through the invite token, locked, with its script
 *           version's questions); INSERT the answer; INSERT the AI's next turn; UPDATE the
 *           session (+ the invite when the interview completes); COMMIT.
 *   start:  BEGIN; the invite (locked) with its script version; INSERT the session; INSERT the
 *           first question; UPDATE the invite; COMMIT.
 *
 * The turn is decided by the engine's own pure rules (`decideAfterAnswer` with the built-in
 * interviewer), so the CPU of the decision is the same on both sides. Left out, as a ceiling
 * should: rate limits, idempotency, credit holds and billing, jobs, response validation.
 * Each request is logged as one JSON line with `durationMs` measured as the service's
 * observability middleware measures it (first middleware to the response's `close`).
 *
 *   DATABASE_URL=… PORT=… [DATABASE_POOL_SIZE=10] node --import tsx bench/helpers/ceiling-server.ts
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import pg from 'pg';
import { pino } from 'pino';
import type { TQuestion, TScriptSettings } from '../../shared/schemas/scripts.js';
import type { TAnswerValue, TParsedAnswer } from '../../shared/schemas/sessions.js';
import { decideAfterAnswer } from '../../server/domains/sessions/interview-flow.js';
import { BuiltinInterviewer } from '../../server/interviewer/builtin-interviewer.js';
import { newId } from '../../server/lib/ids.js';
import { hashInviteToken } from '../../server/lib/invite-tokens.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
const logger = pino({ level: 'info', base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
const interviewer = new BuiltinInterviewer();

function tokenOf(req: Request): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  if (!match) throw Object.assign(new Error('no token'), { status: 401 });
  return match[1]!;
}

async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

function speakingSeconds(text: string): number {
  return Math.round((text.trim().split(/\s+/).filter(Boolean).length / 2.5) * 100) / 100;
}

const INSERT_UTTERANCE = `insert into session_utterances
  (id, organization_id, session_id, seq, speaker, kind, text, question_id, value, start_time, end_time, decided_by, probe, created_at)
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now())`;

function turnOf(id: string, text: string, kind: string, question: TQuestion) {
  return {
    utteranceId: id,
    text,
    questionId: question.id,
    kind,
    question: { type: question.type, ...(question.options ? { options: question.options } : {}), ...(question.scale ? { scale: question.scale } : {}) },
  };
}

const app = express();
app.disable('x-powered-by');
app.use((req: Request, res: Response, next: NextFunction) => {
  const started = process.hrtime.bigint();
  const requestId = req.get('x-request-id') ?? 'none';
  res.on('close', () => {
    const durationMs = Math.round((Number(process.hrtime.bigint() - started) / 1e6) * 10) / 10;
    logger.info({ requestId, method: req.method, route: req.path, status: res.statusCode, durationMs }, 'request');
  });
  next();
});
app.use(express.json());
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});

app.post('/api/interview/start', async (req: Request, res: Response, next: NextFunction) => {
  try {
    const tokenHash = hashInviteToken(tokenOf(req));
    const state = await inTransaction(async (client) => {
      const { rows } = await client.query(
        `select i.id, i.organization_id, i.campaign_id, v.script_id, v.version, v.questions
         from invites i join campaigns c on c.id = i.campaign_id join scripts s on s.id = c.script_id
         join script_versions v on v.script_id = s.id and v.version = s.published_version
         where i.token_hash = $1 and i.status = 'pending' for update of i`,
        [tokenHash],
      );
      const invite = rows[0];
      if (!invite) throw Object.assign(new Error('no pending invite'), { status: 409 });
      const questions = invite.questions as TQuestion[];
      const first = questions[0]!;
      const sessionId = newId('ses');
      const utteranceId = newId('utt');
      await client.query(
        `insert into sessions (id, organization_id, campaign_id, invite_id, script_id, script_version, status, language, metadata,
           consent_required, started_at, last_activity_at, active_since, total_questions, answers, question_index, pending,
           pending_utterance_id, next_seq, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, 'in_progress', 'en', '{}', false, now(), now(), now(), $7, '[]', 0, 'question', $8, 1, now(), now())`,
        [sessionId, invite.organization_id, invite.campaign_id, invite.id, invite.script_id, invite.version, questions.length, utteranceId],
      );
      await client.query(INSERT_UTTERANCE, [
        utteranceId,
        invite.organization_id,
        sessionId,
        0,
        'ai',
        'question',
        first.text,
        first.id,
        null,
        0,
        speakingSeconds(first.text),
        'engine',
        null,
      ]);
      await client.query(`update invites set status = 'started', started_at = now(), updated_at = now() where id = $1`, [invite.id]);
      return {
        session: { id: sessionId, status: 'in_progress', questionsAnswered: 0, totalQuestions: questions.length },
        turn: turnOf(utteranceId, first.text, 'question', first),
      };
    });
    res.status(201).json(state);
  } catch (error) {
    next(error);
  }
});

app.post('/api/interview/answer', async (req: Request, res: Response, next: NextFunction) => {
  try {
    const tokenHash = hashInviteToken(tokenOf(req));
    const text = typeof req.body?.text === 'string' ? (req.body.text as string) : null;
    const state = await inTransaction(async (client) => {
      const { rows } = await client.query(
        `select s.id, s.organization_id, s.invite_id, s.question_index, s.pending, s.follow_ups_asked, s.re_asked, s.next_seq,
           s.questions_answered, s.answers, s.language, s.started_at, s.total_questions, v.questions, v.settings, v.system_prompt
         from sessions s join invites i on i.id = s.invite_id
         join script_versions v on v.script_id = s.script_id and v.version = s.script_version
         where i.token_hash = $1 and s.status = 'in_progress' for update of s`,
        [tokenHash],
      );
      const session = rows[0];
      if (!session) throw Object.assign(new Error('no session in progress'), { status: 409 });
      const questions = session.questions as TQuestion[];
      const question = questions[session.question_index]!;
      // What the engine reads for every interviewer: the AI's asking turns on this question and the words their probes picked up.
      const { rows: onQuestion } = await client.query(
        `select text, probe from session_utterances where session_id = $1 and speaker = 'ai' and question_id = $2 and kind in ('question', 're_ask', 'follow_up') order by seq`,
        [session.id, question.id],
      );
      const outcome = await decideAfterAnswer({
        questions,
        systemPrompt: session.system_prompt as string,
        settings: session.settings as TScriptSettings,
        language: session.language as string,
        position: { questionIndex: session.question_index, pending: session.pending, followUpsAsked: session.follow_ups_asked, reAsked: session.re_asked },
        answer: text,
        // The built-in interviewer never reads the conversation.
        conversation: [],
        onQuestion: {
          asked: onQuestion.map((row) => row.text as string),
          pickedUp: onQuestion.flatMap((row) => (row.probe?.pickedUp ? [row.probe.pickedUp as string] : [])),
        },
        interviewer,
      });
      const at = (Date.now() - new Date(session.started_at as string).getTime()) / 1000;
      const answerId = newId('utt');
      const seq = session.next_seq as number;
      const value: TAnswerValue | undefined = outcome.utteranceValue;
      await client.query(INSERT_UTTERANCE, [
        answerId,
        session.organization_id,
        session.id,
        seq,
        'participant',
        'answer',
        text,
        question.id,
        value === undefined ? null : JSON.stringify(value),
        Math.max(0, at - speakingSeconds(text ?? '')),
        at,
        null,
        null,
      ]);
      const next = outcome.next;
      const nextId = newId('utt');
      const nextQuestion = next.kind === 'question' ? questions[next.questionIndex]! : question;
      await client.query(INSERT_UTTERANCE, [
        nextId,
        session.organization_id,
        session.id,
        seq + 1,
        'ai',
        next.kind,
        next.text,
        next.kind === 'closing' ? null : nextQuestion.id,
        null,
        at,
        at + speakingSeconds(next.text),
        next.decidedBy,
        next.kind === 'follow_up' ? JSON.stringify(next.probe) : null,
      ]);
      let answers = session.answers as TParsedAnswer[];
      if (outcome.finalValue !== undefined) {
        answers = [
          ...answers.filter((entry) => entry.questionId !== question.id),
          { questionId: question.id, value: outcome.finalValue, utteranceId: answerId },
        ];
      }
      const questionsAnswered = (session.questions_answered as number) + (session.pending === 'question' ? 1 : 0);
      const closing = next.kind === 'closing';
      await client.query(
        `update sessions set question_index = $2, pending = $3, pending_utterance_id = $4, follow_ups_asked = $5, re_asked = $6,
           next_seq = $7, questions_answered = $8, answers = $9, last_activity_at = now(), duration_seconds = $10, updated_at = now(),
           status = $11, completion_status = $12, completed_at = $13
         where id = $1`,
        [
          session.id,
          outcome.position.questionIndex,
          closing ? null : next.kind,
          closing ? null : nextId,
          outcome.position.followUpsAsked,
          outcome.position.reAsked,
          seq + 2,
          questionsAnswered,
          JSON.stringify(answers),
          Math.floor(at),
          closing ? 'completed' : 'in_progress',
          closing ? 'completed' : null,
          closing ? new Date() : null,
        ],
      );
      if (closing) {
        await client.query(`update invites set status = 'completed', completed_at = now(), updated_at = now() where id = $1`, [session.invite_id]);
      }
      return {
        session: { id: session.id, status: closing ? 'completed' : 'in_progress', questionsAnswered, totalQuestions: session.total_questions },
        turn: closing ? null : turnOf(nextId, next.text, next.kind, nextQuestion),
        ...(closing ? { closing: next.text } : {}),
      };
    });
    res.json(state);
  } catch (error) {
    next(error);
  }
});

app.use((error: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
  res.status(error.status ?? 500).json({ error: { message: error.message } });
});

const server = app.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
  server.closeIdleConnections();
});
