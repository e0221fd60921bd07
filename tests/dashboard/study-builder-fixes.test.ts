import { readFile } from 'node:fs/promises';
import type { AbstractSqlDriver } from '@mikro-orm/postgresql';
import { Migration20261130020000PreviewAndSessionSentiment } from '../../migrations/Migration20261130020000PreviewAndSessionSentiment.js';
import { sessionLabelOf } from '../../server/analysis/session-sentiment.js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiAs, createCampaign, createInvite, uniqueName } from '../helpers/factories.js';
import { interviewFixture, PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { completedTextInterview } from '../helpers/results.js';
import { invitationTokenIn, type MailSink, startMailSink } from '../helpers/members.js';
import { ROOT } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Bugs found while running a study from the dashboard (issue 31, item 6): a rating's follow-up
 * takes words, the member invitation's last page leads to sign-in, and every page has an icon
 * (`/favicon.ico` answers too). The session sentiment's label and score are one rule
 * (tests/analysis/text-analysis.test.ts); the page itself is driven in Chromium in
 * tests/dashboard/study-builder-fixes-browser.test.ts.
 */

let t: TestApp;
let mail: MailSink;
let api: Api;

beforeAll(async () => {
  mail = await startMailSink();
  t = await startTestApp({ SMTP_URL: mail.url, EMAIL_FROM: 'Interviews <no-reply@example.com>', ...PARTICIPANT_BUDGET });
  api = apiAs(t.http, await t.createTenant());
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

const RATING_WITH_FOLLOW_UP = {
  id: 'ease',
  text: 'How easy was the setup, from 1 to 5?',
  type: 'rating',
  scale: { min: 1, max: 5 },
  followUp: { enabled: true, prompt: 'What made you choose that?' },
};

describe("a rating question's follow-up", () => {
  it('asks for words: the turn is `open` (the page shows a text box), and the typed answer is recorded as said', async () => {
    const { invite } = await interviewFixture(api, { questions: [RATING_WITH_FOLLOW_UP] });
    const participant = participantAs(t.http, invite.token);
    const started = await participant.start().expect(201);
    expect(started.body.turn).toMatchObject({ kind: 'question', question: { type: 'rating', scale: { min: 1, max: 5 } } });
    const followUp = await participant.answer('4').expect(200);
    expect(followUp.body.turn).toMatchObject({ kind: 'follow_up', text: 'What made you choose that?', question: { type: 'open' } });
    expect(followUp.body.turn.question.scale).toBeUndefined();
    const done = await participant.answer('The setup wizard skipped the import step.').expect(200);
    expect(done.body.session.status).toBe('completed');
    const [session] = await t
      .em()
      .execute<{ answers: { questionId: string; value: unknown }[] }[]>(`select answers from sessions where id = ?`, [started.body.session.id]);
    expect(session!.answers).toEqual([expect.objectContaining({ questionId: 'ease', value: 4 })]);
    const [said] = await t
      .em()
      .execute<{ text: string }[]>(`select text from session_utterances where session_id = ? and speaker = 'participant' order by seq desc limit 1`, [
        started.body.session.id,
      ]);
    expect(said!.text).toBe('The setup wizard skipped the import step.');
  });

  it("keeps the question's own controls where the turn asks for its value again: a confirmation is yes/no", async () => {
    const { invite } = await interviewFixture(api, { questions: [{ ...RATING_WITH_FOLLOW_UP, followUp: { enabled: false } }] });
    const participant = participantAs(t.http, invite.token);
    await participant.start().expect(201);
    const confirm = await participant.answer('maybe a four?').expect(200);
    expect(confirm.body.turn).toMatchObject({ kind: 'confirm', question: { type: 'yes_no' } });
  });
});

describe("the member invitation's last page", () => {
  it('links to the sign-in page of the dashboard', async () => {
    const email = `${uniqueName('colleague').replace(' ', '-')}@example.com`;
    await api.post('/v1/organization/members', { email, role: 'member' }).expect(201);
    await runJobsOnce(t, { tasks: ['member__send_invitation'] });
    const token = invitationTokenIn(mail.delivered.findLast((delivered) => delivered.to.includes(email))!.email);
    const password = 'correct horse battery staple';
    const joined = await t.http.post('/members/accept').type('form').send({ token, name: 'Ana', password, confirm: password }).expect(200);
    expect(joined.text).toContain('<a class="button" href="/app">Sign in to the dashboard</a>');
  });
});

/** The `<link rel="icon">` of an HTML page, and the icon it names answering 200 as an image. */
async function expectIcon(html: string, csp: string | undefined): Promise<void> {
  const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml"\s*\/?>/.exec(html)?.[1];
  expect(href).toBe('/favicon.svg');
  const icon = await t.http.get(href!).expect(200);
  expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
  // The page's own policy lets the browser load it (no "Refused to load the image" in the console).
  if (csp) expect(csp).toMatch(/img-src [^;]*'self'/);
}

/** A GET whose body is kept as bytes, whatever its type. */
function bytesOf(path: string) {
  return t.http
    .get(path)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
}

describe('the favicon', () => {
  it('/favicon.ico answers 200 with an ICO image (16×16), and /favicon.svg with an SVG', async () => {
    const ico = await bytesOf('/favicon.ico').expect(200);
    expect(ico.headers['content-type']).toBe('image/x-icon');
    const body = ico.body as Buffer;
    expect([...body.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    expect([body[6], body[7]]).toEqual([16, 16]);
    expect(body.readUInt32LE(14)).toBe(body.length - 22);
    expect(ico.headers['cache-control']).toMatch(/max-age=\d+/);
    const svg = await bytesOf('/favicon.svg').expect(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect((svg.body as Buffer).toString('utf8')).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    await t.http.head('/favicon.ico').expect(200);
  });

  it('every page links it: the interview page, the participant pages, the member invitation, the API docs, the dashboard', async () => {
    const campaign = await createCampaign(api);
    const invite = await createInvite(api, campaign.id, { email: 'ada@example.com', sendEmail: false });
    const interview = await t.http.get(`/interview/${invite.token}`).expect(200);
    await expectIcon(interview.text, interview.headers['content-security-policy']);
    const unknown = await t.http.get('/join/nope').expect(404);
    await expectIcon(unknown.text, unknown.headers['content-security-policy']);
    const invalid = await t.http.get('/members/accept?token=mit_unknown').expect(404);
    await expectIcon(invalid.text, invalid.headers['content-security-policy']);
    const docs = await t.http.get('/docs').expect(200);
    await expectIcon(docs.text, undefined);
    await expectIcon(await readFile(path.join(ROOT, 'web', 'dashboard', 'index.html'), 'utf8'), undefined);
  });
});

describe("a session's sentiment", () => {
  it('reads a label that agrees with its score, and the migration relabels the sessions stored before ("negative (0.01)")', async () => {
    const { sessionId } = await completedTextInterview(t, api);
    const stored = await api.get(`/v1/sessions/${sessionId}`).expect(200);
    expect(stored.body.sentiment.overall).toBe(sessionLabelOf(stored.body.sentiment.score));

    // As the old rule stored it: the majority label beside a mean score that says otherwise.
    await t.em().execute(`update sessions set sentiment = 'negative', sentiment_score = 0.01 where id = ?`, [sessionId]);
    const migration = new Migration20261130020000PreviewAndSessionSentiment(t.runtime.orm.em.getDriver() as unknown as AbstractSqlDriver, t.runtime.orm.config);
    await migration.up();
    const relabel = migration
      .getQueries()
      .map(String)
      .find((query) => query.startsWith('update "sessions"'));
    expect(relabel).toBeDefined();
    await t.em().execute(relabel!);
    expect((await api.get(`/v1/sessions/${sessionId}`).expect(200)).body.sentiment).toEqual({ overall: 'neutral', score: 0.01 });
    await t.em().execute(`update sessions set sentiment = 'positive', sentiment_score = -0.3 where id = ?`, [sessionId]);
    await t.em().execute(relabel!);
    expect((await api.get(`/v1/sessions/${sessionId}`).expect(200)).body.sentiment).toEqual({ overall: 'negative', score: -0.3 });
  });
});
