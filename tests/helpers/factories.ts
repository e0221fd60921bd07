import { randomBytes } from 'node:crypto';
import type supertest from 'supertest';
import type { TestApp, TestTenant } from './test-app.js';

export function uniqueName(prefix: string): string {
  return `${prefix} ${randomBytes(4).toString('hex')}`;
}

export function scriptBody(overrides: Record<string, unknown> = {}) {
  return {
    name: uniqueName('Onboarding script'),
    systemPrompt: 'You are a friendly researcher interviewing customers about onboarding.',
    questions: [
      { id: 'q1', text: 'How was your first week?', type: 'open' },
      { id: 'q2', text: 'How easy was setup?', type: 'rating' },
    ],
    ...overrides,
  };
}

/** Small typed wrapper: every call carries the tenant's key. */
export function apiAs(http: supertest.Agent, tenant: TestTenant) {
  const auth = (test: supertest.Test) => test.set('Authorization', tenant.authorization);
  return {
    get: (path: string) => auth(http.get(path)),
    post: (path: string, body?: unknown) => auth(http.post(path)).send(body as object),
    patch: (path: string, body?: unknown) => auth(http.patch(path)).send(body as object),
    delete: (path: string) => auth(http.delete(path)),
  };
}

export type Api = ReturnType<typeof apiAs>;

export async function createScript(api: Api, overrides: Record<string, unknown> = {}) {
  const response = await api.post('/v1/scripts', scriptBody(overrides)).expect(201);
  return response.body as { id: string; version: number; status: string };
}

export async function createPublishedScript(api: Api, overrides: Record<string, unknown> = {}) {
  const script = await createScript(api, overrides);
  await api.post(`/v1/scripts/${script.id}/publish`).expect(200);
  return script;
}

export async function createCampaign(api: Api, overrides: Record<string, unknown> = {}) {
  const scriptId = (overrides.scriptId as string | undefined) ?? (await createPublishedScript(api)).id;
  const response = await api.post('/v1/campaigns', { name: uniqueName('Campaign'), scriptId, ...overrides }).expect(201);
  return response.body as { id: string; name: string; scriptId: string; projectId: string | null; status: string };
}

export async function createProject(api: Api, overrides: Record<string, unknown> = {}) {
  const response = await api.post('/v1/projects', { name: uniqueName('Project'), ...overrides }).expect(201);
  return response.body as { id: string };
}

export interface InviteBody {
  id: string;
  campaignId: string;
  token: string;
  inviteUrl: string;
  status: string;
  emailStatus: string;
  emailTemplate: string | null;
  expiresAt: string;
}

export async function createInvite(
  api: Api,
  campaignId: string,
  body: Record<string, unknown> = { email: `${uniqueName('p').replace(' ', '-')}@example.com` },
) {
  const response = await api.post(`/v1/campaigns/${campaignId}/invites`, body).expect(201);
  return response.body as InviteBody;
}

export interface ShareLinkBody {
  id: string;
  campaignId: string;
  code: string;
  url: string;
  status: 'active' | 'full' | 'expired' | 'closed';
  maxRespondents: number | null;
  respondents: number;
  expiresAt: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export async function createShareLink(api: Api, campaignId: string, body: Record<string, unknown> = {}) {
  const response = await api.post(`/v1/campaigns/${campaignId}/share-links`, body).expect(201);
  return response.body as ShareLinkBody;
}

/** The stored `invites` row, as PostgreSQL has it (timestamps as Date). */
export interface InviteRow {
  id: string;
  organization_id: string;
  campaign_id: string;
  share_link_id: string | null;
  token_hash: string;
  email: string | null;
  name: string | null;
  status: string;
  email_status: string;
  expires_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  cancelled_at: Date | null;
}

export async function inviteRow(app: TestApp, inviteId: string): Promise<InviteRow> {
  const [row] = await app.em().execute<InviteRow[]>('select * from invites where id = ?', [inviteId]);
  if (!row) throw new Error(`No invite ${inviteId}`);
  const at = (value: unknown) => (value === null ? null : new Date(value as string));
  return {
    ...row,
    expires_at: new Date(row.expires_at),
    started_at: at(row.started_at),
    completed_at: at(row.completed_at),
    cancelled_at: at(row.cancelled_at),
  };
}
