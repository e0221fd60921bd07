import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideAfterAnswer, type FlowPosition, settleConfirmation } from '../../server/domains/sessions/interview-flow.js';
import { assessStructuredAnswer, LOW_RECOGNITION_CONFIDENCE } from '../../server/interviewer/answer-parsing.js';
import { BuiltinInterviewer } from '../../server/interviewer/builtin-interviewer.js';
import type { Interviewer } from '../../server/interviewer/interviewer.js';
import { LlmInterviewer } from '../../server/interviewer/llm-interviewer.js';
import { buildJsgfGrammar } from '../../server/speech/pocketsphinx-grammar.js';
import type { TQuestion } from '../../shared/schemas/scripts.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { interviewFixture, participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * Confirmation turns: an answer to a rating, yes/no or multiple-choice question understood but not
 * surely ("I'd say maybe a four?") is read back in one short turn of kind `confirm`; yes takes it,
 * a surely said other value takes that, anything else asks again briefly. The value is recorded
 * once, on the reply that settled it.
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

const RATING = { id: 'ease', text: 'How easy was the setup, from 1 to 5?', type: 'rating', scale: { min: 1, max: 5 } };
const YES_NO = { id: 'recommend', text: 'Would you recommend it?', type: 'yes_no' };
const CHOICE = { id: 'channel', text: 'Which channel?', type: 'multiple_choice', options: ['Email', 'Phone call', 'In-app chat'] };
const LAST = { id: 'why', text: 'Anything else?', type: 'open', followUp: { enabled: false } };

async function utterances(sessionId: string) {
  return t
    .em()
    .execute<{ id: string; speaker: string; kind: string; text: string | null; question_id: string | null; value: unknown }[]>(
      `select id, speaker, kind, text, question_id, value from session_utterances where session_id = ? order by seq`,
      [sessionId],
    );
}

