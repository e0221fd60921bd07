import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteMember } from '../../server/domains/members/invite-member.js';
import { acceptInvitation } from '../../server/domains/members/accept-invitation.js';
import { hashSecretToken, MemberTokens } from '../../server/lib/member-tokens.js';
import { createLogger } from '../../server/logger.js';
import { PERMISSIONS } from '../../shared/permissions.js';
import { apiAs } from '../helpers/factories.js';
import { listen, trpcClient, trpcFailure } from '../helpers/members.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Sign-in for first-party frontends (tRPC): 15-minute access JWTs, one-use refresh tokens whose
 * reuse ends the sign-in, sign-out that takes effect at once, brute-force locks per email and
 * per address, and API keys managed by signed-in owners and admins.
 */

const PASSWORD = 'correct horse battery staple';

let t: TestApp;
/** What the service logged at error level: server faults. */
const errorLines: string[] = [];
const errorLog = new Writable({ write: (chunk, _encoding, done) => (errorLines.push(String(chunk)), done()) });
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  // Behind a trusted proxy on loopback, so each test signs in from an address of its own.
  t = await startTestApp({ TRUST_PROXY: 'loopback' }, createLogger('error', errorLog));
  server = await listen(t);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

function uniqueIp(): string {
  const bytes = randomBytes(3);
  return `10.${bytes[0]}.${bytes[1]}.${bytes[2]}`;
}

/** An active member (invited and accepted through the domain functions) of a new organization. */
async function activeMember(role: 'owner' | 'admin' | 'member' | 'viewer' = 'owner', organizationId?: string) {
  const orgId = organizationId ?? (await t.createTenant()).organizationId;
  const email = `m-${randomBytes(4).toString('hex')}@example.com`;
  const invited = await inviteMember({ em: t.em(), services: t.runtime.services }, { organizationId: orgId, permissions: PERMISSIONS }, { email, role });
  const token = new URL(invited.invitationUrl).searchParams.get('token')!;
  await acceptInvitation({ em: t.em(), services: t.runtime.services }, { token, password: PASSWORD, client: { ip: undefined, userAgent: undefined } });
  return { email, organizationId: orgId, memberId: invited.member.id };
}

/** A client that keeps its access token, as a frontend does. */
function frontend(ip = uniqueIp()) {
  const state = { accessToken: undefined as string | undefined };
  return { state, ip, client: trpcClient(server.url, { token: () => state.accessToken, ip }) };
}

