import type { Api } from './factories.js';
import { FOUR_QUESTIONS, interviewFixture, participantAs } from './interviews.js';
import { runJobsOnce } from './jobs.js';
import type { TestApp } from './test-app.js';

/** Two open questions, then a rating, a yes/no and a multiple-choice question. */
export const RESULTS_QUESTIONS = [
  // No follow-ups: the built-in interviewer would probe the broken links and the slow setup, and these tests are about results.
  { ...FOUR_QUESTIONS[0]!, followUp: { enabled: false } },
  { id: 'support', text: 'How was your experience with our support team?', type: 'open', followUp: { enabled: false } },
  ...FOUR_QUESTIONS.slice(1),
];

/** One answer per question of RESULTS_QUESTIONS (its open questions ask no follow-up). */
export const TEXT_ANSWERS = [
  'Honestly the onboarding emails had broken links, and the setup took two days. You can reach me at ada.lovelace@example.com or +44 20 7946 0958.',
  'Support was quick to respond though, and the new reporting dashboard saves me a lot of time. The dashboard is great.',
  'I would say four out of five',
  'yes, absolutely',
  'In-app chat, it would be nice if the chat kept my history between visits.',
];

/** Runs due jobs until the session's completion chain (transcript → insights → recordings → announcement and exports) is through. */
export async function runCompletionChain(t: TestApp, sessionId: string): Promise<void> {
  // Exports run one session at a time (the session-exports queue): a chain run beside another
  // finds the queue held while the other's PDF renders (the render thread's first start takes
  // seconds on a loaded machine), and tries again until it is free.
  const deadline = Date.now() + 60_000;
  for (let pass = 0; Date.now() < deadline; pass++) {
    const [row] = await t
      .em()
      .execute<{ done: boolean }[]>(`select completion_announced_at is not null and exports_prepared_at is not null as done from sessions where id = ?`, [
        sessionId,
      ]);
    if (row?.done) return;
    if (pass >= 6) await new Promise((resolve) => setTimeout(resolve, 100));
    await runJobsOnce(t);
  }
  throw new Error(`The completion chain of ${sessionId} did not finish within a minute`);
}

/** A whole interview answered by text on a fresh campaign, its results generated. */
export async function completedTextInterview(t: TestApp, api: Api, answers: string[] = TEXT_ANSWERS, options: { campaignId?: string; runJobs?: boolean } = {}) {
  const fixture = options.campaignId ? await inviteTo(api, options.campaignId) : await interviewFixture(api, { questions: RESULTS_QUESTIONS });
  const participant = participantAs(t.http, fixture.invite.token);
  const started = await participant.start().expect(201);
  const sessionId = started.body.session.id as string;
  let state = started.body;
  for (const answer of answers) {
    if (state.turn === null) break;
    state = (await participant.answer(answer).expect(200)).body;
  }
  if (state.session.status !== 'completed') throw new Error(`interview not completed: ${JSON.stringify(state)}`);
  if (options.runJobs !== false) await runCompletionChain(t, sessionId);
  return { ...fixture, sessionId, participant };
}

async function inviteTo(api: Api, campaignId: string) {
  const response = await api
    .post(`/v1/campaigns/${campaignId}/invites`, { email: `p-${Math.random().toString(36).slice(2)}@example.com`, name: 'Grace', sendEmail: false })
    .expect(201);
  return { campaign: { id: campaignId }, invite: response.body as { id: string; token: string } };
}

/**
 * A finished interview with one probe: one open question (`followUp.depth: medium`) answered "ok",
 * which draws a follow-up, then answered in full; its results generated.
 */
export async function probedTextInterview(t: TestApp, api: Api, fullAnswer = 'The import failed, so I gave up after two tries and asked a colleague.') {
  const fixture = await interviewFixture(api, {
    questions: [{ id: 'week', text: 'How did your first week go?', type: 'open', followUp: { depth: 'medium' } }],
  });
  const participant = participantAs(t.http, fixture.invite.token);
  const sessionId = (await participant.start().expect(201)).body.session.id as string;
  const probe = await participant.answer('ok').expect(200);
  if (probe.body.turn?.kind !== 'follow_up') throw new Error(`"ok" drew no follow-up: ${JSON.stringify(probe.body.turn)}`);
  const closing = await participant.answer(fullAnswer).expect(200);
  if (closing.body.session.status !== 'completed') throw new Error(`interview not completed: ${JSON.stringify(closing.body)}`);
  await runCompletionChain(t, sessionId);
  return { ...fixture, sessionId, participant };
}
