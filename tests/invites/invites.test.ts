import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCreateInviteInput } from '../../shared/schemas/invites.js';
import { createInvite as createInviteInProcess } from '../../server/domains/invites/create-invite.js';
import { expireInvites } from '../../server/domains/invites/expire-invites.js';
import { resolveInviteExpiry } from '../../server/domains/campaigns/invite-options.js';
import { hashInviteToken } from '../../server/lib/invite-tokens.js';
import { systemCaller } from '../../server/domains/common/caller.js';
import { type Api, apiAs, createCampaign, createInvite, createPublishedScript, inviteRow } from '../helpers/factories.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';
import { inRolledBackTransaction } from '../helpers/transaction.js';

let t: TestApp;
let tenant: TestTenant;
let api: Api;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
});
afterAll(() => t?.close());

/** Email jobs by payload (not by key: a replaced job loses its key, and would hide a duplicate). */
async function emailJobsFor(inviteIds: string[]) {
  return t.em().execute<{ key: string | null; max_attempts: number; payload: unknown }[]>(
    `select j.key, j.max_attempts, j.payload from graphile_worker._private_jobs j
     join graphile_worker._private_tasks t on t.id = j.task_id
     where t.identifier = 'invite__send_email' and j.payload->>'inviteId' = any(array[?]::text[])`,
    [inviteIds],
  );
}

async function countInvites(campaignId: string): Promise<number> {
  const [row] = await t.em().execute<{ count: string }[]>(`select count(*) from invites where campaign_id = ?`, [campaignId]);
  return Number(row!.count);
}

function secondsFromNow(iso: string): number {
  return (Date.parse(iso) - Date.now()) / 1000;
}

