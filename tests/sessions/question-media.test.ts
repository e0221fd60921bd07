import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentWav } from '../helpers/audio.js';
import { apiAs, createCampaign, createInvite, createPublishedScript, type Api } from '../helpers/factories.js';
import { hasChromium, launchChromium, reportSkipped, seriousAxeViolations, screenshotTo } from '../helpers/browser.js';
import { participantAs } from '../helpers/interviews.js';
import { freePort } from '../helpers/processes.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';
import { PNG } from '../helpers/images.js';

/**
 * Question media: a script's images (with alt text) and audio clips for a question reach the
 * participant with that question, as links bound to the session that open without an API key
 * while it is unfinished, and the interview page shows them above the answer area.
 */
reportSkipped('question-media.test.ts (browser part)');

declare const document: any;
declare const window: any;

const QUESTIONS = [
  { id: 'packaging', text: 'Which of these packages would you pick up first?', type: 'multiple_choice', options: ['The blue one', 'The green one'] },
  { id: 'jingle', text: 'How much do you like this jingle?', type: 'rating', scale: { min: 1, max: 5 } },
  { id: 'why', text: 'Why?', type: 'open', followUp: { enabled: false } },
];
const ALT = 'Two cereal boxes side by side: a blue one with a sun, a green one with a field.';

let t: TestApp;
let tenant: TestTenant;
let api: Api;
let service: Server;
let origin: string;

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PUBLIC_URL: origin, RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' });
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  service = createServer(t.app);
  await new Promise<void>((resolve) => service.listen(port, '127.0.0.1', resolve));
}, 120_000);
afterAll(async () => {
  await new Promise((resolve) => service?.close(resolve));
  await t?.close();
});

function upload(scriptId: string, file: Buffer, filename: string, fields: Record<string, string> = {}) {
  let request = t.http.post(`/v1/scripts/${scriptId}/media`).set('Authorization', tenant.authorization);
  for (const [name, value] of Object.entries(fields)) request = request.field(name, value);
  return request.attach('file', file, filename);
}

async function mediaInterview(image: Buffer = PNG, imageName = 'boxes.png') {
  const script = await createPublishedScript(api, { questions: QUESTIONS });
  const imageMedia = (await upload(script.id, image, imageName, { questionId: 'packaging', alt: ALT }).expect(201)).body;
  const audioMedia = (await upload(script.id, silentWav(800), 'jingle.wav', { questionId: 'jingle', alt: 'The jingle, eight seconds' }).expect(201)).body;
  const campaign = await createCampaign(api, { scriptId: script.id });
  const invite = await createInvite(api, campaign.id, { email: `p-${Math.random().toString(36).slice(2)}@example.com`, sendEmail: false });
  return { script, campaign, invite, imageMedia, audioMedia };
}

/** Fetches a signed link as a browser would: no Authorization header. */
function fetchLink(url: string) {
  return t.http
    .get(new URL(url).pathname)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
}

describe('alt text at upload', () => {
  it('is stored and answered with the media; without it, alt is null (existing clients keep working)', async () => {
    const script = await createPublishedScript(api, { questions: QUESTIONS });
    const withAlt = (await upload(script.id, PNG, 'a.png', { questionId: 'packaging', alt: `  ${ALT}  ` }).expect(201)).body;
    expect(withAlt.alt).toBe(ALT);
    const without = (await upload(script.id, PNG, 'b.png', { questionId: 'packaging' }).expect(201)).body;
    expect(without.alt).toBeNull();
    const [row] = await t.em().execute<{ alt: string | null }[]>(`select alt from script_media where id = ?`, [withAlt.id]);
    expect(row!.alt).toBe(ALT);
    const listed = (await api.get(`/v1/scripts/${script.id}/media`).expect(200)).body.data;
    expect(listed.map((media: { alt: string | null }) => media.alt).sort()).toEqual([ALT, null].sort());
  });

  it('too long or with control characters: 422 naming alt, nothing stored', async () => {
    const script = await createPublishedScript(api, { questions: QUESTIONS });
    const long = await upload(script.id, PNG, 'a.png', { alt: 'x'.repeat(1001) });
    expect(long.status).toBe(422);
    expect(long.body.error.details.fields).toEqual([{ path: 'alt', message: expect.stringMatching(/1000/) }]);
    const control = await upload(script.id, PNG, 'a.png', { alt: 'a\u0007b' });
    expect(control.status).toBe(422);
    expect(control.body.error.details.fields[0].path).toBe('alt');
    expect((await api.get(`/v1/scripts/${script.id}/media`).expect(200)).body.data).toEqual([]);
  });
});

