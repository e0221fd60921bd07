import { createServer, type Server } from 'node:http';
import express from 'express';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import { PERMISSIONS } from '../../shared/permissions.js';
import type { TInviteMemberInput } from '../../shared/schemas/members.js';
import { inviteMember } from '../../server/domains/members/invite-member.js';
import { dashboardRoutes } from '../../server/http/dashboard-routes.js';
import { type Api, apiAs } from './factories.js';
import { launchChromium, screenshot, seriousAxeViolations } from './browser.js';
import { dashboardBuild } from './dashboard-build.js';
import { trpcClient } from './members.js';
import { freePort } from './processes.js';
import { startTestApp, type TestApp, type TestTenant } from './test-app.js';

// What the functions given to page.evaluate see in the browser (the project's types are Node's).
declare const document: any;
declare function getComputedStyle(element: unknown): { position: string };

export const DASHBOARD_PASSWORD = 'correct horse battery staple';

export interface DashboardOptions {
  /** The member who signs in through the form: invited as the admin CLI does, the invitation accepted with DASHBOARD_PASSWORD. */
  member: { email: string; name: string; role: TInviteMemberInput['role'] };
  /** More environment for the test app (PUBLIC_URL is the origin the browser uses). */
  env?: Record<string, string>;
  /** The test's own data, made before the member is invited and before the app listens. */
  seed?: (app: { t: TestApp; tenant: TestTenant; api: Api }) => Promise<void>;
}

export interface NewPageOptions {
  viewport?: { width: number; height: number };
  /** Passed to browser.newContext (acceptDownloads, …). */
  context?: BrowserContextOptions;
  /** Granted on the dashboard's origin (clipboard-read, …). */
  permissions?: string[];
  /** Content-Security-Policy violations the console reports are pushed here. */
  cspViolations?: string[];
  /** Uncaught script errors are pushed here. */
  pageErrors?: string[];
  /** Accept every confirm() the page asks (without a listener Playwright dismisses them). */
  acceptDialogs?: boolean;
  /** page.setDefaultTimeout. */
  timeout?: number;
}

export interface Dashboard {
  t: TestApp;
  tenant: TestTenant;
  api: Api;
  origin: string;
  browser: Browser;
  /** A page in a context of its own (1280×900 unless told). */
  newPage(options?: NewPageOptions): Promise<Page>;
  /** Fills the sign-in form with the member's email and password and submits it (opening /app/ first unless `open: false`). */
  signIn(page: Page, options?: { open?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/**
 * The research dashboard as production serves it (built once per test run, see dashboard-build.ts;
 * call this once per file, in beforeAll), the test app listening on a free port with PUBLIC_URL
 * set to it, a tenant, a member who can sign in, and Chromium.
 */
export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const distDir = await dashboardBuild();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await startTestApp({ PUBLIC_URL: origin, ...options.env });
  const tenant = await t.createTenant();
  const api = apiAs(t.http, tenant);
  await options.seed?.({ t, tenant, api });
  const { email, name, role } = options.member;
  const invited = await inviteMember(
    { em: t.em(), services: t.runtime.services },
    { organizationId: tenant.organizationId, permissions: PERMISSIONS },
    { email, role, name },
  );
  const token = new URL(invited.invitationUrl).searchParams.get('token')!;
  // The server's own dashboard routes, reading this file's build; everything else is the app.
  const service: Server = createServer(express().use(dashboardRoutes(t.runtime.services, distDir)).use(t.app));
  await new Promise<void>((resolve) => service.listen(port, '127.0.0.1', resolve));
  await trpcClient(origin).members.acceptInvitation.mutate({ token, password: DASHBOARD_PASSWORD });
  const browser = await launchChromium();

  return {
    t,
    tenant,
    api,
    origin,
    browser,
    async newPage(pageOptions = {}) {
      const context = await browser.newContext({ viewport: pageOptions.viewport ?? { width: 1280, height: 900 }, ...pageOptions.context });
      if (pageOptions.permissions) await context.grantPermissions(pageOptions.permissions, { origin });
      const page = await context.newPage();
      if (pageOptions.timeout) page.setDefaultTimeout(pageOptions.timeout);
      const { cspViolations, pageErrors } = pageOptions;
      if (cspViolations) {
        page.on('console', (message) => {
          if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text());
        });
      }
      if (pageErrors) page.on('pageerror', (error) => pageErrors.push(error.message));
      if (pageOptions.acceptDialogs) page.on('dialog', (dialog) => void dialog.accept());
      return page;
    },
    async signIn(page, { open = true } = {}) {
      if (open) await page.goto(`${origin}/app/`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(DASHBOARD_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
    },
    async close() {
      await browser.close();
      await new Promise((resolve) => service.close(resolve));
      await t.close();
    },
  };
}

/** axe-core on the page as it is now: no serious or critical violation. */
export async function expectAccessible(page: Page): Promise<void> {
  const violations = await seriousAxeViolations(page.mainFrame());
  expect(violations.map((violation) => `${violation.id}: ${violation.help} ${JSON.stringify(violation.nodes.map((node) => node.target))}`)).toEqual([]);
}

/** Usable on a phone: nothing makes the page itself scroll sideways (wide tables scroll in their own box). */
export async function expectPageFits(page: Page, name: string): Promise<void> {
  const overflow = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    culprits: [...document.querySelectorAll('body *')]
      .filter(
        (element: any) =>
          element.getBoundingClientRect().right > 391 && (!element.closest('.table-wrap, .mainnav ul') || getComputedStyle(element).position === 'absolute'),
      )
      .map((element: any) => `${element.tagName.toLowerCase()}.${element.className}`)
      .slice(0, 5),
  }));
  expect(overflow.width > 390 ? overflow : null, name).toBeNull();
}

/**
 * Photographs the page at 1280 px and at a phone's 390 px (tests/artifacts/<name>-1280.png and
 * -390.png), checks the narrow page with `fits` (by default: nothing scrolls the page sideways)
 * and `at390`, then goes back to 1280 px.
 */
export async function photograph(
  page: Page,
  name: string,
  options: { fits?: (page: Page, name: string) => Promise<void>; at390?: () => Promise<void> } = {},
): Promise<void> {
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(150);
  await screenshot(page, `${name}-390`);
  await (options.fits ?? expectPageFits)(page, name);
  await options.at390?.();
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Records on `page` what must not happen: console errors, script errors, answers of 400 and over. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  return problems;
}
