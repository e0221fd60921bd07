import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { detectPocketsphinx } from '../../server/speech/pocketsphinx-speech-recognizer.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { hasChromium, hasEspeak, launchChromium, seriousAxeViolations, screenshotTo } from '../helpers/browser.js';
import { interviewFixture, PARTICIPANT_BUDGET } from '../helpers/interviews.js';
import { freePort } from '../helpers/processes.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * Voice mode of the interview page in a real Chromium: the participant presses "Start interview"
 * and has the whole interview by voice, hands-free. The microphone is the test's own: the page's
 * getUserMedia answers a stream the test plays espeak-ng speech into, one answer per question, at
 * the moment it chooses. The service is the test app's default: espeak-ng speaks the AI's turns
 * (Ogg Opus from signed links), offline pocketsphinx hears the answers through each structured
 * question's grammar.
 */

// What the functions given to page.evaluate see in the browser (the project's types are Node's).
declare const window: any;
declare const document: any;

const run = promisify(execFile);
const pocketsphinx = await detectPocketsphinx();
const skipReason = !hasChromium ? 'no Chromium' : !hasEspeak ? 'espeak-ng not installed' : !pocketsphinx.available ? pocketsphinx.reason : null;
if (skipReason) console.log(`voice-interview-browser.test.ts: skipped, ${skipReason}`);

const SCREENSHOTS = process.env.VOICE_SCREENSHOTS_DIR ?? '/work/screenshots/voice';

const QUESTIONS = [
  { id: 'ease', text: 'On a scale from one to five, how easy was the setup of the product for your team?', type: 'rating', scale: { min: 1, max: 5 } },
  { id: 'recommend', text: 'Would you recommend it to a colleague?', type: 'yes_no' },
  { id: 'channel', text: 'Which support channel did you use most?', type: 'multiple_choice', options: ['Email', 'Phone call', 'Live chat'] },
];

/**
 * What the participant says, per clip: phrasings the offline recogniser's grammars take from
 * espeak-ng's voice. The barge-in starts on a vowel: Silero hears a fricative onset ("four") only
 * from its vowel, some 100 ms later, and the test times the stop from the first sound of the clip.
 * The choice has a lead-in: "live chat" cut by 80 ms at its start (as a loaded machine's audio
 * can be) is heard as "yeah", "the live chat" cut the same way as "live chat".
 * The rating is "i would say a four". The microphone's silence is exact zeros, as a browser's
 * with noise suppression on is: before the recogniser put a noise floor under answers, the same
 * recording of "i would say four out of five" was misheard or not depending on how much silence
 * came before it ("i would sue you for all the time"; twice in a row left the rating null). Now
 * each reads right through 27 of 28 shifts of its start and cuts of its first 20 to 120 ms
 * (`PocketsphinxSpeechRecognizer` with the rating grammar, 2026-11-28), and a misheard one is
 * read back or asked again, which `reach` answers.
 */
const SPEECH = { four: 'i would say a four', yes: 'yes', three: 'three out of five', no: 'no way', chat: 'the live chat' };

let t: TestApp;
let api: Api;
let tenant: TestTenant;
let service: Server;
let serviceOrigin: string;
let browser: Browser;
let workDir: string;
const clips: Record<string, string> = {};
/** A test-pattern picture and a short chime, as a question's media. */
const media = { image: Buffer.alloc(0), clip: Buffer.alloc(0) };

beforeAll(async () => {
  if (skipReason) return;
  const port = await freePort();
  serviceOrigin = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PUBLIC_URL: serviceOrigin, ...PARTICIPANT_BUDGET });
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  service = createServer(t.app);
  await new Promise<void>((resolve) => service.listen(port, '127.0.0.1', resolve));
  workDir = await mkdtemp(path.join(tmpdir(), 'voice-browser-'));
  for (const [name, text] of Object.entries(SPEECH)) {
    const file = path.join(workDir, `${name}.wav`);
    await run('espeak-ng', ['-v', 'en-us', '-s', '140', '-w', file, text]);
    clips[name] = (await readFile(file)).toString('base64');
  }
  const image = path.join(workDir, 'setup.png');
  const clip = path.join(workDir, 'chime.wav');
  await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=960x540:rate=1', '-frames:v', '1', image]);
  await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=880:duration=0.6', '-ar', '16000', clip]);
  media.image = await readFile(image);
  media.clip = await readFile(clip);
  await mkdir(SCREENSHOTS, { recursive: true });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => service?.close(resolve));
  await t?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/**
 * The test's microphone: getUserMedia answers a Web Audio stream (a fresh clone each time, as a
 * real one would be) into which `__mic.say(name)` plays a clip; every media event of the AI's
 * audio element and every click is logged in `__log` with its time.
 */
