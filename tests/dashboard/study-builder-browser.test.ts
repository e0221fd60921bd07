import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, reportSkipped, screenshot, screenshotTo } from '../helpers/browser.js';
import { type Dashboard, expectAccessible, photograph as photographIn, startDashboard } from '../helpers/dashboard-browser.js';
import { twoBandPng } from '../helpers/images.js';
import { wav } from '../helpers/audio.js';
import type { TestApp, TestTenant } from '../helpers/test-app.js';

/**
 * The study builder (issue 31, item 1) in a real Chromium: a researcher starts a study from an
 * empty organization, builds four questions of the four types (a live field error shown before
 * saving), reorders them with the keyboard, attaches an image with alt text, saves, publishes,
 * makes a second version and reads what changed, exports the script and imports it again. The
 * database is checked after each step; every page is checked with axe-core and photographed at
 * 1280 px and 390 px under tests/artifacts.
 */
reportSkipped('study-builder-browser.test.ts');

declare const document: any;

const EMAIL = 'builder@example.com';

let t: TestApp;
let tenant: TestTenant;
let dashboard: Dashboard;
let page: Page;
let scriptId: string;
let exported: string;
const pageErrors: string[] = [];
const cspViolations: string[] = [];

beforeAll(async () => {
  if (!hasChromium) return;
  dashboard = await startDashboard({ member: { email: EMAIL, role: 'owner', name: 'Bea Builder' } });
  ({ t, tenant } = dashboard);
  page = await dashboard.newPage({ context: { acceptDownloads: true }, timeout: 10_000, cspViolations, pageErrors, acceptDialogs: true });
}, 180_000);

afterAll(async () => {
  await dashboard?.close();
});

/** Photographs the page at 1280 px and at 390 px (where nothing may make the page scroll sideways). */
const photograph = (name: string, options?: Parameters<typeof photographIn>[2]) => photographIn(page, `study-builder-${name}`, options);

async function versions(id: string) {
  return t.em().execute<
    {
      version: number;
      status: string;
      changelog: string | null;
      questions: { id: string; type: string; text: string; order: number; options?: string[]; scale?: unknown; followUp?: unknown }[];
    }[]
  >(`select version, status, changelog, questions from script_versions where script_id = ? order by version`, [id]);
}

const question = (position: number) => page.locator('.question-card').nth(position - 1);

