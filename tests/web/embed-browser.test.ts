import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSdkVersion } from '../../server/web/build-web-assets.js';
import { type Api, apiAs, createInvite } from '../helpers/factories.js';
import { hasChromium, hasEspeak, launchChromium, reportSkipped, screenshot, seriousAxeViolations, speechWav, startHostSite } from '../helpers/browser.js';
import { FOUR_QUESTIONS, interviewFixture } from '../helpers/interviews.js';
import { freePort } from '../helpers/processes.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * The embed SDK and the interview page in a real Chromium: a customer's page on one origin
 * (localhost) embeds the SDK from the service's origin (127.0.0.1) with three lines of code, and
 * a participant takes the interview by typing, clicking and speaking (a fake microphone playing
 * espeak-ng speech). Every screen is checked with axe-core and photographed under tests/artifacts.
 */
reportSkipped('embed-browser.test.ts');

// What the functions given to page.evaluate see in the browser (the project's types are Node's).
declare const window: any;
declare const document: any;
declare function getComputedStyle(element: unknown): { height: string; borderRadius: string; borderTopWidth: string };
type EventListenerOrEventListenerObject = unknown;
type AddEventListenerOptions = unknown;
type EventListenerOptions = unknown;

let t: TestApp;
let tenant: TestTenant;
let api: Api;
let service: Server;
let serviceOrigin: string;
let host: Awaited<ReturnType<typeof startHostSite>>;
let browser: Browser;
let workDir: string;
let sdkVersion: string;

const EVENT_TYPES = ['start', 'progress', 'pause', 'resume', 'completed', 'error'];

