import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiAs, uniqueName } from '../helpers/factories.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

const PUBLIC_URL = 'http://127.0.0.1:3000';
const DAY_MS = 86_400_000;

let t: TestApp;
let tenant: TestTenant;
let api: Api;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000' });
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
});
afterAll(() => t?.close());

const QUESTIONS = [
  { id: 'q1', type: 'open', text: 'What made you sign up?' },
  { id: 'q2', type: 'rating', text: 'How likely are you to recommend us?' },
  { id: 'q3', type: 'multiple_choice', text: 'Which plan are you on?', options: ['Free', 'Pro'] },
];

function quickstartBody(overrides: Record<string, unknown> = {}) {
  return { title: uniqueName('Onboarding interviews'), locale: 'en', questions: QUESTIONS, ...overrides };
}

/** What one organization holds of each thing a quickstart makes. */
async function countsFor(organizationId: string) {
  const [row] = await t.em().execute<{ scripts: string; campaigns: string; share_links: string }[]>(
    `select (select count(*) from scripts where organization_id = ?) as scripts,
            (select count(*) from campaigns where organization_id = ?) as campaigns,
            (select count(*) from share_links where organization_id = ?) as share_links`,
    [organizationId, organizationId, organizationId],
  );
  return { scripts: Number(row!.scripts), campaigns: Number(row!.campaigns), shareLinks: Number(row!.share_links) };
}

