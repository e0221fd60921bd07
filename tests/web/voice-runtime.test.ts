import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webAssets } from '../../server/http/web-asset-routes.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { asBytes } from '../helpers/audio.js';
import { hasChromium, hasEspeak, launchChromium } from '../helpers/browser.js';
import { generateEndOfTurnSet } from '../fixtures/end-of-turn/generate.js';
import { analyseSamples, decodeWav } from '../helpers/voice-analysis.js';
import { interviewFixture } from '../helpers/interviews.js';
import { freePort } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Voice mode's runtime comes from the service itself: the voice module, Silero VAD's model and
 * onnxruntime-web's WebAssembly under content-hashed names, cached for good, with the types a
 * browser needs; the interview pages (and only they) let WebAssembly compile; and in Chromium,
 * under the page's real policy, the module runs the model on microphone-sized frames.
 */

// What the functions given to page.evaluate see in the browser (the project's types are Node's).
declare const window: { analyse?: (frame: Float32Array) => Promise<{ speechProbability: number; rms: number; pitchHz: number | null }> };

const require = createRequire(import.meta.url);

let t: TestApp;
let api: Api;
let service: Server | undefined;
let origin: string;
let browser: Browser | undefined;

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  t = await startTestApp({ PUBLIC_URL: origin, RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' });
  api = apiAs(t.http, await t.createTenant());
  service = createServer(t.app);
  await new Promise<void>((resolve) => service!.listen(port, '127.0.0.1', resolve));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (service ? service.close(resolve) : resolve(undefined)));
  await t?.close();
});

