import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../shared/members.js';
import { startMemberSession } from '../../server/domains/members/member-sessions.js';
import { Member } from '../../server/entities/index.js';
import { newId } from '../../server/lib/ids.js';
import { apiAs } from '../helpers/factories.js';
import { type ListeningTestApp, startListeningTestApp, trpcClient, trpcFailure } from '../helpers/members.js';
import { completedTextInterview } from '../helpers/results.js';

/**
 * Comments (issue 16): threads on a session or on one of its utterances, replies one level deep,
 * edits by the author only, deletes by the author or an owner/admin, tombstones for deleted
 * comments that have replies.
 */

let t: ListeningTestApp;

beforeAll(async () => {
  t = await startListeningTestApp();
});
afterAll(() => t?.close());

/** An active member with `role`, signed in: their tRPC client. */
async function memberOf(organizationId: string, role: MemberRole, name: string) {
  const em = t.em();
  const created = em.create(Member, {
    id: newId('mem'),
    organization: organizationId,
    email: `${role}-${randomBytes(4).toString('hex')}@example.com`,
    name,
    role,
    status: 'active',
    passwordHash: null,
    invitationTokenHash: null,
    invitationExpiresAt: null,
    invitationEmailStatus: null,
    lastSignInAt: null,
  });
  await em.flush();
  const member = await em.findOneOrFail(Member, created.id, { populate: ['organization'] });
  const signedIn = await startMemberSession(em, t.runtime.services.memberTokens, member, { ip: undefined, userAgent: undefined });
  return { id: member.id, client: trpcClient(t.url, { token: () => signedIn.accessToken }) };
}

async function organizationWithInterview() {
  const tenant = await t.createTenant();
  const interview = await completedTextInterview(t, apiAs(t.http, tenant), undefined, { runJobs: false });
  const utterances = await t.em().execute<{ id: string }[]>(`select id from session_utterances where session_id = ? order by seq`, [interview.sessionId]);
  return { tenant, client: t.clientOf(tenant), sessionId: interview.sessionId, utteranceId: utterances[1]!.id, otherUtteranceId: utterances[2]!.id };
}

async function commentRow(id: string) {
  const [row] = await t.em().execute<Record<string, unknown>[]>(`select * from comments where id = ?`, [id]);
  return row;
}

let a: Awaited<ReturnType<typeof organizationWithInterview>>;
let b: Awaited<ReturnType<typeof organizationWithInterview>>;
let ana: Awaited<ReturnType<typeof memberOf>>;
let ben: Awaited<ReturnType<typeof memberOf>>;
let admin: Awaited<ReturnType<typeof memberOf>>;

beforeAll(async () => {
  [a, b] = await Promise.all([organizationWithInterview(), organizationWithInterview()]);
  ana = await memberOf(a.tenant.organizationId, 'member', 'Ana');
  ben = await memberOf(a.tenant.organizationId, 'member', 'Ben');
  admin = await memberOf(a.tenant.organizationId, 'admin', 'Ada Admin');
});

