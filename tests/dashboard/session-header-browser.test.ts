import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, reportSkipped, seriousAxeViolations, screenshotTo } from '../helpers/browser.js';
import { type Dashboard, startDashboard, watchProblems } from '../helpers/dashboard-browser.js';
import { ROOT } from '../helpers/processes.js';
import { completedTextInterview } from '../helpers/results.js';
import type { TestApp } from '../helpers/test-app.js';

/**
 * The session header of the dashboard (issue 31, item 6): the overall sentiment's label and its
 * score side by side agree ("neutral · score +0.01", never "negative (0.01)"), and the dashboard
 * has its icon (no console error). Screenshots at 1280 and 390 px go to SCREENSHOTS_DIR.
 */

declare const document: any;
declare const window: any;

reportSkipped('session-header-browser.test.ts');
const SCREENS = process.env.SCREENSHOTS_DIR ?? path.join(ROOT, 'tests', 'artifacts');
const EMAIL = 'header-researcher@example.com';

let t: TestApp;
let dashboard: Dashboard;
let origin: string;
let sessionId: string;

beforeAll(async () => {
  if (!hasChromium) return;
  dashboard = await startDashboard({
    member: { email: EMAIL, role: 'owner', name: 'Rita' },
    seed: async ({ t, api }) => {
      ({ sessionId } = await completedTextInterview(t, api));
    },
  });
  ({ t, origin } = dashboard);
  await mkdir(SCREENS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await dashboard?.close();
});

async function signedIn(width: number): Promise<{ page: Page; problems: string[] }> {
  const context = await dashboard.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await dashboard.signIn(page);
  await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
  return { page, problems };
}

/** What the header's "Overall sentiment" reads. */
async function overallSentiment(page: Page): Promise<string> {
  await page.goto(`${origin}/app/sessions/${sessionId}`);
  await page.getByRole('heading', { name: 'Transcript' }).waitFor();
  const term = page.locator('dt', { hasText: 'Overall sentiment' });
  return (await term.locator('xpath=following-sibling::dd[1]').innerText()).replace(/\s+/g, ' ').trim();
}

describe.skipIf(!hasChromium)('the session header', () => {
  it('shows the overall label with its own score: they agree', async () => {
    const { page, problems } = await signedIn(1280);
    const stored = (
      await t.em().execute<{ sentiment: string; sentiment_score: number }[]>(`select sentiment, sentiment_score from sessions where id = ?`, [sessionId])
    )[0]!;
    const shown = await overallSentiment(page);
    expect(shown).toContain(stored.sentiment);
    expect(shown).toMatch(/score [+−]?\d\.\d\d$/);

    // The case the issue found: a score a hair above zero is neutral, and says so.
    await t.em().execute(`update sessions set sentiment = 'neutral', sentiment_score = 0.01 where id = ?`, [sessionId]);
    expect(await overallSentiment(page)).toMatch(/neutral score \+0\.01$/);
    await t.em().execute(`update sessions set sentiment = 'negative', sentiment_score = -0.42 where id = ?`, [sessionId]);
    expect(await overallSentiment(page)).toMatch(/negative score −0\.42$/);
    expect(await seriousAxeViolations(page.mainFrame())).toEqual([]);
    await screenshotTo(page, path.join(SCREENS, 'session-header-1280.png'), {});
    // The dashboard's icon loads under its CSP; nothing failed on the way.
    expect(await page.evaluate(() => document.querySelector('link[rel="icon"]')?.getAttribute('href'))).toBe('/favicon.svg');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('fits a phone (390 px) without sideways scrolling', async () => {
    const { page, problems } = await signedIn(390);
    await overallSentiment(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshotTo(page, path.join(SCREENS, 'session-header-390.png'), {});
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