describe('POST /v1/campaigns/{campaignId}/invites', () => {
  it('creates a pending invite with a token distinct from its id and a link built from the token', async () => {
    const campaign = await createCampaign(api);
    const response = await api
      .post(`/v1/campaigns/${campaign.id}/invites`, { email: 'ada@example.com', name: 'Ada Lovelace', metadata: { cohort: 'beta', seats: 3 } })
      .expect(201);
    const invite = response.body;
    expect(invite).toMatchObject({
      campaignId: campaign.id,
      shareLinkId: null,
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      status: 'pending',
      emailStatus: 'queued',
      emailTemplate: 'default',
      metadata: { cohort: 'beta', seats: 3 },
      startedAt: null,
      completedAt: null,
      cancelledAt: null,
      emailSentAt: null,
    });
    expect(invite.id).toMatch(/^inv_[0-9A-Za-z]{22}$/);
    expect(invite.token).toMatch(/^inv_[0-9A-Za-z]{43}$/);
    expect(invite.inviteUrl).toBe(`http://127.0.0.1:3000/interview/${invite.token}`);
    expect(secondsFromNow(invite.expiresAt)).toBeGreaterThan(7 * 86400 - 60);
    expect(secondsFromNow(invite.expiresAt)).toBeLessThanOrEqual(7 * 86400);

    const row = await inviteRow(t, invite.id);
    expect(row).toMatchObject({ email: 'ada@example.com', status: 'pending', email_status: 'queued', organization_id: tenant.organizationId });
    // Only the hash of the token is stored.
    expect(row!.token_hash).toBe(hashInviteToken(invite.token));
    expect(JSON.stringify(row)).not.toContain(invite.token);
    const jobs = await emailJobsFor([invite.id]);
    expect(jobs).toEqual([{ key: `invite-email:${invite.id}`, max_attempts: 5, payload: { inviteId: invite.id } }]);
  });

  it('shows the same token and link on every read', async () => {
    const campaign = await createCampaign(api);
    const created = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'same@example.com' }).expect(201)).body;
    const read = (await api.get(`/v1/invites/${created.id}`).expect(200)).body;
    expect(read).toEqual(created);
  });

  it('with sendEmail false queues no email and reports not_sent', async () => {
    const campaign = await createCampaign(api);
    const invite = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'quiet@example.com', sendEmail: false }).expect(201)).body;
    expect(invite.emailStatus).toBe('not_sent');
    expect(invite.emailTemplate).toBe('default');
    expect(await emailJobsFor([invite.id])).toEqual([]);
  });

  it('with sendEmail false the named template is still checked, and kept for a later resend', async () => {
    const campaign = await createCampaign(api);
    const unknown = await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'q@example.com', sendEmail: false, emailTemplate: 'nope' }).expect(422);
    expect(unknown.body.error.details.fields).toEqual([{ path: 'emailTemplate', message: expect.stringContaining('"nope" is not a known template') }]);
    const invite = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'q@example.com', sendEmail: false, emailTemplate: 'reminder' }).expect(201))
      .body;
    expect(invite.emailTemplate).toBe('reminder');
    const resent = await api.post(`/v1/invites/${invite.id}/resend`).expect(200);
    expect(resent.body.emailTemplate).toBe('reminder');
  });

  it('is also served at /api/campaigns/{id}/invites', async () => {
    const campaign = await createCampaign(api);
    const invite = (await api.post(`/api/campaigns/${campaign.id}/invites`, { email: 'api@example.com', sendEmail: false }).expect(201)).body;
    expect(invite.campaignId).toBe(campaign.id);
  });

  describe('expiry', () => {
    const now = new Date(Date.UTC(2026, 0, 1, 9));
    const campaignWith = (expiresIn?: string) => ({ id: 'cmp_x', status: 'active' as const, inviteDefaults: expiresIn ? { expiresIn } : {} });
    const hoursAfterNow = (date: Date) => (date.getTime() - now.getTime()) / 3_600_000;

    it('expiresAt wins over expiresIn, which wins over the campaign default, else 7 days (resolveInviteExpiry)', () => {
      expect(hoursAfterNow(resolveInviteExpiry(campaignWith('3d'), {}, now))).toBe(72);
      expect(hoursAfterNow(resolveInviteExpiry(campaignWith('3d'), { expiresIn: '90m' }, now))).toBe(1.5);
      expect(hoursAfterNow(resolveInviteExpiry(campaignWith(), { expiresIn: '2w' }, now))).toBe(14 * 24);
      expect(hoursAfterNow(resolveInviteExpiry(campaignWith(), {}, now))).toBe(7 * 24);
      const at = '2026-01-02T21:00:00.000Z';
      expect(resolveInviteExpiry(campaignWith('3d'), { expiresIn: '1h', expiresAt: at }, now).toISOString()).toBe(at);
    });

    it('createInvite applies the campaign default and the override (in process, rolled back)', async () => {
      const campaign = await createCampaign(api, { inviteDefaults: { expiresIn: '3d' } });
      await inRolledBackTransaction(t, async (em) => {
        const input = (fields: Record<string, unknown>) => ZCreateInviteInput.parse({ campaignId: campaign.id, sendEmail: false, ...fields });
        const byDefault = await createInviteInProcess(
          { em, services: t.runtime.services },
          systemCaller(tenant.organizationId),
          input({ email: 'd@example.com' }),
        );
        expect(Math.round(secondsFromNow(byDefault.expiresAt) / 3600)).toBe(72);
        const override = await createInviteInProcess(
          { em, services: t.runtime.services },
          systemCaller(tenant.organizationId),
          input({ email: 'o@example.com', expiresIn: '90m' }),
        );
        expect(Math.round(secondsFromNow(override.expiresAt) / 60)).toBe(90);
      });
      expect(await countInvites(campaign.id)).toBe(0);
    });

    it('accepts expiresAt with a time-zone offset', async () => {
      const campaign = await createCampaign(api);
      const invite = (
        await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'tz@example.com', sendEmail: false, expiresAt: '2099-01-01T12:00:00+02:00' })
      ).body;
      // Beyond 365 days: refused. A near date with an offset: accepted and stored in UTC.
      expect(invite.error.details.fields).toEqual([{ path: 'expiresAt', message: 'must be at most 365 days ahead' }]);
      const soon = new Date(Date.now() + 86400 * 1000);
      const local = soon.toISOString().replace('Z', '+00:00');
      const accepted = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'tz@example.com', sendEmail: false, expiresAt: local }).expect(201))
        .body;
      expect(accepted.expiresAt).toBe(soon.toISOString());
    });

    // One campaign for the refusals: none of them creates an invite on it.
    let refusing: Promise<{ id: string }> | undefined;
    const refusingCampaign = () => (refusing ??= createCampaign(api));

    it.each([
      [{ expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt', 'must be in the future'],
      [{ expiresAt: 'tomorrow' }, 'expiresAt', 'must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T09:00:00Z'],
      [{ expiresIn: '7' }, 'expiresIn', 'must be a positive integer followed by m, h, d or w, e.g. 7d'],
      [{ expiresIn: '0d' }, 'expiresIn', 'must be a positive integer followed by m, h, d or w, e.g. 7d'],
      [{ expiresIn: '1y' }, 'expiresIn', 'must be a positive integer followed by m, h, d or w, e.g. 7d'],
      [{ expiresIn: '400d' }, 'expiresIn', 'must be at most 365 days'],
    ])('refuses %j with 422 on %s', async (fields, path, message) => {
      const campaign = await refusingCampaign();
      const response = await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'x@example.com', ...fields }).expect(422);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details.fields).toEqual([{ path, message }]);
      expect(await countInvites(campaign.id)).toBe(0);
    });
  });

  describe('validation', () => {
    it('a missing email is 400 INVALID_REQUEST', async () => {
      const campaign = await createCampaign(api);
      const response = await api.post(`/v1/campaigns/${campaign.id}/invites`, { name: 'No Email' }).expect(400);
      expect(response.body.error.code).toBe('INVALID_REQUEST');
      expect(response.body.error.details.fields).toEqual([{ path: 'email', message: expect.any(String) }]);
    });

    it.each([
      [{ email: 'not-an-email' }, 'email'],
      [{ email: 'a@example.com', name: '' }, 'name'],
      [{ email: 'a@example.com', sendEmail: 'yes' }, 'sendEmail'],
      [{ email: 'a@example.com', metadata: { nested: { no: true } } }, 'metadata.nested'],
      [{ email: 'a@example.com', emailTemplate: 'Bad Template' }, 'emailTemplate'],
      [{ email: 'a@example.com', emailTemplate: 'does-not-exist' }, 'emailTemplate'],
      [{ email: 'a@example.com', unknownField: 1 }, 'unknownField'],
    ])('%j is 422 naming %s', async (body, path) => {
      const campaign = await createCampaign(api);
      const response = await api.post(`/v1/campaigns/${campaign.id}/invites`, body).expect(422);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details.fields.map((field: { path: string }) => field.path)).toContain(path);
      expect(await countInvites(campaign.id)).toBe(0);
    });
  });

  it.each(['pause', 'archive'])('answers 409 CAMPAIGN_NOT_ACTIVE after %s and creates nothing', async (action) => {
    const campaign = await createCampaign(api);
    await api.post(`/v1/campaigns/${campaign.id}/${action}`).expect(200);
    const response = await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'late@example.com' }).expect(409);
    expect(response.body.error).toMatchObject({ code: 'CAMPAIGN_NOT_ACTIVE', details: { campaignId: campaign.id } });
    const bulk = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, { invites: [{ email: 'late@example.com' }] }).expect(409);
    expect(bulk.body.error.code).toBe('CAMPAIGN_NOT_ACTIVE');
    expect(await countInvites(campaign.id)).toBe(0);
  });

  it("another organization's campaign is 404", async () => {
    const campaign = await createCampaign(api);
    const other = apiAs(t.http, await t.createTenant());
    const response = await other.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'x@example.com' }).expect(404);
    expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('a second invite takes one statement on the campaign, and its changed defaults, pause or domain still apply (the defaults remembered are checked by the insert)', async () => {
    const campaign = await createCampaign(api, { inviteDefaults: { expiresIn: '3d' } });
    const create = async (email: string) => {
      const statements: string[] = [];
      const knex = t.runtime.orm.em.getConnection().getKnex();
      const listener = (query: { sql: string }) => statements.push(query.sql);
      knex.on('query', listener);
      try {
        const response = await api.post(`/v1/campaigns/${campaign.id}/invites`, { email, sendEmail: false });
        return { response, campaignStatements: statements.filter((sql) => /\bcampaigns\b/.test(sql)).length };
      } finally {
        knex.removeListener('query', listener);
      }
    };
    const hoursToExpiry = (body: { expiresAt: string }) => Math.round(secondsFromNow(body.expiresAt) / 3600);

    const first = await create('first@example.com');
    expect(first.response.status).toBe(201);
    expect(first.campaignStatements).toBe(2); // the campaign read, then the insert
    const second = await create('second@example.com');
    expect(second.response.status).toBe(201);
    expect(second.campaignStatements).toBe(1); // the insert alone
    expect(hoursToExpiry(second.response.body)).toBe(72);

    await api.patch(`/v1/campaigns/${campaign.id}`, { inviteDefaults: { expiresIn: '5d' } }).expect(200);
    const afterChange = await create('changed@example.com');
    expect(afterChange.response.status).toBe(201);
    expect(hoursToExpiry(afterChange.response.body)).toBe(120);
    expect((await inviteRow(t, afterChange.response.body.id)).expires_at).toEqual(new Date(afterChange.response.body.expiresAt));

    await t.em().execute(`update organizations set domain = 'research.example.org' where id = ?`, [tenant.organizationId]);
    try {
      const onDomain = await create('domain@example.com');
      expect(onDomain.campaignStatements).toBe(1);
      expect(new URL(onDomain.response.body.inviteUrl).host).toBe('research.example.org');
    } finally {
      await t.em().execute(`update organizations set domain = null where id = ?`, [tenant.organizationId]);
    }

    // Another organization never reaches what this one's creates remembered.
    const other = apiAs(t.http, await t.createTenant());
    expect((await other.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'x@example.com' }).expect(404)).body.error.code).toBe('RESOURCE_NOT_FOUND');

    await api.post(`/v1/campaigns/${campaign.id}/pause`).expect(200);
    const paused = await create('paused@example.com');
    expect(paused.response.status).toBe(409);
    expect(paused.response.body.error).toMatchObject({ code: 'CAMPAIGN_NOT_ACTIVE', details: { campaignId: campaign.id, status: 'paused' } });
    expect(await countInvites(campaign.id)).toBe(4);
  });
});

