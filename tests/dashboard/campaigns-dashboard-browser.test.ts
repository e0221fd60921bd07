import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Api, createPublishedScript, createScript } from '../helpers/factories.js';
import { hasChromium, reportSkipped, screenshot } from '../helpers/browser.js';
import { type Dashboard, expectAccessible, photograph as photographIn, startDashboard } from '../helpers/dashboard-browser.js';
import { completedTextInterview } from '../helpers/results.js';
import type { TestApp } from '../helpers/test-app.js';

/**
 * Running a study from the dashboard (issue 31, items 2 and 3) in a real Chromium: a researcher
 * creates a campaign in the form (a field error shown in words first), edits its settings,
 * pauses and resumes it, imports 30 participants from a CSV file (two bad rows reported and
 * nothing created until the file is fixed; a second import of the same file invites nobody
 * twice; a batch whose answer was lost is retried without a duplicate), resends and cancels an
 * invite, and creates, copies and closes a share link. The database is checked after each step;
 * each page is checked with axe-core and photographed at 1280 and 390 px.
 */
reportSkipped('campaigns-dashboard-browser.test.ts');

declare const document: any;
declare const navigator: any;

const EMAIL = 'study-owner@example.com';

let t: TestApp;
let api: Api;
let dashboard: Dashboard;
let origin: string;
let page: Page;
let scriptName: string;
let sessionsCampaignId: string;
let campaignId: string;
const pageErrors: string[] = [];
const cspViolations: string[] = [];

beforeAll(async () => {
  if (!hasChromium) return;
  dashboard = await startDashboard({
    member: { email: EMAIL, role: 'owner', name: 'Sam Study' },
    seed: async (app) => {
      ({ t, api } = app);
      await api.patch('/v1/organization', { name: 'Acme Research' }).expect(200);
      scriptName = 'Onboarding interview guide';
      await createPublishedScript(api, { name: scriptName });
      // A draft script is not offered by the campaign form.
      await createScript(api, { name: 'Unfinished draft' });
      // A campaign with two finished sessions, for the sessions table on a phone.
      const first = await completedTextInterview(t, api);
      await completedTextInterview(t, api, undefined, { campaignId: first.campaign.id });
      sessionsCampaignId = first.campaign.id;
    },
  });
  ({ origin } = dashboard);
  page = await dashboard.newPage({ permissions: ['clipboard-read', 'clipboard-write'], timeout: 10_000, cspViolations, pageErrors });
}, 180_000);

afterAll(async () => {
  await dashboard?.close();
});

/** Photographs at 1280 and 390 px; at 390 px neither the page nor any table scrolls sideways. */
async function photograph(name: string): Promise<void> {
  await photographIn(page, `campaigns-${name}`, {
    fits: async () => {
      const overflow = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        tables: [...document.querySelectorAll('.table-wrap')]
          .filter((wrap: any) => wrap.scrollWidth > wrap.clientWidth + 1)
          .map((wrap: any) => wrap.querySelector('caption')?.textContent ?? 'a table'),
      }));
      expect(overflow, name).toEqual({ page: 390, tables: [] });
    },
  });
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const [row] = await t.em().execute<{ n: string }[]>(sql, params);
  return Number(row!.n);
}

const invitesOf = (id: string) => count(`select count(*) as n from invites where campaign_id = ?`, [id]);

function csv(rows: string[]): { name: string; mimeType: string; buffer: Buffer } {
  return { name: 'participants.csv', mimeType: 'text/csv', buffer: Buffer.from(`email,name,language,plan\r\n${rows.join('\r\n')}\r\n`) };
}

const goodRows = Array.from(
  { length: 30 },
  (_, index) => `person${index}@example.com,"Person ${index}, Jr.",${['en', 'nl', 'de'][index % 3]},${index % 2 ? 'pro' : 'free'}`,
);