describe('a confirmation turn over HTTP', () => {
  it('an unsure rating is read back in one yes/no turn; yes takes the value, recorded once on the reply', async () => {
    const { invite } = await interviewFixture(api, { questions: [RATING, LAST] });
    const participant = participantAs(t.http, invite.token);
    const { session } = (await participant.start().expect(201)).body;

    const confirm = (await participant.answer("I'd say maybe a four?").expect(200)).body;
    expect(confirm.turn).toMatchObject({ kind: 'confirm', questionId: 'ease', text: "So that's a 4 — is that right?", question: { type: 'yes_no' } });
    expect(confirm.session.questionsAnswered).toBe(1);
    const next = (await participant.answer('yes', { utteranceId: confirm.turn.utteranceId }).expect(200)).body;
    expect(next.turn).toMatchObject({ kind: 'question', questionId: 'why' });
    expect(next.session.questionsAnswered).toBe(1);

    const rows = await utterances(session.id);
    expect(rows.map((row) => `${row.speaker}:${row.kind}:${row.text}:${JSON.stringify(row.value)}`)).toEqual([
      'ai:question:How easy was the setup, from 1 to 5?:null',
      "participant:answer:I'd say maybe a four?:null",
      "ai:confirm:So that's a 4 — is that right?:4",
      'participant:answer:yes:4',
      'ai:question:Anything else?:null',
    ]);
    const answers = (await api.get(`/v1/sessions/${session.id}`).expect(200)).body.answers;
    // Confirmed by "yes": the value carries the confidence of that reply.
    expect(answers).toEqual([{ questionId: 'ease', value: 4, utteranceId: rows[3]!.id, confidence: 0.9 }]);

    await participant.answer('Nothing.').expect(200);
    await runJobsOnce(t, { tasks: ['session__generate_transcript'] });
    const transcript = (await api.get(`/v1/sessions/${session.id}/transcript`).expect(200)).body.utterances;
    // The read-back and its yes as they were said; the rating once, on the yes that settled it.
    expect(transcript.map((u: { speaker: string; text: string; value?: unknown }) => [u.speaker, u.text, u.value])).toEqual([
      ['ai', 'How easy was the setup, from 1 to 5?', undefined],
      ['participant', "I'd say maybe a four?", null],
      ['ai', "So that's a 4 — is that right?", undefined],
      ['participant', 'yes', 4],
      ['ai', 'Anything else?', undefined],
      ['participant', 'Nothing.', undefined],
      ['ai', expect.stringMatching(/last question/), undefined],
    ]);
  });

  it('"no, a three" takes the corrected value when it is said surely', async () => {
    const { invite } = await interviewFixture(api, { questions: [RATING, LAST] });
    const participant = participantAs(t.http, invite.token);
    const { session } = (await participant.start().expect(201)).body;
    expect((await participant.answer('three or four, probably four').expect(200)).body.turn).toMatchObject({
      kind: 'confirm',
      text: "So that's a 4 — is that right?",
    });
    expect((await participant.answer('no, a three').expect(200)).body.turn).toMatchObject({ kind: 'question', questionId: 'why' });
    expect((await api.get(`/v1/sessions/${session.id}`).expect(200)).body.answers).toMatchObject([{ questionId: 'ease', value: 3 }]);
  });

  it('a bare no asks the question again briefly; the answer to that is taken', async () => {
    const { invite } = await interviewFixture(api, { questions: [RATING, LAST] });
    const participant = participantAs(t.http, invite.token);
    const { session } = (await participant.start().expect(201)).body;
    await participant.answer('maybe a 2').expect(200);
    expect((await participant.answer('no').expect(200)).body.turn).toMatchObject({
      kind: 're_ask',
      text: 'Then what would you give it, from 1 to 5?',
      question: { type: 'rating' },
    });
    expect((await participant.answer('5').expect(200)).body.turn).toMatchObject({ questionId: 'why' });
    expect((await api.get(`/v1/sessions/${session.id}`).expect(200)).body.answers).toMatchObject([{ questionId: 'ease', value: 5 }]);
  });

  it('a no after the brief re-ask was already used records null and moves on (no loop)', async () => {
    const { invite } = await interviewFixture(api, { questions: [RATING, LAST] });
    const participant = participantAs(t.http, invite.token);
    const { session } = (await participant.start().expect(201)).body;
    await participant.answer('maybe a 2').expect(200);
    expect((await participant.answer('no').expect(200)).body.turn.kind).toBe('re_ask');
    expect((await participant.answer('a 4 I guess').expect(200)).body.turn.kind).toBe('confirm');
    expect((await participant.answer('no').expect(200)).body.turn).toMatchObject({ questionId: 'why' });
    expect((await api.get(`/v1/sessions/${session.id}`).expect(200)).body.answers).toMatchObject([{ questionId: 'ease', value: null }]);
  });

  it('yes/no and multiple choice confirm too, by the page\'s yes/no buttons as well ("Yes" / "No")', async () => {
    const { invite } = await interviewFixture(api, { questions: [YES_NO, CHOICE, LAST] });
    const participant = participantAs(t.http, invite.token);
    const { session } = (await participant.start().expect(201)).body;
    expect((await participant.answer('not sure, probably yes').expect(200)).body.turn).toMatchObject({
      kind: 'confirm',
      text: "So that's a yes — is that right?",
    });
    expect((await participant.answer('Yes').expect(200)).body.turn).toMatchObject({ kind: 'question', questionId: 'channel' });
    expect((await participant.answer('the phone I think').expect(200)).body.turn).toMatchObject({
      kind: 'confirm',
      text: "So that's “Phone call” — is that right?",
    });
    expect((await participant.answer('No').expect(200)).body.turn).toMatchObject({
      kind: 're_ask',
      text: 'Then which one: Email, Phone call, or In-app chat?',
    });
    expect((await participant.answer('email').expect(200)).body.turn).toMatchObject({ questionId: 'why' });
    expect((await api.get(`/v1/sessions/${session.id}`).expect(200)).body.answers.map((a: { value: unknown }) => a.value)).toEqual([true, 'Email']);
  });

  it('a sure answer is taken without a confirmation, as before', async () => {
    const { invite } = await interviewFixture(api, { questions: [RATING, LAST] });
    const participant = participantAs(t.http, invite.token);
    await participant.start().expect(201);
    expect((await participant.answer('four out of five').expect(200)).body.turn).toMatchObject({ kind: 'question', questionId: 'why' });
  });

  it('the confirmation is in the interview language (Dutch)', async () => {
    const { invite } = await interviewFixture(api, { questions: [RATING, LAST], settings: { language: 'nl' } });
    const participant = participantAs(t.http, invite.token);
    await participant.start().expect(201);
    expect((await participant.answer('een vier denk ik').expect(200)).body.turn).toMatchObject({ kind: 'confirm', text: 'Dus een 4, klopt dat?' });
    expect((await participant.answer('ja').expect(200)).body.turn).toMatchObject({ questionId: 'why' });
  });
});

