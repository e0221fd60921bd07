import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleHeardCheck } from '../../server/domains/sessions/heard-check.js';
import type { SpeechRecognizer, TranscribeInput, Transcription } from '../../server/speech/speech-recognizer.js';
import { LOW_SPEECH_CONFIDENCE } from '../../shared/schemas/transcripts.js';
import { wav } from '../helpers/audio.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { interviewFixture, PARTICIPANT_BUDGET, type Participant, participantAs } from '../helpers/interviews.js';
import { type ListeningTestApp, startListeningTestApp, type TrpcClient } from '../helpers/members.js';
import { runCompletionChain } from '../helpers/results.js';
import type { TestTenant } from '../helpers/test-app.js';

/**
 * Confidence-aware results (issue 30): a spoken answer heard with low confidence is read back
 * ("We heard: “…”") and counts only once the participant confirmed or corrected it; the transcript
 * marks what stayed unsure, and insights and summaries leave it out, saying how many.
 */

/** A recognizer that hears what the test says it hears, with the confidence the test gives. */
class ScriptedRecognizer implements SpeechRecognizer {
  readonly name = 'scripted';
  readonly runsLocally = false;
  hears(): boolean {
    return true;
  }
  readonly heard: Transcription[] = [];
  readonly inputs: TranscribeInput[] = [];
  async transcribe(input: TranscribeInput): Promise<Transcription | null> {
    this.inputs.push(input);
    return this.heard.shift() ?? null;
  }
}

const QUESTIONS = [
  { id: 'story', text: 'Tell me about the last time you exported a report.', type: 'open', followUp: { enabled: false } },
  { id: 'change', text: 'What would you change first?', type: 'open', followUp: { enabled: false } },
];

const LOW = 0.31;
const GARBLED = 'the sport was and the war';

let t: ListeningTestApp;
let tenant: TestTenant;
let api: Api;
let client: TrpcClient;
const recognizer = new ScriptedRecognizer();

beforeAll(async () => {
  t = await startListeningTestApp(PARTICIPANT_BUDGET);
  t.runtime.services.speech = { ...t.runtime.services.speech, recognizer, description: 'scripted' };
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  client = t.clientOf(tenant);
}, 60_000);
afterAll(() => t?.close());

async function rows(sessionId: string) {
  return t
    .em()
    .execute<
      { id: string; speaker: string; kind: string; text: string | null; confidence: number | null; heard_check: string | null; heard_as: string | null }[]
    >(`select id, speaker, kind, text, confidence, heard_check, heard_as from session_utterances where session_id = ? order by seq`, [sessionId]);
}

async function startInterview(): Promise<{ participant: Participant; sessionId: string; utteranceId: string }> {
  const { invite } = await interviewFixture(api, { questions: QUESTIONS });
  const participant = participantAs(t.http, invite.token);
  const { body } = await participant.start().expect(201);
  return { participant, sessionId: body.session.id, utteranceId: body.turn.utteranceId };
}

/** Speaks the answer (a recording the scripted recognizer hears as `text` with `confidence`). */
function speak(participant: Participant, text: string, confidence: number, utteranceId?: string) {
  recognizer.heard.push({ text, confidence });
  return participant.answerAudio(wav(0.6), 'answer.wav', utteranceId ? { utteranceId } : {});
}

