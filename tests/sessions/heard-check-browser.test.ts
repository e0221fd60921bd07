import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpeechRecognizer, TranscribeInput, Transcription } from '../../server/speech/speech-recognizer.js';
import { hasChromium, hasEspeak, launchChromium, seriousAxeViolations, screenshotTo } from '../helpers/browser.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { interviewFixture, PARTICIPANT_BUDGET } from '../helpers/interviews.js';
import { freePort } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A spoken answer heard with low confidence, as the participant meets it in Chromium (voice mode,
 * hands-free): the page shows "We heard: “…”" with what was heard in a box; the participant
 * corrects it by typing, and the transcript has the correction. The recognizer is scripted (it
 * hears a garbled sentence with a low confidence whatever was said), so the test does not depend
 * on what the offline recognizer makes of espeak-ng; the microphone is the test's own stream.
 */

declare const window: any;

const run = promisify(execFile);
const skipReason = !hasChromium ? 'no Chromium' : !hasEspeak ? 'espeak-ng not installed' : null;
if (skipReason) console.log(`heard-check-browser.test.ts: skipped, ${skipReason}`);

const SCREENS = process.env.RESULTS_SCREENSHOTS_DIR ?? '/work/screens';
const QUESTION = { id: 'story', text: 'What happened the last time you exported a report?', type: 'open', followUp: { enabled: false } };
const HEARD = 'the sport button was hard to fine';
const CORRECTED = 'The export button was hard to find';

class GarblingRecognizer implements SpeechRecognizer {
  readonly name = 'garbling';
  readonly runsLocally = false;
  hears(): boolean {
    return true;
  }
  async transcribe(_input: TranscribeInput): Promise<Transcription | null> {
    return { text: HEARD, confidence: 0.32 };
  }
}

let t: TestApp;
let api: Api;
let service: Server;
let origin: string;
let browser: Browser;
let workDir: string;
let clip: string;

beforeAll(async () => {
  if (skipReason) return;
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PUBLIC_URL: origin, ...PARTICIPANT_BUDGET });
  t.runtime.services.speech = { ...t.runtime.services.speech, recognizer: new GarblingRecognizer(), description: 'garbling' };
  api = apiAs(t.http, await t.createTenant());
  service = createServer(t.app);
  await new Promise<void>((resolve) => service.listen(port, '127.0.0.1', resolve));
  workDir = await mkdtemp(path.join(tmpdir(), 'heard-check-browser-'));
  const file = path.join(workDir, 'answer.wav');
  await run('espeak-ng', ['-v', 'en-us', '-s', '140', '-w', file, 'the export button was hard to find']);
  clip = (await readFile(file)).toString('base64');
  await mkdir(SCREENS, { recursive: true });
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => service?.close(resolve));
  await t?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** getUserMedia answers a Web Audio stream; `__mic.say()` plays the answer into it. */
function fakeMicrophone(): void {
  const w = window as any;
  let context: any;
  let destination: any;
  let buffer: any;
  const ready = async () => {
    context ??= new w.AudioContext();
    destination ??= context.createMediaStreamDestination();
    if (context.state === 'suspended') await context.resume();
  };
  w.navigator.mediaDevices.getUserMedia = async () => {
    await ready();
    return destination.stream.clone();
  };
  w.__mic = {
    async load(base64: string) {
      await ready();
      buffer = await context.decodeAudioData(Uint8Array.from(w.atob(base64), (c: string) => c.charCodeAt(0)).buffer);
    },
    say() {
      const source = context.createBufferSource();
      source.buffer = buffer;
      source.connect(destination);
      source.start();
    },
  };
}

/** Starts a voice interview at this width and speaks the answer once the page listens; answers the page showing the read-back. */
async function reachReadBack(width: number): Promise<{ page: Page; inviteId: string }> {
  const { invite } = await interviewFixture(api, { questions: [QUESTION] });
  const context = await browser.newContext({ viewport: { width, height: 860 } });
  const page = await context.newPage();
  await page.addInitScript(fakeMicrophone);
  await page.goto(`${origin}/interview/${invite.token}`);
  await page.getByRole('button', { name: 'Start interview' }).waitFor();
  await page.evaluate((base64) => window.__mic.load(base64), clip);
  await page.getByRole('button', { name: 'Start interview' }).click();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page
    .getByRole('heading', { name: QUESTION.text })
    .waitFor({ timeout: 90_000 })
    .catch(async (error) => {
      console.log(await page.locator('#app').innerText(), errors);
      throw error;
    });
  await page.locator('.voice-panel[data-state="listening"]').waitFor({ timeout: 90_000 });
  await page.evaluate(() => window.__mic.say());
  await page
    .getByRole('heading', { name: /^We heard:/ })
    .waitFor({ timeout: 90_000 })
    .catch(async (error) => {
      console.log(await page.locator('#app').innerText());
      throw error;
    });
  return { page, inviteId: invite.id };
}

describe.skipIf(skipReason !== null)('an answer heard unsurely, in Chromium', () => {
  it('shows "We heard: …" in a box; the participant corrects it by typing and the transcript has the correction', async () => {
    const { page, inviteId } = await reachReadBack(1280);
    const box = page.getByRole('textbox', { name: 'What you said' });
    expect(await box.inputValue()).toBe(HEARD);
    expect(await page.getByRole('heading', { name: /^We heard:/ }).innerText()).toContain(`“${HEARD}”`);
    // One meaning per button: "Correct it" waits for a change.
    expect(await page.getByRole('button', { name: 'Correct it' }).isDisabled()).toBe(true);
    expect(await seriousAxeViolations(page.mainFrame())).toEqual([]);
    await screenshotTo(page, path.join(SCREENS, 'results-heard-1280.png'));

    await box.fill(CORRECTED);
    expect(await page.getByRole('button', { name: "That's right" }).isDisabled()).toBe(true);
    await screenshotTo(page, path.join(SCREENS, 'results-corrected-1280.png'));
    await page.getByRole('button', { name: 'Correct it' }).click();
    await page.getByRole('heading', { name: 'Thank you!' }).waitFor({ timeout: 90_000 });

    const [session] = await t
      .em()
      .execute<{ id: string; questions_answered: number }[]>('select id, questions_answered from sessions where invite_id = ?', [inviteId]);
    expect(session!.questions_answered).toBe(1);
    const answers = await t
      .em()
      .execute<{ text: string; heard_check: string; heard_as: string; audio_file_id: string | null }[]>(
        `select text, heard_check, heard_as, audio_file_id from session_utterances where session_id = ? and speaker = 'participant' order by seq`,
        [session!.id],
      );
    expect(answers).toEqual([{ text: CORRECTED, heard_check: 'corrected', heard_as: HEARD, audio_file_id: expect.any(String) }]);
    await page.context().close();
  }, 300_000);

  it('fits a phone screen', async () => {
    const { page } = await reachReadBack(390);
    const box = page.getByRole('textbox', { name: 'What you said' });
    const { width } = (await box.boundingBox())!;
    expect(width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => window.document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshotTo(page, path.join(SCREENS, 'results-heard-390.png'));
    await page.context().close();
  }, 300_000);
});