describe('a successful quickstart', () => {
  it('answers 201 with the share link and the ids of what it made', async () => {
    const response = await api.post('/api/quickstart', quickstartBody());
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      share_link: {
        id: expect.stringMatching(/^shl_[0-9A-Za-z]{22}$/),
        livemode: true,
        campaignId: expect.stringMatching(/^cam_[0-9A-Za-z]{22}$/),
        code: expect.stringMatching(/^[0-9A-Za-z]{20}$/),
        url: `${PUBLIC_URL}/join/${response.body.share_link.code}`,
        status: 'active',
        maxRespondents: null,
        respondents: 0,
        expiresAt: null,
        closedAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
      scriptId: expect.stringMatching(/^scr_[0-9A-Za-z]{22}$/),
      campaignId: response.body.share_link.campaignId,
      shareLinkId: response.body.share_link.id,
    });
  });

  it('makes a published script with the questions, titled and in the locale', async () => {
    const title = uniqueName('Churn interviews');
    const { body } = await api.post('/api/quickstart', quickstartBody({ title, locale: 'nl-BE' })).expect(201);
    const script = await api.get(`/v1/scripts/${body.scriptId}`).expect(200);
    expect(script.body).toMatchObject({
      name: title,
      status: 'published',
      version: 1,
      publishedVersion: 1,
      settings: { language: 'nl-BE' },
      questions: [
        { id: 'q1', type: 'open', text: 'What made you sign up?', required: true, order: 1 },
        { id: 'q2', type: 'rating', text: 'How likely are you to recommend us?', required: true, order: 2, scale: { min: 1, max: 5 } },
        { id: 'q3', type: 'multiple_choice', text: 'Which plan are you on?', required: true, order: 3, options: ['Free', 'Pro'] },
      ],
    });
    expect(script.body.systemPrompt).toContain(title);
  });

  it('makes an active campaign on that script, named by the title and in the locale', async () => {
    const title = uniqueName('Pricing interviews');
    const { body } = await api.post('/api/quickstart', quickstartBody({ title, locale: 'nl' })).expect(201);
    const campaign = await api.get(`/v1/campaigns/${body.campaignId}`).expect(200);
    expect(campaign.body).toMatchObject({ id: body.campaignId, name: title, scriptId: body.scriptId, status: 'active', settings: { language: 'nl' } });
  });

  it("the share link is the campaign's and is listed under it", async () => {
    const { body } = await api.post('/api/quickstart', quickstartBody()).expect(201);
    const link = await api.get(`/v1/share-links/${body.shareLinkId}`).expect(200);
    expect(link.body).toEqual(body.share_link);
    const list = await api.get(`/v1/campaigns/${body.campaignId}/share-links`).expect(200);
    expect(list.body.data.map((l: { id: string }) => l.id)).toEqual([body.shareLinkId]);
  });

  it('the share link url opens: /join answers 303 to an interview page that answers 200', async () => {
    const { body } = await api.post('/api/quickstart', quickstartBody()).expect(201);
    const join = await t.http.get(new URL(body.share_link.url).pathname);
    expect(join.status).toBe(303);
    expect(join.headers.location).toMatch(/^http:\/\/127\.0\.0\.1:3000\/interview\/inv_[0-9A-Za-z]{43}$/);
    const page = await t.http.get(new URL(join.headers.location as string).pathname);
    expect(page.status).toBe(200);
    const [invite] = await t
      .em()
      .execute<{ campaign_id: string; email: string | null }[]>('select campaign_id, email from invites where share_link_id = ?', [body.shareLinkId]);
    expect(invite).toEqual({ campaign_id: body.campaignId, email: null });
  });

  it('creates exactly one script, one campaign and one share link', async () => {
    const own = await t.createTenant();
    await apiAs(t.http, own).post('/api/quickstart', quickstartBody()).expect(201);
    expect(await countsFor(own.organizationId)).toEqual({ scripts: 1, campaigns: 1, shareLinks: 1 });
  });

  it('locale is optional: script and campaign then have no language', async () => {
    const { locale: _locale, ...body } = quickstartBody();
    const response = await api.post('/api/quickstart', body);
    expect(response.status).toBe(201);
    const script = await api.get(`/v1/scripts/${response.body.scriptId}`).expect(200);
    expect(script.body.settings).toEqual({});
    const campaign = await api.get(`/v1/campaigns/${response.body.campaignId}`).expect(200);
    expect(campaign.body.settings.language).toBeUndefined();
  });

  it('distribution omitted defaults to a share link with no cap and no expiry', async () => {
    const response = await api.post('/api/quickstart', quickstartBody());
    expect(response.status).toBe(201);
    expect(response.body.share_link).toMatchObject({ status: 'active', maxRespondents: null, expiresAt: null });
  });

  it('maxRespondents and expiresIn are carried to the link', async () => {
    const before = Date.now();
    const response = await api.post('/api/quickstart', quickstartBody({ distribution: { mode: 'share_link', maxRespondents: 25, expiresIn: '14d' } }));
    expect(response.status).toBe(201);
    expect(response.body.share_link.maxRespondents).toBe(25);
    const expiresAt = Date.parse(response.body.share_link.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 14 * DAY_MS - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 14 * DAY_MS + 1000);
    const stored = await api.get(`/v1/share-links/${response.body.shareLinkId}`).expect(200);
    expect(stored.body).toMatchObject({ maxRespondents: 25, expiresAt: response.body.share_link.expiresAt });
  });

  it('expiresAt is carried to the link', async () => {
    const expiresAt = new Date(Date.now() + 3 * DAY_MS).toISOString();
    const response = await api.post('/api/quickstart', quickstartBody({ distribution: { mode: 'share_link', expiresAt } }));
    expect(response.status).toBe(201);
    expect(response.body.share_link.expiresAt).toBe(expiresAt);
  });

  it('an organization with a custom domain gets the link on its domain', async () => {
    const own = apiAs(t.http, await t.createTenant());
    await own.patch('/v1/organization', { domain: 'research.example.net' }).expect(200);
    const { body } = await own.post('/api/quickstart', quickstartBody()).expect(201);
    expect(body.share_link.url).toBe(`https://research.example.net/join/${body.share_link.code}`);
  });

  it('answers 201 to a key holding exactly campaigns:write and invites:write', async () => {
    const writer = apiAs(t.http, await t.createKey(tenant.organizationId, ['campaigns:write', 'invites:write']));
    await writer.post('/api/quickstart', quickstartBody()).expect(201);
  });
});

describe('permissions', () => {
  it.each([
    ['campaigns:write only', ['campaigns:read', 'campaigns:write', 'invites:read'] as const, 'invites:write'],
    ['invites:write only', ['campaigns:read', 'invites:read', 'invites:write'] as const, 'campaigns:write'],
  ])('a key with %s answers 403 INSUFFICIENT_PERMISSIONS naming the other, and creates nothing', async (_label, permissions, missing) => {
    const own = await t.createTenant();
    const limited = apiAs(t.http, await t.createKey(own.organizationId, permissions));
    const response = await limited.post('/api/quickstart', quickstartBody());
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', details: { required: missing } });
    expect(await countsFor(own.organizationId)).toEqual({ scripts: 0, campaigns: 0, shareLinks: 0 });
  });

  it('no API key answers 401 INVALID_API_KEY', async () => {
    const response = await t.http.post('/api/quickstart').send(quickstartBody());
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('INVALID_API_KEY');
  });
});