beforeAll(async () => {
  if (!hasChromium) return;
  const port = await freePort();
  serviceOrigin = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PUBLIC_URL: serviceOrigin, RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' });
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  service = createServer(t.app);
  await new Promise<void>((resolve) => service.listen(port, '127.0.0.1', resolve));
  sdkVersion = await readSdkVersion();
  // The customer's page: the SDK from the service, and nothing else of the service's.
  host = await startHostSite(
    () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Customer site</title></head>
<body><h1>Customer site</h1><div id="interview"></div><div id="second"></div>
<script src="${serviceOrigin}/sdk/v${sdkVersion}/interview-sdk.js"></script>
</body></html>`,
  );
  workDir = await mkdtemp(path.join(tmpdir(), 'embed-browser-'));
  const audioFile = path.join(workDir, 'answer.wav');
  if (hasEspeak) speechWav('My first week went well. The setup guide was clear and the team helped me.', audioFile);
  browser = await launchChromium(hasEspeak ? { audioFile } : {});
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => service?.close(resolve));
  await host?.close();
  await t?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

interface Opened {
  context: BrowserContext;
  page: Page;
  /** Every URL the browser asked for. */
  requests: string[];
  /** Console messages about the Content-Security-Policy. */
  cspViolations: string[];
}

/** The customer's page in a fresh context, with counters on the window's message listeners. */
async function openHostPage(options: { fakeClock?: boolean } = {}): Promise<Opened> {
  const context = await browser.newContext();
  const requests: string[] = [];
  const cspViolations: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await page.addInitScript(() => {
    const counts = { added: 0, removed: 0 };
    (window as unknown as { messageListeners: typeof counts }).messageListeners = counts;
    const add = window.addEventListener.bind(window);
    const remove = window.removeEventListener.bind(window);
    window.addEventListener = ((type: string, ...rest: [EventListenerOrEventListenerObject, AddEventListenerOptions?]) => {
      if (type === 'message') counts.added++;
      add(type, ...rest);
    }) as typeof window.addEventListener;
    window.removeEventListener = ((type: string, ...rest: [EventListenerOrEventListenerObject, EventListenerOptions?]) => {
      if (type === 'message') counts.removed++;
      remove(type, ...rest);
    }) as typeof window.removeEventListener;
  });
  // Timers the test can move forward (heartbeats every 30 s); time still flows meanwhile.
  if (options.fakeClock) await page.clock.install();
  await page.goto(`${host.origin}/`);
  return { context, page, requests, cspViolations };
}

/** What a customer writes: mount, and listen (here, every event into `window.<log>`). */
async function mount(
  page: Page,
  options: { container?: string; invite: string; log?: string; extra?: Record<string, unknown>; handle?: string },
): Promise<void> {
  await page.evaluate(
    ({ container, invite, baseUrl, log, extra, handle, types }) => {
      const w = window as unknown as Record<string, any>;
      w[log] = [];
      w[handle] = w.InterviewSDK.mount(container, { invite, baseUrl, ...extra });
      for (const type of types) w[handle].on(type, (payload: unknown) => w[log].push({ type, payload }));
    },
    {
      container: options.container ?? '#interview',
      invite: options.invite,
      baseUrl: serviceOrigin,
      log: options.log ?? 'events',
      extra: options.extra ?? {},
      handle: options.handle ?? 'embed',
      types: EVENT_TYPES,
    },
  );
}

async function embedFrame(page: Page, index = 0): Promise<Frame> {
  const handle = await page.locator('iframe').nth(index).elementHandle();
  const frame = await handle!.contentFrame();
  await frame!.waitForLoadState('load');
  return frame!;
}

/** The usual start: a fresh invite to the four-question script, embedded, started, its first question on screen. */
async function startEmbeddedInterview() {
  const { invite } = await interviewFixture(api);
  const { page, context } = await openHostPage();
  await mount(page, { invite: invite.token });
  const frame = await embedFrame(page);
  // Voice mode is the default with a microphone (tests/sessions/voice-interview-browser.test.ts); these tests type.
  await frame.getByRole('radio', { name: 'Type my answers' }).check();
  await frame.getByRole('button', { name: 'Start interview' }).click();
  await frame.getByRole('heading', { name: FOUR_QUESTIONS[0]!.text }).waitFor();
  return { invite, page, context, frame };
}

const eventsOf = (page: Page, log = 'events'): Promise<{ type: string; payload: any }[]> => page.evaluate((name) => window[name], log);

async function expectAccessible(frame: Frame, screen: string): Promise<void> {
  const violations = await seriousAxeViolations(frame);
  expect(
    violations.map((violation) => `${screen}: ${violation.id} (${violation.help}) at ${JSON.stringify(violation.nodes.map((node) => node.target))}`),
  ).toEqual([]);
}

async function sessionOfInvite(inviteId: string): Promise<Record<string, any>> {
  const [row] = await t.em().execute<Record<string, any>[]>('select * from sessions where invite_id = ?', [inviteId]);
  return row!;
}

async function participantAnswers(sessionId: string) {
  return t
    .em()
    .execute<{ text: string | null; question_id: string; audio_file_id: string | null }[]>(
      `select text, question_id, audio_file_id from session_utterances where session_id = ? and speaker = 'participant' order by seq`,
      [sessionId],
    );
}

describe.skipIf(!hasChromium)('the embed SDK in Chromium', () => {
  it('serves the SDK versioned and immutable, readable from any origin, within its 4 KB budget', async () => {
    const pinned = await t.http.get(`/sdk/v${sdkVersion}/interview-sdk.js`).expect(200);
    expect(pinned.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(pinned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(pinned.headers['access-control-allow-origin']).toBe('*');
    const module = await t.http.get(`/sdk/v${sdkVersion}/interview-sdk.mjs`).expect(200);
    expect(module.text).toMatch(/export\s*\{[^}]*as default/);
    const latest = await t.http.get('/sdk/latest/interview-sdk.js').expect(200);
    expect(latest.headers['cache-control']).toBe('public, max-age=300');
    expect(latest.text).toBe(pinned.text);
    expect((await t.http.get('/sdk/v0.9.0/interview-sdk.js').expect(404)).body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect((await t.http.get(`/sdk/v${sdkVersion}/other.js`).expect(404)).body.error.code).toBe('RESOURCE_NOT_FOUND');
    await t.http
      .get(`/sdk/v${sdkVersion}/interview-sdk.js`)
      .set('If-None-Match', pinned.headers.etag as string)
      .expect(304);
  });

  it('a host page on another origin embeds the interview; typed, clicked and paused, it completes with its events in order', async () => {
    const { invite } = await interviewFixture(api);
    const { page, context, requests, cspViolations } = await openHostPage();
    await mount(page, { invite: invite.token, extra: { theme: { primary: '#7c3aed' } } });

    // The iframe exactly as the spec says.
    const iframe = page.locator('#interview iframe');
    const src = new URL((await iframe.getAttribute('src'))!);
    expect(src.origin + src.pathname).toBe(`${serviceOrigin}/embed`);
    expect(Object.fromEntries(src.searchParams)).toEqual({ invite: invite.token, 'theme[primary]': '#7c3aed', parentOrigin: host.origin });
    expect(await iframe.getAttribute('allow')).toBe('microphone; autoplay');
    const box = await iframe.evaluate((element) => {
      const style = getComputedStyle(element);
      return {
        height: style.height,
        borderRadius: style.borderRadius,
        borderWidth: style.borderTopWidth,
        width: element.getBoundingClientRect().width,
        parent: element.parentElement!.getBoundingClientRect().width,
      };
    });
    expect(box).toMatchObject({ height: '700px', borderRadius: '12px', borderWidth: '0px' });
    expect(box.width).toBe(box.parent);

    const frame = await embedFrame(page);
    await frame.getByRole('button', { name: 'Start interview' }).waitFor();
    await expectAccessible(frame, 'welcome');
    await screenshot(page, 'embed-1-welcome');
    await frame.getByRole('radio', { name: 'Type my answers' }).check();
    await frame.getByRole('button', { name: 'Start interview' }).click();

    // Open question: typed.
    await frame.getByRole('heading', { name: FOUR_QUESTIONS[0]!.text }).waitFor();
    await expectAccessible(frame, 'open question');
    await screenshot(page, 'embed-2-open-question');
    await frame.getByLabel('Your answer').fill('The first week went smoothly: the setup guide was clear and support answered within the hour.');
    await frame.getByRole('button', { name: 'Send' }).click();

    // Rating: native radios; then pause and resume on it.
    await frame.getByRole('heading', { name: FOUR_QUESTIONS[1]!.text }).waitFor();
    await frame.getByRole('button', { name: 'Pause' }).click();
    await frame.getByRole('button', { name: 'Resume' }).waitFor();
    expect((await sessionOfInvite(invite.id)).status).toBe('paused');
    await expectAccessible(frame, 'paused');
    await screenshot(page, 'embed-3-paused');
    await frame.getByRole('button', { name: 'Resume' }).click();
    await frame.getByRole('heading', { name: FOUR_QUESTIONS[1]!.text }).waitFor();
    await expectAccessible(frame, 'rating question');
    await screenshot(page, 'embed-4-rating');
    await frame.getByRole('radio', { name: '4' }).check();
    await frame.getByRole('button', { name: 'Send' }).click();

    // Yes/no and multiple choice: buttons labelled with the option.
    await frame.getByRole('heading', { name: FOUR_QUESTIONS[2]!.text }).waitFor();
    await expectAccessible(frame, 'yes/no question');
    await frame.getByRole('button', { name: 'Yes', exact: true }).click();
    await frame.getByRole('heading', { name: FOUR_QUESTIONS[3]!.text }).waitFor();
    await expectAccessible(frame, 'multiple choice question');
    await screenshot(page, 'embed-5-choice');
    await frame.getByRole('button', { name: 'In-app chat' }).click();

    await frame.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await expectAccessible(frame, 'completed');
    await screenshot(page, 'embed-6-completed');
    const session = await sessionOfInvite(invite.id);
    expect(session).toMatchObject({ status: 'completed', completion_status: 'completed', questions_answered: 4 });
    expect((await participantAnswers(session.id)).map((answer) => answer.text)).toEqual([
      'The first week went smoothly: the setup guide was clear and support answered within the hour.',
      '4',
      'Yes',
      'In-app chat',
    ]);

    const events = await eventsOf(page);
    expect(events.map((event) => event.type)).toEqual(['start', 'progress', 'progress', 'pause', 'resume', 'progress', 'progress', 'progress', 'completed']);
    expect(events.at(-1)).toEqual({ type: 'completed', payload: { sessionId: session.id } });
    expect(events.find((event) => event.type === 'progress')!.payload).toEqual({ status: 'in_progress' });

    // The feedback form.
    await frame.getByRole('radio', { name: '5 out of 5' }).check();
    await frame.getByLabel('Anything you would like to tell us? (optional)').fill('Pleasant and quick.');
    await frame.getByRole('button', { name: 'Submit feedback' }).click();
    await frame.getByText('Thank you for your feedback.').waitFor();
    const [feedback] = await t.em().execute<Record<string, any>[]>('select overall_rating, comments from session_feedback where session_id = ?', [session.id]);
    expect(feedback).toEqual({ overall_rating: 5, comments: 'Pleasant and quick.' });

    // Nothing but the two origins was asked for (a blob: URL is the page's own memory: the silent clip that unlocks audio on phones), and the page's policy was never broken.
    expect(
      requests.filter((url) => !url.startsWith(`${host.origin}/`) && !url.startsWith(`${serviceOrigin}/`) && !url.startsWith(`blob:${serviceOrigin}/`)),
    ).toEqual([]);
    expect(cspViolations).toEqual([]);
    await context.close();
  }, 90_000);

  it('ignores messages from another origin or another frame; an expired invite raises error; destroy removes the iframe and its listener', async () => {
    const { invite, campaign } = await interviewFixture(api);
    const expired = await createInvite(api, campaign.id, { email: `expired-${Date.now()}@example.com`, sendEmail: false });
    await t.em().execute("update invites set expires_at = now() - interval '1 minute' where id = ?", [expired.id]);
    const { page, context } = await openHostPage();
    await mount(page, { invite: invite.token });
    await mount(page, { container: '#second', invite: expired.token, log: 'secondEvents', handle: 'second' });

    await expect
      .poll(() => eventsOf(page, 'secondEvents'), { timeout: 15_000 })
      .toEqual([{ type: 'error', payload: { message: expect.stringContaining('expired') } }]);
    const expiredFrame = await embedFrame(page, 1);
    await expiredFrame.getByRole('alert').waitFor();
    await expectAccessible(expiredFrame, 'expired invite');
    await screenshot(page, 'embed-7-expired');

    // A message of the right shape from the host's own origin, and one from a frame of another origin: neither reaches a handler.
    await page.evaluate(() => window.postMessage({ source: 'interview-embed', type: 'completed', payload: { sessionId: 'forged' } }, '*'));
    await page.evaluate(() => {
      const forger = document.createElement('iframe');
      forger.srcdoc = `<script>parent.postMessage({ source: 'interview-embed', type: 'error', payload: { message: 'forged' } }, '*')</script>`;
      document.body.append(forger);
    });
    await page.waitForTimeout(500);
    // The expired embed's error came from the service's origin, but from the other frame: the first embed never saw it.
    expect(await eventsOf(page)).toEqual([]);
    expect(await eventsOf(page, 'secondEvents')).toHaveLength(1);

    // destroy(): that iframe and its listener go; destroyAll(): the rest.
    expect(await page.evaluate(() => (window as any).messageListeners)).toEqual({ added: 2, removed: 0 });
    await page.evaluate(() => (window as any).embed.destroy());
    expect(await page.locator('#interview iframe').count()).toBe(0);
    expect(await page.locator('#second iframe').count()).toBe(1);
    expect(await page.evaluate(() => (window as any).messageListeners)).toEqual({ added: 2, removed: 1 });
    await page.evaluate(() => (window as any).InterviewSDK.destroyAll());
    expect(await page.locator('#second iframe').count()).toBe(0);
    expect(await page.evaluate(() => (window as any).messageListeners)).toEqual({ added: 2, removed: 2 });

    // Clear errors for a mistaken mount.
    const errors = await page.evaluate(() => {
      const sdk = (window as any).InterviewSDK;
      const messageOf = (run: () => void) => {
        try {
          run();
          return null;
        } catch (error) {
          return (error as Error).message;
        }
      };
      return [
        messageOf(() => sdk.mount('#missing', { invite: 'x', baseUrl: 'http://127.0.0.1' })),
        messageOf(() => sdk.mount('#interview', { baseUrl: 'http://127.0.0.1' })),
        messageOf(() => sdk.mount('#interview', { invite: 'x', baseUrl: 'http://127.0.0.1', theme: { primary: 'purple' } })),
      ];
    });
    expect(errors).toEqual([
      'InterviewSDK: no element matches the selector "#missing"',
      'InterviewSDK: options.invite (the invite token) is required',
      'InterviewSDK: theme.primary must be a hex colour such as #2563eb, not "purple"',
    ]);
    await context.close();
  }, 60_000);

  it('asks for consent when the campaign requires it, records it before the first question, then sends heartbeats', async () => {
    const { invite } = await interviewFixture(api, { settings: { requireConsent: true } });
    const { page, context } = await openHostPage({ fakeClock: true });
    await mount(page, { invite: invite.token, extra: { theme: { background: '#111827', text: '#f9fafb', primary: '#fbbf24' } } });
    const frame = await embedFrame(page);
    await frame.getByRole('radio', { name: 'Type my answers' }).check();
    await frame.getByRole('button', { name: 'Start interview' }).click();
    await frame.getByRole('button', { name: 'I agree' }).waitFor();
    await expectAccessible(frame, 'consent');
    await screenshot(page, 'embed-8-consent-dark-theme');
    await frame.getByRole('button', { name: 'I agree' }).click();
    await frame.getByRole('heading', { name: FOUR_QUESTIONS[0]!.text }).waitFor();
    await expectAccessible(frame, 'open question, dark theme');
    const session = await sessionOfInvite(invite.id);
    expect(session.consent).toMatchObject({ granted: true, type: 'all' });
    expect(session.status).toBe('in_progress');

    // Half a minute without an answer: a heartbeat keeps the session from being taken as abandoned.
    const heartbeat = page.waitForResponse((response) => response.url() === `${serviceOrigin}/v1/sessions/${session.id}/heartbeat`);
    await page.clock.fastForward(31_000);
    expect((await heartbeat).status()).toBe(200);
    await context.close();
  }, 60_000);

  it('a lost connection mid-interview: retried, then a clear screen and an error event; "Try again" sends what was typed, once', async () => {
    const { invite, page, context, frame } = await startEmbeddedInterview();

    // The first attempt reaches the service, but its answer never comes back; the retries fail too.
    let offline = true;
    let attempts = 0;
    await context.route('**/api/interview/answer', async (route) => {
      if (!offline) return route.continue();
      attempts++;
      if (attempts === 1) await route.fetch();
      await route.abort('connectionreset');
    });
    const typed = 'Setting up took an afternoon, mostly waiting for the single sign-on to be approved by IT.';
    await frame.getByLabel('Your answer').fill(typed);
    await frame.getByRole('button', { name: 'Send' }).click();
    await frame.getByRole('heading', { name: 'Connection lost' }).waitFor({ timeout: 30_000 });
    expect(attempts).toBe(5);
    await expectAccessible(frame, 'connection lost');
    await screenshot(page, 'embed-9-connection-lost');
    expect((await eventsOf(page)).at(-1)).toEqual({ type: 'error', payload: { message: 'The connection to the interview service was lost.' } });

    offline = false;
    await frame.getByRole('button', { name: 'Try again' }).click();
    await frame.getByRole('heading', { name: FOUR_QUESTIONS[1]!.text }).waitFor();
    const session = await sessionOfInvite(invite.id);
    expect((await participantAnswers(session.id)).map((answer) => answer.text)).toEqual([typed]);
    await context.close();
  }, 60_000);

  it('"Try again" that ends in a refusal brings the question back, with what was typed and why it was refused', async () => {
    const { context, frame } = await startEmbeddedInterview();

    let mode: 'offline' | 'refuse' | 'online' = 'offline';
    await context.route('**/api/interview/answer', async (route) => {
      if (mode === 'online') return route.continue();
      if (mode === 'offline') return route.abort('connectionreset');
      return route.fulfill({
        status: 413,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Too large.', details: {} } }),
      });
    });
    const typed = 'A long answer that the network lost on its way, and that must not be lost by the page.';
    await frame.getByLabel('Your answer').fill(typed);
    await frame.getByRole('button', { name: 'Send' }).click();
    await frame.getByRole('heading', { name: 'Connection lost' }).waitFor({ timeout: 30_000 });

    mode = 'refuse';
    await frame.getByRole('button', { name: 'Try again' }).click();
    await frame.getByText('That recording is too long.').waitFor();
    expect(await frame.locator('#question-text').innerText()).toBe(FOUR_QUESTIONS[0]!.text);
    expect(await frame.getByLabel('Your answer').inputValue()).toBe(typed);
    expect(await frame.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);

    mode = 'online';
    await frame.getByRole('button', { name: 'Send' }).click();
    // Taken at last: the interview goes on (a probe of that answer, or the next question).
    await frame.locator('#question-text').filter({ hasNotText: FOUR_QUESTIONS[0]!.text }).waitFor();
    expect(await frame.getByLabel('Your answer').inputValue()).toBe('');
    await context.close();
  }, 60_000);

  it('a session ended elsewhere: the next answer shows why, and the host gets an error event', async () => {
    const { invite, page, context, frame } = await startEmbeddedInterview();
    // The participant left from another tab.
    await t.http.post('/api/interview/end').set('Authorization', `Bearer ${invite.token}`).send({}).expect(200);
    await frame.getByLabel('Your answer').fill('An answer to a session that has ended.');
    await frame.getByRole('button', { name: 'Send' }).click();
    await frame.getByRole('alert').waitFor();
    const events = await eventsOf(page);
    expect(events.at(-1)).toEqual({ type: 'error', payload: { message: expect.any(String) } });
    expect(await frame.getByRole('alert').innerText()).toBe(events.at(-1)!.payload.message);
    await screenshot(page, 'embed-11-session-ended');
    await context.close();
  }, 60_000);

  it.skipIf(!hasEspeak)(
    'a voice answer: the fake microphone is recorded, uploaded, and kept in the session files',
    async () => {
      const { invite, page, context, frame } = await startEmbeddedInterview();
      await frame.getByRole('button', { name: 'Record' }).click();
      await frame.getByRole('button', { name: 'Stop recording' }).waitFor();
      await screenshot(page, 'embed-10-recording');
      await page.waitForTimeout(3000);
      await frame.getByRole('button', { name: 'Stop recording' }).click();
      // The next turn: the second question, or a follow-up when the offline recogniser made the answer out as vague.
      await frame.getByText('Voice answer').waitFor({ timeout: 30_000 });
      expect(await frame.locator('#question-text').innerText()).not.toBe(FOUR_QUESTIONS[0]!.text);

      const session = await sessionOfInvite(invite.id);
      const files = (await api.get(`/v1/sessions/${session.id}/files`).expect(200)).body.data as {
        id: string;
        kind: string;
        contentType: string;
        size: number;
        durationSeconds: number | null;
      }[];
      expect(files).toHaveLength(1);
      expect(files[0]).toMatchObject({ kind: 'audio', contentType: 'audio/webm' });
      expect(files[0]!.size).toBeGreaterThan(10_000);
      expect(files[0]!.durationSeconds).toBeGreaterThan(2);
      const [answer] = await participantAnswers(session.id);
      expect(answer!.audio_file_id).toBe(files[0]!.id);
      await context.close();
    },
    60_000,
  );
});

describe.skipIf(!hasChromium)('an interview in Dutch', () => {
  it('shows, reads and understands Dutch: the page in Dutch, "Ja" taken as yes, the closing in Dutch', async () => {
    const questions = [
      { id: 'aanraden', text: 'Zou je het een collega aanraden?', type: 'yes_no' },
      { id: 'gemak', text: 'Hoe makkelijk was de installatie?', type: 'rating', scale: { min: 1, max: 5 } },
    ];
    const { campaign } = await interviewFixture(api, { questions });
    const invite = await createInvite(api, campaign.id, { email: `nl-${Date.now()}@example.nl`, name: 'Sanne', language: 'nl', sendEmail: false });
    const { page, context } = await openHostPage();
    await mount(page, { invite: invite.token });
    const frame = await embedFrame(page);
    expect(await frame.locator('html').getAttribute('lang')).toBe('nl');
    await frame.getByText('Hallo Sanne, Test organization nodigt je uit voor een interview.').waitFor();
    await screenshot(page, 'embed-12-dutch-welcome');
    await frame.getByRole('radio', { name: 'Mijn antwoorden typen' }).check();
    await frame.getByRole('button', { name: 'Interview starten' }).click();
    await frame.getByRole('heading', { name: questions[0]!.text }).waitFor();
    expect(await frame.getByText('Vraag 1 van 2').count()).toBe(1);
    await expectAccessible(frame, 'Dutch yes/no question');
    await frame.getByRole('button', { name: 'Ja', exact: true }).click();
    await frame.getByRole('heading', { name: questions[1]!.text }).waitFor();
    expect(await frame.getByText('Kies er één').count()).toBe(1);
    await frame.getByRole('radio', { name: '4' }).check();
    await screenshot(page, 'embed-13-dutch-rating');
    await frame.getByRole('button', { name: 'Versturen' }).click();
    await frame.getByRole('heading', { name: 'Bedankt!' }).waitFor();
    // In the screen (the live region announces the same words a moment later).
    await frame.locator('#app').getByText('Dank je, dat was de laatste vraag. Je antwoorden zijn vastgelegd.').waitFor();
    await frame.getByRole('button', { name: 'Feedback versturen' }).waitFor();
    const session = await sessionOfInvite(invite.id);
    expect(session.language).toBe('nl');
    const rows = await t
      .em()
      .execute<{ value: unknown }[]>(`select value from session_utterances where session_id = ? and speaker = 'participant' order by seq`, [session.id]);
    expect(rows.map((row) => row.value)).toEqual([true, 4]);
    await context.close();
  }, 60_000);
});

describe.skipIf(!hasChromium)('the full interview page behind the invite link', () => {
  it('runs the same interview full page, under a policy that allows no framing, operable by keyboard alone', async () => {
    const { invite, campaign } = await interviewFixture(api);
    const response = await t.http.get(`/interview/${invite.token}`).expect(200);
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${serviceOrigin}/interview/${invite.token}`);
    await expect(page.title()).resolves.toBe(campaign.name);
    const focused = () => page.evaluate(() => ({ id: document.activeElement?.id, text: document.activeElement?.textContent }));

    // By keyboard alone: Tab to the way of answering, an arrow to typing, Tab past "Read questions aloud" to
    // "Start interview", Enter; focus lands on the question, Tab reaches the answer, then "Send".
    await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('mode-voice');
    await page.keyboard.press('ArrowDown');
    expect((await focused()).id).toBe('mode-typing');
    await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('read-aloud');
    await page.keyboard.press('Tab');
    expect((await focused()).text).toBe('Start interview');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: FOUR_QUESTIONS[0]!.text }).waitFor();
    expect(await focused()).toEqual({ id: 'question-text', text: FOUR_QUESTIONS[0]!.text });
    await expect.poll(() => page.locator('#announcer').textContent()).toBe(FOUR_QUESTIONS[0]!.text);
    await expectAccessible(page.mainFrame(), 'full page question');
    await screenshot(page, 'page-1-question');
    await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('answer');
    await page.keyboard.type('Everything worked on the first try, and the onboarding call helped a lot.');
    await page.keyboard.press('Tab');
    expect((await focused()).text).toBe('Send');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: FOUR_QUESTIONS[1]!.text }).waitFor();
    // The rating by keyboard: Tab into the radio group, arrows to move, Tab to "Send".
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: FOUR_QUESTIONS[2]!.text }).waitFor();
    const session = await sessionOfInvite(invite.id);
    expect((await participantAnswers(session.id)).map((answer) => answer.text)).toEqual([
      'Everything worked on the first try, and the onboarding call helped a lot.',
      '3',
    ]);
    await context.close();
  }, 60_000);
});
