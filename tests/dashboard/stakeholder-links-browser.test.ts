import type { Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, reportSkipped, screenshot } from '../helpers/browser.js';
import { type Dashboard, expectAccessible, photograph as photographIn, startDashboard } from '../helpers/dashboard-browser.js';
import { completedTextInterview, TEXT_ANSWERS } from '../helpers/results.js';
import type { TestApp } from '../helpers/test-app.js';

/**
 * Stakeholder links in a real Chromium: a member shares an interview from its page, a fresh
 * browser context with no account (no cookie, no storage) opens the link and reads the
 * transcript with the participant's email redacted, the member revokes it, and the same page
 * then says so (410). Checked with axe-core, photographed at 1280 px and 390 px.
 */
reportSkipped('stakeholder-links-browser.test.ts');

declare const window: any;

const EMAIL = 'sharer@example.com';

let t: TestApp;
let dashboard: Dashboard;
let origin: string;
let memberPage: Page;
/** The page a step works on: photographed when the step fails. */
let current: Page;
let sessionId: string;
let sharedUrl: string;
const cspViolations: string[] = [];
/** When the member's page crashed, if it did: a step on a crashed page waits until it times out. */
const memberPageCrashes: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!hasChromium) return;
  dashboard = await startDashboard({
    member: { email: EMAIL, role: 'member', name: 'Sam Sharer' },
    seed: async ({ t, api }) => {
      await api.patch('/v1/organization', { name: 'Acme Research' }).expect(200);
      sessionId = (await completedTextInterview(t, api, TEXT_ANSWERS)).sessionId;
    },
  });
  ({ t, origin } = dashboard);
  // A step that cannot finish says which one within 15 s, instead of using up the test's time.
  memberPage = await dashboard.newPage({ acceptDialogs: true, timeout: 15_000 });
  memberPage.on('crash', () => memberPageCrashes.push(new Date().toISOString()));
}, 180_000);

afterAll(async () => {
  await dashboard?.close();
});

/** 1280 px, then 390 px (nothing scrolls the page sideways), then back. */
const photograph = (page: Page, name: string) => photographIn(page, `stakeholder-${name}`);

