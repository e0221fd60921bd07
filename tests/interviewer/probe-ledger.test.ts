import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EarlierTurnRow, earlierTurnsOn } from '../../server/domains/sessions/answer-interview.js';
import { DEPTH_FOLLOW_UPS, followUpLimitOf } from '../../server/domains/sessions/interview-flow.js';
import type { TQuestion } from '../../shared/schemas/scripts.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { chatReply, type FakeOpenAi, startFakeOpenAi } from '../helpers/fake-openai.js';
import { interviewFixture, PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { runCompletionChain } from '../helpers/results.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 30's probing, end to end over the participant API: `followUp.depth` sets how many probes a
 * question takes, each probe's ledger (why it was asked, the words it picked up) is stored on its
 * utterance and answered in the transcript JSON, and an LLM interviewer is told what was already
 * asked on the question.
 */

const open = (followUp: Record<string, unknown>): TQuestion => ({ id: 'q', text: 'How was it?', type: 'open', required: true, order: 0, followUp });

describe('followUp.depth and maxFollowUps: the follow-up limit', () => {
  it('depth alone sets it: low 1, medium 1, high 2, deep 3', () => {
    expect(DEPTH_FOLLOW_UPS).toEqual({ low: 1, medium: 1, high: 2, deep: 3 });
    for (const [depth, limit] of Object.entries(DEPTH_FOLLOW_UPS)) expect(followUpLimitOf(open({ depth }), {})).toBe(limit);
  });

  it("with both on the question the smaller wins; the question's depth wins over the script's maxFollowUps; enabled: false is none", () => {
    expect(followUpLimitOf(open({ depth: 'deep', maxFollowUps: 1 }), {})).toBe(1);
    expect(followUpLimitOf(open({ depth: 'low', maxFollowUps: 5 }), {})).toBe(1);
    expect(followUpLimitOf(open({ depth: 'high', maxFollowUps: 0 }), {})).toBe(0);
    expect(followUpLimitOf(open({ depth: 'deep' }), { maxFollowUps: 1 })).toBe(3);
    expect(followUpLimitOf(open({ depth: 'deep', enabled: false }), {})).toBe(0);
    expect(followUpLimitOf(open({ maxFollowUps: 2 }), {})).toBe(2);
    expect(followUpLimitOf(open({}), { maxFollowUps: 2 })).toBe(2);
    expect(followUpLimitOf(open({}), {})).toBe(1);
  });
});

interface UtteranceRow {
  speaker: string;
  kind: string;
  text: string | null;
  question_id: string | null;
  decided_by: string | null;
  probe: Record<string, unknown> | null;
}

async function utterancesOf(t: TestApp, sessionId: string): Promise<UtteranceRow[]> {
  return t
    .em()
    .execute<UtteranceRow[]>(`select speaker, kind, text, question_id, decided_by, probe from session_utterances where session_id = ? order by seq`, [
      sessionId,
    ]);
}

/** Answers `text` until the interview leaves `questionId`; the kinds of the turns it got. */
async function answerUntilNextQuestion(participant: ReturnType<typeof participantAs>, questionId: string, text: string): Promise<string[]> {
  const kinds: string[] = [];
  for (let turn = 0; turn < 10; turn++) {
    const reply = await participant.answer(text).expect(200);
    const next = reply.body.turn as { kind: string; questionId: string } | null;
    if (!next || next.questionId !== questionId) return kinds;
    kinds.push(next.kind);
  }
  throw new Error('the interview never moved on');
}

describe('the built-in interviewer through the participant API', () => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await startTestApp(PARTICIPANT_BUDGET);
    api = apiAs(t.http, await t.createTenant());
  });
  afterAll(() => t?.close());

  const questions = [
    { id: 'deep_q', text: 'How did your first week go?', type: 'open', followUp: { depth: 'deep' } },
    { id: 'low_q', text: 'What would you change first?', type: 'open', followUp: { depth: 'low' } },
    { id: 'capped_q', text: 'How was support?', type: 'open', followUp: { depth: 'deep', maxFollowUps: 2 } },
  ];

  it('deep asks at most 3 probes, low at most 1, deep capped by maxFollowUps 2 at most 2; each probe carries its ledger in the row and the transcript JSON', async () => {
    const { invite, campaign } = await interviewFixture(api, { questions });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;

    // "ok" leaves everything open: the interviewer probes as far as each question allows.
    const deep = await answerUntilNextQuestion(participant, 'deep_q', 'ok');
    expect(deep.length).toBeLessThanOrEqual(3);
    expect(deep.length).toBeGreaterThanOrEqual(1);
    expect(deep.every((kind) => kind === 'follow_up')).toBe(true);
    const low = await answerUntilNextQuestion(participant, 'low_q', 'ok');
    expect(low.length).toBeLessThanOrEqual(1);
    const capped = await answerUntilNextQuestion(participant, 'capped_q', 'ok');
    expect(capped.length).toBeLessThanOrEqual(2);

    const rows = await utterancesOf(t, sessionId);
    const followUps = rows.filter((row) => row.kind === 'follow_up');
    expect(followUps).toHaveLength(deep.length + low.length + capped.length);
    for (const questionId of ['deep_q', 'low_q', 'capped_q']) {
      const probes = followUps.filter((row) => row.question_id === questionId);
      // Numbered on their question, each with a reason, words or null, and who worded it.
      expect(probes.map((row) => row.probe!.probeNumber)).toEqual(probes.map((_, index) => index + 1));
      for (const row of probes) {
        expect(row.probe).toEqual({
          reason: expect.any(String),
          pickedUp: row.probe!.pickedUp === null ? null : expect.any(String),
          source: expect.stringMatching(/^(builtin|script)$/),
          probeNumber: expect.any(Number),
        });
      }
    }
    expect(rows.filter((row) => row.kind !== 'follow_up').every((row) => row.probe === null)).toBe(true);

    // What every interviewer is told of the question (the built-in one reads no conversation): its question and probes, in order.
    const turns = rows.map((row) => ({ speaker: row.speaker, kind: row.kind, text: row.text, questionId: row.question_id, probe: row.probe }));
    const told = earlierTurnsOn(turns as EarlierTurnRow[], 'deep_q', false);
    expect(told).toEqual({
      conversation: [],
      onQuestion: { asked: rows.filter((row) => row.speaker === 'ai' && row.question_id === 'deep_q').map((row) => row.text), pickedUp: [] },
    });
    expect(told.onQuestion.asked).toHaveLength(1 + deep.length);

    await runCompletionChain(t, sessionId);
    const transcript = (await api.get(`/v1/sessions/${sessionId}/transcript`).expect(200)).body as {
      utterances: { id: string; speaker: string; text: string; probe: unknown }[];
    };
    // Every utterance carries `probe`: the ledger on the follow-ups, null on everything else.
    expect(transcript.utterances.every((utterance) => 'probe' in utterance)).toBe(true);
    expect(transcript.utterances.filter((utterance) => utterance.probe !== null)).toEqual(
      followUps.map((row) => expect.objectContaining({ speaker: 'ai', text: row.text, probe: row.probe })),
    );
    // The campaign's JSON export carries the same transcript.
    const exported = (await api.get(`/api/campaigns/${campaign.id}/transcripts`).expect(200)).body as {
      sessions: { id: string; transcript: { utterances: { id: string; probe: unknown }[] } }[];
    };
    const ledgerOf = (utterances: { id: string; probe: unknown }[]) => utterances.map(({ id, probe }) => ({ id, probe }));
    expect(ledgerOf(exported.sessions.find((entry) => entry.id === sessionId)!.transcript.utterances)).toEqual(ledgerOf(transcript.utterances));
  });

  it("another organization cannot read the session's transcript or its ledger (404)", async () => {
    const { invite } = await interviewFixture(api, { questions: [questions[1]!] });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    await participant.answer('ok').expect(200);
    await participant.answer('Mostly the reporting dashboard, it is slow.').expect(200);
    await runCompletionChain(t, sessionId);
    const other = apiAs(t.http, await t.createTenant());
    const refused = await other.get(`/v1/sessions/${sessionId}/transcript`).expect(404);
    expect(JSON.stringify(refused.body)).not.toContain('probe');
  });
});

