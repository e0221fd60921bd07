import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiAs } from '../helpers/factories.js';
import { interviewFixture, participantAs } from '../helpers/interviews.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * Multiple choice by meaning over HTTP: a synonym is taken with its confidence on the session's
 * `answers`; a paraphrase heard by an unsure recogniser and "none of those" are read back in one
 * short `confirm` turn; the confirmed "none" records a null value.
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

const SOURCE = {
  id: 'source',
  text: 'How did you first hear about us?',
  type: 'multiple_choice',
  options: ['Search engine', 'Social media', 'Friend or colleague', 'Advertisement'],
};
const LAST = { id: 'why', text: 'Anything else?', type: 'open', followUp: { enabled: false } };

async function started(questions: unknown[]) {
  const { invite } = await interviewFixture(api, { questions });
  const participant = participantAs(t.http, invite.token);
  const { session } = (await participant.start().expect(201)).body;
  return { participant, sessionId: session.id as string };
}

describe('multiple choice by meaning', () => {
  it('"a coworker told me about it" is taken as "Friend or colleague", with its confidence on the answers', async () => {
    const { participant, sessionId } = await started([SOURCE, LAST]);
    const next = (await participant.answer('A coworker told me about it').expect(200)).body;
    expect(next.turn).toMatchObject({ kind: 'question', questionId: 'why' });
    const { answers } = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    expect(answers).toEqual([{ questionId: 'source', value: 'Friend or colleague', utteranceId: expect.any(String), confidence: 0.8 }]);
  });

  it('"none of those" is read back; yes records no option (null, confidence null)', async () => {
    const { participant, sessionId } = await started([SOURCE, LAST]);
    const confirm = (await participant.answer('None of those, honestly.').expect(200)).body;
    expect(confirm.turn).toMatchObject({ kind: 'confirm', questionId: 'source', text: 'So none of these — is that right?' });
    const next = (await participant.answer('yes').expect(200)).body;
    expect(next.turn).toMatchObject({ kind: 'question', questionId: 'why' });
    const { answers } = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    expect(answers).toEqual([{ questionId: 'source', value: null, utteranceId: expect.any(String), confidence: null }]);
  });

  it('"none of those" read back, and the participant names an option instead: that option is taken', async () => {
    const { participant, sessionId } = await started([SOURCE, LAST]);
    expect((await participant.answer('none of them').expect(200)).body.turn).toMatchObject({ kind: 'confirm' });
    expect((await participant.answer('no, social media actually').expect(200)).body.turn).toMatchObject({ kind: 'question', questionId: 'why' });
    const { answers } = (await api.get(`/v1/sessions/${sessionId}`).expect(200)).body;
    expect(answers).toMatchObject([{ questionId: 'source', value: 'Social media' }]);
  });

  it('a paraphrase heard with middling recogniser confidence is confirmed, not taken', async () => {
    const { participant } = await started([SOURCE, LAST]);
    const confirm = (await participant.answer('I looked it up', { confidence: 0.6 }).expect(200)).body;
    expect(confirm.turn).toMatchObject({ kind: 'confirm', text: "So that's “Search engine” — is that right?" });
  });
});
