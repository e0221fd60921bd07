import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, reportSkipped, seriousAxeViolations, screenshotTo } from '../helpers/browser.js';
import { watchProblems } from '../helpers/dashboard-browser.js';
import { type Api, apiAs, createScript, uniqueName } from '../helpers/factories.js';
import { interviewFixture, PARTICIPANT_BUDGET } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { invitationTokenIn, listen, type MailSink, startMailSink, trpcClient } from '../helpers/members.js';
import { freePort } from '../helpers/processes.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * Issue 31's participant-side fixes in Chromium: a rating's follow-up is answered in a text box
 * (not the rating radios again), "Preview as participant" says on the page that it is a preview,
 * the member invitation's last page leads to sign-in, and no page logs a console error for its
 * icon. Screenshots at 1280 and 390 px go to SCREENSHOTS_DIR.
 */

declare const document: any;
declare const window: any;
declare const Image: any;

reportSkipped('study-builder-fixes-browser.test.ts');
const SCREENS = process.env.SCREENSHOTS_DIR ?? path.join(process.cwd(), 'tests', 'artifacts');

let t: TestApp;
let mail: MailSink;
let tenant: TestTenant;
let api: Api;
let service: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  mail = await startMailSink();
  t = await startTestApp({ PUBLIC_URL: origin, SMTP_URL: mail.url, EMAIL_FROM: 'Interviews <no-reply@example.com>', ...PARTICIPANT_BUDGET });
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  service = createServer(t.app);
  await new Promise<void>((resolve) => service.listen(port, '127.0.0.1', resolve));
  await mkdir(SCREENS, { recursive: true });
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => service?.close(resolve));
  await t?.close();
  await mail?.close();
});

/** A page at this width that records console errors, failed requests and script errors. */
async function openPage(width: number): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  return { page, problems: watchProblems(page) };
}

/** The page's icon, loaded as the page itself would (under its own CSP). */
async function iconLoads(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const link = document.querySelector('link[rel="icon"]');
        if (!link) return resolve(false);
        const image = new Image();
        image.onload = () => resolve(true);
        image.onerror = () => resolve(false);
        image.src = link.href;
      }),
  );
}

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

const RATING_WITH_FOLLOW_UP = {
  id: 'ease',
  text: 'How easy was the setup, from 1 to 5?',
  type: 'rating',
  scale: { min: 1, max: 5, minLabel: 'Hard', maxLabel: 'Easy' },
  followUp: { enabled: true, prompt: 'What made you choose that?' },
};