describe('comments.create', () => {
  it('comments on a session and on an utterance, trimmed, with the member as author', async () => {
    const onSession = await ana.client.comments.create.mutate({ sessionId: a.sessionId, body: '  Strong interview overall.  ' });
    expect(onSession).toEqual({
      id: expect.stringMatching(/^cmt_/),
      sessionId: a.sessionId,
      utteranceId: null,
      parentId: null,
      body: 'Strong interview overall.',
      deleted: false,
      author: { kind: 'member', id: ana.id, name: 'Ana' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      editedAt: null,
    });
    const onUtterance = await ana.client.comments.create.mutate({ sessionId: a.sessionId, utteranceId: a.utteranceId, body: 'Quote this one' });
    expect(onUtterance).toMatchObject({ utteranceId: a.utteranceId, parentId: null });
    expect(await commentRow(onUtterance.id)).toMatchObject({
      organization_id: a.tenant.organizationId,
      session_id: a.sessionId,
      utterance_id: a.utteranceId,
      body: 'Quote this one',
      author_kind: 'member',
      author_id: ana.id,
      author_name: 'Ana',
      deleted_at: null,
    });
  });

  it("replies join the parent's thread and utterance, one level deep only", async () => {
    const parent = await ana.client.comments.create.mutate({ sessionId: a.sessionId, utteranceId: a.utteranceId, body: 'Parent' });
    const reply = await ben.client.comments.create.mutate({ sessionId: a.sessionId, parentId: parent.id, body: 'Reply' });
    expect(reply).toMatchObject({ parentId: parent.id, utteranceId: a.utteranceId, author: { kind: 'member', id: ben.id, name: 'Ben' } });
    expect(await commentRow(reply.id)).toMatchObject({ parent_id: parent.id, utterance_id: a.utteranceId });

    const nested = await trpcFailure(ana.client.comments.create.mutate({ sessionId: a.sessionId, parentId: reply.id, body: 'Too deep' }));
    expect(nested).toMatchObject({
      appCode: 'VALIDATION_ERROR',
      httpStatus: 422,
      details: { fields: [{ path: 'parentId', message: expect.stringContaining('one level deep') }] },
    });
    const elsewhere = await trpcFailure(
      ana.client.comments.create.mutate({ sessionId: a.sessionId, utteranceId: a.otherUtteranceId, parentId: parent.id, body: 'Wrong place' }),
    );
    expect(elsewhere).toMatchObject({ httpStatus: 422, details: { fields: [{ path: 'utteranceId' }] } });
  });

  it('answers 422 for an empty or too long body, 400 without a body', async () => {
    expect(await trpcFailure(a.client.comments.create.mutate({ sessionId: a.sessionId, body: '   ' }))).toMatchObject({
      appCode: 'VALIDATION_ERROR',
      httpStatus: 422,
      details: { fields: [{ path: 'body', message: 'must not be empty' }] },
    });
    expect(await trpcFailure(a.client.comments.create.mutate({ sessionId: a.sessionId, body: 'x'.repeat(5001) }))).toMatchObject({
      httpStatus: 422,
      details: { fields: [{ path: 'body', message: 'must be at most 5000 characters' }] },
    });
    expect(await trpcFailure(a.client.comments.create.mutate({ sessionId: a.sessionId } as never))).toMatchObject({
      appCode: 'INVALID_REQUEST',
      httpStatus: 400,
      details: { fields: [{ path: 'body' }] },
    });
  });

  it("answers 404 for another organization's session, utterance or parent", async () => {
    expect(await trpcFailure(a.client.comments.create.mutate({ sessionId: b.sessionId, body: 'Hi' }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
      details: { fields: [{ path: 'sessionId' }] },
    });
    expect(await trpcFailure(a.client.comments.create.mutate({ sessionId: a.sessionId, utteranceId: b.utteranceId, body: 'Hi' }))).toMatchObject({
      httpStatus: 404,
      details: { fields: [{ path: 'utteranceId' }] },
    });
    const theirs = await b.client.comments.create.mutate({ sessionId: b.sessionId, body: 'Theirs' });
    expect(await trpcFailure(a.client.comments.create.mutate({ sessionId: a.sessionId, parentId: theirs.id, body: 'Hi' }))).toMatchObject({
      httpStatus: 404,
      details: { fields: [{ path: 'parentId' }] },
    });
    expect(await t.em().execute(`select 1 from comments where session_id = ? and organization_id = ?`, [b.sessionId, a.tenant.organizationId])).toHaveLength(0);
  });

  it('answers 403 to a key without sessions:write', async () => {
    const reader = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read']));
    expect(await trpcFailure(reader.comments.create.mutate({ sessionId: a.sessionId, body: 'Hi' }))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      httpStatus: 403,
      details: { required: 'sessions:write' },
    });
  });
});

describe('comments.list', () => {
  it('answers the threads oldest first with their replies, all of the session or those of one utterance', async () => {
    const org = await organizationWithInterview();
    const general = await org.client.comments.create.mutate({ sessionId: org.sessionId, body: 'General' });
    const onUtterance = await org.client.comments.create.mutate({ sessionId: org.sessionId, utteranceId: org.utteranceId, body: 'On the answer' });
    const reply = await org.client.comments.create.mutate({ sessionId: org.sessionId, parentId: onUtterance.id, body: 'Agreed' });
    const all = await org.client.comments.list.query({ sessionId: org.sessionId });
    expect(all.data.map((thread) => [thread.id, thread.replies.map((each) => each.id)])).toEqual([
      [general.id, []],
      [onUtterance.id, [reply.id]],
    ]);
    const one = await org.client.comments.list.query({ sessionId: org.sessionId, utteranceId: org.utteranceId });
    expect(one.data).toEqual([{ ...onUtterance, replies: [reply] }]);
    expect((await org.client.comments.list.query({ sessionId: org.sessionId, utteranceId: org.otherUtteranceId })).data).toEqual([]);
  });

  it("answers 404 for another organization's session or an utterance of another session, 403 without sessions:read", async () => {
    expect(await trpcFailure(a.client.comments.list.query({ sessionId: b.sessionId }))).toMatchObject({ appCode: 'RESOURCE_NOT_FOUND', httpStatus: 404 });
    expect(await trpcFailure(a.client.comments.list.query({ sessionId: a.sessionId, utteranceId: b.utteranceId }))).toMatchObject({
      httpStatus: 404,
      details: { fields: [{ path: 'utteranceId' }] },
    });
    const noRead = t.clientOf(await t.createKey(a.tenant.organizationId, ['campaigns:read']));
    expect(await trpcFailure(noRead.comments.list.query({ sessionId: a.sessionId }))).toMatchObject({
      httpStatus: 403,
      details: { required: 'sessions:read' },
    });
    expect(await trpcFailure(a.client.comments.list.query({} as never))).toMatchObject({ httpStatus: 400, details: { fields: [{ path: 'sessionId' }] } });
  });
});

describe('comments.update', () => {
  it('lets the author edit, recording editedAt', async () => {
    const comment = await ana.client.comments.create.mutate({ sessionId: a.sessionId, body: 'Frist' });
    const edited = await ana.client.comments.update.mutate({ commentId: comment.id, body: ' First ' });
    expect(edited).toMatchObject({ id: comment.id, body: 'First', editedAt: expect.any(String) });
    const row = await commentRow(comment.id);
    expect(row).toMatchObject({ body: 'First' });
    expect(row!.edited_at).not.toBeNull();
  });

  it('answers 403 to anyone else, an admin included, with a clear message', async () => {
    const comment = await ana.client.comments.create.mutate({ sessionId: a.sessionId, body: 'Mine' });
    for (const other of [ben.client, admin.client, a.client]) {
      const failure = await trpcFailure(other.comments.update.mutate({ commentId: comment.id, body: 'Changed' }));
      expect(failure).toMatchObject({
        appCode: 'INSUFFICIENT_PERMISSIONS',
        httpStatus: 403,
        message: `Only the author of comment ${comment.id} (Ana) can edit it.`,
      });
    }
    expect(await commentRow(comment.id)).toMatchObject({ body: 'Mine', edited_at: null });
  });

  it('answers 404 for another organization, 422 for an empty body, 403 without sessions:write', async () => {
    const comment = await a.client.comments.create.mutate({ sessionId: a.sessionId, body: 'Key comment' });
    expect(await trpcFailure(b.client.comments.update.mutate({ commentId: comment.id, body: 'x' }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
    });
    expect(await trpcFailure(a.client.comments.update.mutate({ commentId: comment.id, body: '' }))).toMatchObject({
      httpStatus: 422,
      details: { fields: [{ path: 'body' }] },
    });
    const reader = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read']));
    expect(await trpcFailure(reader.comments.update.mutate({ commentId: comment.id, body: 'x' }))).toMatchObject({ httpStatus: 403 });
  });
});

describe('comments.delete', () => {
  it('removes a comment without replies; its author may', async () => {
    const comment = await ana.client.comments.create.mutate({ sessionId: a.sessionId, body: 'Gone soon' });
    await ana.client.comments.delete.mutate({ commentId: comment.id });
    expect(await commentRow(comment.id)).toBeUndefined();
  });

  it('leaves a tombstone for a comment with replies, removed with its last reply', async () => {
    const org = await organizationWithInterview();
    const parent = await org.client.comments.create.mutate({ sessionId: org.sessionId, body: 'Parent' });
    const reply = await org.client.comments.create.mutate({ sessionId: org.sessionId, parentId: parent.id, body: 'Reply' });
    await org.client.comments.delete.mutate({ commentId: parent.id });
    const [thread] = (await org.client.comments.list.query({ sessionId: org.sessionId })).data;
    expect(thread).toMatchObject({ id: parent.id, deleted: true, body: null, replies: [{ id: reply.id, body: 'Reply' }] });
    expect(await commentRow(parent.id)).toMatchObject({ body: null, deleted_at: expect.anything() });
    // A tombstone takes no edits and no new replies.
    expect(await trpcFailure(org.client.comments.update.mutate({ commentId: parent.id, body: 'Back' }))).toMatchObject({ httpStatus: 404 });
    expect(await trpcFailure(org.client.comments.create.mutate({ sessionId: org.sessionId, parentId: parent.id, body: 'Late' }))).toMatchObject({
      httpStatus: 422,
      details: { fields: [{ path: 'parentId', message: 'was deleted' }] },
    });

    await org.client.comments.delete.mutate({ commentId: reply.id });
    expect(await commentRow(reply.id)).toBeUndefined();
    expect(await commentRow(parent.id)).toBeUndefined();
    expect((await org.client.comments.list.query({ sessionId: org.sessionId })).data).toEqual([]);
  });

  it("lets an admin (or a key with organization:write) delete another's comment, but not a plain member", async () => {
    const first = await ana.client.comments.create.mutate({ sessionId: a.sessionId, body: 'One' });
    const second = await ana.client.comments.create.mutate({ sessionId: a.sessionId, body: 'Two' });
    const refused = await trpcFailure(ben.client.comments.delete.mutate({ commentId: first.id }));
    expect(refused).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      httpStatus: 403,
      message: `Only the author of comment ${first.id}, an owner or an admin can delete it.`,
    });
    expect(await commentRow(first.id)).toBeDefined();
    await admin.client.comments.delete.mutate({ commentId: first.id });
    expect(await commentRow(first.id)).toBeUndefined();
    await a.client.comments.delete.mutate({ commentId: second.id });
    expect(await commentRow(second.id)).toBeUndefined();
  });

  it('answers 404 for another organization, 403 without sessions:write', async () => {
    const comment = await a.client.comments.create.mutate({ sessionId: a.sessionId, body: 'Stays' });
    expect(await trpcFailure(b.client.comments.delete.mutate({ commentId: comment.id }))).toMatchObject({ appCode: 'RESOURCE_NOT_FOUND', httpStatus: 404 });
    const reader = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read', 'organization:write']));
    expect(await trpcFailure(reader.comments.delete.mutate({ commentId: comment.id }))).toMatchObject({
      httpStatus: 403,
      details: { required: 'sessions:write' },
    });
    expect(await commentRow(comment.id)).toBeDefined();
  });
});
