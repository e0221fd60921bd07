import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, createCampaign, createProject } from '../helpers/factories.js';
import { type ListeningTestApp, startListeningTestApp, type TrpcClient, trpcFailure } from '../helpers/members.js';
import { type TestTenant } from '../helpers/test-app.js';
import type { SearchFilters } from '../../shared/schemas/search.js';

/** Saved searches (issue 16): a search's text and filters, kept per organization under a unique name. */

let t: ListeningTestApp;
let a: { tenant: TestTenant; client: TrpcClient };
let b: { tenant: TestTenant; client: TrpcClient };
/** Organization a's campaign and project, and b's campaign. */
let campaignA: string;
let projectA: string;
let campaignB: string;

beforeAll(async () => {
  t = await startListeningTestApp();
  const [tenantA, tenantB] = await Promise.all([t.createTenant(), t.createTenant()]);
  a = { tenant: tenantA, client: t.clientOf(tenantA) };
  b = { tenant: tenantB, client: t.clientOf(tenantB) };
  [campaignA, projectA, campaignB] = await Promise.all([
    createCampaign(apiAs(t.http, tenantA)).then((campaign) => campaign.id),
    createProject(apiAs(t.http, tenantA)).then((project) => project.id),
    createCampaign(apiAs(t.http, tenantB)).then((campaign) => campaign.id),
  ]);
  FILTERS = { campaignIds: [campaignA], from: '2026-01-01T00:00:00Z', sentiment: ['negative'], speaker: 'participant' };
});
afterAll(() => t?.close());

let counter = 0;
const uniqueName = (prefix = 'Search') => `${prefix} ${++counter}`;

async function savedSearchRow(id: string) {
  const [row] = await t.em().execute<Record<string, unknown>[]>(`select * from saved_searches where id = ?`, [id]);
  return row;
}

let FILTERS: SearchFilters;

describe('savedSearches.create', () => {
  it('stores the text and the filters as given, with its author', async () => {
    const saved = await a.client.savedSearches.create.mutate({ name: ' Churn talk ', query: ' "cancel my plan" -trial ', filters: FILTERS });
    expect(saved).toEqual({
      id: expect.stringMatching(/^svs_/),
      name: 'Churn talk',
      query: '"cancel my plan" -trial',
      filters: FILTERS,
      author: { kind: 'api_key', id: a.tenant.apiKeyId, name: 'test key' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await savedSearchRow(saved.id)).toMatchObject({
      organization_id: a.tenant.organizationId,
      name: 'Churn talk',
      query: '"cancel my plan" -trial',
      filters: FILTERS,
      author_kind: 'api_key',
    });
  });

  it('defaults filters to none', async () => {
    const saved = await a.client.savedSearches.create.mutate({ name: uniqueName(), query: 'pricing' });
    expect(saved.filters).toEqual({});
  });

  it('answers 409 NAME_TAKEN for a name in use, ignoring case; another organization may use it', async () => {
    const name = uniqueName();
    const first = await a.client.savedSearches.create.mutate({ name, query: 'a' });
    expect(await trpcFailure(a.client.savedSearches.create.mutate({ name: name.toLowerCase(), query: 'b' }))).toMatchObject({
      appCode: 'NAME_TAKEN',
      httpStatus: 409,
      details: { existingId: first.id, fields: [{ path: 'name' }] },
    });
    await b.client.savedSearches.create.mutate({ name, query: 'a' });
  });

  it("answers 404 with the field path for a campaign or project filter naming none of the organization's, and stores nothing", async () => {
    const name = uniqueName();
    const otherCampaign = await trpcFailure(a.client.savedSearches.create.mutate({ name, query: 'x', filters: { campaignIds: [campaignA, campaignB] } }));
    expect(otherCampaign).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
      details: { resource: 'campaign', id: campaignB, fields: [{ path: 'filters.campaignIds[1]' }] },
    });
    const noProject = await trpcFailure(a.client.savedSearches.create.mutate({ name, query: 'x', filters: { projectIds: [projectA, 'prj_missing'] } }));
    expect(noProject).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
      details: { resource: 'project', id: 'prj_missing', fields: [{ path: 'filters.projectIds[1]' }] },
    });
    expect(await t.em().execute(`select 1 from saved_searches where name = ?`, [name])).toHaveLength(0);
    // The organization's own project is taken, even with no campaign in it.
    expect((await a.client.savedSearches.create.mutate({ name, query: 'x', filters: { projectIds: [projectA] } })).filters).toEqual({ projectIds: [projectA] });
  });

  it('answers 422 with field paths for bad filters or an empty query, 400 without a query, 403 without sessions:write', async () => {
    const badFilter = await trpcFailure(a.client.savedSearches.create.mutate({ name: uniqueName(), query: 'x', filters: { sentiment: ['angry'] } as never }));
    expect(badFilter).toMatchObject({ appCode: 'VALIDATION_ERROR', httpStatus: 422, details: { fields: [{ path: 'filters.sentiment[0]' }] } });
    const unknown = await trpcFailure(a.client.savedSearches.create.mutate({ name: uniqueName(), query: 'x', filters: { colour: 'red' } as never }));
    expect(unknown).toMatchObject({ httpStatus: 422, details: { fields: [{ path: 'filters.colour', message: 'is not a known field' }] } });
    expect(await trpcFailure(a.client.savedSearches.create.mutate({ name: uniqueName(), query: '  ' }))).toMatchObject({
      httpStatus: 422,
      details: { fields: [{ path: 'query' }] },
    });
    expect(await trpcFailure(a.client.savedSearches.create.mutate({ name: uniqueName() } as never))).toMatchObject({
      appCode: 'INVALID_REQUEST',
      httpStatus: 400,
      details: { fields: [{ path: 'query' }] },
    });
    const reader = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read']));
    expect(await trpcFailure(reader.savedSearches.create.mutate({ name: uniqueName(), query: 'x' }))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      httpStatus: 403,
    });
  });
});