describe.skipIf(!hasChromium)('the study builder in Chromium', () => {
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await screenshot(page, `study-builder-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });

  it('starts a study from the empty campaigns page: a name makes a draft script and opens its editor', async () => {
    await dashboard.signIn(page);
    await page.getByText('No campaigns yet.').waitFor();
    await page.locator('.page-heading').getByRole('link', { name: 'New study' }).click();
    await page.getByRole('heading', { name: 'New study', level: 1 }).waitFor();
    // Nothing is sent while the name is empty: the API's own message is shown beside the field.
    await page.getByRole('button', { name: 'Create the draft and edit it' }).click();
    expect(await page.locator('#field-name-error').textContent()).toBe('must not be empty');
    await expectAccessible(page);
    await photograph('new-study');
    await page.getByLabel('Study name').fill('Onboarding study');
    await page.getByRole('button', { name: 'Create the draft and edit it' }).click();
    await page.getByRole('heading', { name: 'Onboarding study', level: 1 }).waitFor();
    scriptId = new URL(page.url()).pathname.split('/').at(-1)!;
    expect(scriptId).toMatch(/^scr_/);
    const [script] = await t
      .em()
      .execute<{ name: string; status: string; organization_id: string }[]>(`select name, status, organization_id from scripts where id = ?`, [scriptId]);
    expect(script).toEqual({ name: 'Onboarding study', status: 'draft', organization_id: tenant.organizationId });
    expect((await versions(scriptId)).map((row) => [row.version, row.status, row.questions.length])).toEqual([[1, 'draft', 1]]);
  });

  it('builds four questions of the four types, showing the API’s field messages live, before anything is saved', async () => {
    await page.getByLabel('System prompt').fill('You are a warm, neutral interviewer. Ask one question at a time.');
    await page.getByLabel('Question 1 text').fill('How did you first hear about us?');
    await question(1).getByLabel('Depth').selectOption('deep');
    await question(1).getByLabel('What to probe for (optional)').fill('Ask for the moment they decided to try it.');

    await page.getByRole('button', { name: 'Add a question' }).click();
    // A box just added is not a mistake yet: no message until the researcher has been in it.
    const textError = page.locator('#field-questions-1-text-error');
    await page.getByLabel('Question 2 text').focus();
    expect(await textError.count()).toBe(0);
    expect(await page.locator('.save-problems').count()).toBe(0);
    // Left empty: the same message the API answers, beside the field; the list names the place in words.
    await page.getByLabel('Question 1 text').focus();
    await textError.waitFor();
    expect(await textError.textContent()).toBe('must not be empty');
    expect(await page.getByLabel('Question 2 text').getAttribute('aria-describedby')).toBe('field-questions-1-text-error');
    expect(await page.locator('.save-problems li').allTextContents()).toEqual(['Question 2, text: must not be empty']);
    await page.getByRole('link', { name: 'Question 2, text' }).waitFor();
    // On a phone, the sticky save bar with its list does not cover the field being edited.
    await photograph('problems', {
      at390: async () => {
        const field = page.getByLabel('Question 2 text');
        await field.focus();
        await field.evaluate((element) => element.scrollIntoView({ block: 'center' }));
        const fieldBox = (await field.boundingBox())!;
        const barBox = (await page.locator('.save-bar').boundingBox())!;
        expect(fieldBox.y + fieldBox.height).toBeLessThanOrEqual(barBox.y);
        await screenshotTo(page, path.join(process.cwd(), 'tests', 'artifacts', 'study-builder-problems-in-view-390.png'), {});
      },
    });
    // Saving is refused in words, and nothing is sent.
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Fix the problem listed above the save buttons first.').waitFor();
    await page.getByLabel('Question 2 text').fill('How easy was it to get started?');
    await textError.waitFor({ state: 'detached' });
    await question(2).getByLabel('Answer type').selectOption('rating');
    await question(2).getByLabel('Lowest rating').fill('5');
    await question(2).getByLabel('Highest rating').fill('4');
    expect(await page.locator('#field-questions-1-scale-max-error').textContent()).toBe('min must be below max');
    await question(2).getByLabel('Lowest rating').fill('0');
    await question(2).getByLabel('Highest rating').fill('10');
    await question(2).getByLabel('Label of the lowest (optional)').fill('Very hard');
    await question(2).getByLabel('Label of the highest (optional)').fill('Very easy');

    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByLabel('Question 3 text').fill('Where did you look for help?');
    await question(3).getByLabel('Answer type').selectOption('multiple_choice');
    // The two empty option boxes that come with the type are not problems until touched.
    expect(await page.locator('#field-questions-2-options-0-error').count()).toBe(0);
    expect(await page.locator('.save-problems').count()).toBe(0);
    await question(3).getByLabel('Option 1', { exact: true }).fill('The help centre');
    await question(3).getByLabel('Option 2', { exact: true }).fill('the help centre');
    expect(await page.locator('#field-questions-2-options-error').textContent()).toBe('must be unique');
    await question(3).getByLabel('Option 2', { exact: true }).fill('A colleague');
    await question(3).getByRole('button', { name: 'Add an option' }).click();
    await question(3).getByLabel('Option 3', { exact: true }).fill('Nowhere');

    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByLabel('Question 4 text').fill('Would you recommend us to a colleague?');
    await question(4).getByLabel('Answer type').selectOption('yes_no');
    await page.getByText('Unsaved changes.').waitFor();
    expect(await page.locator('.field-error').count()).toBe(0);
    // Nothing is saved yet.
    expect((await versions(scriptId))[0]!.questions.map((row) => row.text)).toEqual(['To start, tell me a little about how you use the product today.']);
    await expectAccessible(page);
  });

  it('reorders with the keyboard (focus stays on the moved question) and by dragging, then saves the draft', async () => {
    await page.getByRole('button', { name: 'Move question 4 up' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.getByLabel('Question 3 text').inputValue()).toBe('Would you recommend us to a colleague?');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move question 3 up');
    await page.getByRole('status').filter({ hasText: 'moved to position 3 of 4' }).waitFor({ state: 'attached' });
    // Down from the top: focus follows it to its new place.
    await page.getByRole('button', { name: 'Move question 1 down' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move question 2 down');
    expect(await page.getByLabel('Question 2 text').inputValue()).toBe('How did you first hear about us?');
    // Dragged back to the top by its handle.
    // (Moved in steps, as a hand does: Chromium starts an HTML drag only after the pointer travels.)
    await question(2).locator('.drag-handle').hover();
    await page.mouse.down();
    const target = (await question(1).locator('.drag-handle').boundingBox())!;
    await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 8 });
    await question(1).locator('.drag-handle').hover();
    await page.mouse.up();
    expect(await page.getByLabel('Question 1 text').inputValue()).toBe('How did you first hear about us?');

    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft v1 saved.').waitFor();
    await page.getByText('All changes saved.').waitFor();
    const [v1] = await versions(scriptId);
    expect(v1!.status).toBe('draft');
    expect(v1!.questions.map((row) => [row.id, row.type, row.order])).toEqual([
      ['q1', 'open', 1],
      ['q2', 'rating', 2],
      ['q4', 'yes_no', 3],
      ['q3', 'multiple_choice', 4],
    ]);
    expect(v1!.questions[0]!.followUp).toEqual({ depth: 'deep', prompt: 'Ask for the moment they decided to try it.' });
    expect(v1!.questions[1]!.scale).toEqual({ min: 0, max: 10, minLabel: 'Very hard', maxLabel: 'Very easy' });
    expect(v1!.questions[3]!.options).toEqual(['The help centre', 'A colleague', 'Nowhere']);
  });

  it('uploads an image with alt text to a question, and shows it', async () => {
    const rating = question(2);
    await rating.getByLabel('Add an image or audio clip').setInputFiles({ name: 'effort-scale.png', mimeType: 'image/png', buffer: twoBandPng(48, 32) });
    await rating.getByText('Describe the image for participants who cannot see it.').waitFor();
    expect(await rating.getByRole('button', { name: 'Upload to question 2' }).isDisabled()).toBe(true);
    await rating.getByLabel('Alt text (what the image shows)').fill('A scale from very hard (blue) to very easy (orange)');
    await rating.getByRole('button', { name: 'Upload to question 2' }).click();
    const image = rating.getByRole('img', { name: 'A scale from very hard (blue) to very easy (orange)' });
    await image.waitFor();
    await expect.poll(() => image.evaluate((element: any) => element.naturalWidth)).toBe(48);
    const media = await t
      .em()
      .execute<{ question_id: string; alt: string; kind: string; organization_id: string }[]>(
        `select question_id, alt, kind, organization_id from script_media where script_id = ?`,
        [scriptId],
      );
    expect(media).toEqual([
      { question_id: 'q2', alt: 'A scale from very hard (blue) to very easy (orange)', kind: 'image', organization_id: tenant.organizationId },
    ]);
    // Media are attached by question id: it is fixed now.
    await rating.getByText('More settings of question 2').click();
    expect(await rating.getByLabel('Question ID').getAttribute('readonly')).not.toBeNull();
    await expectAccessible(page);
    await photograph('editor');
  });

  it('previews an audio clip in its own player and removes it again', async () => {
    const first = question(1);
    await first.getByLabel('Add an image or audio clip').setInputFiles({ name: 'chime.wav', mimeType: 'audio/wav', buffer: wav(0.5) });
    await first.getByLabel('Alt text (what it shows or says)').fill('A short chime');
    await first.getByRole('button', { name: 'Upload to question 1' }).click();
    await first.locator('audio[aria-label="A short chime"]').waitFor();
    const count = async () =>
      (await t.em().execute<{ count: number }[]>(`select count(*)::int as count from script_media where script_id = ? and question_id = 'q1'`, [scriptId]))[0]!
        .count;
    expect(await count()).toBe(1);
    await first.getByRole('button', { name: 'Remove chime.wav' }).click();
    await first.getByText('No image or audio yet.').waitFor();
    expect(await count()).toBe(0);
  });

  it('publishes, then an edit opens version 2 with a note, and “what changed” says it in words', async () => {
    await page.getByRole('button', { name: 'Publish v1' }).click();
    await page.getByText('v1 published: new campaigns use it.').waitFor();
    // The next step: a new campaign with this script chosen.
    expect(await page.getByRole('link', { name: 'Run it as a campaign' }).getAttribute('href')).toBe(
      `/app/campaigns/new?scriptId=${encodeURIComponent(scriptId)}`,
    );
    const [script] = await t
      .em()
      .execute<{ status: string; published_version: number }[]>(`select status, published_version from scripts where id = ?`, [scriptId]);
    expect(script).toEqual({ status: 'published', published_version: 1 });

    await page.getByLabel('Question 1 text').fill('How did you first hear about our product?');
    await page.getByRole('button', { name: 'Remove question 4' }).click();
    await page.getByLabel('Note for draft v2 (optional)').fill('Shorter: no help question');
    await page.getByRole('button', { name: 'Save as draft v2' }).click();
    await page.getByText('Saved as a new draft, v2.').waitFor();
    const rows = await versions(scriptId);
    expect(rows.map((row) => [row.version, row.status, row.changelog, row.questions.length])).toEqual([
      [1, 'published', null, 4],
      [2, 'draft', 'Shorter: no help question', 3],
    ]);

    const diff = page.getByRole('region', { name: 'What changed' });
    await diff.getByText('From v1 to v2:').waitFor();
    expect(await diff.getByRole('listitem').allTextContents()).toEqual([
      'Question “How did you first hear about our product?” (q1) changed: text from “How did you first hear about us?” to “How did you first hear about our product?”.',
      'Question “Where did you look for help?” (q3) removed (it was at position 4).',
    ]);
    await expectAccessible(page);
    await photograph('versions');
  });

  it('"Preview as participant" opens the real interview page on a preview invite, in a new tab', async () => {
    const opening = page.context().waitForEvent('page');
    await page.getByRole('button', { name: 'Preview as participant' }).click();
    const preview = await opening;
    await preview.waitForLoadState('domcontentloaded');
    await preview.getByText('Preview: this interview is not recorded in results and costs no credits').first().waitFor();
    expect(preview.url()).toMatch(/\/interview\/[\w-]+$/);
    // The link is shown on the editor's page too, and the invite lives on the script's hidden preview campaign.
    expect(await page.locator('p.notice a').first().getAttribute('href')).toBe(preview.url());
    const campaigns = await t
      .em()
      .execute(
        `select c.preview, count(i.id)::int as invites from campaigns c join invites i on i.campaign_id = c.id where c.script_id = ? group by c.preview`,
        [scriptId],
      );
    expect(campaigns).toEqual([{ preview: true, invites: 1 }]);
    await preview.close();
  });

  it('exports the script as a JSON file and imports it as a new draft (a bad file is refused by path first)', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export JSON' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('onboarding-study-v2.json');
    exported = await readFile((await download.path())!, 'utf8');
    const data = JSON.parse(exported);
    expect(data).toMatchObject({ format: 'interview-script', formatVersion: 1, source: { scriptId, version: 2 }, script: { name: 'Onboarding study' } });
    expect(data.script.questions.map((row: { id: string }) => row.id)).toEqual(['q1', 'q2', 'q4']);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Scripts' }).click();
    await page
      .getByRole('row', { name: /Onboarding study/ })
      .getByText('v1 published, draft v2 open')
      .waitFor();
    await expectAccessible(page);
    await photograph('scripts');

    await page.locator('.page-heading').getByRole('link', { name: 'New study' }).click();
    const broken = structuredClone(data);
    broken.script.questions[1].text = '  ';
    broken.script.questions[2].type = 'maybe';
    const brokenFile = path.join(tmpdir(), `broken-${Date.now()}.json`);
    await writeFile(brokenFile, JSON.stringify(broken));
    await page.getByLabel('Script file (JSON, as “Export JSON” saves it)').setInputFiles(brokenFile);
    const problems = page.locator('#import-problems');
    await problems.waitFor();
    expect(await problems.getByRole('listitem').allTextContents()).toEqual([
      'script.questions[1].text: must not be empty',
      'script.questions[2].type: must be one of: "open", "rating", "multiple_choice", "yes_no"',
    ]);
    expect(await page.getByRole('button', { name: 'Import as a new draft' }).isDisabled()).toBe(true);
    await expectAccessible(page);
    await photograph('import-errors');

    await page
      .getByLabel('Script file (JSON, as “Export JSON” saves it)')
      .setInputFiles({ name: 'onboarding-study-v2.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
    await page.getByText('“Onboarding study”: 3 questions, ready to import as a new draft.').waitFor();
    await page.getByRole('button', { name: 'Import as a new draft' }).click();
    await page.getByText('Draft v1, not published yet.').waitFor();
    const importedId = new URL(page.url()).pathname.split('/').at(-1)!;
    expect(importedId).not.toBe(scriptId);
    const [imported] = await versions(importedId);
    expect(imported!.questions).toEqual(data.script.questions);
    const [count] = await t.em().execute<{ count: number }[]>(`select count(*)::int as count from scripts where organization_id = ?`, [tenant.organizationId]);
    expect(count!.count).toBe(2);
    expect(pageErrors).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
