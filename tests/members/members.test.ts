import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../shared/permissions.js';
import { type Api, apiAs } from '../helpers/factories.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { invitationTokenIn, listen, type MailSink, startMailSink, trpcClient, trpcFailure } from '../helpers/members.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * Members (design.md "Records of the product": Member; "Auth and permissions"): invitations by
 * email with a one-use link, roles mapped to the spec's permissions, the last-owner rule, and
 * the tRPC sign-in of first-party frontends.
 */

const PASSWORD = 'correct horse battery staple';

let t: TestApp;
let mail: MailSink;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  mail = await startMailSink();
  t = await startTestApp({ SMTP_URL: mail.url, EMAIL_FROM: 'Interviews <no-reply@example.com>' });
  server = await listen(t);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  await mail?.close();
});

function uniqueEmail(prefix = 'colleague'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

async function newOrganization(): Promise<{ tenant: TestTenant; api: Api }> {
  const tenant = await t.createTenant();
  return { tenant, api: apiAs(t.http, tenant) };
}

/** Sends the queued invitation emails and returns the token emailed to `email`. */
async function emailedToken(email: string): Promise<string> {
  await runJobsOnce(t, { tasks: ['member__send_invitation'] });
  const message = mail.delivered.findLast((delivered) => delivered.to.includes(email));
  if (!message) throw new Error(`no email to ${email}`);
  return invitationTokenIn(message.email);
}

/** Invites `email` with `role` through `api`, accepts by tRPC and answers the member's signed-in client. */
async function memberWithRole(api: Api, role: string, email = uniqueEmail(role)) {
  const invited = await api.post('/v1/organization/members', { email, role }).expect(201);
  const token = await emailedToken(email);
  const signedIn = await trpcClient(server.url).members.acceptInvitation.mutate({ token, password: PASSWORD, name: `A ${role}` });
  let accessToken = signedIn.accessToken;
  return {
    id: invited.body.id as string,
    email,
    signedIn,
    client: trpcClient(server.url, { token: () => accessToken }),
    rest: (method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object) => {
      const request = t.http[method](path).set('Authorization', `Bearer ${accessToken}`);
      return body ? request.send(body) : request;
    },
    setAccessToken(value: string) {
      accessToken = value;
    },
  };
}

describe('an owner invites a colleague, who signs in through the tRPC client', () => {
  it("goes from the invitation email to a signed-in member with the role's permissions", async () => {
    const { tenant, api } = await newOrganization();
    await api.patch('/v1/organization', { name: 'Acme Research' }).expect(200);
    const owner = await memberWithRole(api, 'owner');

    const colleague = uniqueEmail('ana');
    const invited = await owner.client.members.invite.mutate({ email: colleague.toUpperCase(), role: 'member', name: 'Ana' });
    expect(invited).toMatchObject({ email: colleague, role: 'member', status: 'invited', name: 'Ana', lastSignInAt: null });
    expect(new Date(invited.invitationExpiresAt!).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

    await runJobsOnce(t, { tasks: ['member__send_invitation'] });
    const message = mail.delivered.findLast((delivered) => delivered.to.includes(colleague))!;
    expect(message.email.subject).toBe('You are invited to join Acme Research');
    expect(message.email.text).toContain('as a member');
    const token = invitationTokenIn(message.email);
    const [row] = await t
      .em()
      .execute<{ invitation_token_hash: string; invitation_email_status: string }[]>(
        `select invitation_token_hash, invitation_email_status from members where id = ?`,
        [invited.id],
      );
    expect(row!.invitation_email_status).toBe('sent');
    expect(row!.invitation_token_hash).not.toContain(token.slice(4, 20));

    // The link's page: a form without script; a mismatch is refused and nothing changes.
    const page = await t.http.get(`/members/accept?token=${token}`).expect(200);
    expect(page.text).toContain('Join Acme Research');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const mismatch = await t.http
      .post('/members/accept')
      .type('form')
      .send({ token, name: 'Ana B', password: PASSWORD, confirm: 'something else' })
      .expect(422);
    expect(mismatch.text).toContain('The two passwords differ.');
    const tooShort = await t.http.post('/members/accept').type('form').send({ token, password: 'short', confirm: 'short' }).expect(422);
    expect(tooShort.text).toContain('10 to 200 characters');
    await t.http.post('/members/accept').type('form').send({ token, name: 'Ana B', password: PASSWORD, confirm: PASSWORD }).expect(200);
    // It works once.
    await t.http.get(`/members/accept?token=${token}`).expect(404);
    expect(await trpcFailure(trpcClient(server.url).members.acceptInvitation.mutate({ token, password: PASSWORD }))).toMatchObject({
      appCode: 'INVALID_INVITATION',
      httpStatus: 404,
    });

    const [stored] = await t
      .em()
      .execute<{ password_hash: string; status: string; name: string }[]>(`select password_hash, status, name from members where id = ?`, [invited.id]);
    expect(stored).toMatchObject({ status: 'active', name: 'Ana B' });
    expect(stored!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(stored!.password_hash).not.toContain(PASSWORD);

    let accessToken = '';
    const ana = trpcClient(server.url, { token: () => accessToken });
    const signedIn = await ana.auth.signIn.mutate({ email: colleague, password: PASSWORD });
    accessToken = signedIn.accessToken;
    expect(signedIn.organization).toEqual({ id: tenant.organizationId, name: 'Acme Research' });
    const me = await ana.auth.me.query({});
    expect(me.member).toMatchObject({ id: invited.id, role: 'member', status: 'active' });
    expect(me.member.lastSignInAt).not.toBeNull();
    expect(me.permissions).toEqual([
      'campaigns:read',
      'campaigns:write',
      'invites:read',
      'invites:write',
      'sessions:read',
      'sessions:write',
      'billing:read',
      'organization:read',
    ]);

    // A member works with campaigns but neither manages members nor buys credits.
    await ana.projects.create.mutate({ name: "Ana's project" });
    expect(await trpcFailure(ana.members.invite.mutate({ email: uniqueEmail(), role: 'viewer' }))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      httpStatus: 403,
      details: { required: 'organization:write' },
    });
    expect(await trpcFailure(ana.billing.purchaseCredits.mutate({ amount: 10 }))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      details: { required: 'billing:write' },
    });

    const list = await api.get('/v1/organization/members').expect(200);
    expect(list.body.data.map((member: { email: string }) => member.email)).toEqual([owner.email, colleague]);
    expect(list.body.data[1]).toEqual({
      id: invited.id,
      livemode: true,
      email: colleague,
      name: 'Ana B',
      role: 'member',
      status: 'active',
      invitationExpiresAt: null,
      lastSignInAt: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });
});

describe('member operations', () => {
  it('POST refuses an email already in the organization (any case) with 409 MEMBER_EXISTS, and bad input with 400/422', async () => {
    const { api } = await newOrganization();
    const email = uniqueEmail();
    await api.post('/v1/organization/members', { email, role: 'viewer' }).expect(201);
    const again = await api.post('/v1/organization/members', { email: email.toUpperCase(), role: 'admin' }).expect(409);
    expect(again.body.error).toMatchObject({ code: 'MEMBER_EXISTS', details: { fields: [{ path: 'email' }] } });
    const badRole = await api.post('/v1/organization/members', { email: uniqueEmail(), role: 'superuser' }).expect(422);
    expect(badRole.body.error.details.fields[0].path).toBe('role');
    const badEmail = await api.post('/v1/organization/members', { email: 'not-an-email', role: 'viewer' }).expect(422);
    expect(badEmail.body.error.details.fields[0].path).toBe('email');
    const missing = await api.post('/v1/organization/members', { role: 'viewer' }).expect(400);
    expect(missing.body.error.code).toBe('INVALID_REQUEST');
    // Another organization may have the same person.
    await (await newOrganization()).api.post('/v1/organization/members', { email, role: 'viewer' }).expect(201);
  });

  it("another organization's member is 404 for PATCH and DELETE", async () => {
    const first = await newOrganization();
    const second = await newOrganization();
    const invited = await first.api.post('/v1/organization/members', { email: uniqueEmail(), role: 'viewer' }).expect(201);
    expect((await second.api.patch(`/v1/organization/members/${invited.body.id}`, { role: 'admin' }).expect(404)).body.error.code).toBe('RESOURCE_NOT_FOUND');
    await second.api.delete(`/v1/organization/members/${invited.body.id}`).expect(404);
    await first.api.patch(`/v1/organization/members/${invited.body.id}`, { role: 'admin' }).expect(200);
  });

  it('the permissions of each role', async () => {
    const { api } = await newOrganization();
    const viewer = await memberWithRole(api, 'viewer');
    const admin = await memberWithRole(api, 'admin');
    expect((await viewer.client.auth.me.query({})).permissions).toEqual(PERMISSIONS.filter((permission) => permission.endsWith(':read')));
    expect((await admin.client.auth.me.query({})).permissions).toEqual(PERMISSIONS.filter((permission) => permission !== 'billing:write'));
    // The same rules on REST, where an access token works as well.
    await viewer.rest('get', '/v1/projects').expect(200);
    const refused = await viewer.rest('post', '/v1/projects', { name: 'Nope' }).expect(403);
    expect(refused.body.error).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', details: { required: 'campaigns:write' } });
    expect(refused.body.error.message).toContain('viewer');
    await admin.rest('post', '/v1/projects', { name: 'Yes' }).expect(201);
    await admin.rest('get', '/v1/billing/plan').expect(200);
    expect((await admin.rest('post', '/v1/billing/credits/purchase', { amount: 5 }).expect(403)).body.error.details.required).toBe('billing:write');
  });

  it('only a caller with every permission makes, changes or removes an owner', async () => {
    const { tenant, api } = await newOrganization();
    const admin = await memberWithRole(api, 'admin');
    const owner = await memberWithRole(api, 'owner');
    const other = await memberWithRole(api, 'member');
    // An admin cannot raise anyone (themselves included) to owner, nor touch an owner.
    expect(await trpcFailure(admin.client.members.update.mutate({ memberId: admin.id, role: 'owner' }))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      details: { required: 'owner' },
    });
    expect(await trpcFailure(admin.client.members.invite.mutate({ email: uniqueEmail(), role: 'owner' }))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
    });
    expect(await trpcFailure(admin.client.members.update.mutate({ memberId: owner.id, role: 'viewer' }))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
    });
    expect(await trpcFailure(admin.client.members.remove.mutate({ memberId: owner.id }))).toMatchObject({ appCode: 'INSUFFICIENT_PERMISSIONS' });
    // An API key lacking one permission cannot either.
    const partialKey = apiAs(
      t.http,
      await t.createKey(
        tenant.organizationId,
        PERMISSIONS.filter((permission) => permission !== 'billing:write'),
      ),
    );
    expect((await partialKey.patch(`/v1/organization/members/${other.id}`, { role: 'owner' }).expect(403)).body.error.details.required).toBe('owner');
    // A key with organization:write alone cannot make anyone admin (who could then mint keys), nor a member.
    const writeOnly = apiAs(t.http, await t.createKey(tenant.organizationId, ['organization:write']));
    const escalation = await writeOnly.post('/v1/organization/members', { email: uniqueEmail('attacker'), role: 'admin' }).expect(403);
    expect(escalation.body.error).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', details: { required: 'admin' } });
    expect((await writeOnly.patch(`/v1/organization/members/${other.id}`, { role: 'admin' }).expect(403)).body.error.details.required).toBe('member');
    expect((await writeOnly.delete(`/v1/organization/members/${other.id}`).expect(403)).body.error.details.required).toBe('member');
    // An admin manages the other roles; an owner all of them.
    expect(await admin.client.members.update.mutate({ memberId: other.id, role: 'viewer' })).toMatchObject({ role: 'viewer' });
    expect(await owner.client.members.update.mutate({ memberId: other.id, role: 'owner' })).toMatchObject({ role: 'owner' });
  });

  it('the last active owner can be neither demoted nor removed (409 LAST_OWNER); with two, one can', async () => {
    const { api } = await newOrganization();
    const first = await memberWithRole(api, 'owner');
    const demote = await api.patch(`/v1/organization/members/${first.id}`, { role: 'admin' }).expect(409);
    expect(demote.body.error).toMatchObject({ code: 'LAST_OWNER', details: { memberId: first.id } });
    expect((await api.delete(`/v1/organization/members/${first.id}`).expect(409)).body.error.code).toBe('LAST_OWNER');
    expect(await trpcFailure(first.client.members.remove.mutate({ memberId: first.id }))).toMatchObject({ appCode: 'LAST_OWNER', httpStatus: 409 });
    // An invited owner does not count, and can always be withdrawn.
    const invitedOwner = await api.post('/v1/organization/members', { email: uniqueEmail(), role: 'owner' }).expect(201);
    await api.patch(`/v1/organization/members/${first.id}`, { role: 'admin' }).expect(409);
    await api.delete(`/v1/organization/members/${invitedOwner.body.id}`).expect(204);

    const second = await memberWithRole(api, 'owner');
    // Two concurrent demotions of two owners: exactly one goes through.
    const results = await Promise.all([
      api.patch(`/v1/organization/members/${first.id}`, { role: 'admin' }),
      api.patch(`/v1/organization/members/${second.id}`, { role: 'admin' }),
    ]);
    expect(results.map((response) => response.status).sort()).toEqual([200, 409]);
    const owners = (await api.get('/v1/organization/members').expect(200)).body.data.filter((member: { role: string }) => member.role === 'owner');
    expect(owners).toHaveLength(1);
  });

  it('DELETE removes the member and ends their sign-ins at once', async () => {
    const { api } = await newOrganization();
    const viewer = await memberWithRole(api, 'viewer');
    await viewer.rest('get', '/v1/organization').expect(200);
    await api.delete(`/v1/organization/members/${viewer.id}`).expect(204);
    const after = await viewer.rest('get', '/v1/organization').expect(401);
    expect(after.body.error.code).toBe('INVALID_ACCESS_TOKEN');
    expect(await trpcFailure(trpcClient(server.url).auth.refresh.mutate({ refreshToken: viewer.signedIn.refreshToken }))).toMatchObject({
      appCode: 'INVALID_REFRESH_TOKEN',
    });
    const [row] = await t.em().execute<{ count: string }[]>(`select count(*) as count from member_sessions where member_id = ?`, [viewer.id]);
    expect(Number(row!.count)).toBe(0);
  });

  it('a role change takes effect on the next request', async () => {
    const { api } = await newOrganization();
    const member = await memberWithRole(api, 'member');
    await member.rest('post', '/v1/projects', { name: 'Before' }).expect(201);
    await api.patch(`/v1/organization/members/${member.id}`, { role: 'viewer' }).expect(200);
    await member.rest('post', '/v1/projects', { name: 'After' }).expect(403);
  });

  it('an expired invitation link does not work', async () => {
    const { api } = await newOrganization();
    const email = uniqueEmail();
    const invited = await api.post('/v1/organization/members', { email, role: 'viewer' }).expect(201);
    const token = await emailedToken(email);
    await t.em().execute(`update members set invitation_expires_at = now() - interval '1 second' where id = ?`, [invited.body.id]);
    await t.http.get(`/members/accept?token=${token}`).expect(404);
    await t.http.post('/members/accept').type('form').send({ token, password: PASSWORD, confirm: PASSWORD }).expect(404);
    expect(await trpcFailure(trpcClient(server.url).members.acceptInvitation.mutate({ token, password: PASSWORD }))).toMatchObject({
      appCode: 'INVALID_INVITATION',
    });
    const [row] = await t
      .em()
      .execute<{ status: string; password_hash: string | null }[]>(`select status, password_hash from members where id = ?`, [invited.body.id]);
    expect(row).toEqual({ status: 'invited', password_hash: null });
  });

  it('accepting needs a password of 10 to 200 characters (422)', async () => {
    const { api } = await newOrganization();
    const email = uniqueEmail();
    await api.post('/v1/organization/members', { email, role: 'viewer' }).expect(201);
    const token = await emailedToken(email);
    expect(await trpcFailure(trpcClient(server.url).members.acceptInvitation.mutate({ token, password: 'short' }))).toMatchObject({
      appCode: 'VALIDATION_ERROR',
      httpStatus: 422,
      details: { fields: [{ path: 'password' }] },
    });
    await trpcClient(server.url).members.acceptInvitation.mutate({ token, password: PASSWORD });
  });
});