describe("the rule is the parser's, for both interviewers", () => {
  let llmServer: Server;
  let llmRequests = 0;
  beforeAll(async () => {
    llmServer = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        llmRequests += 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'x',
            object: 'chat.completion',
            model: 'm',
            choices: [{ index: 0, message: { role: 'assistant', content: '{"action":"next"}' }, finish_reason: 'stop' }],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => llmServer.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    llmServer.closeAllConnections();
    await new Promise<void>((resolve) => llmServer.close(() => resolve()));
  });

  const rating = { ...RATING, required: true, followUp: { enabled: true } } as TQuestion;
  const start: FlowPosition = { questionIndex: 0, pending: 'question', followUpsAsked: 0, reAsked: false };
  const interviewers = (): Interviewer[] => [
    new BuiltinInterviewer(),
    new LlmInterviewer({
      baseUrl: `http://127.0.0.1:${(llmServer.address() as AddressInfo).port}/v1`,
      apiKey: 'k',
      model: 'm',
      timeoutMs: 2000,
      fallback: new BuiltinInterviewer(),
    }),
  ];

  it('an unsure answer becomes a confirm turn without asking the interviewer; the yes is then the answer it decides on', async () => {
    for (const interviewer of interviewers()) {
      llmRequests = 0;
      const base = {
        questions: [rating, LAST as TQuestion],
        systemPrompt: '',
        settings: {},
        language: 'en',
        conversation: [],
        onQuestion: { asked: [], pickedUp: [] },
        interviewer,
      };
      const first = await decideAfterAnswer({ ...base, position: start, answer: 'maybe a four?' });
      expect(first.next, interviewer.name).toMatchObject({ kind: 'confirm', value: 4, decidedBy: 'engine' });
      expect(first.utteranceValue).toBeNull();
      expect(first.finalValue).toBeUndefined();
      expect(llmRequests).toBe(0);
      const second = await decideAfterAnswer({ ...base, position: first.position, answer: 'yes' });
      expect(second.finalValue, interviewer.name).toBe(4);
      expect(second.utteranceValue).toBe(4);
      expect(second.next.kind).toBe('question');
      if (interviewer.name === 'llm') expect(llmRequests).toBe(1);
    }
  });

  it('replies as a recogniser writes them (no punctuation): "yeah" takes the value, "no three" the corrected one, "no" and "maybe three" neither', () => {
    const ask = (reply: string) => settleConfirmation(rating, 4, reply, 'en');
    expect(ask('yeah')).toMatchObject({ value: 4 });
    expect(ask('yes four')).toMatchObject({ value: 4 });
    expect(ask('no three')).toMatchObject({ value: 3 });
    expect(ask('no a three')).toMatchObject({ value: 3 });
    expect(ask('no')).toBeNull();
    expect(ask('maybe three')).toBeNull();
    expect(settleConfirmation(rating, 4, 'nee drie', 'nl')).toMatchObject({ value: 3 });
    // On a yes/no question the reply's polarity is the confirmation: a bare no asks again.
    expect(settleConfirmation(YES_NO as TQuestion, true, 'no', 'en')).toBeNull();
    expect(settleConfirmation(YES_NO as TQuestion, true, 'yes', 'en')).toMatchObject({ value: true });
  });

  it('a sure value heard with low recogniser confidence is confirmed; the same words typed are not', async () => {
    expect(assessStructuredAnswer(rating, 'four', 'en', { confidence: LOW_RECOGNITION_CONFIDENCE - 0.1 })).toMatchObject({
      value: 4,
      certainty: 'unsure',
      reasons: ['low_confidence'],
    });
    expect(assessStructuredAnswer(rating, 'four', 'en', { confidence: 0.9 })).toMatchObject({ value: 4, certainty: 'sure' });
    expect(assessStructuredAnswer(rating, 'four', 'en')).toMatchObject({ value: 4, certainty: 'sure' });
  });

  it('the recogniser listens for yes, no, or the value meant instead while a rating is being confirmed', () => {
    const grammar = buildJsgfGrammar({ questionType: 'rating', scale: { min: 1, max: 5 }, confirming: true }, () => true)!;
    expect(grammar.text).toMatch(/public <answer> = \(<reply> \[<reply>\]\) \| \(\[<reply>\] .*<number>/);
    expect(grammar.words).toEqual(expect.arrayContaining(['yes', 'no', 'three']));
  });
});
