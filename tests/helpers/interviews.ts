import type supertest from 'supertest';
import { type Api, createCampaign, createInvite, createPublishedScript, uniqueName } from './factories.js';
import type { TestApp } from './test-app.js';

/** A script covering every question type: open, rating (1–5), yes/no, multiple choice. */
export const FOUR_QUESTIONS = [
  { id: 'experience', text: 'How was your first week with the product?', type: 'open' },
  { id: 'ease', text: 'How easy was the setup?', type: 'rating', scale: { min: 1, max: 5 } },
  { id: 'recommend', text: 'Would you recommend it to a colleague?', type: 'yes_no' },
  { id: 'channel', text: 'Which support channel did you use most?', type: 'multiple_choice', options: ['Email', 'Phone call', 'In-app chat'] },
];

/**
 * The questions with follow-ups turned off: for tests about something else than probing, whose
 * rich open answers the interviewer would otherwise probe (one answer per question then completes).
 */
export function withoutFollowUps<T extends { type: string }>(questions: readonly T[]): (T & { followUp?: { enabled: false } })[] {
  return questions.map((question) => (question.type === 'open' ? { ...question, followUp: { enabled: false } } : question));
}

/** One open question without follow-ups: its answer completes the interview. */
export const ONE_QUESTION = [{ id: 'improve', text: 'What should we improve first?', type: 'open', followUp: { enabled: false } }];

/** Participant budgets no test of many interviews from one address reaches. */
export const PARTICIPANT_BUDGET = { RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' };

/** A campaign on a published script with these questions, and one invite to it. */
export async function interviewFixture(
  api: Api,
  options: { questions?: unknown[]; settings?: Record<string, unknown>; scriptSettings?: Record<string, unknown> } = {},
) {
  const script = await createPublishedScript(api, {
    questions: options.questions ?? FOUR_QUESTIONS,
    ...(options.scriptSettings ? { settings: options.scriptSettings } : {}),
  });
  const campaign = await createCampaign(api, { scriptId: script.id, ...(options.settings ? { settings: options.settings } : {}) });
  const invite = await createInvite(api, campaign.id, {
    email: `participant-${Math.random().toString(36).slice(2)}@example.com`,
    name: 'Ada',
    sendEmail: false,
  });
  return { script, campaign, invite };
}

/** The participant's side: every call carries the invite token. */
export function participantAs(http: supertest.Agent, token: string) {
  const auth = (test: supertest.Test) => test.set('Authorization', `Bearer ${token}`);
  return {
    start: (body: unknown = {}) => auth(http.post('/api/interview/start')).send(body as object),
    answer: (text: string, extra: Record<string, unknown> = {}) => auth(http.post('/api/interview/answer')).send({ text, ...extra }),
    answerAudio: (audio: Buffer, filename: string, fields: Record<string, string> = {}) => {
      let request = auth(http.post('/api/interview/answer')).attach('audio', audio, filename);
      for (const [name, value] of Object.entries(fields)) request = request.field(name, value);
      return request;
    },
    end: () => auth(http.post('/api/interview/end')).send({}),
    feedback: (body: unknown) => auth(http.post('/api/interview/feedback')).send(body as object),
    pause: (sessionId: string, body: unknown = {}) => auth(http.post(`/v1/sessions/${sessionId}/pause`)).send(body as object),
    resume: (sessionId: string) => auth(http.post(`/v1/sessions/${sessionId}/resume`)).send({}),
    heartbeat: (sessionId: string) => auth(http.post(`/v1/sessions/${sessionId}/heartbeat`)).send({}),
    consent: (sessionId: string, body: unknown) => auth(http.post(`/v1/sessions/${sessionId}/consent`)).send(body as object),
  };
}

export type Participant = ReturnType<typeof participantAs>;

/**
 * A new invite to `campaignId` (a unique address, no email sent, `name` only when given) whose
 * participant starts and answers `answers` in order through the participant API.
 */
export async function answeredInvite(
  t: Pick<TestApp, 'http'>,
  api: Api,
  campaignId: string,
  answers: string[],
  options: { metadata?: Record<string, string>; name?: string } = {},
) {
  const invite = await createInvite(api, campaignId, {
    email: `${uniqueName('p').replace(' ', '-')}@example.com`,
    ...(options.name ? { name: options.name } : {}),
    sendEmail: false,
    metadata: options.metadata ?? {},
  });
  const participant = participantAs(t.http, invite.token);
  const started = await participant.start().expect(201);
  for (const answer of answers) await participant.answer(answer).expect(200);
  return { sessionId: started.body.session.id as string, inviteId: invite.id as string, participant };
}

/**
 * As if `seconds` had passed in a session in progress: its clock (start and running stretch) moves
 * back, so the pending turn was put that long ago and answers can take that long.
 */
export async function letTimePass(t: Pick<TestApp, 'em'>, sessionId: string, seconds: number): Promise<void> {
  await t
    .em()
    .execute(`update sessions set started_at = started_at - make_interval(secs => ?), active_since = active_since - make_interval(secs => ?) where id = ?`, [
      seconds,
      seconds,
      sessionId,
    ]);
}
