import { Readable } from 'node:stream';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../helpers/factories.js';
import { hasChromium, reportSkipped, screenshot } from '../helpers/browser.js';
import { type Dashboard, expectAccessible, photograph as photographIn, startDashboard } from '../helpers/dashboard-browser.js';
import { wav } from '../helpers/audio.js';
import { completedTextInterview, probedTextInterview, TEXT_ANSWERS } from '../helpers/results.js';
import type { TestApp, TestTenant } from '../helpers/test-app.js';

/**
 * The research dashboard (web/dashboard, built by Vite, served at /app) in a real Chromium: a
 * researcher signs in, finds a quote through search, highlights it, adds it to a collection,
 * redacts a span, edits a comment and the highlight, and rotates a webhook secret; the database
 * is checked after each step. Every main page is checked with axe-core and photographed at
 * 1280 px and 390 px under tests/artifacts.
 */
reportSkipped('dashboard-browser.test.ts');

// What the functions given to page.evaluate see in the browser (the project's types are Node's).
declare const document: any;
declare const window: any;

const EMAIL = 'researcher@example.com';

let t: TestApp;
let tenant: TestTenant;
let api: Api;
let dashboard: Dashboard;
let origin: string;
let context: BrowserContext;
let page: Page;
let sessionId: string;
let secondSessionId: string;
let endpointId: string;
const cspViolations: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!hasChromium) return;
  dashboard = await startDashboard({
    member: { email: EMAIL, role: 'owner', name: 'Rita Researcher' },
    env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    seed: async (app) => {
      ({ t, tenant, api } = app);
      await api.patch('/v1/organization', { name: 'Acme Research' }).expect(200);
      const first = await completedTextInterview(t, api);
      sessionId = first.sessionId;
      const second = await completedTextInterview(
        t,
        api,
        ['The mobile app crashed twice during the first week, which was frustrating.', ...TEXT_ANSWERS.slice(1)],
        { campaignId: first.campaign.id },
      );
      secondSessionId = second.sessionId;
      const endpoint = await api.post('/api/webhooks', { url: 'https://127.0.0.1:9/hooks', events: ['*'], design: 'B' }).expect(201);
      endpointId = endpoint.body.id;
    },
  });
  ({ origin } = dashboard);
  page = await dashboard.newPage({ cspViolations, pageErrors, acceptDialogs: true });
  context = page.context();
}, 180_000);

afterAll(async () => {
  await dashboard?.close();
});

const photograph = (name: string) => photographIn(page, `dashboard-${name}`);

/** Selects `words` in the transcript line `utteranceId` as a mouse would, and lets the page see it. */
async function selectWords(utteranceId: string, words: string): Promise<void> {
  await page.evaluate(
    ({ utteranceId, words }: { utteranceId: string; words: string }) => {
      const holder = document.querySelector(`[data-utterance-text="${utteranceId}"]`);
      const walker = document.createTreeWalker(holder, 4 /* NodeFilter.SHOW_TEXT */);
      const nodes: any[] = [];
      while (walker.nextNode()) nodes.push(walker.currentNode);
      const full = nodes.map((node) => node.data).join('');
      const start = full.indexOf(words);
      if (start < 0) throw new Error(`"${words}" not in "${full}"`);
      const at = (offset: number) => {
        let rest = offset;
        for (const node of nodes) {
          if (rest <= node.data.length) return { node, offset: rest };
          rest -= node.data.length;
        }
        throw new Error('offset past the end');
      };
      const range = document.createRange();
      const from = at(start);
      const to = at(start + words.length);
      range.setStart(from.node, from.offset);
      range.setEnd(to.node, to.offset);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      holder.dispatchEvent(new window.MouseEvent('mouseup', { bubbles: true }));
    },
    { utteranceId, words },
  );
}

async function utterance(id: string) {
  const [row] = await t.em().execute<{ id: string; text: string }[]>(`select id, text from session_utterances where id = ?`, [id]);
  return row!;
}