describe('POST /v1/campaigns/{campaignId}/invites/bulk', () => {
  const items = (count: number) => Array.from({ length: count }, (_, index) => ({ email: `person${index}@example.com`, name: `Person ${index}` }));

  it('creates 500 invites in one request with one insert statement, in request order', async () => {
    const campaign = await createCampaign(api);
    const statements: string[] = [];
    const knex = t.runtime.orm.em.getConnection().getKnex();
    const listener = (query: { sql: string }) => statements.push(query.sql);
    knex.on('query', listener);
    const started = performance.now();
    const response = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, { invites: items(500), expiresIn: '2d' }).expect(201);
    const elapsed = performance.now() - started;
    knex.removeListener('query', listener);

    expect(response.body.count).toBe(500);
    expect(response.body.data).toHaveLength(500);
    expect(response.body.data.map((invite: { email: string }) => invite.email)).toEqual(items(500).map((item) => item.email));
    expect(new Set(response.body.data.map((invite: { token: string }) => invite.token)).size).toBe(500);
    expect(response.body.data.every((invite: { status: string; emailStatus: string }) => invite.status === 'pending' && invite.emailStatus === 'queued')).toBe(
      true,
    );
    expect(await countInvites(campaign.id)).toBe(500);
    expect((await emailJobsFor(response.body.data.map((invite: { id: string }) => invite.id))).length).toBe(500);

    const inserts = statements.filter((sql) => /insert into "?invites"?/i.test(sql));
    expect(inserts).toHaveLength(1);
    // Authentication, rate limit, the campaign read, then the invites and their jobs in one statement.
    expect(statements.length).toBeLessThanOrEqual(5);
    console.info(`bulk create of 500 invites: ${elapsed.toFixed(0)} ms, ${statements.length} SQL statements`);

    const campaignRead = await api.get(`/v1/campaigns/${campaign.id}`).expect(200);
    expect(campaignRead.body.stats.totalInvites).toBe(500);
  });

  it('refuses 501 invites with 422 and creates nothing', async () => {
    const campaign = await createCampaign(api);
    const response = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, { invites: items(501) }).expect(422);
    expect(response.body.error.details.fields).toEqual([{ path: 'invites', message: 'must contain at most 500 invites' }]);
    expect(await countInvites(campaign.id)).toBe(0);
  });

  it('names every bad item by index and creates nothing when any is invalid', async () => {
    const campaign = await createCampaign(api);
    const invites = items(10);
    invites[3] = { email: 'broken', name: 'x' };
    invites[7] = { email: 'person1@EXAMPLE.com', name: 'dup' };
    (invites[8] as Record<string, unknown>).extra = true;
    const response = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, { invites }).expect(422);
    const paths = response.body.error.details.fields.map((field: { path: string }) => field.path);
    expect(paths).toEqual(expect.arrayContaining(['invites[3].email', 'invites[7].email', 'invites[8].extra']));
    expect(response.body.error.details.fields).toContainEqual({ path: 'invites[7].email', message: 'duplicates invites[1].email' });
    expect(await countInvites(campaign.id)).toBe(0);
  });

  it('names every bad item in one 422, missing fields and duplicates among other bad items included', async () => {
    const campaign = await createCampaign(api);
    const invites = [{ email: 5 }, { name: 'no email' }, { email: 'a@example.com' }, { email: 'A@example.com' }, { email: 'bad' }];
    const response = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, { invites }).expect(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.fields).toEqual(
      expect.arrayContaining([
        { path: 'invites[0].email', message: 'must be an email address' },
        { path: 'invites[1].email', message: 'is required' },
        { path: 'invites[3].email', message: 'duplicates invites[2].email' },
        { path: 'invites[4].email', message: 'must be an email address' },
      ]),
    );
    expect(await countInvites(campaign.id)).toBe(0);
  });

  it('refuses an empty list and a missing list', async () => {
    const campaign = await createCampaign(api);
    const empty = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, { invites: [] }).expect(422);
    expect(empty.body.error.details.fields).toEqual([{ path: 'invites', message: 'must contain at least one invite' }]);
    const missing = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, {}).expect(400);
    expect(missing.body.error.code).toBe('INVALID_REQUEST');
  });

  it('applies sendEmail and expiresIn to every item', async () => {
    const campaign = await createCampaign(api);
    const response = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, { invites: items(3), sendEmail: false, expiresIn: '12h' }).expect(201);
    for (const invite of response.body.data) {
      expect(invite.emailStatus).toBe('not_sent');
      expect(Math.round(secondsFromNow(invite.expiresAt) / 3600)).toBe(12);
    }
    expect(await emailJobsFor(response.body.data.map((invite: { id: string }) => invite.id))).toEqual([]);
  });
});