describe("the participant's turn", () => {
  it('carries the media of its question only, with alt text and links that open without an API key', async () => {
    const { invite, imageMedia } = await mediaInterview();
    const participant = participantAs(t.http, invite.token);
    const first = (await participant.start().expect(201)).body.turn;
    expect(first.media).toEqual([{ kind: 'image', contentType: 'image/png', url: expect.stringMatching(new RegExp(`^${origin}/files/`)), alt: ALT }]);
    const image = await fetchLink(first.media[0].url);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(image.body as Buffer, PNG)).toBe(0);
    // Not the script-media link the API answers: one bound to this session.
    expect(first.media[0].url).not.toBe(imageMedia.url);

    const second = (await participant.answer('the blue one').expect(200)).body.turn;
    expect(second.questionId).toBe('jingle');
    expect(second.media).toEqual([{ kind: 'audio', contentType: 'audio/wav', url: expect.any(String), alt: 'The jingle, eight seconds' }]);
    expect((await fetchLink(second.media[0].url)).status).toBe(200);

    const third = (await participant.answer('4').expect(200)).body.turn;
    expect(third.questionId).toBe('why');
    expect(third).not.toHaveProperty('media');
  });

  it('links stop opening once the session is over, and name no media of another script', async () => {
    const { invite } = await mediaInterview();
    const participant = participantAs(t.http, invite.token);
    const { session, turn } = (await participant.start().expect(201)).body;
    const other = await mediaInterview();
    const otherSession = (await participantAs(t.http, other.invite.token).start().expect(201)).body.session;
    const mediaId = other.imageMedia.id as string;
    // A link signed for this session naming the other script's image: the session's script has no such media.
    const forged = await t.runtime.services.signer.signFileLink({ fileId: `${session.id}/${mediaId}`, purpose: 'question_media' }, 600);
    expect((await fetchLink(forged.url)).status).toBe(404);
    const own = await t.runtime.services.signer.signFileLink({ fileId: `${otherSession.id}/${mediaId}`, purpose: 'question_media' }, 600);
    expect((await fetchLink(own.url)).status).toBe(200);

    await participant.end().expect(200);
    expect((await fetchLink(turn.media[0].url)).status).toBe(404);
  });

  it("the interview page's CSP lets images and audio come from the service's public URL, nowhere else", async () => {
    const { invite } = await mediaInterview();
    const page = await t.http.get(`/interview/${invite.token}`).expect(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain(`img-src 'self' ${origin} data:`);
    expect(csp).toMatch(new RegExp(`media-src 'self' ${origin.replace(/\./g, '\\.')} blob: data:`));
  });
});

describe.skipIf(!hasChromium)('the interview page in Chromium', () => {
  let browser: Browser;
  let workDir: string;
  beforeAll(async () => {
    browser = await launchChromium();
    workDir = await mkdtemp(path.join(tmpdir(), 'question-media-'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('shows the question image with its alt text, within the column and below a third of the screen, at 1280 and 390 px; the audio clip as a player', async () => {
    // A photo-sized image (1200×800), so the size limits are what is tested.
    const imageFile = path.join(workDir, 'boxes.jpg');
    const made = spawnSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1200x800', '-frames:v', '1', '-q:v', '5', imageFile]);
    expect(made.status).toBe(0);
    const screenshots = '/work/screenshots/media';
    await mkdir(screenshots, { recursive: true });

    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      const { invite } = await mediaInterview(await readFile(imageFile), 'boxes.jpg');
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const blocked: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
      });
      await page.goto(`${origin}/interview/${invite.token}`);
      // Text mode (voice mode, the default with a microphone, shows the same media: tests/sessions/voice-interview-browser.test.ts).
      await page.getByRole('radio', { name: 'Type my answers' }).check();
      await page.getByRole('button', { name: 'Start interview' }).click();
      await page.getByRole('heading', { name: QUESTIONS[0]!.text }).waitFor();
      const image = page.getByRole('img', { name: ALT });
      await image.waitFor();
      await page.waitForFunction(() => {
        const img = document.querySelector('.question-media img');
        return img && img.complete && img.naturalWidth > 0;
      });
      const facts = await page.evaluate(() => {
        const img = document.querySelector('.question-media img');
        const box = img.getBoundingClientRect();
        const question = document.querySelector('.question').getBoundingClientRect();
        const answer = document.querySelector('.answer').getBoundingClientRect();
        return {
          width: box.width,
          height: box.height,
          right: box.right,
          questionRight: question.right,
          answerTop: answer.top,
          imageBottom: box.bottom,
          innerHeight: window.innerHeight,
          naturalWidth: img.naturalWidth,
          alt: img.alt,
        };
      });
      expect(facts.naturalWidth).toBe(1200);
      expect(facts.alt).toBe(ALT);
      expect(facts.right).toBeLessThanOrEqual(facts.questionRight + 1);
      expect(facts.height).toBeLessThanOrEqual(facts.innerHeight / 3 + 1);
      // The image is above the answer area, and the answer area starts on the first screen.
      expect(facts.imageBottom).toBeLessThanOrEqual(facts.answerTop);
      expect(facts.answerTop).toBeLessThan(facts.innerHeight);
      expect(await seriousAxeViolations(page.mainFrame())).toEqual([]);
      await screenshotTo(page, path.join(screenshots, `question-image-${viewport.width}.png`));

      await page.getByRole('button', { name: 'The blue one' }).click();
      await page.getByRole('heading', { name: QUESTIONS[1]!.text }).waitFor();
      const audio = page.locator('.question-media audio');
      await audio.waitFor();
      expect(await audio.getAttribute('controls')).not.toBeNull();
      expect(await audio.getAttribute('aria-label')).toBe('The jingle, eight seconds');
      // The clip loads from the service (its metadata: the CSP let it through).
      await page.waitForFunction(() => document.querySelector('.question-media audio').readyState >= 1);
      await screenshotTo(page, path.join(screenshots, `question-audio-${viewport.width}.png`));
      expect(blocked).toEqual([]);
      await context.close();
    }
  }, 120_000);
});