describe('an answer heard with low confidence', () => {
  it('is read back before it counts; a typed correction replaces it, keeping what was heard for audit', async () => {
    const { participant, sessionId } = await startInterview();
    const check = (await speak(participant, GARBLED, LOW).expect(200)).body;
    expect(check.heard).toEqual({ text: GARBLED, lowConfidence: true });
    expect(check.turn).toMatchObject({ kind: 'check_heard', questionId: 'story', heard: GARBLED, question: { type: 'open' } });
    expect(check.turn.text).toBe(`We heard: “${GARBLED}”. Is that right? Say yes, say it again, or type a correction.`);
    // Not counted yet.
    expect(check.session.questionsAnswered).toBe(0);
    expect((await rows(sessionId)).map((row) => [row.kind, row.heard_check])).toEqual([
      ['question', null],
      ['answer', 'unclear'],
      ['check_heard', null],
    ]);

    const next = (await participant.answer('The export button was hard to find', { utteranceId: check.turn.utteranceId }).expect(200)).body;
    expect(next.heard).toEqual({ text: 'The export button was hard to find' });
    expect(next.turn).toMatchObject({ kind: 'question', questionId: 'change' });
    expect(next.session.questionsAnswered).toBe(1);
    const answer = (await rows(sessionId))[1]!;
    expect(answer).toMatchObject({ text: 'The export button was hard to find', confidence: null, heard_check: 'corrected', heard_as: GARBLED });
    // The correction is the answer: no row of its own.
    expect((await rows(sessionId)).map((row) => row.kind)).toEqual(['question', 'answer', 'check_heard', 'question']);

    await participant.answer('Faster exports.').expect(200);
    await runCompletionChain(t, sessionId);
    const transcript = (await api.get(`/v1/sessions/${sessionId}/transcript`).expect(200)).body;
    const corrected = transcript.utterances.find((u: { id: string }) => u.id === answer.id);
    expect(corrected).toMatchObject({ text: 'The export button was hard to find', confidence: 1, heardAs: GARBLED });
    expect(corrected).not.toHaveProperty('lowConfidence');
    const insights = (await api.get(`/v1/sessions/${sessionId}/insights`).expect(200)).body;
    expect(insights.excludedLowConfidence).toBe(0);
  });

  it('a spoken "yes, that\'s right" confirms it: the heard text counts, marked as confirmed', async () => {
    const { participant, sessionId } = await startInterview();
    const check = (await speak(participant, 'exports are slow on mondays', LOW).expect(200)).body;
    expect(check.turn.kind).toBe('check_heard');
    const next = (await speak(participant, "yes that's right", 0.9, check.turn.utteranceId).expect(200)).body;
    expect(next.turn).toMatchObject({ kind: 'question', questionId: 'change' });
    expect(next.session.questionsAnswered).toBe(1);
    // The reply to a read-back is recognised as free words, not against the question's grammar.
    expect(recognizer.inputs.at(-1)!.hints).toMatchObject({ questionType: 'open' });
    expect((await rows(sessionId)).map((row) => [row.kind, row.text, row.heard_check])).toEqual([
      ['question', QUESTIONS[0]!.text, null],
      ['answer', 'exports are slow on mondays', 'confirmed'],
      ['check_heard', expect.stringContaining('exports are slow on mondays'), null],
      ['answer', "yes that's right", null],
      ['question', QUESTIONS[1]!.text, null],
    ]);
  });

  it('"That\'s right" on the page (the heard text sent back unchanged) confirms it without a row of its own', async () => {
    const { participant, sessionId } = await startInterview();
    const check = (await speak(participant, 'exports are slow on mondays', LOW).expect(200)).body;
    const next = (await participant.answer('exports are slow on Mondays.', { utteranceId: check.turn.utteranceId }).expect(200)).body;
    expect(next.turn.kind).toBe('question');
    expect(next.heard).toEqual({ text: 'exports are slow on mondays' });
    expect((await rows(sessionId)).map((row) => [row.kind, row.heard_check])).toEqual([
      ['question', null],
      ['answer', 'confirmed'],
      ['check_heard', null],
      ['question', null],
    ]);
  });

  it('said again, the new answer counts and the first stays unclear: marked in the transcript, left out of insights and summaries with a count', async () => {
    const { participant, sessionId } = await startInterview();
    const check = (await speak(participant, GARBLED, LOW).expect(200)).body;
    // Said again, heard unsurely again: taken as it is (one read-back per answer), and marked.
    const next = (await speak(participant, 'the report export kept failing on large files', 0.45, check.turn.utteranceId).expect(200)).body;
    expect(next.turn).toMatchObject({ kind: 'question', questionId: 'change' });
    expect(next.heard).toEqual({ text: 'the report export kept failing on large files' });
    expect(next.session.questionsAnswered).toBe(1);
    const done = (await participant.answer('Exporting large reports should never fail, it is really frustrating to lose the whole afternoon.').expect(200))
      .body;
    expect(done.turn).toBeNull();
    await runCompletionChain(t, sessionId);

    const transcript = (await api.get(`/v1/sessions/${sessionId}/transcript`).expect(200)).body;
    const participantTurns = transcript.utterances.filter((u: { speaker: string }) => u.speaker === 'participant');
    expect(participantTurns.map((u: { text: string; confidence: number; lowConfidence?: boolean }) => [u.text, u.confidence, u.lowConfidence])).toEqual([
      [GARBLED, LOW, true],
      ['the report export kept failing on large files', 0.45, true],
      [expect.stringContaining('Exporting large reports'), 1, undefined],
    ]);
    const text = (await api.get(`/v1/sessions/${sessionId}/transcript?format=text`).expect(200)).text;
    expect(text).toContain(`Participant: ${GARBLED} (unclear)`);
    const vtt = (await api.get(`/v1/sessions/${sessionId}/transcript?format=vtt`).expect(200)).text;
    expect(vtt).toContain(`<v Participant>${GARBLED} (unclear)`);

    const insights = (await api.get(`/v1/sessions/${sessionId}/insights`).expect(200)).body;
    expect(insights.excludedLowConfidence).toBe(2);
    const unclearIds = participantTurns.slice(0, 2).map((u: { id: string }) => u.id);
    const cited = [
      ...insights.keyQuotes.map((quote: { utteranceId: string }) => quote.utteranceId),
      ...insights.topics.flatMap((topic: { utteranceIds: string[] }) => topic.utteranceIds),
    ];
    expect(cited.length).toBeGreaterThan(0);
    for (const id of unclearIds) expect(cited).not.toContain(id);
    expect(insights.summary).not.toContain('sport');

    const summary = await client.summaries.create.mutate({ sessionIds: [sessionId] });
    expect(summary.excludedLowConfidence).toBe(2);
    const quoted = summary.themes.flatMap((theme) => theme.quotes.map((quote) => quote.utteranceId));
    for (const id of unclearIds) expect(quoted).not.toContain(id);
  });

  it('a bare spoken "no" asks the question again once; the answer then counts', async () => {
    const { participant, sessionId } = await startInterview();
    const check = (await speak(participant, GARBLED, LOW).expect(200)).body;
    const again = (await speak(participant, 'no', 0.9, check.turn.utteranceId).expect(200)).body;
    expect(again.turn).toMatchObject({ kind: 're_ask', questionId: 'story' });
    const next = (await participant.answer('I exported the quarterly report to PDF.', { utteranceId: again.turn.utteranceId }).expect(200)).body;
    expect(next.turn).toMatchObject({ kind: 'question', questionId: 'change' });
    expect(next.session.questionsAnswered).toBe(1);
    expect((await rows(sessionId)).map((row) => [row.kind, row.heard_check])).toEqual([
      ['question', null],
      ['answer', 'unclear'],
      ['check_heard', null],
      ['answer', null],
      ['re_ask', null],
      ['answer', null],
      ['question', null],
    ]);
  });

  it(`is not read back when heard surely (at or above ${LOW_SPEECH_CONFIDENCE}), nor when typed`, async () => {
    const { participant } = await startInterview();
    const next = (await speak(participant, 'exports are fine', LOW_SPEECH_CONFIDENCE).expect(200)).body;
    expect(next.turn.kind).toBe('question');
    expect(next.heard).toEqual({ text: 'exports are fine' });
    const typed = (await startInterview()).participant;
    expect((await typed.answer('exports are fine').expect(200)).body.turn.kind).toBe('question');
  });

  it("the browser's own transcript with a low confidence is read back too", async () => {
    const { participant } = await startInterview();
    const check = (await participant.answer('blue sport war', { confidence: 0.2 }).expect(200)).body;
    expect(check.turn).toMatchObject({ kind: 'check_heard', heard: 'blue sport war' });
  });

  it('resuming shows the pending read-back with what was heard', async () => {
    const { participant } = await startInterview();
    const check = (await speak(participant, GARBLED, LOW).expect(200)).body;
    const resumed = (await participant.start().expect(200)).body;
    expect(resumed.turn).toMatchObject({ utteranceId: check.turn.utteranceId, kind: 'check_heard', heard: GARBLED });
  });

  it("another organization sees neither the marked transcript nor the insights' count", async () => {
    const { participant, sessionId } = await startInterview();
    const check = (await speak(participant, GARBLED, LOW).expect(200)).body;
    await speak(participant, 'yes', 0.9, check.turn.utteranceId).expect(200);
    await participant.answer('Nothing else.').expect(200);
    await runCompletionChain(t, sessionId);
    const other = apiAs(t.http, await t.createTenant());
    await other.get(`/v1/sessions/${sessionId}/transcript`).expect(404);
    await other.get(`/v1/sessions/${sessionId}/insights`).expect(404);
    const otherTenant = await t.createTenant();
    await expect(t.clientOf(otherTenant).summaries.create.mutate({ sessionIds: [sessionId] })).rejects.toMatchObject({ data: { httpStatus: 404 } });
  });
});

describe('settling a read-back', () => {
  it('a short yes confirms in each interview language; longer words are the answer said again', () => {
    const heard = 'de export was traag';
    for (const [language, yes] of [
      ['en', "yes that's right"],
      ['nl', 'ja klopt'],
      ['de', 'ja genau'],
      ['fr', "oui c'est ça"],
      ['es', 'sí correcto'],
    ] as const) {
      expect(settleHeardCheck(heard, { text: yes, spoken: true }, language), `${language}: ${yes}`).toEqual({ kind: 'confirmed' });
    }
    expect(settleHeardCheck(heard, { text: 'yes and the export also failed twice last week', spoken: true }, 'en')).toEqual({ kind: 'replaced' });
    expect(settleHeardCheck(heard, { text: 'nee', spoken: true }, 'nl')).toEqual({ kind: 'denied' });
    expect(settleHeardCheck(heard, { text: 'yes', spoken: false }, 'en')).toEqual({ kind: 'corrected', text: 'yes' });
    expect(settleHeardCheck(heard, { text: 'De export was traag!', spoken: false }, 'nl')).toEqual({ kind: 'confirmed' });
  });
});