describe('invalid requests', () => {
  let own: TestTenant;
  let ownApi: Api;

  beforeAll(async () => {
    own = await t.createTenant();
    ownApi = apiAs(t.http, own);
  });

  it.each([
    ['without title', { title: undefined }, 'title'],
    ['without questions', { questions: undefined }, 'questions'],
    ['with a distribution without mode', { distribution: { maxRespondents: 5 } }, 'distribution.mode'],
  ])('%s answers 400 INVALID_REQUEST naming the field, and creates nothing', async (_label, overrides, path) => {
    const response = await ownApi.post('/api/quickstart', quickstartBody(overrides));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_REQUEST');
    expect(response.body.error.details.fields).toContainEqual({ path, message: 'is required' });
    expect(await countsFor(own.organizationId)).toEqual({ scripts: 0, campaigns: 0, shareLinks: 0 });
  });

  it('a question without type answers 422 naming the item field as required (a bad item of a present list)', async () => {
    const response = await ownApi.post('/api/quickstart', quickstartBody({ questions: [{ id: 'q1', text: 'Why?' }] }));
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.fields).toContainEqual({ path: 'questions[0].type', message: 'is required' });
    expect(await countsFor(own.organizationId)).toEqual({ scripts: 0, campaigns: 0, shareLinks: 0 });
  });

  it.each([
    ['a multiple_choice question without options', { questions: [{ id: 'q1', type: 'multiple_choice', text: 'Which plan?' }] }, 'questions[0].options'],
    [
      'a second question that is multiple_choice without options',
      {
        questions: [
          { id: 'q1', type: 'open', text: 'Why?' },
          { id: 'q2', type: 'multiple_choice', text: 'Which plan?' },
        ],
      },
      'questions[1].options',
    ],
    ['options on an open question', { questions: [{ id: 'q1', type: 'open', text: 'Why?', options: ['a', 'b'] }] }, 'questions[0].options'],
    ['an unknown question type', { questions: [{ id: 'q1', type: 'essay', text: 'Why?' }] }, 'questions[0].type'],
    [
      'duplicate question ids',
      {
        questions: [
          { id: 'q1', type: 'open', text: 'A?' },
          { id: 'q1', type: 'open', text: 'B?' },
        ],
      },
      'questions[1].id',
    ],
    ['no questions', { questions: [] }, 'questions'],
    ['an empty title', { title: '   ' }, 'title'],
    ['a title over 100 characters', { title: 't'.repeat(101) }, 'title'],
    ['a malformed locale', { locale: 'english please' }, 'locale'],
    ['a language interviews are not held in', { locale: 'pt-BR' }, 'locale'],
    ['distribution mode email', { distribution: { mode: 'email' } }, 'distribution.mode'],
    ['maxRespondents of 0', { distribution: { mode: 'share_link', maxRespondents: 0 } }, 'distribution.maxRespondents'],
    ['a malformed expiresIn', { distribution: { mode: 'share_link', expiresIn: 'soon' } }, 'distribution.expiresIn'],
    ['an expiresAt in the past', { distribution: { mode: 'share_link', expiresAt: '2020-01-01T00:00:00Z' } }, 'distribution.expiresAt'],
    ['an unknown distribution field', { distribution: { mode: 'share_link', emails: ['a@example.com'] } }, 'distribution.emails'],
    ['an unknown top-level field', { systemPrompt: 'Be nice.' }, 'systemPrompt'],
  ])('%s answers 422 VALIDATION_ERROR naming the field, and creates nothing', async (_label, overrides, path) => {
    const response = await ownApi.post('/api/quickstart', quickstartBody(overrides));
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    expect(await countsFor(own.organizationId)).toEqual({ scripts: 0, campaigns: 0, shareLinks: 0 });
  });

  it('the error for a multiple_choice question without options says they are required', async () => {
    const response = await ownApi.post('/api/quickstart', quickstartBody({ questions: [{ id: 'q1', type: 'multiple_choice', text: 'Which plan?' }] }));
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields).toEqual([{ path: 'questions[0].options', message: 'is required for multiple_choice questions' }]);
  });

  it('distribution mode email names share_link as the supported mode', async () => {
    const response = await ownApi.post('/api/quickstart', quickstartBody({ distribution: { mode: 'email' } }));
    expect(response.body.error.details.fields).toEqual([{ path: 'distribution.mode', message: 'must be one of: "share_link"' }]);
  });

  it('a body that is not JSON answers 400 and creates nothing', async () => {
    const response = await t.http.post('/api/quickstart').set('Authorization', own.authorization).set('Content-Type', 'application/json').send('{"title": ');
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('INVALID_REQUEST');
    expect(await countsFor(own.organizationId)).toEqual({ scripts: 0, campaigns: 0, shareLinks: 0 });
  });
});
