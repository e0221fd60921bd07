import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { ROOT } from './processes.js';

/** Debian's Chromium (`.ci/run` installs it); browser tests skip, saying why, where it is absent. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);
export const hasEspeak = spawnSync('espeak-ng', ['--version']).status === 0;

export const ARTIFACTS_DIR = path.join(ROOT, 'tests', 'artifacts');

export function reportSkipped(suite: string): void {
  if (!hasChromium) console.log(`${suite}: skipped, no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`);
}

/** Headless Chromium with a fake microphone that plays `audioFile` (a WAV) when given. */
export function launchChromium(options: { audioFile?: string } = {}): Promise<Browser> {
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
  ];
  if (options.audioFile) args.push(`--use-file-for-fake-audio-capture=${options.audioFile}`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args });
}

/** Speech made with espeak-ng, as a WAV the fake microphone can play. */
export function speechWav(text: string, file: string): void {
  const result = spawnSync('espeak-ng', ['-s', '150', '-w', file, text]);
  if (result.status !== 0) throw new Error(`espeak-ng failed: ${result.stderr}`);
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** Runs axe-core in the frame (as the test's own script, past the page's CSP) and answers its serious and critical violations. */
export async function seriousAxeViolations(frame: Frame): Promise<AxeViolation[]> {
  await frame.evaluate(axeSource);
  // A string, run in the page: the browser's globals are not this file's.
  const violations = await frame.evaluate<AxeViolation[]>(`axe.run(document, { resultTypes: ['violations'] }).then((results) => results.violations)`);
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/**
 * Screenshots are for people checking the screens (TEST_SCREENSHOTS=1 npm test, docs/testing.md):
 * without it none is taken, as nothing in the suite reads them and each costs a full-page render
 * and a PNG encoding (about a tenth of a browser file's time).
 */
export const screenshotsWanted = process.env.TEST_SCREENSHOTS === '1';

/** `page.screenshot` into `file` (its directory made), when screenshots are wanted. */
export async function screenshotTo(page: Page, file: string, options: { fullPage?: boolean } = { fullPage: true }): Promise<void> {
  if (!screenshotsWanted) return;
  await mkdir(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, ...options });
}

/** A full-page screenshot as tests/artifacts/<name>.png, when screenshots are wanted. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await screenshotTo(page, path.join(ARTIFACTS_DIR, `${name}.png`));
}

/** A plain HTTP server answering every GET with the page `html(url)` returns: the customer's site. */
export async function startHostSite(html: (url: URL) => string): Promise<{ server: Server; origin: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html(url));
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  // "localhost" and "127.0.0.1" are two origins: the host page and the service never share one.
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return { server, origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