function fakeMicrophone(): void {
  const w = window as any;
  const log: any[] = (w.__log = []);
  const buffers: Record<string, any> = {};
  let context: any;
  let destination: any;
  const ready = async () => {
    if (!context) {
      context = new w.AudioContext();
      destination = context.createMediaStreamDestination();
    }
    if (context.state === 'suspended') await context.resume();
  };
  w.navigator.mediaDevices.getUserMedia = async (constraints: unknown) => {
    await ready();
    log.push({ type: 'getUserMedia', at: Date.now(), constraints });
    return destination.stream.clone();
  };
  w.__mic = {
    async load(name: string, base64: string) {
      await ready();
      const bytes = Uint8Array.from(w.atob(base64), (c: string) => c.charCodeAt(0));
      const buffer = await context.decodeAudioData(bytes.buffer);
      const samples = buffer.getChannelData(0);
      let onset = 0;
      while (onset < samples.length && Math.abs(samples[onset]) < 0.02) onset++;
      buffers[name] = { buffer, onsetMs: (onset / buffer.sampleRate) * 1000, durationMs: buffer.duration * 1000 };
    },
    say(name: string) {
      const { buffer, onsetMs, durationMs } = buffers[name];
      const source = context.createBufferSource();
      source.buffer = buffer;
      source.connect(destination);
      source.start();
      const at = Date.now();
      log.push({ type: 'say', name, at, speechAt: at + onsetMs, endAt: at + durationMs });
      return { at, speechAt: at + onsetMs, durationMs };
    },
  };
  for (const type of ['play', 'playing', 'pause', 'ended', 'error']) {
    w.document.addEventListener(
      type,
      (event: any) => {
        if (event.target?.id === 'ai-audio') log.push({ type, at: Date.now(), src: String(event.target.currentSrc).replace(/^blob:.*/, 'blob') });
        // A question's own audio clip (question media).
        else if (event.target?.closest?.('.question-media')) log.push({ type: `clip-${type}`, at: Date.now() });
      },
      true,
    );
  }
  // What the page sends with each answer: its timing report.
  const fetch = w.fetch.bind(w);
  w.fetch = (input: any, init: any) => {
    if (String(input).endsWith('/api/interview/answer')) {
      const body = init?.body;
      const timing =
        body instanceof w.FormData ? body.get('voiceTiming') : typeof body === 'string' ? JSON.stringify(JSON.parse(body).voiceTiming ?? null) : null;
      w.__timings = [...(w.__timings ?? []), timing ? JSON.parse(timing) : null];
    }
    return fetch(input, init);
  };
  // What the live region said, in order.
  w.__announced = [];
  new w.MutationObserver(() => {
    const text = w.document.getElementById('announcer')?.textContent;
    if (text) w.__announced.push(text);
  }).observe(w.document, { subtree: true, childList: true, characterData: true });
  w.document.addEventListener('click', (event: any) => log.push({ type: 'click', at: Date.now(), target: event.target?.textContent }), true);
}

interface Opened {
  context: BrowserContext;
  page: Page;
}

async function openInterview(token: string, viewport: { width: number; height: number }): Promise<Opened> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.addInitScript(fakeMicrophone);
  await page.goto(`${serviceOrigin}/interview/${token}`);
  await page.getByRole('button', { name: 'Start interview' }).waitFor();
  for (const [name, base64] of Object.entries(clips)) await page.evaluate(({ name, base64 }) => window.__mic.load(name, base64), { name, base64 });
  return { context, page };
}

function uploadMedia(scriptId: string, file: Buffer, filename: string, fields: Record<string, string>) {
  let request = t.http.post(`/v1/scripts/${scriptId}/media`).set('Authorization', tenant.authorization);
  for (const [name, value] of Object.entries(fields)) request = request.field(name, value);
  return request.attach('file', file, filename).expect(201);
}