describe('GET /v1/campaigns/{campaignId}/invites', () => {
  it('filters by status and email (case-insensitive, literal) and paginates', async () => {
    const campaign = await createCampaign(api);
    const bulk = await api
      .post(`/v1/campaigns/${campaign.id}/invites/bulk`, {
        invites: [{ email: 'one@example.com' }, { email: 'two@example.com' }, { email: 'three@example.com' }, { email: 'o_e@example.com' }],
        sendEmail: false,
      })
      .expect(201);
    const [one, two] = bulk.body.data;
    await api.post(`/v1/invites/${one.id}/cancel`).expect(200);
    await t.em().execute(`update invites set expires_at = now() - interval '1 minute' where id = ?`, [two.id]);

    const cancelled = await api.get(`/v1/campaigns/${campaign.id}/invites?status=cancelled`).expect(200);
    expect(cancelled.body.data.map((invite: { id: string }) => invite.id)).toEqual([one.id]);
    // Expired by time, before the expiry job ran: reads agree with the clock.
    const expired = await api.get(`/v1/campaigns/${campaign.id}/invites?status=expired`).expect(200);
    expect(expired.body.data.map((invite: { id: string; status: string }) => [invite.id, invite.status])).toEqual([[two.id, 'expired']]);
    const pending = await api.get(`/v1/campaigns/${campaign.id}/invites?status=pending`).expect(200);
    expect(pending.body.pagination.total).toBe(2);

    const byEmail = await api.get(`/v1/campaigns/${campaign.id}/invites?email=THREE@example.com`).expect(200);
    expect(byEmail.body.data.map((invite: { email: string }) => invite.email)).toEqual(['three@example.com']);
    // `_` is literal, not a wildcard: "one@example.com" does not match "o_e@example.com".
    const literal = await api.get(`/v1/campaigns/${campaign.id}/invites?email=o_e@example.com`).expect(200);
    expect(literal.body.data.map((invite: { email: string }) => invite.email)).toEqual(['o_e@example.com']);

    const page = await api.get(`/v1/campaigns/${campaign.id}/invites?limit=3&offset=0`).expect(200);
    expect(page.body.pagination).toEqual({ total: 4, limit: 3, offset: 0, hasMore: true, nextCursor: expect.stringMatching(/^cur_/) });
    const rest = await api.get(`/v1/campaigns/${campaign.id}/invites?limit=3&offset=3`).expect(200);
    expect(rest.body.pagination).toEqual({ total: 4, limit: 3, offset: 3, hasMore: false, nextCursor: null });
    const ids = [...page.body.data, ...rest.body.data].map((invite: { id: string }) => invite.id);
    expect(new Set(ids).size).toBe(4);
  });

  it.each(['status=unknown', 'limit=0', 'limit=101', 'extra=1'])('refuses %s with 400', async (query) => {
    const campaign = await createCampaign(api);
    const response = await api.get(`/v1/campaigns/${campaign.id}/invites?${query}`).expect(400);
    expect(response.body.error.code).toBe('INVALID_REQUEST');
  });

  it("another organization's campaign and invite are 404", async () => {
    const campaign = await createCampaign(api);
    const invite = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'mine@example.com', sendEmail: false }).expect(201)).body;
    const other = apiAs(t.http, await t.createTenant());
    await other.get(`/v1/campaigns/${campaign.id}/invites`).expect(404);
    await other.get(`/v1/invites/${invite.id}`).expect(404);
    await other.post(`/v1/invites/${invite.id}/cancel`).expect(404);
    await other.post(`/v1/invites/${invite.id}/resend`).expect(404);
    expect((await inviteRow(t, invite.id))!.status).toBe('pending');
  });

  it('a token is never accepted as an invite id', async () => {
    const campaign = await createCampaign(api);
    const invite = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'tok@example.com', sendEmail: false }).expect(201)).body;
    await api.get(`/v1/invites/${invite.token}`).expect(404);
  });
});