describe('an LLM interviewer (LLM_BASE_URL) through the participant API', () => {
  let t: TestApp;
  let api: Api;
  let llm: FakeOpenAi;

  beforeAll(async () => {
    llm = await startFakeOpenAi();
    t = await startTestApp({ ...PARTICIPANT_BUDGET, LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'k', LLM_MODEL: 'probe-test', LLM_TIMEOUT_MS: '2000' });
    api = apiAs(t.http, await t.createTenant());
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  it("stores the model's ledger (source llm, its words as the participant wrote them), tells it what was asked and picked up, and redacts picked-up PII in the transcript", async () => {
    const { invite } = await interviewFixture(api, {
      questions: [{ id: 'week', text: 'How did your first week go?', type: 'open', followUp: { depth: 'high' } }],
    });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;

    llm.respond = () =>
      chatReply({
        action: 'follow_up',
        text: 'You said you gave up after two tries. What made you stop?',
        reason: 'problem',
        pickedUp: 'Gave up after two tries',
        transition: null,
      });
    const first = await participant.answer('The import failed, so I gave up after two tries and mailed ada@example.com.').expect(200);
    expect(first.body.turn).toMatchObject({ kind: 'follow_up', text: 'You said you gave up after two tries. What made you stop?' });
    // The participant's turn says what to answer, not why it was asked.
    expect(first.body.turn).not.toHaveProperty('probe');

    const seen = llm.requests.length;
    llm.respond = () =>
      chatReply({
        action: 'follow_up',
        text: 'Who did you write to at ada@example.com?',
        reason: 'event',
        pickedUp: 'mailed ada@example.com',
        transition: null,
      });
    await participant.answer('It kept timing out. I mailed ada@example.com about it.').expect(200);
    const system = llm.requests[seen]!.json.messages[0].content as string;
    expect(system).toContain('You said you gave up after two tries. What made you stop?');
    expect(system).toContain('"gave up after two tries"');

    llm.respond = () => chatReply({ action: 'next', text: null, reason: null, pickedUp: null, transition: null });
    await participant.answer('Ada, our admin.').expect(200);

    const probes = (await utterancesOf(t, sessionId)).filter((row) => row.kind === 'follow_up');
    expect(probes.map((row) => [row.decided_by, row.probe])).toEqual([
      ['llm', { reason: 'problem', pickedUp: 'gave up after two tries', source: 'llm', probeNumber: 1 }],
      ['llm', { reason: 'event', pickedUp: 'mailed ada@example.com', source: 'llm', probeNumber: 2 }],
    ]);

    await runCompletionChain(t, sessionId);
    const plain = (await api.get(`/v1/sessions/${sessionId}/transcript`).expect(200)).body.utterances as { probe: { pickedUp: string | null } | null }[];
    expect(plain.filter((u) => u.probe).map((u) => u.probe!.pickedUp)).toEqual(['gave up after two tries', 'mailed ada@example.com']);
    const redacted = (await api.get(`/v1/sessions/${sessionId}/transcript?redact_pii=true`).expect(200)).body.utterances as {
      probe: { pickedUp: string | null } | null;
    }[];
    expect(redacted.filter((u) => u.probe).map((u) => u.probe!.pickedUp)).toEqual(['gave up after two tries', 'mailed [EMAIL REDACTED]']);
  });

  it('a leading probe from the model is refused: the built-in interviewer decides and its ledger is stored', async () => {
    const { invite } = await interviewFixture(api, {
      questions: [{ id: 'week', text: 'How did your first week go?', type: 'open', followUp: { depth: 'medium' } }],
    });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    llm.respond = () => chatReply({ action: 'follow_up', text: 'It was frustrating, right?', reason: 'feeling', pickedUp: null, transition: null });
    const reply = await participant.answer('ok').expect(200);
    expect(reply.body.turn.text).not.toBe('It was frustrating, right?');
    const [probe] = (await utterancesOf(t, sessionId)).filter((row) => row.kind === 'follow_up');
    expect(probe).toMatchObject({ decided_by: 'builtin', text: reply.body.turn.text });
    expect(probe!.probe).toMatchObject({ source: expect.stringMatching(/^(builtin|script)$/), probeNumber: 1 });
  });
});