const logOf = (page: Page): Promise<any[]> => page.evaluate(() => window.__log);
const voiceState = (page: Page) => page.locator('.voice-panel').getAttribute('data-state');
const say = (page: Page, name: keyof typeof SPEECH): Promise<{ at: number; speechAt: number; durationMs: number }> =>
  page.evaluate((clip) => window.__mic.say(clip), name);

async function waitForState(page: Page, state: string, timeout = 30_000): Promise<void> {
  await page.locator(`.voice-panel[data-state="${state}"]`).waitFor({ timeout });
}

/** Waits until the AI's audio for the question on screen has played to its end and the page listens. */
async function waitForListening(page: Page, question: string): Promise<void> {
  await page
    .getByRole('heading', { name: question })
    .waitFor({ timeout: 30_000 })
    .catch(async (error) => {
      // What the page shows and what the service recorded: why the question did not come.
      console.log(await page.locator('#app').innerText(), JSON.stringify(await page.evaluate(() => window.__timings)));
      throw error;
    });
  await waitForState(page, 'listening');
}

/**
 * After an answer: waits for the `next` heading. On the way the service may read an unsure answer
 * back ("So that's a 4, is that right?"), answered "yes", or (the offline recogniser made nothing
 * of it) ask again, answered once more with the same clip, as a participant would.
 */
async function reach(page: Page, next: string, clip: keyof typeof SPEECH): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const target = page.getByRole('heading', { name: next, exact: true });
    const confirm = page.getByRole('heading', { name: /is that right\?/ });
    const reAsk = page.getByRole('heading', { name: /^Sorry/ });
    await target
      .or(confirm)
      .or(reAsk)
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(async (error) => {
        console.log(await page.locator('#app').innerText(), JSON.stringify(await page.evaluate(() => window.__timings)));
        throw error;
      });
    if (await target.isVisible()) return;
    const asked = await page.locator('#question-text').innerText();
    if (attempt >= 2) throw new Error(`Expected "${next}", the service asks "${asked}".`);
    const again = (await confirm.isVisible()) ? 'yes' : clip;
    console.log(`on the way to "${next}": "${asked}", answered "${SPEECH[again]}"`);
    await waitForState(page, 'listening');
    await say(page, again);
    await page.waitForFunction((text) => document.querySelector('#question-text')?.textContent !== text, asked, { timeout: 30_000 });
  }
}

async function sessionOf(inviteId: string): Promise<Record<string, any>> {
  const [row] = await t.em().execute<Record<string, any>[]>('select * from sessions where invite_id = ?', [inviteId]);
  return row!;
}

async function participantAnswers(sessionId: string) {
  return t
    .em()
    .execute<{ text: string | null; value: unknown; question_id: string; audio_file_id: string | null }[]>(
      `select text, value, question_id, audio_file_id from session_utterances where session_id = ? and speaker = 'participant' order by seq`,
      [sessionId],
    );
}

async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await seriousAxeViolations(page.mainFrame());
  expect(
    violations.map((violation) => `${screen}: ${violation.id} (${violation.help}) at ${JSON.stringify(violation.nodes.map((node) => node.target))}`),
  ).toEqual([]);
}

async function shot(page: Page, width: number, name: string): Promise<void> {
  await screenshotTo(page, path.join(SCREENSHOTS, `${width}-${name}.png`));
}