describe.skipIf(!hasChromium)('the research dashboard in Chromium', () => {
  // What the page looked like when a step failed.
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await screenshot(page, `dashboard-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });
  let answerId: string;
  let highlightId: string;

  it('signs in with email and password, and shows the campaigns', async () => {
    await page.goto(`${origin}/app/`);
    await page.getByRole('heading', { name: 'Sign in to the research dashboard' }).waitFor();
    await expectAccessible(page);
    await photograph('sign-in');
    await dashboard.signIn(page, { open: false });
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByText('Acme Research').waitFor();
    const [row] = await t.em().execute<{ last_sign_in_at: Date | null }[]>(`select last_sign_in_at from members where email = ?`, [EMAIL]);
    expect(row!.last_sign_in_at).not.toBeNull();
    // The refresh token is in the tab's sessionStorage; the access token only in memory.
    expect(await page.evaluate(() => window.sessionStorage.getItem('dashboard.refresh'))).toMatch(/\S{20,}/);
    expect(await page.evaluate(() => window.localStorage.length)).toBe(0);
    await page.getByRole('cell').first().waitFor();
    await expectAccessible(page);
    await photograph('campaigns');
  });

  it('opens a campaign with its statistics and sessions', async () => {
    await page.getByRole('row').nth(1).getByRole('link').click();
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    await page.getByRole('link', { name: 'Grace' }).first().waitFor();
    expect(await page.getByRole('row').count()).toBe(3);
    await page.getByRole('button', { name: 'Summarize the campaign' }).click();
    await page.getByText('2 sessions · built-in extractive summary').waitFor();
    await page.getByRole('button', { name: 'Export' }).click();
    const download = page.getByRole('link', { name: 'Download the anonymized export (2 sessions)' });
    await download.waitFor();
    expect(await download.getAttribute('href')).toMatch(new RegExp(`^${origin}/`));
    await expectAccessible(page);
    await photograph('campaign');
  });

  it('finds a quote through search, and opens the session at that utterance', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
    await page.getByLabel('Words or phrase').fill('broken links');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = page.locator('.hit').first();
    await hit.waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'match' }).textContent()).toMatch(/^1 match for “broken links”/);
    expect(await hit.locator('mark').allTextContents()).toEqual(expect.arrayContaining(['broken']));
    await expectAccessible(page);
    await photograph('search');
    await hit.getByRole('link').click();
    await page.getByRole('heading', { name: 'Transcript' }).waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe(`/app/sessions/${sessionId}`);
    answerId = url.searchParams.get('u')!;
    expect((await utterance(answerId)).text).toContain('broken links');
    // The utterance is scrolled to and focused.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`u-${answerId}`);
  });

  it('highlights the quote with a label and a colour', async () => {
    await selectWords(answerId, 'the onboarding emails had broken links');
    await page.getByRole('button', { name: 'Highlight…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Highlight the selection' });
    await dialog.getByLabel('Label').fill('Onboarding');
    await dialog.getByLabel('Green').check();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Save highlight' }).click();
    await page.locator('.highlight-chip', { hasText: 'Onboarding' }).waitFor();
    const text = (await utterance(answerId)).text;
    const rows = await t
      .em()
      .execute<{ id: string; start_offset: number; end_offset: number; label: string; color: string; author_name: string }[]>(
        `select id, start_offset, end_offset, label, color, author_name from highlights where utterance_id = ?`,
        [answerId],
      );
    const start = text.indexOf('the onboarding emails had broken links');
    expect(rows).toEqual([
      {
        id: expect.any(String),
        start_offset: start,
        end_offset: start + 'the onboarding emails had broken links'.length,
        label: 'Onboarding',
        color: '#86efac',
        author_name: 'Rita Researcher',
      },
    ]);
    highlightId = rows[0]!.id;
    expect(await page.locator(`[data-utterance-text="${answerId}"] mark`).textContent()).toBe('the onboarding emails had broken links');
  });

  it('adds the highlight to a new collection', async () => {
    await page.locator('.highlight-chip', { hasText: 'Onboarding' }).getByRole('button', { name: 'Add to collection' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to a collection' });
    await dialog.getByLabel('New collection').fill('Onboarding pains');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByText('Added to “Onboarding pains”.').waitFor();
    const items = await t
      .em()
      .execute<{ name: string; highlight_id: string; organization_id: string }[]>(
        `select c.name, i.highlight_id, i.organization_id from collection_items i join collections c on c.id = i.collection_id`,
      );
    expect(items).toEqual([{ name: 'Onboarding pains', highlight_id: highlightId, organization_id: tenant.organizationId }]);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it('redacts a span permanently after a confirmation', async () => {
    await selectWords(answerId, 'ada.lovelace@example.com');
    await page.getByRole('button', { name: 'Redact…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Redact permanently' });
    await dialog.getByText('This is permanent: it cannot be undone.').waitFor();
    await dialog.getByLabel('Reason (kept in the audit log)').fill('Participant email');
    await dialog.getByRole('button', { name: 'Redact permanently' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.locator(`[data-utterance-text="${answerId}"]`, { hasText: '[REDACTED]' }).waitFor();
    const text = (await utterance(answerId)).text;
    expect(text).toContain('reach me at [REDACTED] or');
    expect(text).not.toContain('lovelace');
    const [audit] = await t
      .em()
      .execute<{ count: number }[]>(`select count(*)::int as count from transcript_audit_log where utterance_id = ? and action = 'redact'`, [answerId]);
    expect(audit!.count).toBe(1);
    // The highlight still marks its words.
    expect(await page.locator(`[data-utterance-text="${answerId}"] mark`).textContent()).toBe('the onboarding emails had broken links');
  });

  it('redacts nothing when the line changed after the selection (409), says so and shows the transcript as it is now', async () => {
    const [other] = await t
      .em()
      .execute<{ id: string; text: string }[]>(
        `select id, text from session_utterances where session_id = ? and speaker = 'participant' and text like 'Support was quick%'`,
        [sessionId],
      );
    await selectWords(other!.id, 'reporting dashboard');
    await page.getByRole('button', { name: 'Redact…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Redact permanently' });
    // Meanwhile, the line changes (another researcher's redaction of an earlier word): the selected offsets now point elsewhere.
    const changed = other!.text.replace('Support', '[REDACTED]');
    await t.em().execute(`update session_utterances set text = ? where id = ?`, [changed, other!.id]);
    await dialog.getByRole('button', { name: 'Redact permanently' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Nothing was redacted' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Redact permanently' }).isDisabled()).toBe(true);
    // The session view was read again: the line shows its current text.
    await page.locator(`[data-utterance-text="${other!.id}"]`, { hasText: '[REDACTED] was quick' }).waitFor({ state: 'attached' });
    expect((await utterance(other!.id)).text).toBe(changed);
    const [audit] = await t.em().execute<{ count: number }[]>(`select count(*)::int as count from transcript_audit_log where utterance_id = ?`, [other!.id]);
    expect(audit!.count).toBe(0);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('region', { name: 'Selected words' }).getByRole('button', { name: 'Close' }).click();
  });

  it('overrides the sentiment of an utterance with an explicit Save (choosing alone changes nothing), shown with words', async () => {
    const line = page.locator(`#u-${answerId}`);
    const save = line.getByRole('button', { name: 'Save sentiment' });
    expect(await save.isDisabled()).toBe(true);
    // Arrowing through the list with the keyboard writes nothing.
    await line.getByLabel('Sentiment').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await line.getByLabel('Sentiment').selectOption('positive');
    await page.waitForTimeout(300);
    const [before] = await t
      .em()
      .execute<{ sentiment_override: string | null; audits: number }[]>(
        `select sentiment_override, (select count(*)::int from transcript_audit_log where utterance_id = u.id and action like 'sentiment%') as audits from session_utterances u where id = ?`,
        [answerId],
      );
    expect(before).toEqual({ sentiment_override: null, audits: 0 });
    expect(await save.isEnabled()).toBe(true);
    await save.click();
    await line.getByText('positive (set by a researcher)').waitFor();
    await expect.poll(() => save.isDisabled()).toBe(true);
    const [row] = await t.em().execute<{ sentiment_override: string }[]>(`select sentiment_override from session_utterances where id = ?`, [answerId]);
    expect(row!.sentiment_override).toBe('positive');
    const [audit] = await t
      .em()
      .execute<{ count: number }[]>(`select count(*)::int as count from transcript_audit_log where utterance_id = ? and action like 'sentiment%'`, [answerId]);
    expect(audit!.count).toBe(1);
    await expectAccessible(page);
    await photograph('session');
  });

  it("edits the member's own comment in place (Escape cancels, focus returns to Edit) and a highlight's label in the creation form", async () => {
    const line = page.locator(`#u-${answerId}`);
    await line.getByRole('button', { name: /^Comments \(/ }).click();
    await line.getByLabel('Comment on this line').fill('Broken links in the emails: check the templates.');
    await line.getByRole('button', { name: 'Post comment' }).click();
    const comment = line.locator('.comment', { hasText: 'Broken links in the emails' });
    await comment.waitFor();
    await comment.getByRole('button', { name: 'Edit comment' }).click();
    const field = line.getByLabel('Edit your comment');
    expect(await field.evaluate((element: any) => element === document.activeElement)).toBe(true);
    expect(await field.inputValue()).toBe('Broken links in the emails: check the templates.');
    // Escape cancels: nothing is saved, and focus is back on “Edit”.
    await field.fill('Not this');
    await page.keyboard.press('Escape');
    await field.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Edit comment');
    // Opened again from the keyboard, changed and saved.
    await page.keyboard.press('Enter');
    await field.fill('Broken links in the emails: check every template.');
    await expectAccessible(page);
    await photograph('session-edit-comment');
    await line.getByRole('button', { name: 'Save comment' }).click();
    await field.waitFor({ state: 'detached' });
    await comment.getByText('check every template.').waitFor();
    await comment.getByText('(edited', { exact: false }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Edit comment');
    const comments = await t
      .em()
      .execute<{ body: string; edited_at: Date | null }[]>(`select body, edited_at from comments where utterance_id = ?`, [answerId]);
    expect(comments).toEqual([{ body: 'Broken links in the emails: check every template.', edited_at: expect.anything() }]);

    await line
      .locator('.highlight-chip', { hasText: 'Onboarding' })
      .getByRole('button', { name: /^Edit highlight/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Edit the highlight' });
    expect(await dialog.getByLabel('Label').inputValue()).toBe('Onboarding');
    expect(await dialog.getByLabel('Green').isChecked()).toBe(true);
    await dialog.getByLabel('Label').fill('Onboarding emails');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await line.locator('.highlight-chip', { hasText: 'Onboarding emails' }).waitFor();
    const [highlight] = await t
      .em()
      .execute<{ label: string | null; color: string; note: string | null }[]>(`select label, color, note from highlights where id = ?`, [highlightId]);
    expect(highlight).toEqual({ label: 'Onboarding emails', color: '#86efac', note: null });
  });

  it('shows the collection with the quote', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collections' }).click();
    await page.getByRole('link', { name: 'Onboarding pains' }).click();
    await page.getByText('“the onboarding emails had broken links”').waitFor();
    await expectAccessible(page);
    await photograph('collection');
  });

  it('rotates a webhook secret and shows the new one once', async () => {
    const [before] = await t.em().execute<{ sealed_secret: string }[]>(`select sealed_secret from webhook_endpoints where id = ?`, [endpointId]);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'https://127.0.0.1:9/hooks' }).waitFor();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const secret = await page.getByLabel('New signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    const [after] = await t
      .em()
      .execute<{ sealed_secret: string; sealed_previous_secret: string | null; secret_rotated_at: Date | null }[]>(
        `select sealed_secret, sealed_previous_secret, secret_rotated_at from webhook_endpoints where id = ?`,
        [endpointId],
      );
    expect(after!.secret_rotated_at).not.toBeNull();
    expect(after!.sealed_secret).not.toBe(before!.sealed_secret);
    expect(t.runtime.services.webhookSecrets.open(after!.sealed_secret)).toBe(secret);
    // The new secret is in the Standard Webhooks format: the endpoint can switch to its signatures.
    const card = page.locator('article.endpoint', { has: page.getByRole('heading', { name: 'https://127.0.0.1:9/hooks' }) });
    await card.getByLabel('Signatures').selectOption('standard_webhooks');
    await card.getByText('Standard Webhooks signatures').waitFor();
    const [switched] = await t.em().execute<{ signature_scheme: string }[]>(`select signature_scheme from webhook_endpoints where id = ?`, [endpointId]);
    expect(switched!.signature_scheme).toBe('standard_webhooks');
    await page.getByRole('button', { name: 'Show deliveries' }).click();
    await page.getByText('No deliveries yet.').waitFor();
    // A test event, then sent again from the recent events (the events API's replay).
    await card.getByRole('button', { name: 'Send test event' }).click();
    await card.getByText(/Test event queued/).waitFor();
    const events = page.getByRole('region', { name: 'Recent events' });
    const testEvent = events.getByRole('row').filter({ hasText: 'test.webhook' }).first();
    await testEvent.waitFor();
    await testEvent.getByRole('button', { name: /^Send/ }).click();
    await testEvent.getByText(/Queued \(delivery whd_/).waitFor();
    const deliveries = await t
      .em()
      .execute<{ type: string; redelivery_of: string | null }[]>(
        `select e.type, d.redelivery_of from webhook_deliveries d join webhook_events e on e.id = d.event_id where d.endpoint_id = ? order by d.created_at`,
        [endpointId],
      );
    expect(deliveries).toEqual([
      { type: 'test.webhook', redelivery_of: null },
      { type: 'test.webhook', redelivery_of: null },
    ]);
    await expectAccessible(page);
    await photograph('webhooks');
  });

  it('compares two campaigns with charts', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Compare' }).click();
    for (const index of [1, 2]) {
      await page
        .getByRole('group', { name: `Segment ${index}` })
        .getByLabel('Campaign')
        .selectOption({ index: 1 });
    }
    await page.getByRole('group', { name: 'Segment 2' }).getByLabel('Label (optional)').fill('Same campaign');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.getByRole('heading', { name: 'Report' }).waitFor();
    expect(await page.locator('figure.chart svg[role="img"]').count()).toBeGreaterThanOrEqual(3);
    // The yes/no question's answers are words, not true/false.
    const descriptions = await page.locator('figure.chart desc').allTextContents();
    expect(descriptions.some((description) => /^Yes: .*; No: /.test(description))).toBe(true);
    expect(descriptions.filter((description) => /\b(true|false)\b/.test(description))).toEqual([]);
    await expectAccessible(page);
    await photograph('compare');
  });

  it('shows API keys, members and billing', async () => {
    for (const [link, heading] of [
      ['API keys', 'API keys'],
      ['Members', 'Members'],
      ['Billing', 'Billing'],
    ] as const) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page);
      await photograph(link.toLowerCase().replace(' ', '-'));
    }
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click();
    await page.getByRole('rowheader', { name: /Rita Researcher/ }).waitFor();
  });

  it("plays the recording in step with the transcript: a line's time seeks there, the line spoken is marked", async () => {
    // A recording of the whole session (as the merged audio is), each line 3 s after the previous one.
    await t.em().execute(`update session_utterances set start_time = seq * 3, end_time = seq * 3 + 2.5 where session_id = ?`, [secondSessionId]);
    const audio = wav(40);
    await t.runtime.services.storage.put('test/dashboard-recording', Readable.from(audio));
    await t.em().execute(
      `insert into session_files (id, organization_id, session_id, kind, name, content_type, size_bytes, duration_seconds, sha256, storage_key, created_at, updated_at)
       values ('fil_dashboardRecording00001', ?, ?, 'merged_audio', 'recording.wav', 'audio/wav', ?, 40, 'x', 'test/dashboard-recording', now(), now())`,
      [tenant.organizationId, secondSessionId, audio.length],
    );
    await page.goto(`${origin}/app/sessions/${secondSessionId}`);
    await page.getByRole('heading', { name: 'Transcript' }).waitFor();
    const lines = await t
      .em()
      .execute<{ id: string; start_time: number }[]>(`select id, start_time from session_utterances where session_id = ? and text is not null order by seq`, [
        secondSessionId,
      ]);
    const third = lines[2]!;
    await page
      .locator(`#u-${third.id}`)
      .getByRole('button', { name: `Play from 0:0${third.start_time}` })
      .click();
    await page.locator(`#u-${third.id}.playing`).waitFor();
    await page.locator(`#u-${third.id}`).getByText('Playing').waitFor();
    const position = await page.evaluate(() => document.querySelector('audio').currentTime);
    expect(position).toBeGreaterThanOrEqual(third.start_time);
    expect(position).toBeLessThan(third.start_time + 2.5);
    expect(await page.locator('.utterance.playing').count()).toBe(1);
    await page.evaluate(() => document.querySelector('audio').pause());
    await expectAccessible(page);
  });

  it('shows every highlight of a session, beyond the first page of 100', async () => {
    const [line] = await t
      .em()
      .execute<{ id: string }[]>(`select id from session_utterances where session_id = ? and speaker = 'participant' and text like 'Support was quick%'`, [
        secondSessionId,
      ]);
    await t.em().execute(
      `insert into highlights (id, organization_id, session_id, utterance_id, start_offset, end_offset, label, color, note, author_kind, author_id, author_name, created_at, updated_at)
       select 'hlt_bulk' || lpad(n::text, 4, '0'), ?, ?, ?, 0, 7, 'Bulk ' || n, '#fde047', null, 'api_key', ?, 'test key', now() - n * interval '1 second', now()
         from generate_series(1, 130) as n`,
      [tenant.organizationId, secondSessionId, line!.id, tenant.apiKeyId],
    );
    await page.goto(`${origin}/app/sessions/${secondSessionId}`);
    await page.getByRole('heading', { name: 'Transcript' }).waitFor();
    await expect.poll(() => page.locator(`#u-${line!.id} .highlight-chip`).count(), { timeout: 10_000 }).toBe(130);
    await page.locator(`#u-${line!.id} .highlight-chip`, { hasText: 'Bulk 130' }).waitFor();
    await t.em().execute(`delete from highlights where id like 'hlt_bulk%'`);
  });

  it('shows a collection 50 items at a time, the rest behind "Show more"', async () => {
    const [line] = await t
      .em()
      .execute<{ id: string }[]>(`select id from session_utterances where session_id = ? and speaker = 'participant' and text like 'Support was quick%'`, [
        secondSessionId,
      ]);
    const [collection] = await t
      .em()
      .execute<{ id: string }[]>(`select id from collections where organization_id = ? and name = 'Onboarding pains'`, [tenant.organizationId]);
    await t.em().execute(
      `insert into highlights (id, organization_id, session_id, utterance_id, start_offset, end_offset, label, color, note, author_kind, author_id, author_name, created_at, updated_at)
       select 'hlt_paged' || lpad(n::text, 4, '0'), ?, ?, ?, 0, 7, 'Paged ' || n, '#fde047', null, 'api_key', ?, 'test key', now(), now()
         from generate_series(1, 60) as n`,
      [tenant.organizationId, secondSessionId, line!.id, tenant.apiKeyId],
    );
    await t.em().execute(
      `insert into collection_items (collection_id, highlight_id, organization_id, note, added_by_kind, added_by_id, added_by_name, added_at)
       select ?, id, organization_id, null, 'api_key', ?, 'test key', now() from highlights where id like 'hlt_paged%' order by id`,
      [collection!.id, tenant.apiKeyId],
    );
    await page.goto(`${origin}/app/collections/${collection!.id}`);
    await page.getByRole('heading', { name: 'Onboarding pains' }).waitFor();
    await expect.poll(() => page.locator('.quote-card').count(), { timeout: 10_000 }).toBe(50);
    await page.getByRole('button', { name: 'Show more (50 of 61)' }).click();
    await expect.poll(() => page.locator('.quote-card').count(), { timeout: 10_000 }).toBe(61);
    await page.locator('.quote-card', { hasText: 'Paged 60' }).waitFor();
    expect(await page.getByRole('button', { name: /Show more/ }).count()).toBe(0);
    await t.em().execute(`delete from highlights where id like 'hlt_paged%'`);
  });

  it('highlights words chosen in the line field at the stored offsets when the text has CRLF line breaks', async () => {
    const [line] = await t
      .em()
      .execute<{ id: string }[]>(`select id from session_utterances where session_id = ? and speaker = 'participant' and text like 'In-app chat%'`, [
        secondSessionId,
      ]);
    const text = 'First line\r\nSecond line\r\nThird line with the words to keep';
    await t.em().execute(`update session_utterances set text = ? where id = ?`, [text, line!.id]);
    await page.goto(`${origin}/app/sessions/${secondSessionId}`);
    await page.locator(`#u-${line!.id}`).getByRole('button', { name: 'Annotate' }).click();
    const field = page.getByLabel('Select the words in this line');
    await field.waitFor();
    // The last 13 characters selected in the field (whose value has LF line breaks only), then a key released, as after Shift+arrows.
    await field.focus();
    await field.evaluate((element: any) => element.setSelectionRange(element.value.length - 'words to keep'.length, element.value.length));
    await page.keyboard.press('Shift');
    await page.getByRole('region', { name: 'Selected words' }).getByText('Selected: “words to keep”', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Highlight…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Highlight the selection' });
    await dialog.getByLabel('Label').fill('CRLF');
    await dialog.getByRole('button', { name: 'Save highlight' }).click();
    await page.locator('.highlight-chip', { hasText: 'CRLF' }).waitFor();
    const [row] = await t
      .em()
      .execute<{ start_offset: number; end_offset: number }[]>(`select start_offset, end_offset from highlights where utterance_id = ? and label = 'CRLF'`, [
        line!.id,
      ]);
    const start = text.indexOf('words to keep');
    expect(row).toEqual({ start_offset: start, end_offset: start + 'words to keep'.length });
    expect(await page.locator('.highlight-chip', { hasText: 'CRLF' }).textContent()).toContain('“words to keep”');
    expect(await page.locator(`[data-utterance-text="${line!.id}"] mark`).textContent()).toBe('words to keep');
  });

  it('shows why each follow-up was asked: "Probe", its reason and the words it picked up', async () => {
    // Its own campaign, so the campaign pages above keep their two sessions.
    const probed = await probedTextInterview(t, api);
    const [followUp] = await t
      .em()
      .execute<{ id: string; probe: { reason: string } }[]>(`select id, probe from session_utterances where session_id = ? and kind = 'follow_up'`, [
        probed.sessionId,
      ]);
    await page.goto(`${origin}/app/sessions/${probed.sessionId}`);
    await page.getByRole('heading', { name: 'Transcript' }).waitFor();
    const note = page.locator(`#u-${followUp!.id} .probe-note`);
    await note.waitFor();
    expect(await note.locator('[aria-hidden="true"]').textContent()).toMatch(/^Probe · /);
    expect(await page.locator('.probe-note').count()).toBe(1);

    // As an LLM's probe is recorded (tests/interviewer/probe-ledger.test.ts drives that through the API): a reason and the participant's words.
    await t
      .em()
      .execute(`update session_utterances set probe = ?::jsonb where id = ?`, [
        JSON.stringify({ reason: 'problem', pickedUp: 'gave up after two tries', source: 'llm', probeNumber: 1 }),
        followUp!.id,
      ]);
    await page.reload();
    await note.waitFor();
    expect(await note.locator('[aria-hidden="true"]').textContent()).toBe('Probe · problem · “gave up after two tries”');
    expect(await note.locator('.visually-hidden').textContent()).toBe(
      "Probe 1, reason: problem, picking up the participant's words “gave up after two tries”; worded by the LLM.",
    );
    await note.scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await photograph('session-probe');
  });

  it('shows “Page not found” for an address that is not valid percent-encoding', async () => {
    await page.evaluate(() => {
      window.history.pushState(null, '', '/app/sessions/%E0');
      window.dispatchEvent(new window.PopStateEvent('popstate'));
    });
    await page.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor();
  });

  it('a duplicated tab (its sessionStorage copied) and a reload of the first, minutes later, keep the sign-in', async () => {
    await page.goto(`${origin}/app/members`);
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    // Duplicating a tab copies its sessionStorage: the copy starts with the same single-use refresh token.
    const stored = (await page.evaluate(() => ({ ...window.sessionStorage }))) as Record<string, string>;
    const copy = await context.newPage();
    try {
      await copy.addInitScript((items: Record<string, string>) => {
        if (window.sessionStorage.getItem('test.copied')) return;
        for (const [key, value] of Object.entries(items)) window.sessionStorage.setItem(key, value);
        window.sessionStorage.setItem('test.copied', '1');
      }, stored);
      await copy.goto(`${origin}/app/members`);
      await copy.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
      // Minutes later, as far as the server can tell: any token spent so far is past the grace window.
      await t.em().execute(`update refresh_tokens set used_at = used_at - interval '5 minutes' where used_at is not null`);
      await page.reload();
      await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
      await copy.reload();
      await copy.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
      const [row] = await t
        .em()
        .execute<{ reused: number }[]>(
          `select count(*)::int as reused from member_sessions s join members m on m.id = s.member_id where m.email = ? and s.revoked_reason = 'refresh_token_reused'`,
          [EMAIL],
        );
      expect(row!.reused).toBe(0);
    } finally {
      await copy.close();
    }
  });

  it('keeps the sign-in across a reload (refresh token), and signs out', async () => {
    await page.goto(`${origin}/app/members`);
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the research dashboard' }).waitFor();
    expect(await page.evaluate(() => window.sessionStorage.getItem('dashboard.refresh'))).toBeNull();
    const [row] = await t
      .em()
      .execute<{ signed_out: number }[]>(
        `select count(*)::int as signed_out from member_sessions s join members m on m.id = s.member_id where m.email = ? and s.revoked_reason = 'sign_out'`,
        [EMAIL],
      );
    expect(row!.signed_out).toBe(1);
  });

  it('signs out in the page even when the server cannot be reached: tokens dropped, sign-in form shown', async () => {
    await dashboard.signIn(page, { open: false });
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await page.route('**/trpc/auth.signOut**', (route) => route.abort());
    try {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in to the research dashboard' }).waitFor();
      expect(await page.evaluate(() => window.sessionStorage.getItem('dashboard.refresh'))).toBeNull();
    } finally {
      await page.unroute('**/trpc/auth.signOut**');
    }
  });

  it('ran without script errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
