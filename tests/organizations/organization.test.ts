import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Organization } from '../../server/entities/index.js';
import { type Api, apiAs, createCampaign } from '../helpers/factories.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

const PUBLIC_URL = 'http://127.0.0.1:3000';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/** A fresh organization per test, so no test sees another's branding. */
async function newOrganization(): Promise<{ tenant: TestTenant; api: Api }> {
  const tenant = await t.createTenant();
  return { tenant, api: apiAs(t.http, tenant) };
}

function uniqueDomain(prefix = 'interviews'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}.example.com`;
}

function fieldPaths(body: { error: { details: { fields: { path: string }[] } } }): string[] {
  return body.error.details.fields.map((field) => field.path);
}

describe('reading the organization', () => {
  it("GET answers the API key's organization with name, logo, domain, plan, settings and timestamps", async () => {
    const { tenant, api } = await newOrganization();
    const response = await api.get('/v1/organization');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: tenant.organizationId,
      livemode: true,
      name: 'Test organization',
      logo: null,
      domain: null,
      plan: 'enterprise',
      settings: {},
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(new Date(response.body.createdAt).toISOString()).toBe(response.body.createdAt);
  });

  it("GET never shows another organization's data", async () => {
    const first = await newOrganization();
    const second = await newOrganization();
    await first.api.patch('/v1/organization', { name: 'First only' }).expect(200);
    const response = await second.api.get('/v1/organization').expect(200);
    expect(response.body).toMatchObject({ id: second.tenant.organizationId, name: 'Test organization' });
  });
});

describe('updating the organization', () => {
  it('PATCH sets name, logo, domain and settings and answers the updated organization', async () => {
    const { tenant, api } = await newOrganization();
    const domain = uniqueDomain();
    const response = await api.patch('/v1/organization', {
      name: 'Acme Research',
      logo: 'https://cdn.acme.test/logo.png',
      domain,
      settings: { brandColor: '#aa3300', replyToEmail: 'research@acme.test' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: tenant.organizationId,
      name: 'Acme Research',
      logo: 'https://cdn.acme.test/logo.png',
      domain,
      settings: { brandColor: '#aa3300', replyToEmail: 'research@acme.test' },
    });
    const read = await api.get('/v1/organization').expect(200);
    expect(read.body).toEqual(response.body);
  });

  it('PATCH changes only the fields it names', async () => {
    const { api } = await newOrganization();
    await api.patch('/v1/organization', { name: 'Acme', logo: 'https://cdn.acme.test/logo.png' }).expect(200);
    const response = await api.patch('/v1/organization', { name: 'Acme Research' }).expect(200);
    expect(response.body).toMatchObject({ name: 'Acme Research', logo: 'https://cdn.acme.test/logo.png', domain: null });
  });

  it('PATCH moves updatedAt forward and keeps createdAt', async () => {
    const { api } = await newOrganization();
    const before = (await api.get('/v1/organization').expect(200)).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const after = (await api.patch('/v1/organization', { name: 'Renamed' }).expect(200)).body;
    expect(after.createdAt).toBe(before.createdAt);
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
  });

  it('settings are a merge patch: given keys replace, absent keys stay, null removes a key', async () => {
    const { api } = await newOrganization();
    await api.patch('/v1/organization', { settings: { brandColor: '#aa3300', replyToEmail: 'research@acme.test' } }).expect(200);

    const recoloured = await api.patch('/v1/organization', { settings: { brandColor: '#0055ff' } }).expect(200);
    expect(recoloured.body.settings).toEqual({ brandColor: '#0055ff', replyToEmail: 'research@acme.test' });

    const removed = await api.patch('/v1/organization', { settings: { replyToEmail: null } }).expect(200);
    expect(removed.body.settings).toEqual({ brandColor: '#0055ff' });
    expect((await api.get('/v1/organization').expect(200)).body.settings).toEqual({ brandColor: '#0055ff' });
  });

  it('null clears logo and domain', async () => {
    const { api } = await newOrganization();
    await api.patch('/v1/organization', { logo: 'https://cdn.acme.test/logo.png', domain: uniqueDomain() }).expect(200);
    const response = await api.patch('/v1/organization', { logo: null, domain: null }).expect(200);
    expect(response.body).toMatchObject({ logo: null, domain: null });
  });

  it('the domain is stored lowercase and trimmed', async () => {
    const { api } = await newOrganization();
    const domain = uniqueDomain();
    const response = await api.patch('/v1/organization', { domain: `  ${domain.toUpperCase()} ` }).expect(200);
    expect(response.body.domain).toBe(domain);
    const [row] = await t.em().execute<{ domain: string }[]>(`select domain from organizations where id = ?`, [response.body.id]);
    expect(row!.domain).toBe(domain);
  });

  it('setting the domain an organization already has answers 200', async () => {
    const { api } = await newOrganization();
    const domain = uniqueDomain();
    await api.patch('/v1/organization', { domain }).expect(200);
    const response = await api.patch('/v1/organization', { domain, name: 'Same domain' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ domain, name: 'Same domain' });
  });
});

describe('validation', () => {
  it.each([
    ['an http:// logo (must be https)', { logo: 'http://cdn.acme.test/logo.png' }, 'logo'],
    ['a javascript: logo', { logo: 'javascript:alert(1)' }, 'logo'],
    ['a logo that is not a URL', { logo: 'logo.png' }, 'logo'],
    ['a domain with scheme and path', { domain: 'https://x.com/path' }, 'domain'],
    ['a domain with a port', { domain: 'x.example.com:8443' }, 'domain'],
    ['a domain without a dot', { domain: 'localhost' }, 'domain'],
    ['an IP address as domain', { domain: '10.0.0.1' }, 'domain'],
    ['a brandColor that is a colour name', { settings: { brandColor: 'red' } }, 'settings.brandColor'],
    ['a brandColor without #', { settings: { brandColor: 'aa3300' } }, 'settings.brandColor'],
    ['a replyToEmail that is not an address', { settings: { replyToEmail: 'not-an-email' } }, 'settings.replyToEmail'],
    ['an unknown settings key', { settings: { font: 'Comic Sans' } }, 'settings.font'],
    ['an unknown top-level field', { colour: 'red' }, 'colour'],
    ['a plan (not client-settable)', { plan: 'enterprise' }, 'plan'],
    ['an empty name', { name: '' }, 'name'],
  ])('%s answers 422 VALIDATION_ERROR naming the field, and changes nothing', async (_label, body, path) => {
    const { tenant, api } = await newOrganization();
    const before = (await api.get('/v1/organization').expect(200)).body;
    const response = await api.patch('/v1/organization', { name: 'Should not apply', ...body });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(fieldPaths(response.body)).toContain(path);
    expect((await api.get('/v1/organization').expect(200)).body).toEqual(before);
    const row = await t.em().findOneOrFail(Organization, tenant.organizationId);
    expect(row.plan).toBe('enterprise');
  });
});

describe('custom domains are unique', () => {
  it('a domain another organization uses answers 409 DOMAIN_IN_USE naming domain, and changes nothing', async () => {
    const first = await newOrganization();
    const second = await newOrganization();
    const domain = uniqueDomain();
    await first.api.patch('/v1/organization', { domain }).expect(200);

    const response = await second.api.patch('/v1/organization', { name: 'Squatter', domain });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('DOMAIN_IN_USE');
    expect(fieldPaths(response.body)).toEqual(['domain']);
    expect((await second.api.get('/v1/organization').expect(200)).body).toMatchObject({ name: 'Test organization', domain: null });
    expect((await first.api.get('/v1/organization').expect(200)).body.domain).toBe(domain);
  });

  it('the uniqueness check ignores case', async () => {
    const first = await newOrganization();
    const second = await newOrganization();
    const domain = uniqueDomain();
    await first.api.patch('/v1/organization', { domain }).expect(200);
    const response = await second.api.patch('/v1/organization', { domain: domain.toUpperCase() });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('DOMAIN_IN_USE');
  });

  it('a domain released with null can be taken by another organization', async () => {
    const first = await newOrganization();
    const second = await newOrganization();
    const domain = uniqueDomain();
    await first.api.patch('/v1/organization', { domain }).expect(200);
    await first.api.patch('/v1/organization', { domain: null }).expect(200);
    const response = await second.api.patch('/v1/organization', { domain });
    expect(response.status).toBe(200);
    expect(response.body.domain).toBe(domain);
  });

  it('many organizations can have no domain', async () => {
    const first = await newOrganization();
    const second = await newOrganization();
    await first.api.patch('/v1/organization', { domain: null }).expect(200);
    await second.api.patch('/v1/organization', { domain: null }).expect(200);
  });
});

describe('permissions', () => {
  it('a key with organization:read only can GET but PATCH answers 403 INSUFFICIENT_PERMISSIONS and changes nothing', async () => {
    const { tenant } = await newOrganization();
    const readOnly = apiAs(t.http, await t.createKey(tenant.organizationId, ['organization:read']));
    await readOnly.get('/v1/organization').expect(200);

    const response = await readOnly.patch('/v1/organization', { name: 'Not allowed' });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await readOnly.get('/v1/organization').expect(200)).body.name).toBe('Test organization');
  });

  it('a key without organization:read cannot GET', async () => {
    const { tenant } = await newOrganization();
    const other = apiAs(t.http, await t.createKey(tenant.organizationId, ['campaigns:read', 'invites:read']));
    const response = await other.get('/v1/organization');
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
  });

  it('a key with organization:write only can PATCH', async () => {
    const { tenant, api } = await newOrganization();
    const writeOnly = apiAs(t.http, await t.createKey(tenant.organizationId, ['organization:write']));
    await writeOnly.patch('/v1/organization', { name: 'Written' }).expect(200);
    expect((await api.get('/v1/organization').expect(200)).body.name).toBe('Written');
  });

  it('without an API key both answer 401', async () => {
    expect((await t.http.get('/v1/organization')).status).toBe(401);
    expect((await t.http.patch('/v1/organization').send({ name: 'x' })).status).toBe(401);
  });
});

describe('the custom domain in invite links', () => {
  it("after setting a domain, new invites' inviteUrl is https://{domain}/interview/{token}", async () => {
    const { api } = await newOrganization();
    const domain = uniqueDomain();
    await api.patch('/v1/organization', { domain }).expect(200);
    const campaign = await createCampaign(api);

    const invite = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'ada@example.test', sendEmail: false }).expect(201)).body;
    expect(invite.inviteUrl).toBe(`https://${domain}/interview/${invite.token}`);

    const bulk = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, { invites: [{ email: 'b@example.test' }], sendEmail: false }).expect(201);
    expect(bulk.body.data[0].inviteUrl).toBe(`https://${domain}/interview/${bulk.body.data[0].token}`);
  });

  it('an invite created before the domain was set reads the domain link afterwards (GET and list), same token', async () => {
    const { api } = await newOrganization();
    const campaign = await createCampaign(api);
    const invite = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'ada@example.test', sendEmail: false }).expect(201)).body;
    expect(invite.inviteUrl).toBe(`${PUBLIC_URL}/interview/${invite.token}`);

    const domain = uniqueDomain();
    await api.patch('/v1/organization', { domain }).expect(200);

    const read = await api.get(`/v1/invites/${invite.id}`).expect(200);
    expect(read.body.token).toBe(invite.token);
    expect(read.body.inviteUrl).toBe(`https://${domain}/interview/${invite.token}`);
    const list = await api.get(`/v1/campaigns/${campaign.id}/invites`).expect(200);
    expect(list.body.data[0].inviteUrl).toBe(`https://${domain}/interview/${invite.token}`);
  });

  it('clearing the domain with null returns links to PUBLIC_URL', async () => {
    const { api } = await newOrganization();
    await api.patch('/v1/organization', { domain: uniqueDomain() }).expect(200);
    const campaign = await createCampaign(api);
    const invite = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'ada@example.test', sendEmail: false }).expect(201)).body;

    await api.patch('/v1/organization', { domain: null }).expect(200);

    const read = await api.get(`/v1/invites/${invite.id}`).expect(200);
    expect(read.body.inviteUrl).toBe(`${PUBLIC_URL}/interview/${invite.token}`);
    const fresh = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'grace@example.test', sendEmail: false }).expect(201)).body;
    expect(fresh.inviteUrl).toBe(`${PUBLIC_URL}/interview/${fresh.token}`);
  });

  it("another organization's domain does not affect this organization's links", async () => {
    const branded = await newOrganization();
    await branded.api.patch('/v1/organization', { domain: uniqueDomain() }).expect(200);
    const { api } = await newOrganization();
    const campaign = await createCampaign(api);
    const invite = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'ada@example.test', sendEmail: false }).expect(201)).body;
    expect(invite.inviteUrl).toBe(`${PUBLIC_URL}/interview/${invite.token}`);
  });

  it('the path of a custom-domain link opens the participant page', async () => {
    const { api } = await newOrganization();
    const domain = uniqueDomain();
    await api.patch('/v1/organization', { domain }).expect(200);
    const campaign = await createCampaign(api);
    const invite = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'ada@example.test', sendEmail: false }).expect(201)).body;
    const page = await t.http.get(new URL(invite.inviteUrl).pathname).set('Host', domain);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('concurrent updates', () => {
  it('patches of different settings keys racing each other both survive', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { api } = await newOrganization();
      await Promise.all([
        api.patch('/v1/organization', { settings: { brandColor: '#123456' } }).expect(200),
        api.patch('/v1/organization', { settings: { replyToEmail: 'team@example.com' } }).expect(200),
        api.patch('/v1/organization', { name: 'Renamed' }).expect(200),
      ]);
      const read = await api.get('/v1/organization').expect(200);
      expect(read.body.settings).toEqual({ brandColor: '#123456', replyToEmail: 'team@example.com' });
      expect(read.body.name).toBe('Renamed');
    }
  });
});