describe.skipIf(!hasChromium)("a rating's follow-up on the interview page", () => {
  for (const width of [1280, 390]) {
    it(`is answered in a text box, not with the rating again (${width} px)`, async () => {
      const { invite } = await interviewFixture(api, { questions: [RATING_WITH_FOLLOW_UP] });
      const { page, problems } = await openPage(width);
      await page.goto(`${origin}/interview/${invite.token}`);
      await page.getByLabel('Type my answers').check();
      await page.getByRole('button', { name: 'Start interview' }).click();
      await page.getByRole('heading', { name: RATING_WITH_FOLLOW_UP.text }).waitFor();
      expect(await page.getByRole('radio').count()).toBe(5);
      await page.getByRole('radio', { name: '4' }).check();
      await page.getByRole('button', { name: 'Send' }).click();

      await page.getByRole('heading', { name: 'What made you choose that?' }).waitFor();
      expect(await page.getByRole('radio').count()).toBe(0);
      const box = page.getByRole('textbox', { name: 'Your answer' });
      await box.waitFor();
      await noSidewaysScroll(page);
      expect(await seriousAxeViolations(page.mainFrame())).toEqual([]);
      await screenshotTo(page, path.join(SCREENS, `rating-follow-up-${width}.png`));
      await box.fill('The setup wizard skipped the import step.');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
      expect(await iconLoads(page)).toBe(true);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});

describe.skipIf(!hasChromium)('a 0–10 rating scale on the interview page', () => {
  for (const [width, rows] of [
    [1280, [11]],
    [390, [6, 5]],
  ] as const) {
    it(`lays its points out evenly: ${rows.join(' and ')} a row at ${width} px`, async () => {
      const question = { id: 'recommend', text: 'How likely are you to recommend us, from 0 to 10?', type: 'rating', scale: { min: 0, max: 10 } };
      const { invite } = await interviewFixture(api, { questions: [question] });
      const { page, problems } = await openPage(width);
      await page.goto(`${origin}/interview/${invite.token}`);
      await page.getByLabel('Type my answers').check();
      await page.getByRole('button', { name: 'Start interview' }).click();
      await page.getByRole('heading', { name: question.text }).waitFor();
      const tops = await page
        .locator('fieldset.rating .rating-option')
        .evaluateAll((labels) => labels.map((label) => Math.round(label.getBoundingClientRect().top)));
      const perRow = [...new Set(tops)].map((top) => tops.filter((other) => other === top).length);
      expect(perRow).toEqual(rows);
      const widths = await page
        .locator('fieldset.rating .rating-option')
        .evaluateAll((labels) => labels.map((label) => Math.round(label.getBoundingClientRect().width)));
      expect(Math.max(...widths) - Math.min(...widths)).toBeLessThanOrEqual(1);
      await noSidewaysScroll(page);
      await screenshotTo(page, path.join(SCREENS, `rating-0-10-${width}.png`));
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});

describe.skipIf(!hasChromium)('"Preview as participant"', () => {
  it('opens the real interview page, which says on every screen that it is a preview (1280 and 390 px)', async () => {
    const server = await listen(t);
    try {
      const client = trpcClient(server.url, { token: () => tenant.apiKey });
      const name = uniqueName('Checkout study');
      const script = await createScript(api, { name, questions: [RATING_WITH_FOLLOW_UP] });
      for (const width of [1280, 390]) {
        const preview = await client.scripts.createPreview.mutate({ scriptId: script.id });
        const { page, problems } = await openPage(width);
        await page.goto(preview.url);
        const notice = page.getByRole('note');
        expect(await notice.innerText()).toBe('Preview: this interview is not recorded in results and costs no credits.');
        expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(name);
        await noSidewaysScroll(page);
        expect(await seriousAxeViolations(page.mainFrame())).toEqual([]);
        await screenshotTo(page, path.join(SCREENS, `preview-welcome-${width}.png`));
        await page.getByLabel('Type my answers').check();
        await page.getByRole('button', { name: 'Start interview' }).click();
        await page.getByRole('heading', { name: RATING_WITH_FOLLOW_UP.text }).waitFor();
        expect(await notice.isVisible()).toBe(true);
        await noSidewaysScroll(page);
        await screenshotTo(page, path.join(SCREENS, `preview-question-${width}.png`));
        // The closing screen agrees with the notice: nothing was recorded.
        await page.getByRole('radio', { name: '4' }).check();
        await page.getByRole('button', { name: 'Send' }).click();
        await page.getByRole('textbox', { name: 'Your answer' }).fill('It was quick.');
        await page.getByRole('button', { name: 'Send' }).click();
        await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
        // The page's paragraph (the live region may still hold the same words while it is announced).
        await page.getByRole('paragraph').filter({ hasText: 'Thank you, that was the last question. The preview is over: nothing was recorded.' }).waitFor();
        expect(await page.getByText('Your answers have been recorded').count()).toBe(0);
        await screenshotTo(page, path.join(SCREENS, `preview-closing-${width}.png`));
        expect(await iconLoads(page)).toBe(true);
        expect(problems).toEqual([]);
        await page.context().close();
      }
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!hasChromium)("the member invitation's last page", () => {
  for (const width of [1280, 390]) {
    it(`leads to the sign-in page of the dashboard, with no console error on the way (${width} px)`, async () => {
      const email = `${uniqueName('colleague').replace(' ', '-')}@example.com`;
      await api.post('/v1/organization/members', { email, role: 'member' }).expect(201);
      await runJobsOnce(t, { tasks: ['member__send_invitation'] });
      const token = invitationTokenIn(mail.delivered.findLast((delivered) => delivered.to.includes(email))!.email);
      const { page, problems } = await openPage(width);
      await page.goto(`${origin}/members/accept?token=${encodeURIComponent(token)}`);
      expect(await iconLoads(page)).toBe(true);
      await page.getByLabel('Password', { exact: true }).fill('correct horse battery staple');
      await page.getByLabel('Password again').fill('correct horse battery staple');
      await page.getByRole('button', { name: 'Accept the invitation' }).click();
      await page.getByRole('heading', { name: /You have joined/ }).waitFor();
      expect(await iconLoads(page)).toBe(true);
      await noSidewaysScroll(page);
      expect(await seriousAxeViolations(page.mainFrame())).toEqual([]);
      await screenshotTo(page, path.join(SCREENS, `member-joined-${width}.png`));
      const link = page.getByRole('link', { name: 'Sign in to the dashboard' });
      expect(await link.getAttribute('href')).toBe('/app');
      expect(problems).toEqual([]);
      // The dashboard's page answers at /app (503 "not built" where web/dashboard/dist is absent).
      const [response] = await Promise.all([page.waitForNavigation(), link.click()]);
      expect(new URL(page.url()).pathname).toBe('/app');
      expect([200, 503]).toContain(response!.status());
      await page.context().close();
    });
  }
});