describe('savedSearches.list', () => {
  it("pages newest first, only the organization's", async () => {
    const tenant = await t.createTenant();
    const client = t.clientOf(tenant);
    const made = [];
    for (let index = 0; index < 3; index++) made.push(await client.savedSearches.create.mutate({ name: uniqueName(), query: `q${index}` }));
    const first = await client.savedSearches.list.query({ limit: 2 });
    expect(first.data.map((saved) => saved.id)).toEqual([made[2]!.id, made[1]!.id]);
    expect(first.hasMore).toBe(true);
    const second = await client.savedSearches.list.query({ limit: 2, cursor: first.nextCursor! });
    expect(second).toEqual({ data: [made[0]], hasMore: false, nextCursor: null });
  });

  it('answers 403 without sessions:read, 400 for a bad cursor', async () => {
    const noRead = t.clientOf(await t.createKey(a.tenant.organizationId, ['campaigns:read']));
    expect(await trpcFailure(noRead.savedSearches.list.query({}))).toMatchObject({ httpStatus: 403, details: { required: 'sessions:read' } });
    expect(await trpcFailure(a.client.savedSearches.list.query({ cursor: 'cur_xyz' }))).toMatchObject({
      appCode: 'INVALID_REQUEST',
      httpStatus: 400,
      details: { fields: [{ path: 'cursor' }] },
    });
  });
});

describe('savedSearches.update and savedSearches.delete', () => {
  it('changes the name, text and filters (replaced as a whole)', async () => {
    const saved = await a.client.savedSearches.create.mutate({ name: uniqueName(), query: 'old', filters: FILTERS });
    const updated = await a.client.savedSearches.update.mutate({ savedSearchId: saved.id, query: 'new words', filters: { speaker: 'all' } });
    expect(updated).toMatchObject({ id: saved.id, name: saved.name, query: 'new words', filters: { speaker: 'all' } });
    expect(await savedSearchRow(saved.id)).toMatchObject({ query: 'new words', filters: { speaker: 'all' } });
  });

  it('answers 409 for a taken name, 422 for a bad filter', async () => {
    const taken = await a.client.savedSearches.create.mutate({ name: uniqueName(), query: 'x' });
    const saved = await a.client.savedSearches.create.mutate({ name: uniqueName(), query: 'y' });
    expect(await trpcFailure(a.client.savedSearches.update.mutate({ savedSearchId: saved.id, name: taken.name.toUpperCase() }))).toMatchObject({
      appCode: 'NAME_TAKEN',
      httpStatus: 409,
      details: { existingId: taken.id },
    });
    expect(await trpcFailure(a.client.savedSearches.update.mutate({ savedSearchId: saved.id, filters: { from: 'yesterday' } }))).toMatchObject({
      httpStatus: 422,
      details: { fields: [{ path: 'filters.from' }] },
    });
    expect(await savedSearchRow(saved.id)).toMatchObject({ name: saved.name, filters: {} });
  });

  it("answers 404 with the field path for new filters naming another organization's campaign, and keeps the stored ones", async () => {
    const saved = await a.client.savedSearches.create.mutate({ name: uniqueName(), query: 'x', filters: FILTERS });
    expect(await trpcFailure(a.client.savedSearches.update.mutate({ savedSearchId: saved.id, filters: { campaignIds: [campaignB] } }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
      details: { resource: 'campaign', id: campaignB, fields: [{ path: 'filters.campaignIds[0]' }] },
    });
    expect(
      await trpcFailure(a.client.savedSearches.update.mutate({ savedSearchId: saved.id, query: 'y', filters: { projectIds: ['prj_missing'] } })),
    ).toMatchObject({
      httpStatus: 404,
      details: { resource: 'project', fields: [{ path: 'filters.projectIds[0]' }] },
    });
    expect(await savedSearchRow(saved.id)).toMatchObject({ query: 'x', filters: FILTERS });
  });

  it('deletes it', async () => {
    const saved = await a.client.savedSearches.create.mutate({ name: uniqueName(), query: 'x' });
    await a.client.savedSearches.delete.mutate({ savedSearchId: saved.id });
    expect(await savedSearchRow(saved.id)).toBeUndefined();
  });

  it('answers 404 for another organization, 403 without sessions:write', async () => {
    const saved = await a.client.savedSearches.create.mutate({ name: uniqueName(), query: 'x' });
    expect(await trpcFailure(b.client.savedSearches.update.mutate({ savedSearchId: saved.id, query: 'mine' }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
    });
    expect(await trpcFailure(b.client.savedSearches.delete.mutate({ savedSearchId: saved.id }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
    });
    const reader = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read']));
    expect(await trpcFailure(reader.savedSearches.update.mutate({ savedSearchId: saved.id, query: 'y' }))).toMatchObject({ httpStatus: 403 });
    expect(await trpcFailure(reader.savedSearches.delete.mutate({ savedSearchId: saved.id }))).toMatchObject({ httpStatus: 403 });
    expect(await savedSearchRow(saved.id)).toMatchObject({ query: 'x' });
  });
});