describe('the voice runtime files', () => {
  it('serves the WebAssembly as application/wasm, immutable, gzip-encoded when asked, the same bytes as the package', async () => {
    const { voice } = await webAssets();
    expect(voice.wasm.name).toMatch(/^ort-wasm-simd-threaded\.[0-9a-f]{12}\.wasm$/);
    const original = await readFile(require.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm'));

    const plain = await asBytes(t.http.get(`/assets/${voice.wasm.name}`).set('Accept-Encoding', 'identity')).expect(200);
    expect(plain.headers['content-type']).toBe('application/wasm');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Buffer.compare(plain.body as Buffer, original)).toBe(0);

    const compressed = await t.http.get(`/assets/${voice.wasm.name}`).set('Accept-Encoding', 'gzip, deflate, br').expect(200);
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(compressed.headers.vary).toBe('Accept-Encoding');
    expect(Number(compressed.headers['content-length'])).toBeLessThan(original.length / 3);

    const revalidated = await t.http
      .get(`/assets/${voice.wasm.name}`)
      .set('If-None-Match', plain.headers.etag as string)
      .expect(304);
    expect(revalidated.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves the Silero VAD v5 model and the voice module under their hashed names; an unknown name is a 404', async () => {
    const { voice } = await webAssets();
    const model = await asBytes(t.http.get(`/assets/${voice.model.name}`).set('Accept-Encoding', 'gzip')).expect(200);
    expect(model.headers['content-type']).toBe('application/octet-stream');
    expect(model.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(model.headers['content-encoding']).toBe('gzip');
    // superagent has decoded it.
    expect(Buffer.compare(model.body as Buffer, await readFile(require.resolve('@ricky0123/vad-web/dist/silero_vad_v5.onnx')))).toBe(0);

    const module = await t.http.get(`/assets/${voice.module.name}`).set('Accept-Encoding', 'identity').expect(200);
    expect(module.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(module.text).toContain('createVoiceAnalyser');

    const missing = await t.http.get('/assets/ort-wasm-simd-threaded.000000000000.wasm').expect(404);
    expect(missing.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it("the interview and embed pages allow WebAssembly ('wasm-unsafe-eval') but no JavaScript eval; other pages do not", async () => {
    const { invite } = await interviewFixture(api);
    for (const path of [`/interview/${invite.token}`, `/embed?invite=${invite.token}`]) {
      const csp = (await t.http.get(path).expect(200)).headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).not.toContain("'unsafe-eval'");
      expect(csp).toContain("connect-src 'self'");
    }
    const notFound = await t.http.get('/interview/not-a-token').expect(404);
    expect(notFound.headers['content-security-policy']).toContain("'wasm-unsafe-eval'"); // still the interview page, showing why
    const dashboard = await t.http.get('/app/');
    expect(dashboard.headers['content-security-policy']).toContain("script-src 'self'");
    expect(dashboard.headers['content-security-policy']).not.toContain('wasm-unsafe-eval');
  });
});

describe.runIf(hasChromium && hasEspeak)('in Chromium, under the interview page policy', () => {
  it('the voice module loads the model and runtime from the service alone and tells speech from silence', async () => {
    const { invite } = await interviewFixture(api);
    const { voice } = await webAssets();
    browser = await launchChromium();
    const page = await browser.newPage();
    const requests: string[] = [];
    const cspViolations: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy|wasm/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(`${origin}/interview/${invite.token}`);
    const files = { module: `/assets/${voice.module.name}`, model: `/assets/${voice.model.name}`, wasm: `/assets/${voice.wasm.name}` };
    const started = Date.now();
    // What web/interview/voice/vad-runtime.ts does, with the names the page's build gives it.
    // A string, run in the page (vitest would rewrite a function's import()).
    await page.evaluate(
      `import(${JSON.stringify(files.module)}).then(async (engine) => { window.analyse = await engine.createVoiceAnalyser(${JSON.stringify(files)}); })`,
    );
    const loadMs = Date.now() - started;

    // A voiced vowel-like buzz (harmonics of 120 Hz) after silence: the frames' analysis as the rule receives it.
    const analyses = await page.evaluate(async () => {
      const out = [];
      for (let i = 0; i < 40; i++) {
        const frame = new Float32Array(512);
        if (i >= 10)
          for (let n = 0; n < 512; n++) {
            const time = (i * 512 + n) / 16000;
            frame[n] =
              0.2 *
              (Math.sin(2 * Math.PI * 120 * time) +
                0.6 * Math.sin(2 * Math.PI * 240 * time) +
                0.4 * Math.sin(2 * Math.PI * 360 * time) +
                0.3 * Math.sin(2 * Math.PI * 720 * time));
          }
        out.push(await window.analyse!(frame));
      }
      return out;
    });
    console.log(`voice runtime loaded in Chromium in ${loadMs} ms`);
    expect(analyses.slice(0, 10).every((frame) => frame.speechProbability < 0.1 && frame.rms === 0 && frame.pitchHz === null)).toBe(true);
    const buzz = analyses.slice(14);
    expect(buzz.every((frame) => frame.pitchHz !== null && Math.abs(frame.pitchHz - 120) < 3)).toBe(true);
    expect(buzz.every((frame) => frame.speechProbability >= 0 && frame.speechProbability <= 1)).toBe(true);
    expect(cspViolations).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    expect(requests).toContain(`${origin}${files.wasm}`);
    expect(requests).toContain(`${origin}${files.model}`);

    // The same code as the Node measurement, so the same figures: a spoken answer of the labelled
    // set, frame by frame in the browser (fresh model state, as in Node), against Node's analysis.
    const [answer] = await generateEndOfTurnSet({ ids: ['en-17'] });
    const samples = decodeWav(await readFile(answer!.file));
    await page.evaluate(
      `import(${JSON.stringify(files.module)}).then(async (engine) => { window.analyse = await engine.createVoiceAnalyser(${JSON.stringify(files)}); })`,
    );
    const browserRun = await page.evaluate(async (audio: number[]) => {
      const frames = [];
      const started = performance.now();
      for (let start = 0; start + 512 <= audio.length; start += 512) frames.push(await window.analyse!(Float32Array.from(audio.slice(start, start + 512))));
      return { frames, msPerFrame: (performance.now() - started) / frames.length };
    }, Array.from(samples));
    const nodeFrames = await analyseSamples(samples);
    console.log(`Chromium: ${browserRun.msPerFrame.toFixed(2)} ms of analysis per 32 ms frame`);
    expect(browserRun.frames).toHaveLength(nodeFrames.length);
    const largest = (pick: (frame: (typeof nodeFrames)[number]) => number) =>
      Math.max(...nodeFrames.map((frame, index) => Math.abs(pick(frame) - pick(browserRun.frames[index]!))));
    expect(largest((frame) => frame.speechProbability)).toBeLessThan(1e-4);
    expect(largest((frame) => frame.rms)).toBeLessThan(1e-6);
    expect(browserRun.frames.map((frame) => frame.pitchHz === null)).toEqual(nodeFrames.map((frame) => frame.pitchHz === null));
    // Real time with room to spare on a busy machine.
    expect(browserRun.msPerFrame).toBeLessThan(16);
  }, 300_000);
});
