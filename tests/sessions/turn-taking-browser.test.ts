import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, reportSkipped, screenshot, seriousAxeViolations } from '../helpers/browser.js';
import { type Dashboard, startDashboard } from '../helpers/dashboard-browser.js';
import { interviewFixture, PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { RESULTS_QUESTIONS, runCompletionChain, TEXT_ANSWERS } from '../helpers/results.js';

/**
 * The dashboard's session view of a voice interview (issue "Voice-first interviews", turn-taking
 * you can see), in a real Chromium: the session's turn-taking summary and each interviewer turn's
 * response time beside it, checked with axe-core and photographed at 1280 px and 390 px under
 * tests/artifacts (`dashboard-turn-taking-*`).
 */
reportSkipped('turn-taking-browser.test.ts');

declare const document: any;

const EMAIL = 'latency-researcher@example.com';
/** The participant's clock: any epoch, the figures are differences. */
const T0 = 1_750_000_000_000;

let dashboard: Dashboard;
let origin: string;
let page: Page;
let sessionId: string;

/** Interviewer turns 2..5 start speaking this long after the answer before them ended. */
const LATENCIES = [850, 1300, 1100, 2400];

beforeAll(async () => {
  if (!hasChromium) return;
  dashboard = await startDashboard({
    member: { email: EMAIL, role: 'owner', name: 'Rita Researcher' },
    env: PARTICIPANT_BUDGET,
    seed: ({ t, api }) => seedVoiceInterview(t, api),
  });
  origin = dashboard.origin;
  page = await dashboard.newPage();
}, 180_000);

afterAll(async () => {
  await dashboard?.close();
});

async function seedVoiceInterview(t: Dashboard['t'], api: Dashboard['api']): Promise<void> {
  // A voice interview: every answer carries the page's timing report.
  const { invite } = await interviewFixture(api, { questions: RESULTS_QUESTIONS });
  const participant = participantAs(t.http, invite.token);
  const started = await participant.start().expect(201);
  sessionId = started.body.session.id;
  let state = started.body;
  let spokeUntil: number | null = null;
  for (const [index, answer] of TEXT_ANSWERS.entries()) {
    if (state.turn === null) break;
    const speechEndedAt = T0 + (index + 1) * 30_000;
    const voiceTiming = {
      speechEndedAt,
      endOfTurnAt: speechEndedAt + 700,
      aiAudioStartedAt: spokeUntil === null ? T0 + 2_000 : spokeUntil + LATENCIES[index - 1]!,
      // The participant went on after the first answer was ended for them; they spoke over the third question.
      ...(index === 1 ? { previousCutOff: true } : {}),
      ...(index === 2 ? { bargeIn: true } : {}),
    };
    state = (await participant.answer(answer, { voiceTiming }).expect(200)).body;
    spokeUntil = speechEndedAt;
  }
  expect(state.session.status).toBe('completed');
  await runCompletionChain(t, sessionId);
}

describe.skipIf(!hasChromium)("the dashboard's session view of a voice interview", () => {
  it('shows the turn-taking summary and each response time beside its interviewer turn, at 1280 and 390 px', async () => {
    await dashboard.signIn(page);
    await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
    await page.goto(`${origin}/app/sessions/${sessionId}`);
    const summary = page.getByRole('region', { name: 'Turn-taking' });
    await summary.waitFor();
    // Nearest rank over 850, 1100, 1300, 2400 ms: the 2nd and the 4th.
    expect(await summary.locator('dt').allTextContents()).toEqual(['Response time, median', 'Response time, 95th percentile', 'Cut-offs', 'Barge-ins']);
    expect(await summary.locator('dd').allTextContents()).toEqual(['1.1 s', '2.4 s', '1', '1']);
    await page.getByText('over 4 measured turns').waitFor();
    expect(await page.locator('.utterance.ai .latency-badge').allTextContents()).toEqual([
      'Responded in 850 ms',
      'Responded in 1.3 s',
      'Responded in 1.1 s',
      'Responded in 2.4 s',
    ]);
    expect(await page.locator('.utterance.ai .barge-in-badge').count()).toBe(1);
    expect(await page.locator('.utterance.participant .cut-off-badge').count()).toBe(1);
    expect(await page.locator('.utterance.ai').first().locator('.server-times').count()).toBe(0);
    expect(await page.locator('.utterance.ai').nth(1).locator('.server-times').textContent()).toMatch(/^Server: interviewer \d+ ms$/);

    const violations = await seriousAxeViolations(page.mainFrame());
    expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    await screenshot(page, 'dashboard-turn-taking-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(150);
    await screenshot(page, 'dashboard-turn-taking-390');
    // Nothing makes the phone's page scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