describe('cancel and resend', () => {
  async function newInvite(body: Record<string, unknown> = {}) {
    const campaign = await createCampaign(api);
    const invite = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'p@example.com', sendEmail: false, ...body }).expect(201)).body;
    return { campaign, invite };
  }

  it('cancel revokes the token: the interview link stops working', async () => {
    const { invite } = await newInvite();
    const path = new URL(invite.inviteUrl).pathname;
    await t.http.get(path).expect(200);
    const cancelled = await api.post(`/v1/invites/${invite.id}/cancel`).expect(200);
    expect(cancelled.body).toMatchObject({ id: invite.id, status: 'cancelled' });
    expect(cancelled.body.cancelledAt).not.toBeNull();
    const page = await t.http.get(path).expect(410);
    expect(page.text).toContain('This invitation was withdrawn');
    // Cancelling again changes nothing.
    const again = await api.post(`/v1/invites/${invite.id}/cancel`).expect(200);
    expect(again.body.cancelledAt).toBe(cancelled.body.cancelledAt);
  });

  it('cancel drops a queued email', async () => {
    const { invite } = await newInvite({ sendEmail: true });
    const cancelled = await api.post(`/v1/invites/${invite.id}/cancel`).expect(200);
    expect(cancelled.body.emailStatus).toBe('not_sent');
  });

  it.each(['cancel', 'resend'])('%s on an expired invite answers 409 INVITE_EXPIRED and changes nothing', async (action) => {
    const { invite } = await newInvite();
    await t.em().execute(`update invites set expires_at = now() - interval '1 second' where id = ?`, [invite.id]);
    const response = await api.post(`/v1/invites/${invite.id}/${action}`).expect(409);
    expect(response.body.error).toMatchObject({ code: 'INVITE_EXPIRED', details: { inviteId: invite.id, status: 'expired' } });
    const row = await inviteRow(t, invite.id);
    expect(row).toMatchObject({ status: 'pending', email_status: 'not_sent', cancelled_at: null });
  });

  it('resend re-queues the email, also for an invite created without one', async () => {
    const { invite } = await newInvite();
    expect(await emailJobsFor([invite.id])).toEqual([]);
    const resent = await api.post(`/v1/invites/${invite.id}/resend`).expect(200);
    expect(resent.body).toMatchObject({ emailStatus: 'queued', emailTemplate: 'default' });
    expect(await emailJobsFor([invite.id])).toHaveLength(1);
    // A second resend while one is waiting replaces it rather than sending twice.
    await api.post(`/v1/invites/${invite.id}/resend`).expect(200);
    expect(await emailJobsFor([invite.id])).toHaveLength(1);
  });

  it('resend of a cancelled invite is 409 INVITE_CANCELLED', async () => {
    const { invite } = await newInvite();
    await api.post(`/v1/invites/${invite.id}/cancel`).expect(200);
    const response = await api.post(`/v1/invites/${invite.id}/resend`).expect(409);
    expect(response.body.error.code).toBe('INVITE_CANCELLED');
  });

  it('resend or cancel of a completed invite is 409 INVITE_ALREADY_USED', async () => {
    const { invite } = await newInvite();
    await t.em().execute(`update invites set status = 'completed', started_at = now(), completed_at = now() where id = ?`, [invite.id]);
    expect((await api.post(`/v1/invites/${invite.id}/resend`).expect(409)).body.error.code).toBe('INVITE_ALREADY_USED');
    expect((await api.post(`/v1/invites/${invite.id}/cancel`).expect(409)).body.error.code).toBe('INVITE_ALREADY_USED');
  });

  it('a started invite can be cancelled but not resent', async () => {
    const { invite } = await newInvite();
    await t.em().execute(`update invites set status = 'started', started_at = now() where id = ?`, [invite.id]);
    expect((await api.post(`/v1/invites/${invite.id}/resend`).expect(409)).body.error.code).toBe('INVITE_ALREADY_USED');
    expect((await api.post(`/v1/invites/${invite.id}/cancel`).expect(200)).body.status).toBe('cancelled');
  });

  it('resend on a paused campaign is 409 CAMPAIGN_NOT_ACTIVE', async () => {
    const { campaign, invite } = await newInvite();
    await api.post(`/v1/campaigns/${campaign.id}/pause`).expect(200);
    expect((await api.post(`/v1/invites/${invite.id}/resend`).expect(409)).body.error.code).toBe('CAMPAIGN_NOT_ACTIVE');
  });

  it('resend of an invite without an email address is 409 INVITE_HAS_NO_EMAIL', async () => {
    const { invite } = await newInvite();
    await t.em().execute(`update invites set email = null where id = ?`, [invite.id]);
    expect((await api.post(`/v1/invites/${invite.id}/resend`).expect(409)).body.error.code).toBe('INVITE_HAS_NO_EMAIL');
  });

  it('unknown invites are 404', async () => {
    await api.post('/v1/invites/inv_doesnotexist0000000000/cancel').expect(404);
    await api.post('/v1/invites/inv_doesnotexist0000000000/resend').expect(404);
    await api.get('/v1/invites/inv_doesnotexist0000000000').expect(404);
  });
});