describe.skipIf(!hasChromium)('campaigns and participants from the dashboard in Chromium', () => {
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await screenshot(page, `campaigns-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });

  it('signs in; the sessions table fits a 390 px screen without scrolling sideways', async () => {
    await dashboard.signIn(page);
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    await page.goto(`${origin}/app/campaigns/${sessionsCampaignId}`);
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    await page.locator('.sessions-table tbody tr').first().waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(150);
    const sizes = await page.evaluate(() => {
      const wrap = document.querySelector('.sessions-table').closest('.table-wrap');
      return { scroll: wrap.scrollWidth, client: wrap.clientWidth, page: document.documentElement.scrollWidth };
    });
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
    expect(sizes.page).toBe(390);
    // Each value keeps its column's name beside it.
    expect(await page.locator('.sessions-table td[data-label="Duration"]').first().isVisible()).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page);
    await photograph('sessions');
  });

  it('creates a campaign in the form: a field error in words first, then the campaign', async () => {
    await page.goto(`${origin}/app/`);
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByRole('heading', { name: 'New campaign', level: 1 }).waitFor();
    // Only the published script is offered.
    await page.getByLabel('Script', { exact: true }).locator('option', { hasText: scriptName }).waitFor({ state: 'attached' });
    const options = await page.getByLabel('Script', { exact: true }).locator('option').allTextContents();
    expect(options).toContain(`${scriptName} (version 1)`);
    expect(options.join()).not.toContain('Unfinished draft');
    // The script editor's "Run it as a campaign" opens the form with its script chosen.
    const publishedId = await page.getByLabel('Script', { exact: true }).locator('option', { hasText: scriptName }).getAttribute('value');
    await page.goto(`${origin}/app/campaigns/new?scriptId=${publishedId}`);
    await page.getByLabel('Script', { exact: true }).locator('option', { hasText: scriptName }).waitFor({ state: 'attached' });
    expect(await page.getByLabel('Script', { exact: true }).inputValue()).toBe(publishedId);
    await page.goto(`${origin}/app/campaigns/new`);
    await page.getByLabel('Script', { exact: true }).locator('option', { hasText: scriptName }).waitFor({ state: 'attached' });
    await expectAccessible(page);
    await photograph('new');

    // Checked by the API's own schema before sending: the message beside the field.
    await page.getByRole('button', { name: 'Create the campaign' }).click();
    await page.locator('#campaign-name-error').waitFor();
    expect(await page.locator('#campaign-script-error').textContent()).toBe('Choose a published script');
    const before = await count(`select count(*) as n from campaigns`, []);

    await page.getByLabel('Name', { exact: true }).fill('Onboarding study, cohort B');
    await page.getByLabel('Title for participants').fill('Help us improve onboarding');
    await page.getByLabel('Description').fill('Customers who signed up in October');
    await page.getByLabel('Script', { exact: true }).selectOption({ label: `${scriptName} (version 1)` });
    await page.getByLabel('Language', { exact: true }).selectOption('nl');
    await page.getByLabel('Maximum duration (minutes)').fill('30');
    await page.getByLabel('Participants must give consent before the interview starts').check();
    await page.getByLabel('Invites expire after').fill('14d');
    // A template the server does not know: its 422 names the field, shown beside it.
    await page.getByLabel('Email template').fill('no-such-template');
    await page.getByRole('button', { name: 'Create the campaign' }).click();
    const templateError = page.locator('#campaign-email-template-error');
    await templateError.waitFor();
    expect(await templateError.textContent()).toMatch(/template/i);
    expect(await page.getByLabel('Email template').getAttribute('aria-describedby')).toContain('campaign-email-template-error');
    expect(await count(`select count(*) as n from campaigns`, [])).toBe(before);
    await expectAccessible(page);
    await screenshot(page, 'campaigns-new-field-error-1280');

    await page.getByLabel('Email template').fill('');
    await page.getByRole('button', { name: 'Create the campaign' }).click();
    await page.getByRole('heading', { name: 'Onboarding study, cohort B: Participants' }).waitFor();
    campaignId = new URL(page.url()).pathname.split('/')[3]!;
    const [row] = await t
      .em()
      .execute<{ name: string; participant_title: string; status: string; settings: Record<string, unknown>; invite_defaults: Record<string, unknown> }[]>(
        `select name, participant_title, status, settings, invite_defaults from campaigns where id = ?`,
        [campaignId],
      );
    expect(row).toMatchObject({
      name: 'Onboarding study, cohort B',
      participant_title: 'Help us improve onboarding',
      status: 'active',
      settings: { language: 'nl', maxDuration: 1800, requireConsent: true },
      invite_defaults: { expiresIn: '14d' },
    });
  });

  it('edits the settings: a cleared field removes the setting', async () => {
    await page.getByRole('navigation', { name: 'Campaign sections' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Onboarding study, cohort B: Settings' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/campaigns/${campaignId}/settings`);
    expect(await page.getByLabel('Maximum duration (minutes)').inputValue()).toBe('30');
    await page.getByLabel('Maximum duration (minutes)').fill('45');
    await page.getByLabel('Title for participants').fill('');
    await page.getByLabel('Invites expire after').fill('3w');
    await page.getByRole('button', { name: 'Save the settings' }).click();
    await page.getByText(/^Saved /).waitFor();
    const [row] = await t
      .em()
      .execute<{ participant_title: string | null; settings: Record<string, unknown>; invite_defaults: Record<string, unknown> }[]>(
        `select participant_title, settings, invite_defaults from campaigns where id = ?`,
        [campaignId],
      );
    expect(row).toEqual({
      participant_title: null,
      settings: { language: 'nl', maxDuration: 2700, requireConsent: true },
      invite_defaults: { expiresIn: '3w' },
    });
    await expectAccessible(page);
    await photograph('settings');
  });

  it('pauses and resumes after a confirmation; a paused campaign refuses invites in words', async () => {
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause the campaign?' });
    await dialog.waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Pause the campaign' }).click();
    await page.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    expect(await count(`select count(*) as n from campaigns where id = ? and status = 'paused'`, [campaignId])).toBe(1);

    await page.getByRole('navigation', { name: 'Campaign sections' }).getByRole('link', { name: 'Participants' }).click();
    await page.getByLabel('Email', { exact: true }).fill('late@example.com');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText('The campaign is paused or archived, so no one can be invited.').waitFor();
    expect(await invitesOf(campaignId)).toBe(0);

    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await page.getByRole('dialog', { name: 'Resume the campaign?' }).getByRole('button', { name: 'Resume the campaign' }).click();
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    expect(await count(`select count(*) as n from campaigns where id = ? and status = 'active'`, [campaignId])).toBe(1);
  });

  it('a CSV with two bad rows reports both and creates nobody', async () => {
    const rows = [...goodRows];
    rows[4] = 'not-an-address,Bad Email,en,pro';
    rows[17] = 'person17@example.com,Bad Language,ja,free';
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv(rows));
    await page.getByText('participants.csv: 30 participants, 2 with problems').waitFor();
    const problems = await page.locator('.row-problems > li').allTextContents();
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('Line 6 (not-an-address): email must be an email address');
    expect(problems[1]).toMatch(
      /^Line 19 \(person17@example\.com\): language must be a language interviews are held in: en, nl, de, fr, es \(with or without a region, such as nl-BE\) Remove line 19$/,
    );
    expect(await page.getByRole('button', { name: 'Invite 30 participants' }).isDisabled()).toBe(true);
    expect(await invitesOf(campaignId)).toBe(0);
    await expectAccessible(page);
    await photograph('csv-bad-rows');
  });

  it('the fixed file invites all 30 in one batch; the same file again invites nobody twice', async () => {
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv(goodRows));
    await page.getByText('participants.csv: 30 participants, all rows valid; metadata columns: plan.').waitFor();
    await page.getByRole('button', { name: 'Invite 30 participants' }).click();
    await page.getByText('30 participants invited.').waitFor();
    expect(await page.locator('#csv-progress').getAttribute('value')).toBe('1');
    expect(await invitesOf(campaignId)).toBe(30);
    const [metadata] = await t
      .em()
      .execute<{ metadata: Record<string, unknown>; language: string; name: string }[]>(
        `select metadata, language, name from invites where campaign_id = ? and email = 'person1@example.com'`,
        [campaignId],
      );
    expect(metadata).toEqual({ metadata: { plan: 'pro' }, language: 'nl', name: 'Person 1, Jr.' });

    // Chosen again: the page warns that every address is invited already and leaves them out.
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv(goodRows));
    await page.getByText('30 addresses are already invited to this campaign').waitFor();
    expect(await page.getByRole('button', { name: 'Nobody to invite' }).isDisabled()).toBe(true);
    // Sent anyway (the warning overridden): the same batch has the same Idempotency-Key, and the
    // server answers it from the first import.
    await page.getByLabel('Leave them out (no second invite)').uncheck();
    await page.getByRole('button', { name: 'Invite 30 participants' }).click();
    await page.getByText('answered from the first import, nobody invited twice').waitFor();
    expect(await invitesOf(campaignId)).toBe(30);
  });

  it('a batch whose answer was lost is retried without inviting anyone twice', async () => {
    let lost = 0;
    await page.route('**/invites/bulk', async (route) => {
      if (lost > 0) return route.continue();
      lost++;
      // The server creates the invites, but the answer never reaches the page.
      await route.fetch();
      await route.abort('connectionreset');
    });
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv(['late1@example.com,Late One,en,pro', 'late2@example.com,Late Two,en,free']));
    await page.getByRole('button', { name: 'Invite 2 participants' }).click();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    expect(await invitesOf(campaignId)).toBe(32);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('answered from the first import, nobody invited twice').waitFor();
    expect(await invitesOf(campaignId)).toBe(32);
    await page.unroute('**/invites/bulk');
  });

  it('lists the invites with status and email status; resends one and cancels another', async () => {
    await page.reload();
    await page.getByRole('heading', { name: 'Invites' }).waitFor();
    await page.locator('tr[data-invite]').first().waitFor();
    expect(await page.getByText('1–25 of 32').count()).toBe(1);
    const first = page.locator('tr[data-invite="person0@example.com"]');
    await page.getByLabel('Status', { exact: true }).selectOption('pending');
    await page.getByText('1–25 of 32').waitFor();
    // Paging: person0 is on one of the two pages.
    if ((await first.count()) === 0) {
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('26–32 of 32').waitFor();
    }
    // The invite's own link, copied for sending by other means.
    await first.getByRole('button', { name: 'Copy link of person0@example.com' }).click();
    await page.getByText('The interview link of person0@example.com is copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/interview\/[\w-]+$/);
    await first.getByRole('button', { name: 'Resend to person0@example.com' }).click();
    await page.getByText('The invitation email to person0@example.com is queued again.').waitFor();
    await first.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog', { name: 'Cancel this invite?' }).getByRole('button', { name: 'Cancel the invite' }).click();
    await page.getByText('The invite of person0@example.com is cancelled').waitFor();
    const [row] = await t
      .em()
      .execute<{ status: string; cancelled_at: Date | null }[]>(
        `select status, cancelled_at from invites where campaign_id = ? and email = 'person0@example.com'`,
        [campaignId],
      );
    expect(row!.status).toBe('cancelled');
    expect(row!.cancelled_at).not.toBeNull();
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await expectAccessible(page);
    await photograph('participants');
  });

  it('creates a share link with a cap and an expiry, copies it, sees its respondents and closes it', async () => {
    await page.getByRole('navigation', { name: 'Campaign sections' }).getByRole('link', { name: 'Share links' }).click();
    await page.getByRole('heading', { name: 'New share link' }).waitFor();
    await page.getByLabel('Most participants (optional)').fill('0');
    await page.getByRole('button', { name: 'Create the link' }).click();
    await page.locator('#link-cap-error').waitFor();
    await page.getByLabel('Most participants (optional)').fill('25');
    await page.getByLabel('Expires after (optional)').fill('10d');
    await page.getByRole('button', { name: 'Create the link' }).click();
    const item = page.locator('li.share-link').first();
    await item.waitFor();
    const [link] = await t
      .em()
      .execute<{ id: string; max_respondents: number; expires_at: string; code: string }[]>(
        `select id, max_respondents, expires_at, code from share_links where campaign_id = ?`,
        [campaignId],
      );
    expect(link!.max_respondents).toBe(25);
    expect(Math.abs(new Date(link!.expires_at).getTime() - (Date.now() + 10 * 86_400_000))).toBeLessThan(120_000);
    const url = await item.locator('input').inputValue();
    expect(url).toBe(`${origin}/join/${link!.code}`);
    await item.getByText('0 started of at most 25').waitFor();

    await item.getByRole('button', { name: 'Copy the link' }).click();
    await page.getByText('The link is copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // A visitor opens the link: they are listed under the link.
    await t.http.get(new URL(url).pathname).expect(303);
    await item.getByRole('button', { name: 'See respondents' }).click();
    await item.getByRole('table', { name: 'Visitors of this link' }).waitFor();
    expect(await item.locator('tbody tr').count()).toBe(1);
    await expectAccessible(page);
    await photograph('share-links');

    await item.getByRole('button', { name: 'Close the link' }).click();
    await page.getByRole('dialog', { name: 'Close this share link?' }).getByRole('button', { name: 'Close it' }).click();
    await item.getByText('Link (closed)').waitFor();
    const [closed] = await t.em().execute<{ closed_at: Date | null }[]>(`select closed_at from share_links where id = ?`, [link!.id]);
    expect(closed!.closed_at).not.toBeNull();
  });

  it('a file over the bulk limit goes in batches of 500 with a progress bar', async () => {
    await page.getByRole('navigation', { name: 'Campaign sections' }).getByRole('link', { name: 'Participants' }).click();
    const rows = Array.from({ length: 501 }, (_, index) => `bulk${index}@example.com,Bulk ${index},en,team`);
    const sizes: number[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/invites/bulk')) sizes.push((JSON.parse(request.postData()!) as { invites: unknown[] }).invites.length);
    });
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(csv(rows));
    await page.getByRole('button', { name: 'Invite 501 participants' }).click();
    await page.getByText('501 participants invited.').waitFor();
    expect(await page.getByText('Sent 2 of 2 batches').count()).toBe(1);
    expect(await page.locator('#csv-progress').getAttribute('value')).toBe('2');
    expect(sizes).toEqual([500, 1]);
    // 32 from the imports before, 1 from the share link's visitor.
    expect(await invitesOf(campaignId)).toBe(33 + 501);
  });

  it('the results tab renders the results view; archive is confirmed and final', async () => {
    await page.getByRole('navigation', { name: 'Campaign sections' }).getByRole('link', { name: 'Results' }).click();
    await page.getByRole('heading', { name: 'Onboarding study, cohort B: Results' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/campaigns/${campaignId}/results`);
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('dialog', { name: 'Archive the campaign?' }).getByRole('button', { name: 'Archive it for good' }).click();
    await page.locator('.badge.status-archived').waitFor();
    expect(await page.getByRole('button', { name: 'Pause', exact: true }).count()).toBe(0);
    expect(await count(`select count(*) as n from campaigns where id = ? and status = 'archived'`, [campaignId])).toBe(1);
    await page.getByRole('navigation', { name: 'Campaign sections' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByText('The campaign is archived, which is final').waitFor();
    expect(pageErrors).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
