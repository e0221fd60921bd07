import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TInterviewState } from '../../shared/schemas/sessions.js';
import { hasChromium, reportSkipped, screenshot, seriousAxeViolations } from '../helpers/browser.js';
import { type Dashboard, expectPageFits, photograph as photographAtTwoWidths, startDashboard } from '../helpers/dashboard-browser.js';
import { twoBandPng } from '../helpers/images.js';
import { PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { runCompletionChain } from '../helpers/results.js';
import type { TestApp, TestTenant } from '../helpers/test-app.js';

/**
 * Issue 31's journey, end to end in one Chromium: from an empty organization a researcher builds
 * a four-question script with an image, previews it as a participant in a new tab, publishes it,
 * creates a campaign in the form, imports 30 participants from a CSV file (two bad rows reported
 * and nobody invited until the file is fixed), three of them finish their interviews (one on the
 * real interview page, two through the participant API), the results page shows the funnel and
 * the charts, a segment filter changes them, the preview is counted nowhere, and a stakeholder
 * link opens in a fresh browser context without an account until the researcher revokes it.
 * Every new page is checked with axe-core and photographed at 1280 and 390 px
 * (tests/artifacts/journey-*.png). The wall clock of the UI steps is logged: a lower bound of
 * the issue's "under fifteen minutes".
 */
reportSkipped('study-journey-browser.test.ts');

declare const document: any;

const STUDY = 'Onboarding study';
const QUESTIONS = {
  open: 'What happened in your first week with the product?',
  rating: 'How likely are you to recommend us to a friend or colleague?',
  choice: 'Which support channel did you use most?',
  yesNo: 'Would you use the product again?',
};
const OPTIONS = ['Email', 'Phone', 'In-app chat'];
const ALT = 'The first screen of the product: a blue header over an orange list';
const RATING_PROMPT = 'What made you choose that number?';

let dashboard: Dashboard;
let t: TestApp;
let tenant: TestTenant;
let origin: string;
let browser: Browser;
let page: Page;
/** The page a step works on: photographed when the step fails. */
let current: Page;
let scriptId: string;
let campaignId: string;
let sharedUrl: string;
let journeyStartedAt: number;
const pageErrors: string[] = [];
const cspViolations: string[] = [];

/** Person i of the 30: cohort "pilot" for even i, "main" for odd i. */
const cohortOf = (index: number) => (index % 2 === 0 ? 'pilot' : 'main');
const goodRows = Array.from({ length: 30 }, (_, index) => `person${index}@example.com,Person ${index},en,${cohortOf(index)}`);

function csv(rows: string[]): { name: string; mimeType: string; buffer: Buffer } {
  return { name: 'participants.csv', mimeType: 'text/csv', buffer: Buffer.from(`email,name,language,cohort\r\n${rows.join('\r\n')}\r\n`) };
}

function watch(target: Page): Page {
  target.setDefaultTimeout(10_000);
  target.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  target.on('pageerror', (error) => pageErrors.push(`${target.url()}: ${error.message}`));
  target.on('dialog', (dialog) => void dialog.accept());
  return target;
}

beforeAll(async () => {
  if (!hasChromium) return;
  // The empty organization: no script, no campaign, no invite; one owner who has not signed in yet.
  dashboard = await startDashboard({ member: { email: 'researcher@example.com', name: 'Rosa Researcher', role: 'owner' }, env: PARTICIPANT_BUDGET });
  ({ t, tenant, origin, browser } = dashboard);
  page = watch(await dashboard.newPage());
  current = page;
}, 180_000);

afterAll(async () => {
  await dashboard?.close();
});

async function expectAccessible(target: Page = page): Promise<void> {
  const violations = await seriousAxeViolations(target.mainFrame());
  expect(
    violations.map((violation) => `${target.url()} ${violation.id}: ${violation.help} ${JSON.stringify(violation.nodes.map((node) => node.target))}`),
  ).toEqual([]);
}

/** Photographs at 1280 and 390 px; at 390 px neither the page nor any table scrolls sideways. */
async function photograph(name: string, target: Page = page): Promise<void> {
  const size = target.viewportSize()!;
  await target.setViewportSize({ width: 1280, height: 900 });
  await photographAtTwoWidths(target, `journey-${name}`, {
    fits: async (narrow, label) => {
      await expectPageFits(narrow, label);
      // A phone shows every column (a wrap made a focusable scroll region on purpose excepted).
      const scrolled = await narrow.evaluate(() =>
        [...document.querySelectorAll('.table-wrap:not([role="region"][tabindex])')]
          .filter((wrap: any) => wrap.scrollWidth > wrap.clientWidth + 1)
          .map((wrap: any) => wrap.querySelector('caption')?.textContent ?? 'a table'),
      );
      expect(scrolled, label).toEqual([]);
    },
  });
  await target.setViewportSize(size);
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await t.em().execute<{ n: string }[]>(sql, params);
  return Number(row!.n);
}

const question = (position: number) => page.locator('.question-card').nth(position - 1);
const conversationLength = (target: Page) => target.locator('ol.conversation > li').count();

/** Waits until the interview page has moved past the turn just answered (the conversation grew, or it is over). */
async function turnAnswered(target: Page, before: number): Promise<void> {
  await expect
    .poll(async () => (await target.getByRole('heading', { name: 'Thank you!' }).count()) > 0 || (await conversationLength(target)) > before, {
      timeout: 10_000,
    })
    .toBe(true);
}

/** A participant through the participant API, answering each turn as its question asks. */
async function interviewThroughApi(email: string, answers: { rating: string; choice: string; yesNo: string }): Promise<string> {
  const [invite] = await t.em().execute<{ id: string }[]>(`select id from invites where campaign_id = ? and email = ?`, [campaignId, email]);
  const participant = participantAs(t.http, t.runtime.services.inviteTokens.tokenFor(invite!.id));
  let state = (await participant.start().expect(201)).body as TInterviewState;
  const sessionId = state.session.id;
  for (let turns = 0; state.turn && turns < 12; turns++) {
    const { turn } = state;
    const type = turn.kind === 'question' ? turn.question.type : 'open';
    const text =
      type === 'rating'
        ? answers.rating
        : type === 'multiple_choice'
          ? answers.choice
          : type === 'yes_no'
            ? answers.yesNo
            : turn.kind === 'question'
              ? 'The setup guide was clear, and our team imported the first project on day two.'
              : 'It matched how we already plan our week, so it took no extra effort.';
    state = (await participant.answer(text, { utteranceId: turn.utteranceId }).expect(200)).body as TInterviewState;
  }
  expect(state.session.status).toBe('completed');
  return sessionId;
}

describe.skipIf(!hasChromium)('a study from an empty organization to a shared results page, in Chromium', () => {
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail') await screenshot(current, `journey-failed-${test.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });

  it('signs in to an empty organization and builds a four-question script with an image', async () => {
    journeyStartedAt = Date.now();
    await page.goto(`${origin}/app/`);
    await page.getByLabel('Password').waitFor();
    await expectAccessible();
    await photograph('sign-in');
    await dashboard.signIn(page, { open: false });
    await page.getByText('No campaigns yet.').waitFor();
    await expectAccessible();
    await photograph('empty');

    await page.locator('.page-heading').getByRole('link', { name: 'New study' }).click();
    await page.getByRole('heading', { name: 'New study', level: 1 }).waitFor();
    await expectAccessible();
    await page.getByLabel('Study name').fill(STUDY);
    await page.getByRole('button', { name: 'Create the draft and edit it' }).click();
    await page.getByRole('heading', { name: STUDY, level: 1 }).waitFor();
    scriptId = new URL(page.url()).pathname.split('/').at(-1)!;

    await page.getByLabel('Question 1 text').fill(QUESTIONS.open);
    await question(1).getByLabel('Depth').selectOption('low');
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByLabel('Question 2 text').fill(QUESTIONS.rating);
    await question(2).getByLabel('Answer type').selectOption('rating');
    await question(2).getByLabel('Lowest rating').fill('0');
    await question(2).getByLabel('Highest rating').fill('10');
    await question(2).getByLabel('Label of the lowest (optional)').fill('Not at all likely');
    await question(2).getByLabel('Label of the highest (optional)').fill('Extremely likely');
    // A rating is not followed up unless asked: the box says so, and ticking it offers the prompt.
    const ratingFollowUps = question(2).getByLabel('Ask follow-up questions about the answer');
    expect(await ratingFollowUps.isChecked()).toBe(false);
    await ratingFollowUps.check();
    await question(2).getByLabel('What to probe for (optional)').fill(RATING_PROMPT);
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByLabel('Question 3 text').fill(QUESTIONS.choice);
    await question(3).getByLabel('Answer type').selectOption('multiple_choice');
    await question(3).getByLabel('Option 1', { exact: true }).fill(OPTIONS[0]!);
    await question(3).getByLabel('Option 2', { exact: true }).fill(OPTIONS[1]!);
    await question(3).getByRole('button', { name: 'Add an option' }).click();
    await question(3).getByLabel('Option 3', { exact: true }).fill(OPTIONS[2]!);
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByLabel('Question 4 text').fill(QUESTIONS.yesNo);
    await question(4).getByLabel('Answer type').selectOption('yes_no');
    expect(await page.locator('.field-error').count()).toBe(0);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('All changes saved.').waitFor();

    // The image goes with the first question, so the preview shows it at once.
    await question(1)
      .getByLabel('Add an image or audio clip')
      .setInputFiles({ name: 'first-screen.png', mimeType: 'image/png', buffer: twoBandPng(64, 40, 10) });
    await question(1).getByLabel('Alt text (what the image shows)').fill(ALT);
    await question(1).getByRole('button', { name: 'Upload to question 1' }).click();
    await question(1).getByRole('img', { name: ALT }).waitFor();
    await expectAccessible();
    await photograph('editor');

    const [version] = await t
      .em()
      .execute<{ questions: { id: string; type: string; scale?: unknown; options?: string[]; followUp?: unknown }[] }[]>(
        `select questions from script_versions where script_id = ? order by version desc limit 1`,
        [scriptId],
      );
    expect(version!.questions.map((row) => row.type)).toEqual(['open', 'rating', 'multiple_choice', 'yes_no']);
    expect(version!.questions[1]).toMatchObject({ scale: { min: 0, max: 10 }, followUp: { enabled: true, prompt: RATING_PROMPT } });
    expect(version!.questions[2]!.options).toEqual(OPTIONS);
    expect(
      await count(`select count(*) as n from script_media where script_id = ? and question_id = ? and alt = ?`, [scriptId, version!.questions[0]!.id, ALT]),
    ).toBe(1);
  });

  it('"Preview as participant" opens the interview page in a new tab, marked as a preview; one answer there; then publishes', async () => {
    const opening = page.context().waitForEvent('page');
    await page.getByRole('button', { name: 'Preview as participant' }).click();
    const preview = watch(await opening);
    current = preview;
    await preview.waitForLoadState();
    expect(new URL(preview.url()).pathname).toMatch(/^\/interview\//);
    const notice = preview.getByRole('note');
    expect(await notice.innerText()).toBe('Preview: this interview is not recorded in results and costs no credits.');
    await expectAccessible(preview);
    await photograph('preview-welcome', preview);
    await preview.getByLabel('Type my answers').check();
    await preview.getByRole('button', { name: 'Start interview' }).click();
    await preview.getByRole('heading', { name: QUESTIONS.open }).waitFor();
    const image = preview.getByRole('img', { name: ALT });
    await expect.poll(() => image.evaluate((element: any) => element.naturalWidth)).toBe(64);
    expect(await notice.isVisible()).toBe(true);
    await expectAccessible(preview);
    await photograph('preview-question', preview);
    await preview.getByRole('textbox', { name: 'Your answer' }).fill('I tried the import on the first day and it worked.');
    await preview.getByRole('button', { name: 'Send' }).click();
    await turnAnswered(preview, 0);
    // The only session so far: a preview, on the script's hidden preview campaign.
    const previewSessions = await t
      .em()
      .execute<{ preview: boolean; campaign_preview: boolean }[]>(
        `select s.preview, c.preview as campaign_preview from sessions s join campaigns c on c.id = s.campaign_id where s.organization_id = ?`,
        [tenant.organizationId],
      );
    expect(previewSessions).toEqual([{ preview: true, campaign_preview: true }]);
    await preview.close();
    current = page;

    await page.getByRole('button', { name: 'Publish v1' }).click();
    await page.getByText('v1 published: new campaigns use it.').waitFor();
    expect(await count(`select count(*) as n from scripts where id = ? and status = 'published' and published_version = 1`, [scriptId])).toBe(1);
  });

  it('creates a campaign in the form on that script', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Campaigns' }).click();
    // The preview's hidden campaign is not listed.
    await page.getByText('No campaigns yet.').waitFor();
    await page.getByRole('link', { name: 'New campaign' }).first().click();
    await page.getByRole('heading', { name: 'New campaign', level: 1 }).waitFor();
    await expectAccessible();
    await photograph('new-campaign');
    await page.getByLabel('Name', { exact: true }).fill('Onboarding, autumn');
    await page.getByLabel('Title for participants').fill('Help us improve onboarding');
    await page.getByLabel('Script', { exact: true }).selectOption({ label: `${STUDY} (version 1)` });
    await page.getByRole('button', { name: 'Create the campaign' }).click();
    await page.getByRole('heading', { name: 'Onboarding, autumn: Participants' }).waitFor();
    campaignId = new URL(page.url()).pathname.split('/')[3]!;
    expect(
      await count(`select count(*) as n from campaigns where id = ? and script_id = ? and status = 'active' and not preview`, [campaignId, scriptId]),
    ).toBe(1);
  });

  it('imports 30 participants from a CSV file: two bad rows are reported and nobody is invited until the file is fixed', async () => {
    const rows = [...goodRows];
    rows[6] = 'person6-at-example.com,Person 6,en,pilot';
    rows[21] = 'person21@example.com,Person 21,ja,main';
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv(rows));
    await page.getByText('participants.csv: 30 participants, 2 with problems; metadata columns: cohort.').waitFor();
    const problems = await page.locator('.row-problems > li').allTextContents();
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('Line 8 (person6-at-example.com): email must be an email address');
    expect(problems[1]).toContain('Line 23 (person21@example.com): language must be a language interviews are held in');
    expect(await page.getByRole('button', { name: 'Invite 30 participants' }).isDisabled()).toBe(true);
    expect(await count(`select count(*) as n from invites where campaign_id = ?`, [campaignId])).toBe(0);
    await expectAccessible();
    await photograph('csv-bad-rows');

    await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv(goodRows));
    await page.getByText('participants.csv: 30 participants, all rows valid; metadata columns: cohort.').waitFor();
    await page.getByRole('button', { name: 'Invite 30 participants' }).click();
    await page.getByText('30 participants invited.').waitFor();
    expect(await count(`select count(*) as n from invites where campaign_id = ?`, [campaignId])).toBe(30);
    expect(await count(`select count(*) as n from invites where campaign_id = ? and metadata->>'cohort' = 'pilot'`, [campaignId])).toBe(15);
    await page.locator('tr[data-invite]').first().waitFor();
    await expectAccessible();
    await photograph('participants');
  });

  it('three participants finish their interviews: one on the interview page in Chromium, two through the participant API', async () => {
    const [invite] = await t.em().execute<{ id: string }[]>(`select id from invites where campaign_id = ? and email = 'person0@example.com'`, [campaignId]);
    const participantContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const interview = watch(await participantContext.newPage());
    current = interview;
    await interview.goto(`${origin}/interview/${t.runtime.services.inviteTokens.tokenFor(invite!.id)}`);
    await interview.getByRole('heading', { name: 'Help us improve onboarding', level: 1 }).waitFor();
    await expectAccessible(interview);
    await photograph('interview-welcome', interview);
    await interview.getByLabel('Type my answers').check();
    await interview.getByRole('button', { name: 'Start interview' }).click();

    const asked: string[] = [];
    let ratingFollowUpInWords = false;
    for (let turns = 0; turns < 12; turns++) {
      const heading = interview.locator('#question-text').or(interview.getByRole('heading', { name: 'Thank you!' }));
      await heading.first().waitFor();
      if ((await interview.getByRole('heading', { name: 'Thank you!' }).count()) > 0) break;
      const text = await interview.locator('#question-text').innerText();
      asked.push(text);
      const before = await conversationLength(interview);
      if ((await interview.getByRole('radio').count()) > 0) {
        // Checked before a value is picked: Send then fades in (opacity), which axe would measure half-way.
        if (turns === 1) await expectAccessible(interview);
        await interview.getByRole('radio', { name: '9', exact: true }).check();
        if (turns === 1) await photograph('interview-rating', interview);
        await interview.getByRole('button', { name: 'Send' }).click();
      } else if ((await interview.getByRole('group', { name: 'Choose one' }).count()) > 0) {
        const choices = interview.getByRole('group', { name: 'Choose one' });
        await choices.getByRole('button', { name: text === QUESTIONS.yesNo ? 'Yes' : 'In-app chat' }).click();
      } else {
        if (text === RATING_PROMPT) {
          // A rating's follow-up takes words: no radios.
          ratingFollowUpInWords = true;
          expect(await interview.getByRole('radio').count()).toBe(0);
        }
        await interview
          .getByRole('textbox', { name: 'Your answer' })
          .fill(
            text === RATING_PROMPT
              ? 'The import just worked, and support answered within the hour.'
              : 'Our team imported the first project on day two, and the setup guide was clear.',
          );
        await interview.getByRole('button', { name: 'Send' }).click();
      }
      await turnAnswered(interview, before);
    }
    expect(asked.filter((text) => Object.values(QUESTIONS).includes(text))).toEqual(Object.values(QUESTIONS));
    expect(ratingFollowUpInWords, asked.join(' | ')).toBe(true);
    await interview.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await interview.getByRole('radio', { name: '5 out of 5' }).check();
    await interview.getByLabel('Anything you would like to tell us? (optional)').fill('Short and to the point.');
    await interview.getByRole('button', { name: 'Submit feedback' }).click();
    await interview.getByText('Thank you for your feedback.').waitFor();
    await expectAccessible(interview);
    await photograph('interview-done', interview);
    await participantContext.close();
    current = page;

    const [browserSession] = await t
      .em()
      .execute<{ id: string }[]>(
        `select s.id from sessions s join invites i on i.id = s.invite_id where i.email = 'person0@example.com' and s.status = 'completed'`,
      );
    const sessions = [
      browserSession!.id,
      await interviewThroughApi('person1@example.com', { rating: '6', choice: 'Email', yesNo: 'no' }),
      await interviewThroughApi('person2@example.com', { rating: '10', choice: 'In-app chat', yesNo: 'yes' }),
    ];
    for (const sessionId of sessions) await runCompletionChain(t, sessionId);
    expect(
      await count(`select count(*) as n from sessions where campaign_id = ? and status = 'completed' and transcript_generated_at is not null`, [campaignId]),
    ).toBe(3);
  });

  it('the results tab shows the funnel and the charts; a segment filter changes them; the preview is counted nowhere', async () => {
    await page.getByRole('navigation', { name: 'Campaign sections' }).getByRole('link', { name: 'Results' }).click();
    await page.getByRole('heading', { name: 'Onboarding, autumn: Results', level: 1 }).waitFor();
    await page.getByRole('region', { name: 'All sessions' }).getByText('3 sessions', { exact: true }).waitFor();
    const funnel = page.getByRole('table', { name: 'Completion funnel' });
    expect(await funnel.getByRole('row').allInnerTexts()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Invited\s+30\s+100%\s+—$/),
        expect.stringMatching(/^Started\s+3\s+10%\s+100%$/),
        expect.stringMatching(/^Completed\s+3\s+10%\s+100%$/),
      ]),
    );
    const rating = page.getByRole('article', { name: QUESTIONS.rating });
    await rating.getByText('Net Promoter Score').waitFor();
    // 9 and 10 promoters, 6 a detractor: mean 8.33, NPS (2 − 1) / 3.
    expect(await rating.locator('dd').allInnerTexts()).toEqual(['8.33', '+33.3', '2 · 0 · 1']);
    expect(await rating.getByRole('img').count()).toBe(1);
    const choice = page.getByRole('article', { name: QUESTIONS.choice });
    expect(await choice.getByRole('row').allInnerTexts()).toEqual(['Answer\tCount\tShare', 'Email\t1\t33.3%', 'Phone\t0\t0%', 'In-app chat\t2\t66.7%']);
    expect(await page.getByRole('article', { name: QUESTIONS.yesNo }).getByRole('row').allInnerTexts()).toEqual([
      'Answer\tCount\tShare',
      'Yes\t2\t66.7%',
      'No\t1\t33.3%',
    ]);
    await page.getByText('Short and to the point.').waitFor();
    expect(await page.getByRole('table', { name: 'Sessions these filters keep' }).getByRole('row').count()).toBe(4);
    await expectAccessible();
    await photograph('results');

    // person0 and person2 are in the pilot cohort, person1 in the main one.
    await page.getByLabel('Segment', { exact: true }).selectOption('cohort');
    await page.getByLabel('Value').selectOption('pilot');
    await page.getByRole('region', { name: 'cohort = pilot' }).getByText('2 sessions', { exact: true }).waitFor();
    expect(await funnel.getByRole('row').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Invited\s+15\s+100%\s+—$/), expect.stringMatching(/^Completed\s+2\s+13\.3%\s+100%$/)]),
    );
    await rating.locator('dd', { hasText: '+100' }).waitFor();
    expect(await rating.locator('dd').allInnerTexts()).toEqual(['9.5', '+100', '2 · 0 · 0']);
    expect(await page.getByRole('table', { name: 'Sessions these filters keep' }).getByRole('row').count()).toBe(3);
    await expectAccessible();
    await photograph('results-segment');

    // The preview: its session exists, and no list or count of the campaign shows it.
    expect(await count(`select count(*) as n from sessions where organization_id = ? and preview`, [tenant.organizationId])).toBe(1);
    await page.getByRole('navigation', { name: 'Campaign sections' }).getByRole('link', { name: 'Overview' }).click();
    const sessionRows = page.locator('.sessions-table tbody tr');
    await sessionRows.first().waitFor();
    expect((await sessionRows.allInnerTexts()).map((row) => row.split(/\s/)[0] + ' ' + row.split(/\s/)[1]).sort()).toEqual([
      'Person 0',
      'Person 1',
      'Person 2',
    ]);
    await page.getByText('1–3 of 3').waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Campaigns' }).click();
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    const campaignRows = page.locator('table tbody tr');
    await campaignRows.first().waitFor();
    expect(await campaignRows.count()).toBe(1);
    expect(await page.locator('td[data-label="Completed"]').innerText()).toBe('3');
    expect(await page.locator('main').innerText()).not.toContain('Preview of');
  });

  it('shares the results with a stakeholder, who opens them without an account until the link is revoked (410)', async () => {
    await page.goto(`${origin}/app/campaigns/${campaignId}/results`);
    const share = page.getByRole('region', { name: 'Share with stakeholders' });
    await share.waitFor();
    expect(await share.getByLabel('Expires after (days, 1 to 365)').inputValue()).toBe('30');
    await share.getByRole('button', { name: 'Create a link' }).click();
    const shown = share.getByLabel('The link for stakeholders');
    await shown.waitFor();
    sharedUrl = await shown.inputValue();
    expect(sharedUrl).toMatch(new RegExp(`^${origin}/shared/[0-9A-Za-z]{32}$`));
    await share.scrollIntoViewIfNeeded();
    await expectAccessible();
    await photograph('share');

    const stranger = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const shared = watch(await stranger.newPage());
    current = shared;
    const response = await shared.goto(sharedUrl);
    expect(response!.status()).toBe(200);
    await shared.getByRole('heading', { name: 'Onboarding, autumn', level: 1 }).waitFor();
    await shared.getByText('3 sessions', { exact: true }).first().waitFor();
    expect(await shared.getByRole('table', { name: 'Completion funnel' }).getByRole('row').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Invited\s+30\s+100%\s+—$/), expect.stringMatching(/^Completed\s+3\s+10%\s+100%$/)]),
    );
    await shared.getByRole('article', { name: QUESTIONS.rating }).getByText('Net Promoter Score').waitFor();
    expect(await stranger.cookies()).toEqual([]);
    await expectAccessible(shared);
    await photograph('shared', shared);

    current = page;
    await share.getByRole('button', { name: /^Revoke/ }).click();
    await share.getByText(/^revoked /).waitFor();

    current = shared;
    const reloaded = await shared.reload();
    expect(reloaded!.status()).toBe(410);
    await shared.getByRole('heading', { name: 'This link was revoked', level: 1 }).waitFor();
    expect(await shared.locator('body').innerText()).not.toContain(QUESTIONS.rating);
    await expectAccessible(shared);
    await photograph('shared-revoked', shared);
    await stranger.close();
    current = page;

    const seconds = (Date.now() - journeyStartedAt) / 1000;
    console.log(
      `study journey: empty organization to a shared (and revoked) results page in ${seconds.toFixed(1)} s of UI steps (the issue's bar: 15 minutes)`,
    );
    expect(seconds).toBeLessThan(15 * 60);
    expect(pageErrors).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