describe('sign-in', () => {
  it('answers a 15-minute access JWT and a refresh token; the JWT works on tRPC and REST', async () => {
    const member = await activeMember('admin');
    const { client, state } = frontend();
    const before = Date.now();
    const signedIn = await client.auth.signIn.mutate({ email: member.email.toUpperCase(), password: PASSWORD });
    expect(signedIn.refreshToken).toMatch(/^rft_[A-Za-z0-9_-]{43}$/);
    expect(new Date(signedIn.accessTokenExpiresAt).getTime() - before).toBeGreaterThan(14 * 60_000);
    expect(new Date(signedIn.accessTokenExpiresAt).getTime() - before).toBeLessThanOrEqual(15 * 60_000 + 1000);
    expect(new Date(signedIn.refreshTokenExpiresAt).getTime() - before).toBeGreaterThan(29 * 86_400_000);
    state.accessToken = signedIn.accessToken;
    expect((await client.auth.me.query({})).member.id).toBe(member.memberId);
    const rest = await t.http.get('/v1/organization').set('Authorization', `Bearer ${signedIn.accessToken}`).expect(200);
    expect(rest.body.id).toBe(member.organizationId);
    // Members are rate limited per member, at the plan's limit.
    expect(rest.headers['x-ratelimit-limit']).toBe('10000');
    const [stored] = await t.em().execute<{ count: string }[]>(`select count(*) as count from refresh_tokens where token_hash = ?`, [signedIn.refreshToken]);
    expect(Number(stored!.count)).toBe(0);
  });

  it('an unknown email and a wrong password get the same answer', async () => {
    const member = await activeMember();
    const wrongPassword = await trpcFailure(frontend().client.auth.signIn.mutate({ email: member.email, password: 'not the password' }));
    const unknownEmail = await trpcFailure(
      frontend().client.auth.signIn.mutate({ email: `nobody-${randomBytes(4).toString('hex')}@example.com`, password: PASSWORD }),
    );
    expect(wrongPassword).toEqual({ ...unknownEmail });
    expect(wrongPassword).toMatchObject({ appCode: 'INVALID_CREDENTIALS', httpStatus: 401, message: 'The email or password is wrong.' });
  });

  it('an invited member who has not accepted cannot sign in', async () => {
    const { organizationId } = await t.createTenant();
    const email = `inv-${randomBytes(4).toString('hex')}@example.com`;
    await inviteMember({ em: t.em(), services: t.runtime.services }, { organizationId, permissions: PERMISSIONS }, { email, role: 'admin' });
    expect(await trpcFailure(frontend().client.auth.signIn.mutate({ email, password: PASSWORD }))).toMatchObject({ appCode: 'INVALID_CREDENTIALS' });
  });

  it('an email in two organizations names one after the password is proven', async () => {
    const first = await activeMember('owner');
    const second = await t.createTenant();
    const invited = await inviteMember(
      { em: t.em(), services: t.runtime.services },
      { organizationId: second.organizationId, permissions: PERMISSIONS },
      { email: first.email, role: 'viewer' },
    );
    await acceptInvitation(
      { em: t.em(), services: t.runtime.services },
      { token: new URL(invited.invitationUrl).searchParams.get('token')!, password: PASSWORD, client: { ip: undefined, userAgent: undefined } },
    );
    const ambiguous = await trpcFailure(frontend().client.auth.signIn.mutate({ email: first.email, password: PASSWORD }));
    expect(ambiguous).toMatchObject({ appCode: 'INVALID_REQUEST', details: { fields: [{ path: 'organizationId' }] } });
    expect((ambiguous.details.organizations as { id: string }[]).map((organization) => organization.id).sort()).toEqual(
      [first.organizationId, second.organizationId].sort(),
    );
    const chosen = await frontend().client.auth.signIn.mutate({ email: first.email, password: PASSWORD, organizationId: second.organizationId });
    expect(chosen.member.role).toBe('viewer');
  });

  it('a body nested 5,000 deep is 400 BAD_REQUEST (INVALID_REQUEST in data), not a 500, signs nobody in and logs no server error; a normal sign-in still works', async () => {
    const member = await activeMember();
    const ip = uniqueIp();
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const response = await t.http
      .post('/trpc/auth.signIn')
      .set('X-Forwarded-For', ip)
      .set('X-Request-Id', 'deep-sign-in')
      .set('Content-Type', 'application/json')
      .send(`{"email":${JSON.stringify(member.email)},"password":${JSON.stringify(PASSWORD)},"organizationId":${deep}}`);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      code: -32600,
      data: { code: 'BAD_REQUEST', httpStatus: 400, appCode: 'INVALID_REQUEST', details: { fields: [{ message: 'must not nest deeper than 32 levels' }] } },
    });
    expect(response.body.error.data.stack).toBeUndefined();
    expect(JSON.stringify(response.body)).not.toContain('accessToken');
    expect(errorLines.filter((line) => line.includes('deep-sign-in'))).toEqual([]);

    const signedIn = await t.http.post('/trpc/auth.signIn').set('X-Forwarded-For', ip).send({ email: member.email, password: PASSWORD }).expect(200);
    expect(signedIn.body.result.data.accessToken).toEqual(expect.any(String));
  });
});

