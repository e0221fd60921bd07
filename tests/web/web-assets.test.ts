import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InterviewPageConfig } from '../../shared/interview-page-config.js';
import { buildWebAssets, readSdkVersion } from '../../server/web/build-web-assets.js';
import { buildSdkPackage } from '../../web/sdk/build.js';
import { contrastRatio, resolveTheme } from '../../web/interview/theme.js';
import { type Api, apiAs, createCampaign, createInvite } from '../helpers/factories.js';
import { interviewFixture } from '../helpers/interviews.js';
import { ROOT } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The browser code without a browser: its size budgets, the publishable SDK package and its
 * declarations, the theme's contrast rules, and what `/embed` and `/interview/{token}` answer
 * (status, policy, the configuration the page starts from) for every kind of invite.
 */
let t: TestApp;
let api: Api;
let work: string | undefined;

beforeAll(async () => {
  t = await startTestApp();
  api = apiAs(t.http, await t.createTenant());
});
afterAll(async () => {
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const gzipped = (body: Buffer) => gzipSync(body, { level: 9 }).length;

describe('size budgets', () => {
  it('the SDK is at most 4 KB gzipped, the page script and styles at most 60 KB', async () => {
    const assets = await buildWebAssets();
    const sizes = {
      sdkGlobal: gzipped(assets.sdkGlobal.body),
      sdkModule: gzipped(assets.sdkModule.body),
      page: gzipped(assets.page.script.asset.body) + gzipped(assets.page.style.asset.body),
    };
    console.log(`gzipped bytes: SDK ${sizes.sdkGlobal} (global), ${sizes.sdkModule} (module); interview page ${sizes.page}`);
    expect(sizes.sdkGlobal).toBeLessThanOrEqual(4096);
    expect(sizes.sdkModule).toBeLessThanOrEqual(4096);
    expect(sizes.page).toBeLessThanOrEqual(60 * 1024);
  });

  it('builds the same bytes from the same sources (a versioned SDK URL serves one file)', async () => {
    const [first, second] = await Promise.all([buildWebAssets(), buildWebAssets()]);
    expect(second.sdkGlobal.etag).toBe(first.sdkGlobal.etag);
    expect(second.page.script.name).toBe(first.page.script.name);
  });
});

const CONSUMER = `import InterviewSDK, { type InterviewEmbed, type MountOptions } from '@interview-service/embed';

const options: MountOptions = { invite: 'inv_x', baseUrl: 'https://interviews.example.com', theme: { primary: '#7c3aed' } };
const embed: InterviewEmbed = InterviewSDK.mount('#interview', options);
embed.on('completed', (payload) => {
  const id: string = payload.sessionId;
  console.log(id);
});
embed.on('error', ({ message }) => console.log(message.length));
InterviewSDK.on('progress', (payload) => console.log(payload.status === 'in_progress'));
InterviewSDK.destroy('#interview');
InterviewSDK.destroyAll();
console.log(InterviewSDK.version);

// @ts-expect-error: not an event of the SDK
embed.on('finished', () => undefined);
// @ts-expect-error: error carries a message, not a session id
embed.on('error', (payload) => payload.sessionId);
// @ts-expect-error: the invite is required
InterviewSDK.mount('#interview', { baseUrl: 'https://interviews.example.com' });
`;

describe('the @interview-service/embed package', () => {
  it('npm run build:sdk writes both builds and declarations a strict consumer typechecks against', async () => {
    work = await mkdtemp(path.join(ROOT, 'web', 'sdk', '.check-'));
    const packageDir = path.join(work, 'node_modules', '@interview-service', 'embed');
    const files = await buildSdkPackage(path.join(packageDir, 'dist'));
    await copyFile(path.join(ROOT, 'web', 'sdk', 'package.json'), path.join(packageDir, 'package.json'));
    expect(files.map((file) => path.basename(file))).toEqual(['interview-sdk.js', 'interview-sdk.mjs', 'index.d.ts', 'sdk.d.ts']);
    const served = await t.http.get(`/sdk/v${await readSdkVersion()}/interview-sdk.mjs`).expect(200);
    expect(await readFile(files[1]!, 'utf8')).toBe(served.text);

    const sample = path.join(work, 'consumer.ts');
    await writeFile(sample, CONSUMER);
    const program = ts.createProgram([sample], {
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      strict: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      skipLibCheck: false,
      types: [],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  }, 60_000);
});

describe('theme contrast', () => {
  it('keeps the requested colours when they read well', () => {
    expect(resolveTheme({ primary: '#7c3aed', background: '#ffffff', text: '#111827' })).toMatchObject({
      primary: '#7c3aed',
      onPrimary: '#ffffff',
      accent: '#7c3aed',
      text: '#111827',
    });
  });

  it('replaces text that does not reach 4.5:1 on the background, and labels a light primary in black', () => {
    const theme = resolveTheme({ primary: '#fde047', background: '#ffffff', text: '#dddddd' });
    expect(contrastRatio(theme.text, theme.background)).toBeGreaterThanOrEqual(4.5);
    expect(theme.onPrimary).toBe('#000000');
    // A yellow accent on white would not stand out (3:1): the focus ring and borders use the text colour.
    expect(theme.accent).toBe(theme.text);
    expect(contrastRatio(theme.muted, theme.background)).toBeGreaterThanOrEqual(4.5);
  });

  it('takes #rgb, ignores what is not a hex colour, and works on a dark background', () => {
    const theme = resolveTheme({ primary: '#fb0', background: '#111827', text: 'white' });
    expect(theme.primary).toBe('#ffbb00');
    expect(theme.text).toBe('#ffffff');
    expect(contrastRatio(theme.muted, theme.background)).toBeGreaterThanOrEqual(4.5);
  });
});

function configOf(html: string): InterviewPageConfig {
  const match = /<script type="application\/json" id="interview-config">([^<]*)<\/script>/.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]!) as InterviewPageConfig;
}

describe('GET /embed and /interview/{token}', () => {
  it('an open invite: 200, the page shell with its configuration, framed only by parentOrigin, no third party allowed', async () => {
    const { invite, campaign } = await interviewFixture(api, { settings: { language: 'en-GB', voice: 'nova' } });
    const response = await t.http
      .get('/embed')
      .query({ invite: invite.token, parentOrigin: 'https://customer.example', 'theme[primary]': '#7C3AED', 'theme[text]': 'red', voice: 'onyx' })
      .expect(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    const csp = response.headers['content-security-policy'] as string;
    expect(csp).toContain('frame-ancestors https://customer.example');
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https:(?!\/\/)|\*/);
    expect(response.text).toContain('<html lang="en-GB">');
    expect(configOf(response.text)).toEqual({
      mode: 'embed',
      token: invite.token,
      parentOrigin: 'https://customer.example',
      language: 'en-GB',
      voice: 'onyx',
      theme: { primary: '#7c3aed', background: null, text: null },
      campaignName: campaign.name,
      preview: false,
      testMode: false,
      organizationName: 'Test organization',
      participantName: 'Ada',
      turnTaking: { endOfTurnMs: 1200, pauseMs: 1800, bargeIn: true },
      voiceAssets: { captureWorklet: expect.stringMatching(/^\/assets\/voice-capture\.[0-9a-f]{12}\.js$/) },
      closed: null,
    });

    // Its script and styles (and voice mode's capture worklet), by content-hashed names, cached for good.
    const assetPaths = [...response.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assetPaths).toHaveLength(2);
    const worklet = await t.http.get(configOf(response.text).voiceAssets!.captureWorklet).expect(200);
    expect(worklet.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(worklet.text).toContain('registerProcessor("voice-frames"');
    for (const assetPath of [...assetPaths, configOf(response.text).voiceAssets!.captureWorklet]) {
      const asset = await t.http.get(assetPath).expect(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect((await t.http.get('/assets/interview.000000000000.js').expect(404)).body.error.code).toBe('RESOURCE_NOT_FOUND');

    // The full page: the campaign's voice, never framed.
    const page = await t.http.get(`/interview/${invite.token}`).expect(200);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(configOf(page.text)).toMatchObject({ mode: 'page', voice: 'nova', parentOrigin: null });
    expect(page.text).toContain('invites you to an interview');
  });

  it("voice mode's turn-taking in the page config: the campaign's settings.turnTaking over the script's, key by key, over the defaults", async () => {
    const { invite } = await interviewFixture(api, {
      settings: { turnTaking: { endOfTurnMs: 1200, bargeIn: false } },
      scriptSettings: { turnTaking: { endOfTurnMs: 900, pauseMs: 3000 } },
    });
    for (const response of [
      await t.http.get(`/interview/${invite.token}`).expect(200),
      await t.http.get('/embed').query({ invite: invite.token }).expect(200),
    ]) {
      expect(configOf(response.text).turnTaking).toEqual({ endOfTurnMs: 1200, pauseMs: 3000, bargeIn: false });
    }
  });

  it('a parentOrigin that is not an exact origin posts nowhere and allows no framing', async () => {
    const { invite } = await interviewFixture(api);
    for (const parentOrigin of ['https://customer.example/path', '*', 'javascript:alert(1)', 'customer.example']) {
      const response = await t.http.get('/embed').query({ invite: invite.token, parentOrigin }).expect(200);
      expect(configOf(response.text).parentOrigin).toBeNull();
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('text from the customer cannot end the configuration block', async () => {
    const campaign = await createCampaign(api, { name: '</script><script>alert(1)</script>' });
    const invite = await createInvite(api, campaign.id, { email: 'x@example.com', name: '<b>Eve</b>', sendEmail: false });
    const response = await t.http.get('/embed').query({ invite: invite.token, parentOrigin: 'https://customer.example' }).expect(200);
    expect(response.text.match(/<script/g)).toHaveLength(2);
    expect(configOf(response.text)).toMatchObject({ campaignName: '</script><script>alert(1)</script>', participantName: '<b>Eve</b>' });
  });

  it.each([
    ['unknown', 404, 'This interview link is not valid.'],
    ['cancelled', 410, 'This invitation was withdrawn by its sender.'],
    ['expired', 410, 'This invitation has expired.'],
    ['completed', 410, 'You have already completed this interview.'],
    ['paused campaign', 409, 'This interview is paused at the moment.'],
  ])('an invite that cannot be taken (%s): %i, a page saying why, and the message the embed raises as error', async (kind, status, message) => {
    const { invite, campaign } = await interviewFixture(api);
    if (kind === 'cancelled') await api.post(`/v1/invites/${invite.id}/cancel`).expect(200);
    if (kind === 'expired') await t.em().execute("update invites set expires_at = now() - interval '1 minute' where id = ?", [invite.id]);
    if (kind === 'completed') await t.em().execute("update invites set status = 'completed' where id = ?", [invite.id]);
    if (kind === 'paused campaign') await api.post(`/v1/campaigns/${campaign.id}/pause`).expect(200);
    const token = kind === 'unknown' ? `inv_${'0'.repeat(43)}` : invite.token;
    for (const request of [t.http.get('/embed').query({ invite: token, parentOrigin: 'https://customer.example' }), t.http.get(`/interview/${token}`)]) {
      const response = await request;
      expect(response.status).toBe(status);
      expect(response.text).toContain(message.split(' ').slice(0, 3).join(' '));
      const config = configOf(response.text);
      expect(config.token).toBeNull();
      expect(config.closed?.message).toContain(message);
    }
  });

  it("past the participant budget, /embed is still the interview page, saying so (framable, for the SDK's error event)", async () => {
    const limited = await startTestApp({ RATE_LIMIT_PARTICIPANT_PER_MINUTE: '1' });
    try {
      const query = { invite: `inv_${'0'.repeat(43)}`, parentOrigin: 'https://customer.example' };
      await limited.http.get('/embed').query(query).expect(404);
      const refused = await limited.http.get('/embed').query(query).expect(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.headers['content-security-policy']).toContain('frame-ancestors https://customer.example');
      expect(configOf(refused.text)).toMatchObject({ mode: 'embed', parentOrigin: 'https://customer.example', token: null, closed: { code: 'http_429' } });
      // The full page keeps the plain page and its policy.
      const page = await limited.http.get(`/interview/inv_${'0'.repeat(43)}`).expect(429);
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    } finally {
      await limited.close();
    }
  });

  it('an embed without an invite is the invalid-link page; other methods are 405 pages', async () => {
    const response = await t.http.get('/embed').query({ parentOrigin: 'https://customer.example' }).expect(404);
    expect(configOf(response.text).closed?.code).toBe('invite_not_found');
    const post = await t.http.post('/embed').expect(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect(post.headers['content-type']).toMatch(/^text\/html/);
  });
});