describe.skipIf(skipReason !== null)('a voice interview in Chromium', () => {
  // One retry, for the one check here bound to real time on a loaded machine: a fresh-clone run
  // (2026-11-29, PostgreSQL 15, the whole suite beside it) once missed the barge-in outright, the
  // AI's audio playing to its end 4 s after the speech began; 0 of 7 runs here missed it since
  // (114, 83, 125, 100, 109, 135, 128 ms), alone, beside six busy processes, beside the sessions
  // folder and beside the end-of-turn evaluation with a cold cache. The page's event log is printed
  // when it happens again. A barge-in that is broken fails both tries.
  it(
    'is hands-free after "Start interview": the AI speaks, a barge-in stops it, rating, yes/no and choice are answered out loud and recorded',
    { retry: 1, timeout: 120_000 },
    async () => {
      const { invite } = await interviewFixture(api, { questions: QUESTIONS });
      const { page, context } = await openInterview(invite.token, { width: 1280, height: 800 });
      onTestFinished(() => context.close());
      expect(await page.getByRole('radio', { name: 'Speak my answers (hands-free)' }).isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Start interview' }).click();

      // The rating: spoken over the AI's question, which stops within 200 ms of the speech.
      await page.getByRole('heading', { name: QUESTIONS[0]!.text }).waitFor({ timeout: 30_000 });
      await expect
        .poll(async () => (await logOf(page)).some((entry) => entry.type === 'playing' && entry.src.includes('/files/')), { timeout: 15_000 })
        .toBe(true);
      await page.waitForTimeout(600);
      const spoken = await say(page, 'four');
      await expect.poll(async () => (await logOf(page)).some((entry) => entry.type === 'pause' && entry.at >= spoken.at), { timeout: 5_000 }).toBe(true);
      const log = await logOf(page);
      const paused = log.find((entry) => entry.type === 'pause' && entry.at >= spoken.at)!;
      console.log(`barge-in: the AI's audio paused ${paused.at - spoken.speechAt} ms after the speech began`);
      if (paused.at - spoken.speechAt > 1000)
        console.log("late barge-in, the page's log:", JSON.stringify(log.map((entry) => ({ ...entry, at: entry.at - spoken.at }))));
      // The 200 ms aim is held on audio time by tests/interviewer/end-of-turn.test.ts (barge-in p95 on the
      // labelled set); wall-clock here also counts a loaded machine's scheduling (375 ms seen with the
      // whole suite running), so this only checks that the audio stopped promptly, long before its end.
      expect(paused.at - spoken.speechAt).toBeLessThanOrEqual(1000);
      // (The silent clip "Start interview" played to unlock audio on phones is not the AI's.)
      expect(log.filter((entry) => entry.type === 'ended' && entry.src !== 'blob')).toEqual([]);

      // Yes/no, after the AI's question played to its end.
      await reach(page, QUESTIONS[1]!.text, 'four');
      await waitForListening(page, QUESTIONS[1]!.text);
      // What was heard: in the conversation, and said to screen readers with the next question.
      const said = page.locator('.conversation li.participant');
      // Each answer as the service transcribed it.
      const shown = (await said.allInnerTexts()).map((text) => text.replace(/^You /, ''));
      const stored = (await participantAnswers((await sessionOf(invite.id)).id)).map((answer) => answer.text);
      expect(shown).toEqual(stored);
      const heard = (await said.last().innerText()).replace(/^You /, '');
      expect(await page.evaluate(() => window.__announced)).toContain(`You said: “${heard}” ${QUESTIONS[1]!.text}`);
      await say(page, 'yes');
      await reach(page, QUESTIONS[2]!.text, 'yes');
      await waitForListening(page, QUESTIONS[2]!.text);
      await say(page, 'chat');
      await reach(page, 'Thank you!', 'chat');

      const session = await sessionOf(invite.id);
      // What the recogniser heard of each answer: the first thing to read when a value below is off.
      console.log('heard:', JSON.stringify((await participantAnswers(session.id)).map(({ question_id, text, value }) => [question_id, text, value])));
      expect(session).toMatchObject({ status: 'completed', questions_answered: 3 });
      const record = (await api.get(`/v1/sessions/${session.id}`).expect(200)).body;
      expect(record.answers.map((answer: { questionId: string; value: unknown }) => [answer.questionId, answer.value])).toEqual([
        ['ease', 4],
        ['recommend', true],
        ['channel', 'Live chat'],
      ]);
      // Every answer (confirmations included) by voice: its recording kept as a session file.
      const answers = await participantAnswers(session.id);
      for (const answer of answers) expect(answer.audio_file_id).not.toBeNull();
      const files = (await api.get(`/v1/sessions/${session.id}/files`).expect(200)).body.data as { contentType: string }[];
      expect(files.filter((file) => file.contentType === 'audio/wav')).toHaveLength(answers.length);

      // What the service stored of the reports: per AI turn, and the session's summary.
      const aiTurns = await t
        .em()
        .execute<{ barge_in: boolean | null; audio_started_at: Date | null; latency_ms: number | null }[]>(
          `select barge_in, audio_started_at, latency_ms from session_utterances where session_id = ? and speaker = 'ai' and kind = 'question' order by seq`,
          [session.id],
        );
      expect(aiTurns.map((turn) => turn.barge_in)).toEqual([true, false, false]);
      const questionTurns = aiTurns.length;
      for (const turn of aiTurns) expect(turn.audio_started_at).not.toBeNull();
      for (const turn of aiTurns.slice(1)) expect(turn.latency_ms).toBeGreaterThan(0);
      console.log(`turn-taking: ${JSON.stringify(record.turnTaking)}, latencies ${aiTurns.map((turn) => turn.latency_ms).join(', ')} ms`);
      expect(record.turnTaking).toMatchObject({ bargeIns: 1, cutOffs: 0, latencyP50Ms: expect.any(Number) });
      expect(record.turnTaking.turns).toBeGreaterThanOrEqual(questionTurns - 1);

      // The AI's audio: each question played from its signed link; the first stopped, the others to their end.
      const events = await logOf(page);
      const aiAudio = events.filter((entry) => entry.src && entry.src !== 'blob');
      console.log(`the AI's audio: ${JSON.stringify(aiAudio.map((entry) => [entry.type, entry.src.replace(serviceOrigin, '').slice(0, 40)]))}`);
      expect(aiAudio.filter((entry) => entry.type === 'playing').length).toBeGreaterThanOrEqual(3);
      expect(aiAudio.filter((entry) => entry.type === 'ended').length).toBeGreaterThanOrEqual(2);
      // Not a touch after "Start interview".
      expect(events.filter((entry) => entry.type === 'click').map((entry) => entry.target)).toEqual(['Start interview']);

      // The timing report of each answer (as sent: retries of the same answer send the same).
      const timings: Record<string, unknown>[] = await page.evaluate(() => window.__timings);
      expect(timings).toHaveLength(answers.length);
      expect(timings[0]).toMatchObject({ bargeIn: true, manual: false, previousCutOff: false, aiAudioStartedAt: expect.any(Number) });
      for (const timing of timings.slice(1)) {
        expect(timing).toMatchObject({
          bargeIn: false,
          manual: false,
          aiAudioStartedAt: expect.any(Number),
          speechEndedAt: expect.any(Number),
          endOfTurnAt: expect.any(Number),
        });
        const wait = (timing.endOfTurnAt as number) - (timing.speechEndedAt as number);
        expect(wait).toBeGreaterThanOrEqual(300);
        expect(wait).toBeLessThan(3000);
      }
    },
  );

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    it(`at ${viewport.width} px: every voice screen, "I need a moment", a cut-off, mute, a switch to typing and back`, async () => {
      const { invite, script } = await interviewFixture(api, { questions: QUESTIONS });
      // The rating question shows an image and plays a short clip after its words.
      await uploadMedia(script.id, media.image, 'setup.png', { questionId: 'ease', alt: 'The setup wizard, step two of five' });
      await uploadMedia(script.id, media.clip, 'chime.wav', { questionId: 'ease', alt: 'A chime' });
      const { page, context } = await openInterview(invite.token, viewport);
      const width = viewport.width;
      await expectAccessible(page, 'welcome');
      await shot(page, width, '1-welcome');
      await page.getByRole('button', { name: 'Start interview' }).click();

      await page.getByRole('heading', { name: QUESTIONS[0]!.text }).waitFor({ timeout: 30_000 });
      await waitForState(page, 'speaking');
      await shot(page, width, '2-ai-speaking');
      await expectAccessible(page, 'AI speaking');
      const image = page.getByRole('img', { name: 'The setup wizard, step two of five' });
      await image.waitFor();
      const box = (await image.boundingBox())!;
      expect(box.width).toBeGreaterThan(100);
      expect(box.width).toBeLessThanOrEqual(Math.min(640, viewport.width));
      expect(box.height).toBeLessThanOrEqual(viewport.height / 3 + 1);
      // Above the answer area.
      expect(box.y + box.height).toBeLessThanOrEqual((await page.locator('.voice-panel').boundingBox())!.y);
      await waitForState(page, 'listening');
      await shot(page, width, '3-listening');
      // The clip played after the question's words, and the page listened after the clip.
      const played = await logOf(page);
      const questionEnded = played.find((entry) => entry.type === 'ended' && entry.src !== 'blob')!;
      const clipPlaying = played.find((entry) => entry.type === 'clip-playing')!;
      const clipEnded = played.find((entry) => entry.type === 'clip-ended')!;
      expect(clipPlaying.at).toBeGreaterThanOrEqual(questionEnded.at);
      expect(clipEnded.at).toBeGreaterThanOrEqual(clipPlaying.at);

      // "I need a moment": silence does not end the turn; speaking continues it.
      await page.getByRole('button', { name: 'I need a moment' }).click();
      await waitForState(page, 'moment');
      expect(await page.getByRole('button', { name: 'Continue' }).getAttribute('aria-pressed')).toBe('true');
      await shot(page, width, '4-moment');
      await expectAccessible(page, 'I need a moment');
      await page.getByRole('button', { name: 'Continue' }).click();
      await waitForState(page, 'listening');

      // Hearing, then thinking (the answer held back a moment, to be seen).
      let delayed = true;
      await context.route('**/api/interview/answer', async (route) => {
        if (delayed) await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      await say(page, 'three');
      await waitForState(page, 'hearing', 5_000);
      await shot(page, width, '5-hearing');
      await waitForState(page, 'thinking', 10_000);
      await shot(page, width, '6-thinking');
      // Going on speaking right after the page ended the answer: the page was too quick, a cut-off (reported with the next answer).
      const endedAt = Date.now();
      await say(page, 'yes');
      expect(Date.now() - endedAt).toBeLessThan(1000);
      delayed = false;

      // Typing and back: the question's own buttons, then listening again.
      await reach(page, QUESTIONS[1]!.text, 'three');
      await waitForListening(page, QUESTIONS[1]!.text);
      await page.getByRole('button', { name: 'Type instead' }).click();
      await page.getByRole('button', { name: 'Yes', exact: true }).waitFor();
      expect(await voiceState(page)).toBe('typing');
      await shot(page, width, '7-typing');
      await expectAccessible(page, 'typing');
      await page.getByRole('button', { name: 'Answer by voice' }).click();
      await waitForState(page, 'listening');

      // Muted: speech is not heard, the turn waits; on again, the answer is heard.
      await page.getByRole('button', { name: 'Mute microphone' }).click();
      await waitForState(page, 'muted');
      await shot(page, width, '8-muted');
      const heardBefore = await page.locator('.voice-panel').getAttribute('data-state');
      await say(page, 'no');
      await page.waitForTimeout(2500);
      expect(heardBefore).toBe('muted');
      expect(await voiceState(page)).toBe('muted');
      await page.getByRole('button', { name: 'Turn microphone on' }).click();
      await waitForState(page, 'listening');
      await say(page, 'no');

      await reach(page, QUESTIONS[2]!.text, 'no');
      await waitForListening(page, QUESTIONS[2]!.text);
      // The last one typed: the choice by speech is the hands-free test's; here the offline
      // recogniser's occasional mishearing of a one-word choice on a loaded machine would only
      // make this screens test flaky (seen once in CI: the choice recorded as null after two re-asks).
      await page.getByRole('button', { name: 'Type instead' }).click();
      await page.getByRole('button', { name: 'Live chat', exact: true }).click();
      await page.getByRole('heading', { name: 'Thank you!', exact: true }).waitFor({ timeout: 30_000 });
      await shot(page, width, '9-completed');

      const session = await sessionOf(invite.id);
      // What the recogniser heard of each answer, and the AI's turns: what to read when a value below is off.
      console.log(
        `heard at ${width} px:`,
        JSON.stringify((await participantAnswers(session.id)).map(({ question_id, text, value }) => [question_id, text, value])),
      );
      const record = (await api.get(`/v1/sessions/${session.id}`).expect(200)).body;
      expect(record.answers.map((answer: { value: unknown }) => answer.value)).toEqual([3, false, 'Live chat']);
      const [first] = await t
        .em()
        .execute<{ cut_off: boolean | null }[]>(
          `select cut_off from session_utterances where session_id = ? and speaker = 'participant' order by seq limit 1`,
          [session.id],
        );
      expect(first!.cut_off).toBe(true);
      expect(record.turnTaking.cutOffs).toBe(1);
      await context.close();
    }, 120_000);
  }
});