describe('expiry job', () => {
  it('writes expired on pending and started invites past expiresAt, and nothing else', async () => {
    const campaign = await createCampaign(api);
    const bulk = await api
      .post(`/v1/campaigns/${campaign.id}/invites/bulk`, {
        invites: [{ email: 'a@example.com' }, { email: 'b@example.com' }, { email: 'c@example.com' }, { email: 'd@example.com' }],
        sendEmail: false,
      })
      .expect(201);
    const [pendingPast, startedPast, cancelledPast, future] = bulk.body.data.map((invite: { id: string }) => invite.id);
    await t.em().execute(`update invites set expires_at = now() - interval '1 minute' where id in (?, ?, ?)`, [pendingPast, startedPast, cancelledPast]);
    await t.em().execute(`update invites set status = 'started', started_at = now() where id = ?`, [startedPast]);
    await t.em().execute(`update invites set status = 'cancelled', cancelled_at = now() where id = ?`, [cancelledPast]);

    const expired = await expireInvites({ em: t.em() });
    expect(expired).toBeGreaterThanOrEqual(2);
    expect((await inviteRow(t, pendingPast)).status).toBe('expired');
    expect((await inviteRow(t, startedPast)).status).toBe('expired');
    expect((await inviteRow(t, cancelledPast)).status).toBe('cancelled');
    expect((await inviteRow(t, future)).status).toBe('pending');
    expect(await expireInvites({ em: t.em() })).toBe(0);
  });

  it('runs as the invite__expire task of the worker', async () => {
    const campaign = await createCampaign(api);
    const invite = await createInvite(api, campaign.id, { email: 'due@example.com', sendEmail: false });
    await t.em().execute(`update invites set expires_at = now() - interval '1 minute' where id = ?`, [invite.id]);
    await t.em().execute(`select graphile_worker.add_job('invite__expire', '{}'::json)`);
    await runJobsOnce(t, { tasks: ['invite__expire'] });
    expect((await inviteRow(t, invite.id))!.status).toBe('expired');
  });
});

describe('campaign stats', () => {
  it('totalInvites counts the invites of each campaign in lists too', async () => {
    const script = await createPublishedScript(api);
    const first = await createCampaign(api, { scriptId: script.id });
    const second = await createCampaign(api, { scriptId: script.id });
    await api
      .post(`/v1/campaigns/${first.id}/invites/bulk`, { invites: [{ email: 'a@example.com' }, { email: 'b@example.com' }], sendEmail: false })
      .expect(201);
    await api.post(`/v1/campaigns/${second.id}/invites`, { email: 'c@example.com', sendEmail: false }).expect(201);
    const list = await api.get('/v1/campaigns?limit=100').expect(200);
    const stats = Object.fromEntries(
      list.body.data.map((campaign: { id: string; stats: { totalInvites: number } }) => [campaign.id, campaign.stats.totalInvites]),
    );
    expect(stats[first.id]).toBe(2);
    expect(stats[second.id]).toBe(1);
  });
});
