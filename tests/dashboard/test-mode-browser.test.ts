import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, reportSkipped } from '../helpers/browser.js';
import { type Dashboard, expectAccessible, photograph, startDashboard, watchProblems } from '../helpers/dashboard-browser.js';
import { apiAs, createCampaign, createInvite } from '../helpers/factories.js';

/**
 * Test mode in a real Chromium (issue 35): an admin makes a test key on the dashboard's API keys
 * page (Mode: Test), is shown an `isk_test_` key once, and sees it listed as a test key beside
 * the live one; the key works against the API in the test world, whose invite page says on screen
 * that the interview is a test. Checked with axe-core, photographed at 1280 px and 390 px.
 */
reportSkipped('test-mode-browser.test.ts');

let dashboard: Dashboard;
let page: Page;

beforeAll(async () => {
  if (!hasChromium) return;
  dashboard = await startDashboard({ member: { email: 'dev@example.com', role: 'admin', name: 'Dee Developer' } });
  page = await dashboard.newPage({ timeout: 15_000 });
}, 180_000);

afterAll(async () => {
  await dashboard?.close();
});

describe.skipIf(!hasChromium)('test mode in Chromium', { timeout: 90_000 }, () => {
  it('an admin makes a test key on the dashboard; it is shown once, listed as a test key, and acts in the test world', async () => {
    const problems = watchProblems(page);
    await dashboard.signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Laptop sandbox');
    await page.getByRole('radio', { name: /^Test/ }).check();
    for (const permission of ['campaigns:write', 'invites:write']) await page.getByRole('checkbox', { name: permission }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const shownOnce = page.locator('.shown-once input[readonly]');
    await shownOnce.waitFor();
    const shown = await shownOnce.inputValue();
    expect(shown).toMatch(/^isk_test_[0-9A-Za-z]{38}$/);
    const row = page.getByRole('row', { name: /Laptop sandbox/ });
    await row.waitFor();
    await expect(row.getByText('test', { exact: true }).count()).resolves.toBe(1);
    await expectAccessible(page);
    await photograph(page, 'test-mode-api-keys');

    // The key shown is a test key of this organization: its records say livemode false, and the live key cannot see them.
    const testApi = apiAs(dashboard.t.http, { organizationId: '', apiKeyId: '', apiKey: shown, authorization: `Bearer ${shown}` });
    const campaign = await createCampaign(testApi);
    expect((await testApi.get(`/v1/campaigns/${campaign.id}`).expect(200)).body.livemode).toBe(false);
    await dashboard.api.get(`/v1/campaigns/${campaign.id}`).expect(404);

    // Its invite's page says, on screen, that the interview is a test.
    const invite = await createInvite(testApi, campaign.id, { email: 'tester@example.com', name: 'Tess', sendEmail: false });
    await page.goto(invite.inviteUrl);
    const notice = page.getByRole('note').filter({ hasText: 'Test mode:' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('this is a test interview');
    await expectAccessible(page);
    await photograph(page, 'test-mode-invite-page');
    expect(problems).toEqual([]);
  });
});