describe('access tokens', () => {
  it('an expired, forged or tampered token is 401 INVALID_ACCESS_TOKEN', async () => {
    const member = await activeMember();
    const signedIn = await frontend().client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    const sessionId = JSON.parse(Buffer.from(signedIn.accessToken.split('.')[1]!, 'base64url').toString()).sid as string;
    const tokens = t.runtime.services.memberTokens;
    const expired = await tokens.issueAccessToken(
      { memberId: member.memberId, organizationId: member.organizationId, sessionId },
      new Date(Date.now() - 16 * 60_000),
    );
    const otherKey = await new MemberTokens('x'.repeat(40), 'http://127.0.0.1:3000').issueAccessToken({
      memberId: member.memberId,
      organizationId: member.organizationId,
      sessionId,
    });
    const [header, payload, signature] = signedIn.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const elevated = `${header}.${Buffer.from(JSON.stringify({ ...claims, org: 'org_other' })).toString('base64url')}.${signature}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const signedLink = await new SignJWT({ pur: 'session_file' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(member.memberId)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('y'.repeat(40)));
    for (const token of [expired.token, otherKey.token, elevated, unsigned, signedLink]) {
      const response = await t.http.get('/v1/organization').set('Authorization', `Bearer ${token}`);
      expect(response.status, token).toBe(401);
      expect(response.body.error.code).toBe('INVALID_ACCESS_TOKEN');
    }
    await t.http.get('/v1/organization').set('Authorization', `Bearer ${signedIn.accessToken}`).expect(200);
  });
});

describe('refresh', () => {
  it('rotates: each refresh token works once and answers a new pair', async () => {
    const member = await activeMember();
    const { client } = frontend();
    const first = await client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    const second = await client.auth.refresh.mutate({ refreshToken: first.refreshToken });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    await t.http.get('/v1/organization').set('Authorization', `Bearer ${second.accessToken}`).expect(200);
    const third = await client.auth.refresh.mutate({ refreshToken: second.refreshToken });
    await t.http.get('/v1/organization').set('Authorization', `Bearer ${third.accessToken}`).expect(200);
  });

  it('the same refresh token twice within seconds from one client (two tabs, a retry) answers two working pairs; the sign-in goes on', async () => {
    const member = await activeMember();
    const { client } = frontend();
    const first = await client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    const inTab = await client.auth.refresh.mutate({ refreshToken: first.refreshToken });
    const inCopy = await client.auth.refresh.mutate({ refreshToken: first.refreshToken });
    expect(inCopy.refreshToken).not.toBe(inTab.refreshToken);
    for (const pair of [inTab, inCopy]) await t.http.get('/v1/organization').set('Authorization', `Bearer ${pair.accessToken}`).expect(200);
    // Either pair may carry the sign-in on (the dashboard's tabs then share the newest pair).
    const next = await client.auth.refresh.mutate({ refreshToken: inCopy.refreshToken });
    await t.http.get('/v1/organization').set('Authorization', `Bearer ${next.accessToken}`).expect(200);
  });

  it('two pairs from one token cannot both go on: once one has moved on, spending the other ends the sign-in (a stolen copy cannot keep a second chain)', async () => {
    const member = await activeMember();
    const { client } = frontend();
    const first = await client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    const victim = await client.auth.refresh.mutate({ refreshToken: first.refreshToken });
    // Within the grace window, with the victim's user agent: the copy gets a pair of its own.
    const thief = await client.auth.refresh.mutate({ refreshToken: first.refreshToken });
    const victimNext = await client.auth.refresh.mutate({ refreshToken: victim.refreshToken });
    expect(await trpcFailure(client.auth.refresh.mutate({ refreshToken: thief.refreshToken }))).toMatchObject({
      appCode: 'INVALID_REFRESH_TOKEN',
      httpStatus: 401,
      details: { reason: 'reused' },
    });
    // The whole sign-in ended: the victim signs in again, and the thief's chain is dead too.
    expect(await trpcFailure(client.auth.refresh.mutate({ refreshToken: victimNext.refreshToken }))).toMatchObject({ appCode: 'INVALID_REFRESH_TOKEN' });
    expect((await t.http.get('/v1/organization').set('Authorization', `Bearer ${thief.accessToken}`).expect(401)).body.error.code).toBe('INVALID_ACCESS_TOKEN');
  });

  it('reusing a spent refresh token after the grace window ends the whole sign-in: its newer tokens stop too', async () => {
    const member = await activeMember();
    const { client } = frontend();
    const first = await client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    const second = await client.auth.refresh.mutate({ refreshToken: first.refreshToken });
    await t.http.get('/v1/organization').set('Authorization', `Bearer ${second.accessToken}`).expect(200);
    // Later, a copy of the first token is played back (stolen, say).
    await t
      .em()
      .execute(
        `update refresh_tokens set used_at = now() - interval '1 minute' where used_at is not null and session_id = (select session_id from refresh_tokens where token_hash = ?)`,
        [hashSecretToken(first.refreshToken)],
      );
    expect(await trpcFailure(client.auth.refresh.mutate({ refreshToken: first.refreshToken }))).toMatchObject({
      appCode: 'INVALID_REFRESH_TOKEN',
      httpStatus: 401,
      details: { reason: 'reused' },
    });
    expect(await trpcFailure(client.auth.refresh.mutate({ refreshToken: second.refreshToken }))).toMatchObject({ appCode: 'INVALID_REFRESH_TOKEN' });
    expect((await t.http.get('/v1/organization').set('Authorization', `Bearer ${second.accessToken}`).expect(401)).body.error.code).toBe(
      'INVALID_ACCESS_TOKEN',
    );
    const sessionId = JSON.parse(Buffer.from(first.accessToken.split('.')[1]!, 'base64url').toString()).sid as string;
    const [session] = await t.em().execute<{ revoked_reason: string }[]>(`select revoked_reason from member_sessions where id = ?`, [sessionId]);
    expect(session!.revoked_reason).toBe('refresh_token_reused');
    // Another sign-in of the same member is not touched.
    const fresh = await client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    await client.auth.refresh.mutate({ refreshToken: fresh.refreshToken });
  });

  it('a spent token presented again after its successor was itself used ends the sign-in, even within seconds', async () => {
    const member = await activeMember();
    const { client } = frontend();
    const first = await client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    const second = await client.auth.refresh.mutate({ refreshToken: first.refreshToken });
    const third = await client.auth.refresh.mutate({ refreshToken: second.refreshToken });
    expect(await trpcFailure(client.auth.refresh.mutate({ refreshToken: first.refreshToken }))).toMatchObject({
      appCode: 'INVALID_REFRESH_TOKEN',
      details: { reason: 'reused' },
    });
    expect(await trpcFailure(client.auth.refresh.mutate({ refreshToken: third.refreshToken }))).toMatchObject({ appCode: 'INVALID_REFRESH_TOKEN' });
    expect((await t.http.get('/v1/organization').set('Authorization', `Bearer ${third.accessToken}`).expect(401)).body.error.code).toBe('INVALID_ACCESS_TOKEN');
  });

  it('a spent token presented again within seconds by another client (user agent) ends the sign-in', async () => {
    const member = await activeMember();
    const { client } = frontend();
    const first = await client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    const second = await client.auth.refresh.mutate({ refreshToken: first.refreshToken });
    const replay = await t.http.post('/trpc/auth.refresh').set('User-Agent', 'curl/8.5.0').send({ refreshToken: first.refreshToken }).expect(401);
    expect(replay.body.error.data).toMatchObject({ appCode: 'INVALID_REFRESH_TOKEN', details: { reason: 'reused' } });
    expect(await trpcFailure(client.auth.refresh.mutate({ refreshToken: second.refreshToken }))).toMatchObject({ appCode: 'INVALID_REFRESH_TOKEN' });
  });

  it('of two concurrent refreshes with one token from one client, both get a working pair, and the sign-in goes on', async () => {
    const member = await activeMember();
    const { client } = frontend();
    const signedIn = await client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    const outcomes = await Promise.allSettled([
      client.auth.refresh.mutate({ refreshToken: signedIn.refreshToken }),
      client.auth.refresh.mutate({ refreshToken: signedIn.refreshToken }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled']);
    const pairs = outcomes.map((outcome) => (outcome as PromiseFulfilledResult<{ accessToken: string; refreshToken: string }>).value);
    for (const pair of pairs) await t.http.get('/v1/organization').set('Authorization', `Bearer ${pair.accessToken}`).expect(200);
    await client.auth.refresh.mutate({ refreshToken: pairs[0]!.refreshToken });
  });

  it('an expired or unknown refresh token is 401 INVALID_REFRESH_TOKEN', async () => {
    const member = await activeMember();
    const { client } = frontend();
    const signedIn = await client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    await t
      .em()
      .execute(`update refresh_tokens set expires_at = now() - interval '1 second' where session_id in (select id from member_sessions where member_id = ?)`, [
        member.memberId,
      ]);
    expect(await trpcFailure(client.auth.refresh.mutate({ refreshToken: signedIn.refreshToken }))).toMatchObject({
      appCode: 'INVALID_REFRESH_TOKEN',
      details: { reason: 'expired' },
    });
    expect(await trpcFailure(client.auth.refresh.mutate({ refreshToken: `rft_${randomBytes(32).toString('base64url')}` }))).toMatchObject({
      appCode: 'INVALID_REFRESH_TOKEN',
      details: { reason: 'unknown' },
    });
  });
});

describe('sign-out', () => {
  it('ends this sign-in at once (access and refresh tokens), or every sign-in of the member', async () => {
    const member = await activeMember();
    const laptop = frontend();
    const phone = frontend();
    const onLaptop = await laptop.client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    const onPhone = await phone.client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    laptop.state.accessToken = onLaptop.accessToken;
    phone.state.accessToken = onPhone.accessToken;
    expect(await laptop.client.auth.signOut.mutate({})).toEqual({ signedOutSessions: 1 });
    expect(await trpcFailure(laptop.client.auth.me.query({}))).toMatchObject({ appCode: 'INVALID_ACCESS_TOKEN', httpStatus: 401 });
    expect(await trpcFailure(laptop.client.auth.refresh.mutate({ refreshToken: onLaptop.refreshToken }))).toMatchObject({ appCode: 'INVALID_REFRESH_TOKEN' });
    await phone.client.auth.me.query({});
    const again = await laptop.client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    laptop.state.accessToken = again.accessToken;
    // The phone's, this one, and the one accepting the invitation opened.
    expect(await laptop.client.auth.signOut.mutate({ everywhere: true })).toEqual({ signedOutSessions: 3 });
    expect(await trpcFailure(phone.client.auth.me.query({}))).toMatchObject({ appCode: 'INVALID_ACCESS_TOKEN' });
  });

  it('signOut and me need a member: an API key gets 403', async () => {
    const tenant = await t.createTenant();
    const keyClient = trpcClient(server.url, { token: () => tenant.apiKey });
    expect(await trpcFailure(keyClient.auth.me.query({}))).toMatchObject({ appCode: 'INSUFFICIENT_PERMISSIONS', httpStatus: 403 });
    expect(await trpcFailure(trpcClient(server.url).auth.me.query({}))).toMatchObject({ appCode: 'INVALID_API_KEY', httpStatus: 401 });
  });
});

describe('brute-force protection', () => {
  it('5 failures lock the email for 15 minutes, even for the right password and from another address', async () => {
    const member = await activeMember();
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await trpcFailure(frontend().client.auth.signIn.mutate({ email: member.email, password: `wrong ${attempt}` }))).toMatchObject({
        appCode: 'INVALID_CREDENTIALS',
      });
    }
    const locked = await trpcFailure(frontend().client.auth.signIn.mutate({ email: member.email, password: PASSWORD }));
    expect(locked).toMatchObject({ appCode: 'TOO_MANY_SIGN_IN_ATTEMPTS', httpStatus: 429 });
    expect(locked.details.retryAfter).toBeGreaterThan(14 * 60);
    expect(locked.details.retryAfter).toBeLessThanOrEqual(15 * 60);
    // The lock ends after its time.
    await t
      .em()
      .execute(`update sign_in_throttles set locked_until = now() - interval '1 second', window_started_at = now() - interval '16 minutes' where subject = ?`, [
        `email:${member.email}`,
      ]);
    await frontend().client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
  });

  it('a batch of ten concurrent guesses checks at most five passwords', async () => {
    const member = await activeMember();
    const calls = 10;
    const procedures = Array.from({ length: calls }, () => 'auth.signIn').join(',');
    const input = Object.fromEntries(Array.from({ length: calls }, (_, index) => [String(index), { email: member.email, password: `guess number ${index}` }]));
    const response = await t.http.post(`/trpc/${procedures}?batch=1`).set('X-Forwarded-For', uniqueIp()).send(input);
    const codes = (response.body as { error: { data: { appCode: string } } }[]).map((answer) => answer.error.data.appCode);
    expect(codes.filter((code) => code === 'INVALID_CREDENTIALS')).toHaveLength(5);
    expect(codes.filter((code) => code === 'TOO_MANY_SIGN_IN_ATTEMPTS')).toHaveLength(5);
  });

  it('an unknown email locks the same way, so the lock tells nothing about who has an account', async () => {
    const email = `ghost-${randomBytes(4).toString('hex')}@example.com`;
    for (let attempt = 0; attempt < 5; attempt++) await trpcFailure(frontend().client.auth.signIn.mutate({ email, password: PASSWORD }));
    expect(await trpcFailure(frontend().client.auth.signIn.mutate({ email, password: PASSWORD }))).toMatchObject({ appCode: 'TOO_MANY_SIGN_IN_ATTEMPTS' });
  });

  it('20 failures from one address lock it for every email; other addresses go on', async () => {
    const member = await activeMember();
    const attacker = frontend();
    for (let attempt = 0; attempt < 20; attempt++) {
      await trpcFailure(attacker.client.auth.signIn.mutate({ email: `guess-${attempt}-${randomBytes(3).toString('hex')}@example.com`, password: PASSWORD }));
    }
    const response = await t.http.post('/trpc/auth.signIn').set('X-Forwarded-For', attacker.ip).send({ email: member.email, password: PASSWORD }).expect(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(14 * 60);
    await frontend().client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
  });

  it("a success clears the email's failures", async () => {
    const member = await activeMember();
    for (let attempt = 0; attempt < 4; attempt++) await trpcFailure(frontend().client.auth.signIn.mutate({ email: member.email, password: 'nope nope nope' }));
    await frontend().client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
    for (let attempt = 0; attempt < 4; attempt++) await trpcFailure(frontend().client.auth.signIn.mutate({ email: member.email, password: 'nope nope nope' }));
    await frontend().client.auth.signIn.mutate({ email: member.email, password: PASSWORD });
  });
});

describe('API keys managed by signed-in members (tRPC)', () => {
  it('an owner creates a key (shown once), lists and revokes it; the key works until revoked', async () => {
    const owner = await activeMember('owner');
    const { client, state } = frontend();
    state.accessToken = (await client.auth.signIn.mutate({ email: owner.email, password: PASSWORD })).accessToken;
    const created = await client.apiKeys.create.mutate({ name: 'CI', permissions: ['campaigns:read', 'billing:write'] });
    expect(created.secret).toMatch(/^isk_live_/);
    expect(created.apiKey).toMatchObject({ name: 'CI', permissions: ['campaigns:read', 'billing:write'], revokedAt: null });
    const keyApi = apiAs(t.http, {
      organizationId: owner.organizationId,
      apiKeyId: created.apiKey.id,
      apiKey: created.secret,
      authorization: `Bearer ${created.secret}`,
    });
    await keyApi.get('/v1/campaigns').expect(200);
    const listed = await client.apiKeys.list.query({});
    expect(listed.data.map((key) => key.id)).toContain(created.apiKey.id);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect((await client.apiKeys.revoke.mutate({ apiKeyId: created.apiKey.id })).revokedAt).not.toBeNull();
    await keyApi.get('/v1/campaigns').expect(401);
  });

  it("an admin cannot mint billing:write; members, viewers and API keys cannot manage keys; another organization's key is 404", async () => {
    const owner = await activeMember('owner');
    const admin = await activeMember('admin', owner.organizationId);
    const viewer = await activeMember('viewer', owner.organizationId);
    const adminFrontend = frontend();
    adminFrontend.state.accessToken = (await adminFrontend.client.auth.signIn.mutate({ email: admin.email, password: PASSWORD })).accessToken;
    expect(await trpcFailure(adminFrontend.client.apiKeys.create.mutate({ name: 'Too much', permissions: ['billing:write'] }))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      details: { required: 'billing:write' },
    });
    await adminFrontend.client.apiKeys.create.mutate({ name: 'Fine', permissions: ['billing:read', 'organization:write'] });
    const viewerFrontend = frontend();
    viewerFrontend.state.accessToken = (await viewerFrontend.client.auth.signIn.mutate({ email: viewer.email, password: PASSWORD })).accessToken;
    expect(await trpcFailure(viewerFrontend.client.apiKeys.list.query({}))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      details: { required: 'organization:write' },
    });
    const tenant = await t.createTenant();
    const keyClient = trpcClient(server.url, { token: () => tenant.apiKey });
    expect(await trpcFailure(keyClient.apiKeys.create.mutate({ name: 'Key from key', permissions: ['campaigns:read'] }))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      details: { required: 'member' },
    });
    expect(await trpcFailure(adminFrontend.client.apiKeys.revoke.mutate({ apiKeyId: tenant.apiKeyId }))).toMatchObject({ appCode: 'RESOURCE_NOT_FOUND' });
    expect(
      await trpcFailure(adminFrontend.client.apiKeys.create.mutate({ name: 'Past', permissions: ['campaigns:read'], expiresAt: '2020-01-01T00:00:00Z' })),
    ).toMatchObject({ appCode: 'VALIDATION_ERROR', details: { fields: [{ path: 'expiresAt' }] } });
  });
});