// Each test is a journey of several pages, two accessibility checks and photographs at two widths:
// a few seconds alone, many times that on a CI machine running another browser file beside it.
describe.skipIf(!hasChromium)('stakeholder links in Chromium', { timeout: 90_000 }, () => {
  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    if (memberPageCrashes.length > 0) console.error(`the member's page crashed at ${memberPageCrashes.join(', ')}`);
    await screenshot(current ?? memberPage, `stakeholder-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  it('a member shares an interview from its page: the URL is shown once, the link is listed', async () => {
    await dashboard.signIn(memberPage);
    await memberPage.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    await memberPage.goto(`${origin}/app/sessions/${sessionId}`);
    const share = memberPage.getByRole('region', { name: 'Share with stakeholders' });
    await share.waitFor();
    expect(await share.getByLabel('Include the transcript').isChecked()).toBe(true);
    expect(await share.getByLabel(/Redact personal data/).isChecked()).toBe(true);
    expect(await share.getByLabel('Expires after (days, 1 to 365)').inputValue()).toBe('30');
    await share.getByRole('button', { name: 'Create a link' }).click();
    const shown = share.getByLabel('The link for stakeholders');
    await shown.waitFor();
    sharedUrl = await shown.inputValue();
    expect(sharedUrl).toMatch(new RegExp(`^${origin}/shared/[0-9A-Za-z]{32}$`));
    await share.getByRole('cell', { name: 'with transcripts, PII redacted' }).waitFor();
    const [row] = await t
      .em()
      .execute<{ created_by_kind: string; created_by_name: string; redact_pii: boolean; include_transcripts: boolean }[]>(
        `select created_by_kind, created_by_name, redact_pii, include_transcripts from stakeholder_links where target_id = ?`,
        [sessionId],
      );
    expect(row).toEqual({ created_by_kind: 'member', created_by_name: 'Sam Sharer', redact_pii: true, include_transcripts: true });
    await share.scrollIntoViewIfNeeded();
    await expectAccessible(memberPage);
    await photograph(memberPage, 'session-share');
  });

  it('opens in a fresh context without an account: the transcript, PII redacted, under the CSP, no cookie', async () => {
    const page = await dashboard.newPage({ cspViolations, pageErrors });
    const stranger = page.context();
    current = page;
    const apiRequests: Request[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/trpc/')) apiRequests.push(request);
    });
    const response = await page.goto(sharedUrl);
    expect(response!.status()).toBe(200);
    // The dashboard this file built and serves (a fresh clone has no web/dashboard/dist for t.http).
    const appPage = await fetch(`${origin}/app/`);
    expect(appPage.status).toBe(200);
    const appCsp = appPage.headers.get('content-security-policy');
    const headers = response!.headers();
    expect(headers['content-security-policy']).toBe(appCsp);
    expect(headers).toMatchObject({ 'referrer-policy': 'no-referrer', 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' });
    expect(headers['set-cookie']).toBeUndefined();

    await page.getByRole('heading', { name: 'Interview', level: 1 }).waitFor();
    await page.getByText('Shared by Acme Research').waitFor();
    await page.getByRole('heading', { name: 'Transcript' }).waitFor();
    const transcript = await page.locator('.transcript').innerText();
    expect(transcript).toContain('the setup took two days');
    expect(transcript).toContain('[EMAIL REDACTED]');
    expect(transcript).not.toContain('ada.lovelace@example.com');
    expect(await page.locator('body').innerText()).not.toContain('Ada');
    await page.getByRole('rowheader', { name: 'How easy was the setup?' }).waitFor();

    // Nothing of a sign-in: no credentials sent, nothing stored, no cookie.
    expect(apiRequests.length).toBeGreaterThan(0);
    for (const request of apiRequests) {
      const sent = await request.allHeaders();
      expect(sent.authorization).toBeUndefined();
      expect(sent.cookie).toBeUndefined();
      expect(sent.referer).toBeUndefined();
    }
    expect(await stranger.cookies()).toEqual([]);
    expect(await page.evaluate(() => window.sessionStorage.length + window.localStorage.length)).toBe(0);
    await expectAccessible(page);
    await photograph(page, 'shared-session');
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);

    const [link] = await t.em().execute<{ open_count: number }[]>(`select open_count from stakeholder_links where target_id = ?`, [sessionId]);
    expect(link!.open_count).toBeGreaterThanOrEqual(1);
    await stranger.close();
  });

  it('the member revokes it; the same link then says so (410), and the links page shows the audit', async () => {
    current = memberPage;
    // The session page read afresh: this test does not lean on where the first one left the page.
    await memberPage.goto(`${origin}/app/sessions/${sessionId}`);
    const share = memberPage.getByRole('region', { name: 'Share with stakeholders' });
    await share.getByRole('button', { name: /^Revoke/ }).click();
    await share.getByText(/^revoked /).waitFor();

    const page = await dashboard.newPage();
    const stranger = page.context();
    current = page;
    const response = await page.goto(sharedUrl);
    expect(response!.status()).toBe(410);
    await page.getByRole('heading', { name: 'This link was revoked', level: 1 }).waitFor();
    expect(await page.locator('body').innerText()).not.toContain('the setup took two days');
    await expectAccessible(page);
    await photograph(page, 'shared-revoked');
    await stranger.close();

    current = memberPage;
    await memberPage.getByRole('link', { name: 'Stakeholder links' }).click();
    await memberPage.getByRole('heading', { name: 'Stakeholder links', level: 1 }).waitFor();
    const card = memberPage.getByRole('listitem').filter({ hasText: 'Interview:' }).first();
    await card.getByText(/opened 1 time|opened \d+ times/).waitFor();
    await card.getByText('When it was opened').click();
    await card.locator('ol li').first().waitFor();
    await expectAccessible(memberPage);
    await photograph(memberPage, 'links-page');
  });
});
