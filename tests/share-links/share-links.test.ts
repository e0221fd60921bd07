import pg from 'pg';
import type supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findInviteByToken } from '../../server/domains/invites/find-invite-by-token.js';
import { systemCaller } from '../../server/domains/common/caller.js';
import { startInvite } from '../../server/domains/invites/start-invite.js';
import type { AppError } from '../../server/errors.js';
import { type Api, apiAs, createCampaign, createShareLink, inviteRow, type ShareLinkBody } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { IN_ONE_WINDOW_TIMEOUT_MS, inOneWindow } from '../helpers/rate-limit-window.js';

const PUBLIC_URL = 'http://127.0.0.1:3000';
const DAY_MS = 86_400_000;

let t: TestApp;
let api: Api;

beforeAll(async () => {
  // This file opens participant pages far more often than a visitor would: the per-address
  // limit is tested on its own app below.
  t = await startTestApp({ RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000' });
  api = apiAs(t.http, await t.createTenant());
});
afterAll(() => t?.close());

async function campaignWithLink(body: Record<string, unknown> = {}, campaignOverrides: Record<string, unknown> = {}) {
  const campaign = await createCampaign(api, campaignOverrides);
  const link = await createShareLink(api, campaign.id, body);
  return { campaign, link };
}

/** What a participant's browser does with the link: GET its path, without following the redirect. */
function visit(link: Pick<ShareLinkBody, 'url'>, http: supertest.Agent = t.http) {
  return http.get(new URL(link.url).pathname);
}

function tokenOf(redirect: supertest.Response): string {
  return new URL(redirect.headers.location as string).pathname.split('/').at(-1)!;
}

async function inviteIdOf(redirect: supertest.Response): Promise<string> {
  const invite = await findInviteByToken({ em: t.em() }, { token: tokenOf(redirect) });
  expect(invite).not.toBeNull();
  return invite!.id;
}

async function invitesOfLink(shareLinkId: string): Promise<number> {
  const [row] = await t.em().execute<{ count: string }[]>('select count(*) as count from invites where share_link_id = ?', [shareLinkId]);
  return Number(row!.count);
}

async function start(inviteId: string) {
  const { organization_id: organizationId } = await inviteRow(t, inviteId);
  return t.em().transactional((tx) => startInvite({ em: tx }, systemCaller(organizationId), { inviteId }));
}

/** The error a rejected startInvite threw. */
async function startError(inviteId: string): Promise<AppError> {
  const error = await start(inviteId).then(
    () => undefined,
    (thrown: unknown) => thrown as AppError,
  );
  expect(error, 'startInvite should have thrown').toBeDefined();
  return error!;
}

describe('creating share links', () => {
  it('answers 201 with an active link on PUBLIC_URL and stores it', async () => {
    const campaign = await createCampaign(api);
    const response = await api.post(`/v1/campaigns/${campaign.id}/share-links`, {});
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^shl_[0-9A-Za-z]{22}$/),
      livemode: true,
      campaignId: campaign.id,
      code: expect.stringMatching(/^[0-9A-Za-z]{20}$/),
      url: `${PUBLIC_URL}/join/${response.body.code}`,
      status: 'active',
      maxRespondents: null,
      respondents: 0,
      expiresAt: null,
      closedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const rows = await t.em().execute('select campaign_id, code, max_respondents, expires_at, closed_at from share_links where id = ?', [response.body.id]);
    expect(rows).toEqual([{ campaign_id: campaign.id, code: response.body.code, max_respondents: null, expires_at: null, closed_at: null }]);
  });

  it('stores maxRespondents, and expiresIn as an absolute expiresAt', async () => {
    const campaign = await createCampaign(api);
    const before = Date.now();
    const link = await createShareLink(api, campaign.id, { maxRespondents: 50, expiresIn: '2d' });
    expect(link.maxRespondents).toBe(50);
    expect(Date.parse(link.expiresAt!)).toBeGreaterThanOrEqual(before + 2 * DAY_MS - 1000);
    expect(Date.parse(link.expiresAt!)).toBeLessThanOrEqual(Date.now() + 2 * DAY_MS + 1000);
  });

  it('expiresAt wins over expiresIn', async () => {
    const campaign = await createCampaign(api);
    const expiresAt = new Date(Date.now() + 3 * DAY_MS).toISOString();
    const link = await createShareLink(api, campaign.id, { expiresIn: '30d', expiresAt });
    expect(link.expiresAt).toBe(expiresAt);
  });

  it('every link gets its own code', async () => {
    const campaign = await createCampaign(api);
    const first = await createShareLink(api, campaign.id);
    const second = await createShareLink(api, campaign.id);
    expect(second.code).not.toBe(first.code);
  });

  it.each([
    ['maxRespondents of 0', { maxRespondents: 0 }, 'maxRespondents'],
    ['a fractional maxRespondents', { maxRespondents: 2.5 }, 'maxRespondents'],
    ['expiresIn with an unknown unit', { expiresIn: '7y' }, 'expiresIn'],
    ['expiresAt in the past', { expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
    ['an unknown field', { respondents: 3 }, 'respondents'],
  ])('%s answers 422 naming the field and stores nothing', async (_label, body, path) => {
    const campaign = await createCampaign(api);
    const response = await api.post(`/v1/campaigns/${campaign.id}/share-links`, body);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    const [row] = await t.em().execute<{ count: string }[]>('select count(*) as count from share_links where campaign_id = ?', [campaign.id]);
    expect(Number(row!.count)).toBe(0);
  });

  it('a paused campaign answers 409 CAMPAIGN_NOT_ACTIVE and stores nothing', async () => {
    const campaign = await createCampaign(api);
    await api.post(`/v1/campaigns/${campaign.id}/pause`).expect(200);
    const response = await api.post(`/v1/campaigns/${campaign.id}/share-links`, {});
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'CAMPAIGN_NOT_ACTIVE', details: { campaignId: campaign.id, status: 'paused' } });
    const [row] = await t.em().execute<{ count: string }[]>('select count(*) as count from share_links where campaign_id = ?', [campaign.id]);
    expect(Number(row!.count)).toBe(0);
  });

  it('an archived campaign answers 409 CAMPAIGN_NOT_ACTIVE', async () => {
    const campaign = await createCampaign(api);
    await api.post(`/v1/campaigns/${campaign.id}/archive`).expect(200);
    const response = await api.post(`/v1/campaigns/${campaign.id}/share-links`, {});
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'CAMPAIGN_NOT_ACTIVE', details: { status: 'archived' } });
  });

  it("another organization's campaign answers 404", async () => {
    const other = apiAs(t.http, await t.createTenant());
    const campaign = await createCampaign(other);
    const response = await api.post(`/v1/campaigns/${campaign.id}/share-links`, {});
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('a key with invites:read only answers 403 naming invites:write and stores nothing', async () => {
    const tenant = await t.createTenant();
    const campaignId = await createCampaignIn(tenant.organizationId);
    const reader = apiAs(t.http, await t.createKey(tenant.organizationId, ['campaigns:read', 'campaigns:write', 'invites:read']));
    const response = await reader.post(`/v1/campaigns/${campaignId}/share-links`, {});
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', details: { required: 'invites:write' } });
    const [row] = await t.em().execute<{ count: string }[]>('select count(*) as count from share_links where campaign_id = ?', [campaignId]);
    expect(Number(row!.count)).toBe(0);
  });
});

/** A campaign in an organization whose test key lacks write permissions: made with a full key of the same organization. */
async function createCampaignIn(organizationId: string): Promise<string> {
  const writer = apiAs(t.http, await t.createKey(organizationId, ['campaigns:read', 'campaigns:write', 'invites:read', 'invites:write']));
  return (await createCampaign(writer)).id;
}

describe('reading and closing share links', () => {
  it("lists a campaign's links newest first in the pagination envelope", async () => {
    const campaign = await createCampaign(api);
    const first = await createShareLink(api, campaign.id);
    const second = await createShareLink(api, campaign.id, { maxRespondents: 10 });
    await createShareLink(api, (await createCampaign(api)).id);
    const response = await api.get(`/v1/campaigns/${campaign.id}/share-links`).expect(200);
    expect(response.body.data.map((link: ShareLinkBody) => link.id)).toEqual([second.id, first.id]);
    expect(response.body.data[0]).toEqual(second);
    expect(response.body.pagination).toEqual({ total: 2, limit: 20, offset: 0, hasMore: false, nextCursor: null });
  });

  it('pages with limit and offset', async () => {
    const campaign = await createCampaign(api);
    const links = [];
    for (let i = 0; i < 3; i++) links.push(await createShareLink(api, campaign.id));
    const response = await api.get(`/v1/campaigns/${campaign.id}/share-links?limit=1&offset=1`).expect(200);
    expect(response.body.data.map((link: ShareLinkBody) => link.id)).toEqual([links[1]!.id]);
    expect(response.body.pagination).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true, nextCursor: expect.stringMatching(/^cur_/) });
  });

  it('gets a link by id', async () => {
    const { link } = await campaignWithLink({ maxRespondents: 5 });
    const response = await api.get(`/v1/share-links/${link.id}`).expect(200);
    expect(response.body).toEqual(link);
  });

  it('an unknown id answers 404 RESOURCE_NOT_FOUND', async () => {
    const response = await api.get('/v1/share-links/shl_missing');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('close answers 200 with status closed and closedAt set', async () => {
    const { link } = await campaignWithLink();
    const response = await api.post(`/v1/share-links/${link.id}/close`).expect(200);
    expect(response.body).toMatchObject({ id: link.id, status: 'closed', closedAt: expect.any(String) });
    const fetched = await api.get(`/v1/share-links/${link.id}`).expect(200);
    expect(fetched.body.status).toBe('closed');
  });

  it('closing twice keeps the first closedAt', async () => {
    const { link } = await campaignWithLink();
    const first = await api.post(`/v1/share-links/${link.id}/close`).expect(200);
    const second = await api.post(`/v1/share-links/${link.id}/close`).expect(200);
    expect(second.body.closedAt).toBe(first.body.closedAt);
  });

  it("another organization's link answers 404 to get, close and its campaign's list", async () => {
    const { campaign, link } = await campaignWithLink();
    const other = apiAs(t.http, await t.createTenant());
    const get = await other.get(`/v1/share-links/${link.id}`);
    expect(get.status).toBe(404);
    expect(get.body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect((await other.post(`/v1/share-links/${link.id}/close`)).status).toBe(404);
    expect((await other.get(`/v1/campaigns/${campaign.id}/share-links`)).status).toBe(404);
    const stillOpen = await api.get(`/v1/share-links/${link.id}`).expect(200);
    expect(stillOpen.body.status).toBe('active');
  });

  it('a key without invites:read answers 403 on get and list', async () => {
    const tenant = await t.createTenant();
    const writer = apiAs(t.http, await t.createKey(tenant.organizationId, ['campaigns:read', 'campaigns:write', 'invites:write']));
    const campaign = await createCampaign(writer);
    const link = await createShareLink(writer, campaign.id);
    const campaignsOnly = apiAs(t.http, await t.createKey(tenant.organizationId, ['campaigns:read']));
    for (const response of [await campaignsOnly.get(`/v1/campaigns/${campaign.id}/share-links`), await campaignsOnly.get(`/v1/share-links/${link.id}`)]) {
      expect(response.status).toBe(403);
      expect(response.body.error).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', details: { required: 'invites:read' } });
    }
  });

  it('an invites:read key cannot close a link (403 naming invites:write)', async () => {
    const tenant = await t.createTenant();
    const writer = apiAs(t.http, await t.createKey(tenant.organizationId, ['campaigns:read', 'campaigns:write', 'invites:write']));
    const link = await createShareLink(writer, (await createCampaign(writer)).id);
    const reader = apiAs(t.http, await t.createKey(tenant.organizationId, ['invites:read']));
    const response = await reader.post(`/v1/share-links/${link.id}/close`);
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', details: { required: 'invites:write' } });
    expect((await reader.get(`/v1/share-links/${link.id}`).expect(200)).body.status).toBe('active');
  });
});

describe('joining through /join/{code}', () => {
  it("a visit answers 303 to a fresh invite's interview page", async () => {
    const { link } = await campaignWithLink();
    const response = await visit(link);
    expect(response.status).toBe(303);
    expect(response.headers.location).toMatch(new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/interview/inv_[0-9A-Za-z]{43}$`));
  });

  it('the visit creates an anonymous pending invite on the link, with no email', async () => {
    const { campaign, link } = await campaignWithLink();
    const response = await visit(link).expect(303);
    const row = await inviteRow(t, await inviteIdOf(response));
    expect(row).toMatchObject({
      campaign_id: campaign.id,
      share_link_id: link.id,
      email: null,
      name: null,
      status: 'pending',
      email_status: 'not_sent',
      started_at: null,
    });
    const jobs = await t.em().execute('select 1 from graphile_worker.jobs where key = ?', [`invite-email:${row.id}`]);
    expect(jobs).toEqual([]);
  });

  it('the invite is readable through the API with its shareLinkId and the same inviteUrl', async () => {
    const { link } = await campaignWithLink();
    const response = await visit(link).expect(303);
    const invite = await api.get(`/v1/invites/${await inviteIdOf(response)}`).expect(200);
    expect(invite.body).toMatchObject({ shareLinkId: link.id, email: null, inviteUrl: response.headers.location, token: tokenOf(response) });
  });

  it('without a link expiry the invite expires by the default of 7 days', async () => {
    const { link } = await campaignWithLink();
    const before = Date.now();
    const row = await inviteRow(t, await inviteIdOf(await visit(link).expect(303)));
    expect(row.expires_at.getTime()).toBeGreaterThanOrEqual(before + 7 * DAY_MS - 1000);
    expect(row.expires_at.getTime()).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS + 1000);
  });

  it("the campaign's inviteDefaults.expiresIn bounds the invite when sooner than the link", async () => {
    const { link } = await campaignWithLink({ expiresIn: '30d' }, { inviteDefaults: { expiresIn: '2h' } });
    const before = Date.now();
    const row = await inviteRow(t, await inviteIdOf(await visit(link).expect(303)));
    expect(row.expires_at.getTime()).toBeGreaterThanOrEqual(before + 2 * 3_600_000 - 1000);
    expect(row.expires_at.getTime()).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000 + 1000);
  });

  it("a link expiring before the campaign default bounds the invite's expiry", async () => {
    const { link } = await campaignWithLink({ expiresIn: '1d' });
    const row = await inviteRow(t, await inviteIdOf(await visit(link).expect(303)));
    expect(row.expires_at.getTime()).toBeLessThanOrEqual(Date.parse(link.expiresAt!));
    expect(row.expires_at.toISOString()).toBe(link.expiresAt);
  });

  it('two visits create two distinct invites with distinct tokens', async () => {
    const { link } = await campaignWithLink();
    const first = await visit(link).expect(303);
    const second = await visit(link).expect(303);
    expect(tokenOf(second)).not.toBe(tokenOf(first));
    expect(await inviteIdOf(second)).not.toBe(await inviteIdOf(first));
    expect(await invitesOfLink(link.id)).toBe(2);
  });

  it('visits do not count as respondents until an interview starts', async () => {
    const { link } = await campaignWithLink({ maxRespondents: 1 });
    await visit(link).expect(303);
    await visit(link).expect(303);
    const fetched = await api.get(`/v1/share-links/${link.id}`).expect(200);
    expect(fetched.body).toMatchObject({ respondents: 0, status: 'active' });
  });

  it("the campaign's invite list filtered by shareLinkId holds only that link's visitors", async () => {
    const { campaign, link } = await campaignWithLink();
    const other = await createShareLink(api, campaign.id, {});
    const first = await inviteIdOf(await visit(link).expect(303));
    const second = await inviteIdOf(await visit(link).expect(303));
    await visit(other).expect(303);
    await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'direct@example.com', sendEmail: false }).expect(201);
    const listed = await api.get(`/v1/campaigns/${campaign.id}/invites?shareLinkId=${link.id}`).expect(200);
    expect(listed.body.data.map((invite: { id: string }) => invite.id).sort()).toEqual([first, second].sort());
    expect(listed.body.data.every((invite: { shareLinkId: string; email: null }) => invite.shareLinkId === link.id && invite.email === null)).toBe(true);
    expect(listed.body.pagination.total).toBe(2);
  });

  it("a shareLinkId of another organization's link lists nothing of it", async () => {
    const { campaign } = await campaignWithLink();
    const stranger = apiAs(t.http, await t.createTenant());
    const { link: theirs } = await (async () => {
      const theirCampaign = await createCampaign(stranger);
      return { link: await createShareLink(stranger, theirCampaign.id, {}) };
    })();
    await visit(theirs).expect(303);
    const listed = await api.get(`/v1/campaigns/${campaign.id}/invites?shareLinkId=${theirs.id}`).expect(200);
    expect(listed.body.data).toEqual([]);
    // And the other organization's campaign itself stays out of reach.
    await api.get(`/v1/campaigns/${theirs.campaignId}/invites?shareLinkId=${theirs.id}`).expect(404);
  });

  it('an empty shareLinkId answers 400 naming it', async () => {
    const { campaign } = await campaignWithLink();
    const response = await api.get(`/v1/campaigns/${campaign.id}/invites?shareLinkId=`);
    expect(response.status).toBe(400);
    expect(response.body.error.details.fields.map((f: { path: string }) => f.path)).toEqual(['shareLinkId']);
  });

  it('HEAD answers 200 and creates no invite', async () => {
    const { link } = await campaignWithLink();
    const response = await t.http.head(new URL(link.url).pathname);
    expect(response.status).toBe(200);
    expect(await invitesOfLink(link.id)).toBe(0);
  });

  it('answers with no-store, no-referrer and a Content-Security-Policy', async () => {
    const { link } = await campaignWithLink();
    const response = await visit(link).expect(303);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('needs no API key', async () => {
    const { link } = await campaignWithLink();
    const response = await t.http.get(new URL(link.url).pathname).unset('Authorization');
    expect(response.status).toBe(303);
  });

  it.each(['/join/%ZZ', '/join/abc/extra', '/join', '/interview/%E0%A4%A', '/interview/x/y'])('%s answers a 404 HTML page, not JSON', async (path) => {
    const response = await t.http.get(path);
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('This link is not valid');
  });

  it('POST to a join link answers a 405 HTML page with Allow', async () => {
    const { link } = await campaignWithLink();
    const response = await t.http.post(new URL(link.url).pathname);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(await invitesOfLink(link.id)).toBe(0);
  });

  it('an unknown code answers a 404 HTML page', async () => {
    const response = await t.http.get('/join/doesNotExist0000000');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('This link is not valid');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('the redirect target opens the interview page (200)', async () => {
    const { campaign, link } = await campaignWithLink();
    const redirect = await visit(link).expect(303);
    const page = await t.http.get(new URL(redirect.headers.location as string).pathname);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('invites you to an interview');
    const { name } = (await api.get(`/v1/campaigns/${campaign.id}`).expect(200)).body as { name: string };
    expect(page.text).toContain(name);
  });

  it('a malformed interview token answers 404', async () => {
    expect((await t.http.get('/interview/not-a-token')).status).toBe(404);
    expect((await t.http.get(`/interview/inv_${'0'.repeat(43)}`)).status).toBe(404);
  });

  it('a closed link answers a 410 page saying it is closed, and creates no invite', async () => {
    const { link } = await campaignWithLink();
    await api.post(`/v1/share-links/${link.id}/close`).expect(200);
    const response = await visit(link);
    expect(response.status).toBe(410);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toContain('This interview is closed and no longer accepts participants.');
    expect(await invitesOfLink(link.id)).toBe(0);
  });

  it('HEAD on a closed link answers 410 too', async () => {
    const { link } = await campaignWithLink();
    await api.post(`/v1/share-links/${link.id}/close`).expect(200);
    expect((await t.http.head(new URL(link.url).pathname)).status).toBe(410);
  });

  it('an expired link answers a 410 page saying it expired, and reads as expired', async () => {
    const { link } = await campaignWithLink({ expiresIn: '1d' });
    await t.em().execute("update share_links set expires_at = now() - interval '1 minute' where id = ?", [link.id]);
    const response = await visit(link);
    expect(response.status).toBe(410);
    expect(response.text).toContain('This interview link has expired.');
    expect(await invitesOfLink(link.id)).toBe(0);
    expect((await api.get(`/v1/share-links/${link.id}`).expect(200)).body.status).toBe('expired');
  });

  it('a link whose campaign is archived answers 410 and reads as closed', async () => {
    const { campaign, link } = await campaignWithLink();
    await api.post(`/v1/campaigns/${campaign.id}/archive`).expect(200);
    const response = await visit(link);
    expect(response.status).toBe(410);
    expect(response.text).toContain('This interview is closed');
    expect(await invitesOfLink(link.id)).toBe(0);
    expect((await api.get(`/v1/share-links/${link.id}`).expect(200)).body.status).toBe('closed');
  });

  it('a link whose campaign is paused answers a 409 page, and joins again once resumed', async () => {
    const { campaign, link } = await campaignWithLink();
    await api.post(`/v1/campaigns/${campaign.id}/pause`).expect(200);
    const paused = await visit(link);
    expect(paused.status).toBe(409);
    expect(paused.text).toContain('This interview is paused at the moment. Please try again later.');
    expect(await invitesOfLink(link.id)).toBe(0);
    await api.post(`/v1/campaigns/${campaign.id}/resume`).expect(200);
    await visit(link).expect(303);
    expect(await invitesOfLink(link.id)).toBe(1);
  });

  it('an invite from the link answers 410 on the interview page once it is cancelled', async () => {
    const { link } = await campaignWithLink();
    const redirect = await visit(link).expect(303);
    await api.post(`/v1/invites/${await inviteIdOf(redirect)}/cancel`).expect(200);
    const page = await t.http.get(new URL(redirect.headers.location as string).pathname);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This invitation was withdrawn by its sender.');
  });

  it('an invite from the link answers 410 on the interview page once it expired', async () => {
    const { link } = await campaignWithLink();
    const redirect = await visit(link).expect(303);
    await t.em().execute("update invites set expires_at = now() - interval '1 minute' where id = ?", [await inviteIdOf(redirect)]);
    const page = await t.http.get(new URL(redirect.headers.location as string).pathname);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This invitation has expired.');
  });
});

describe('links on a custom domain', () => {
  let custom: Api;

  beforeAll(async () => {
    custom = apiAs(t.http, await t.createTenant());
    await custom.patch('/v1/organization', { domain: 'interviews.example.com' }).expect(200);
  });

  it("the link's url is on the organization's domain over https", async () => {
    const link = await createShareLink(custom, (await createCampaign(custom)).id);
    expect(link.url).toBe(`https://interviews.example.com/join/${link.code}`);
  });

  it('the join redirect points to the interview page on the custom domain', async () => {
    const link = await createShareLink(custom, (await createCampaign(custom)).id);
    const response = await visit(link).expect(303);
    expect(response.headers.location).toMatch(/^https:\/\/interviews\.example\.com\/interview\/inv_[0-9A-Za-z]{43}$/);
  });

  it('a link created before the domain was set follows the domain once set', async () => {
    const tenant = await t.createTenant();
    const own = apiAs(t.http, tenant);
    const link = await createShareLink(own, (await createCampaign(own)).id);
    expect(link.url).toBe(`${PUBLIC_URL}/join/${link.code}`);
    await own.patch('/v1/organization', { domain: 'surveys.example.org' }).expect(200);
    expect((await own.get(`/v1/share-links/${link.id}`).expect(200)).body.url).toBe(`https://surveys.example.org/join/${link.code}`);
    expect((await visit(link).expect(303)).headers.location).toMatch(/^https:\/\/surveys\.example\.org\/interview\//);
  });
});

describe('the respondent cap', () => {
  it('startInvite on a share-link invite starts it and counts one respondent', async () => {
    const { link } = await campaignWithLink({ maxRespondents: 2 });
    const inviteId = await inviteIdOf(await visit(link).expect(303));
    const invite = await start(inviteId);
    expect(invite.status).toBe('started');
    expect((await inviteRow(t, inviteId)).started_at).not.toBeNull();
    expect((await api.get(`/v1/share-links/${link.id}`).expect(200)).body).toMatchObject({ respondents: 1, status: 'active' });
  });

  it('of 12 concurrent starts on a link capped at 3, exactly 3 get through; the others get SHARE_LINK_CLOSED', async () => {
    const { link } = await campaignWithLink({ maxRespondents: 3 });
    const inviteIds: string[] = [];
    for (let i = 0; i < 12; i++) inviteIds.push(await inviteIdOf(await visit(link).expect(303)));
    expect(new Set(inviteIds).size).toBe(12);

    const results = await Promise.allSettled(inviteIds.map((inviteId) => start(inviteId)));

    const fulfilled = results.filter((result) => result.status === 'fulfilled');
    const rejected = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(fulfilled).toHaveLength(3);
    expect(rejected).toHaveLength(9);
    for (const result of rejected) {
      expect((result.reason as AppError).code).toBe('SHARE_LINK_CLOSED');
      expect((result.reason as AppError).details).toMatchObject({ shareLinkId: link.id, status: 'full' });
    }
    const [started] = await t
      .em()
      .execute<{ count: string }[]>('select count(*) as count from invites where share_link_id = ? and started_at is not null', [link.id]);
    expect(Number(started!.count)).toBe(3);
    expect((await api.get(`/v1/share-links/${link.id}`).expect(200)).body).toMatchObject({ respondents: 3, status: 'full' });
  });

  it('a full link answers a 410 page saying it has all its participants, and creates no invite', async () => {
    const { link } = await campaignWithLink({ maxRespondents: 1 });
    await start(await inviteIdOf(await visit(link).expect(303)));
    const before = await invitesOfLink(link.id);
    const response = await visit(link);
    expect(response.status).toBe(410);
    expect(response.text).toContain('This interview has all the participants it needs.');
    expect(await invitesOfLink(link.id)).toBe(before);
  });

  it('an invite made before the link filled cannot start once it is full', async () => {
    const { link } = await campaignWithLink({ maxRespondents: 1 });
    const first = await inviteIdOf(await visit(link).expect(303));
    const second = await inviteIdOf(await visit(link).expect(303));
    await start(first);
    const error = await startError(second);
    expect(error.code).toBe('SHARE_LINK_CLOSED');
    expect(error.status).toBe(409);
    expect((await inviteRow(t, second)).status).toBe('pending');
  });

  it('the interview page of a visitor who has not started says the link is full once it filled (410)', async () => {
    const { link } = await campaignWithLink({ maxRespondents: 1 });
    const first = await visit(link).expect(303);
    const second = await visit(link).expect(303);
    await start(await inviteIdOf(first));
    const page = await t.http.get(new URL(second.headers.location as string).pathname);
    expect(page.status).toBe(410);
    expect(page.text).toContain('This interview has all the participants it needs.');
    await t.http.get(new URL(first.headers.location as string).pathname).expect(200);
  });

  it('a started invite reopens after its link filled (the session resumes)', async () => {
    const { link } = await campaignWithLink({ maxRespondents: 1 });
    const inviteId = await inviteIdOf(await visit(link).expect(303));
    const first = await start(inviteId);
    const again = await start(inviteId);
    expect(again.status).toBe('started');
    expect(again.startedAt!.getTime()).toBe(first.startedAt!.getTime());
    expect((await api.get(`/v1/share-links/${link.id}`).expect(200)).body.respondents).toBe(1);
  });

  it('a start waiting on a campaign being deleted does not deadlock with it (lock order campaign, invite, share link)', async () => {
    const { campaign, link } = await campaignWithLink();
    const inviteId = await inviteIdOf(await visit(link).expect(303));
    const deleting = new pg.Client({ connectionString: t.database.url });
    await deleting.connect();
    try {
      // A campaign delete in progress: it holds the campaign and is about to cascade into its invites.
      await deleting.query('begin');
      await deleting.query('select id from campaigns where id = $1 for update', [campaign.id]);
      const starting = start(inviteId).then(
        () => 'started',
        (error: AppError) => error.code ?? String(error),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      // With the invite locked first, this delete and the start would wait on each other.
      await deleting.query('delete from campaigns where id = $1', [campaign.id]);
      await deleting.query('commit');
      expect(await starting).toBe('RESOURCE_NOT_FOUND');
    } finally {
      await deleting.end();
    }
  });

  it('startInvite on a closed link throws SHARE_LINK_CLOSED naming status closed', async () => {
    const { link } = await campaignWithLink();
    const inviteId = await inviteIdOf(await visit(link).expect(303));
    await api.post(`/v1/share-links/${link.id}/close`).expect(200);
    const error = await startError(inviteId);
    expect(error.code).toBe('SHARE_LINK_CLOSED');
    expect(error.details).toMatchObject({ shareLinkId: link.id, status: 'closed' });
  });

  it('startInvite on an expired link throws SHARE_LINK_CLOSED naming status expired', async () => {
    const { link } = await campaignWithLink({ expiresIn: '1d' });
    const inviteId = await inviteIdOf(await visit(link).expect(303));
    await t.em().execute("update share_links set expires_at = now() - interval '1 minute' where id = ?", [link.id]);
    // Only the link expired: the invite's own expiry is still ahead.
    await t.em().execute("update invites set expires_at = now() + interval '1 hour' where id = ?", [inviteId]);
    const error = await startError(inviteId);
    expect(error.code).toBe('SHARE_LINK_CLOSED');
    expect(error.details).toMatchObject({ status: 'expired' });
  });

  it('startInvite while the campaign is paused throws CAMPAIGN_NOT_ACTIVE', async () => {
    const { campaign, link } = await campaignWithLink();
    const inviteId = await inviteIdOf(await visit(link).expect(303));
    await api.post(`/v1/campaigns/${campaign.id}/pause`).expect(200);
    const error = await startError(inviteId);
    expect(error.code).toBe('CAMPAIGN_NOT_ACTIVE');
    expect(error.details).toMatchObject({ campaignId: campaign.id, status: 'paused' });
    expect((await inviteRow(t, inviteId)).status).toBe('pending');
  });

  it('the interview page of a started invite answers 200 even after the link filled', async () => {
    const { link } = await campaignWithLink({ maxRespondents: 1 });
    const redirect = await visit(link).expect(303);
    await start(await inviteIdOf(redirect));
    const page = await t.http.get(new URL(redirect.headers.location as string).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Your interview has started');
  });
});

describe('the per-address limit on participant pages', () => {
  let limited: TestApp;
  let own: Api;

  beforeAll(async () => {
    // API calls are counted per key, not against the participant budget of this address.
    limited = await startTestApp({ RATE_LIMIT_PARTICIPANT_PER_MINUTE: '3' });
    own = apiAs(limited.http, await limited.createTenant());
  });
  afterAll(() => limited?.close());

  it(
    'past the limit a visit answers a 429 page with Retry-After and creates no invite',
    async () => {
      await inOneWindow(async () => {
        const link = await createShareLink(own, (await createCampaign(own)).id);
        for (let i = 0; i < 3; i++) await visit(link, limited.http).expect(303);
        const response = await visit(link, limited.http);
        expect(response.status).toBe(429);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.text).toContain('Too many requests');
        expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
        expect(response.headers['cache-control']).toBe('no-store');
        const [row] = await limited.em().execute<{ count: string }[]>('select count(*) as count from invites where share_link_id = ?', [link.id]);
        expect(Number(row!.count)).toBe(3);
        // The interview page draws on the same budget: tokens cannot be probed past it either.
        expect((await limited.http.get(`/interview/inv_${'0'.repeat(43)}`)).status).toBe(429);
      });
    },
    IN_ONE_WINDOW_TIMEOUT_MS,
  );
});
