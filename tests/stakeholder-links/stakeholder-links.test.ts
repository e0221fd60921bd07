import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import express from 'express';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardRoutes } from '../../server/http/dashboard-routes.js';
import { createApp } from '../../server/http/app.js';
import { createLogger } from '../../server/logger.js';
import { listen } from '../helpers/members.js';
import { startTestApp } from '../helpers/test-app.js';
import { apiAs } from '../helpers/factories.js';
import { type ListeningTestApp, startListeningTestApp, trpcClient, trpcFailure } from '../helpers/members.js';
import { PARTICIPANT_BUDGET } from '../helpers/interviews.js';
import { completedTextInterview, RESULTS_QUESTIONS, TEXT_ANSWERS } from '../helpers/results.js';

/**
 * Stakeholder links (issue 31): a read-only share of a campaign's results, a collection or a
 * session at an unguessable URL that works without an account, expires, is revoked at once, and
 * records each read. Campaign results come from the results domain (another branch): here the
 * campaign kind is checked up to what this code controls (access, audit, 404 and 410).
 */

let t: ListeningTestApp;

/** The first answer names the participant and gives an email address: what a redacting link must hide. */
/** The open question ANSWERS[0] answers. */
const ANSWER_QUESTION = RESULTS_QUESTIONS[0]!.id;
const ANSWERS = ['My name is Ada Lovelace, and the onboarding emails had broken links. Write to ada.lovelace@example.com about it.', ...TEXT_ANSWERS.slice(1)];

async function organization() {
  const tenant = await t.createTenant();
  const interview = await completedTextInterview(t, apiAs(t.http, tenant), ANSWERS);
  return { tenant, client: t.clientOf(tenant), sessionId: interview.sessionId, campaignId: interview.campaign.id };
}

let a: Awaited<ReturnType<typeof organization>>;
let b: Awaited<ReturnType<typeof organization>>;
/** No credentials at all: what a stakeholder's browser sends. */
let anonymous: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  t = await startListeningTestApp(PARTICIPANT_BUDGET);
  [a, b] = await Promise.all([organization(), organization()]);
  anonymous = trpcClient(t.url);
}, 120_000);
afterAll(() => t?.close());

const tokenOf = (url: string) => new URL(url).pathname.replace('/shared/', '');

async function linkRow(id: string) {
  const [row] = await t.em().execute<Record<string, unknown>[]>(`select * from stakeholder_links where id = ?`, [id]);
  return row!;
}

function sessionLink(tenant: typeof a, options: { includeTranscripts?: boolean; redactPii?: boolean; expiresInDays?: number } = {}) {
  return tenant.client.stakeholderLinks.create.mutate({
    target: { kind: 'session', id: tenant.sessionId },
    includeTranscripts: options.includeTranscripts ?? true,
    redactPii: options.redactPii ?? false,
    ...(options.expiresInDays ? { expiresInDays: options.expiresInDays } : {}),
  });
}

describe('stakeholderLinks.create', () => {
  it('creates a link that expires in 30 days, answering its URL once and storing only the hash of its token', async () => {
    const before = Date.now();
    const link = await sessionLink(a);
    expect(link).toEqual({
      id: expect.stringMatching(/^stl_/),
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:3000\/shared\/[0-9A-Za-z]{32}$/),
      target: { kind: 'session', id: a.sessionId, name: expect.any(String) },
      includeTranscripts: true,
      redactPii: false,
      status: 'active',
      createdBy: { kind: 'api_key', id: a.tenant.apiKeyId, name: 'test key' },
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      revokedAt: null,
      openCount: 0,
      lastOpenedAt: null,
    });
    const days = (Date.parse(link.expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);
    const token = tokenOf(link.url);
    const row = await linkRow(link.id);
    expect(row).toMatchObject({
      organization_id: a.tenant.organizationId,
      kind: 'session',
      target_id: a.sessionId,
      token_hash: createHash('sha256').update(token).digest('hex'),
    });
    // The token itself is in no column.
    expect(JSON.stringify(row)).not.toContain(token);
    // Not in the list either.
    const listed = await a.client.stakeholderLinks.list.query({ kind: 'session', targetId: a.sessionId });
    expect(JSON.stringify(listed)).not.toContain(token);
    expect(listed.data.find((item) => item.id === link.id)).toEqual(Object.fromEntries(Object.entries(link).filter(([key]) => key !== 'url')));
  });

  it('takes an expiry up to 365 days; 0 or 366 days is 422 on expiresInDays, a missing target 400 on target', async () => {
    const link = await sessionLink(a, { expiresInDays: 365 });
    expect((Date.parse(link.expiresAt) - Date.parse(link.createdAt)) / 86_400_000).toBeCloseTo(365, 3);
    for (const expiresInDays of [0, 366, 1.5]) {
      const create = a.client.stakeholderLinks.create.mutate({
        target: { kind: 'session', id: a.sessionId },
        includeTranscripts: true,
        redactPii: false,
        expiresInDays,
      });
      expect(await trpcFailure(create)).toMatchObject({ appCode: 'VALIDATION_ERROR', httpStatus: 422, details: { fields: [{ path: 'expiresInDays' }] } });
    }
    expect(await trpcFailure(a.client.stakeholderLinks.create.mutate({ includeTranscripts: true, redactPii: true } as never))).toMatchObject({
      appCode: 'INVALID_REQUEST',
      httpStatus: 400,
      details: { fields: [{ path: 'target' }] },
    });
    expect(
      await trpcFailure(a.client.stakeholderLinks.create.mutate({ target: { kind: 'project', id: 'x' }, includeTranscripts: true, redactPii: true } as never)),
    ).toMatchObject({ httpStatus: 422, details: { fields: [{ path: 'target.kind' }] } });
  });

  it("answers 404 on target.id for another organization's session, campaign or collection, and for a preview session", async () => {
    const collection = await b.client.collections.create.mutate({ name: 'Theirs' });
    for (const target of [
      { kind: 'session', id: b.sessionId },
      { kind: 'campaign', id: b.campaignId },
      { kind: 'collection', id: collection.id },
    ] as const) {
      expect(await trpcFailure(a.client.stakeholderLinks.create.mutate({ target, includeTranscripts: false, redactPii: true }))).toMatchObject({
        appCode: 'RESOURCE_NOT_FOUND',
        httpStatus: 404,
        details: { fields: [{ path: 'target.id' }] },
      });
    }
    const preview = await completedTextInterview(t, apiAs(t.http, a.tenant), ANSWERS, { runJobs: false });
    await t.em().execute(`update sessions set preview = true where id = ?`, [preview.sessionId]);
    expect(
      await trpcFailure(
        a.client.stakeholderLinks.create.mutate({ target: { kind: 'session', id: preview.sessionId }, includeTranscripts: true, redactPii: false }),
      ),
    ).toMatchObject({ httpStatus: 404 });
  });

  it('answers 403 without sessions:write (a read-only member publishes nothing), and for a campaign without campaigns:read', async () => {
    const readOnly = t.clientOf(await t.createKey(a.tenant.organizationId, ['campaigns:read', 'sessions:read']));
    expect(
      await trpcFailure(readOnly.stakeholderLinks.create.mutate({ target: { kind: 'session', id: a.sessionId }, includeTranscripts: false, redactPii: true })),
    ).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      httpStatus: 403,
      details: { required: 'sessions:write' },
    });
    const sessionsOnly = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read', 'sessions:write']));
    expect(
      await trpcFailure(
        sessionsOnly.stakeholderLinks.create.mutate({ target: { kind: 'campaign', id: a.campaignId }, includeTranscripts: false, redactPii: true }),
      ),
    ).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      httpStatus: 403,
      details: { required: 'campaigns:read' },
    });
    // A session it may share.
    const shared = await sessionsOnly.stakeholderLinks.create.mutate({
      target: { kind: 'session', id: a.sessionId },
      includeTranscripts: false,
      redactPii: true,
    });
    expect(await trpcFailure(readOnly.stakeholderLinks.revoke.mutate({ linkId: shared.id }))).toMatchObject({
      httpStatus: 403,
      details: { required: 'sessions:write' },
    });
  });

  it('creates a campaign link for a caller with campaigns:read and sessions:read', async () => {
    const link = await a.client.stakeholderLinks.create.mutate({
      target: { kind: 'campaign', id: a.campaignId },
      includeTranscripts: false,
      redactPii: true,
      expiresInDays: 7,
    });
    expect(link).toMatchObject({
      target: { kind: 'campaign', id: a.campaignId, name: expect.any(String) },
      status: 'active',
      redactPii: true,
      includeTranscripts: false,
    });
  });
});

describe('stakeholderLinks.list, opens and revoke', () => {
  it("lists the organization's links newest first, by target; never another organization's", async () => {
    const first = await sessionLink(a);
    const second = await sessionLink(a, { redactPii: true });
    const theirs = await sessionLink(b);
    const page = await a.client.stakeholderLinks.list.query({ kind: 'session', targetId: a.sessionId, limit: 100 });
    const ids = page.data.map((link) => link.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(ids).not.toContain(theirs.id);
    expect(page.data.every((link) => link.target.id === a.sessionId)).toBe(true);
    const all = await a.client.stakeholderLinks.list.query({ limit: 100 });
    expect(all.data.some((link) => link.target.kind === 'campaign')).toBe(true);
  });

  it('leaves campaign links out for a caller without campaigns:read; 403 without sessions:read', async () => {
    const sessionsOnly = t.clientOf(await t.createKey(a.tenant.organizationId, ['sessions:read']));
    const page = await sessionsOnly.stakeholderLinks.list.query({ limit: 100 });
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((link) => link.target.kind !== 'campaign')).toBe(true);
    const noSessions = t.clientOf(await t.createKey(a.tenant.organizationId, ['campaigns:read']));
    expect(await trpcFailure(noSessions.stakeholderLinks.list.query({}))).toMatchObject({ appCode: 'INSUFFICIENT_PERMISSIONS', httpStatus: 403 });
    expect(await trpcFailure(a.client.stakeholderLinks.list.query({ limit: 0 }))).toMatchObject({ httpStatus: 422, details: { fields: [{ path: 'limit' }] } });
  });

  it('revokes at once: the next read is 410 revoked, the list says revoked; revoking again keeps the first time', async () => {
    const link = await sessionLink(a);
    const token = tokenOf(link.url);
    await anonymous.stakeholderLinks.view.query({ token });
    const revoked = await a.client.stakeholderLinks.revoke.mutate({ linkId: link.id });
    expect(revoked).toMatchObject({ id: link.id, status: 'revoked', revokedAt: expect.any(String), openCount: 1 });
    expect(await trpcFailure(anonymous.stakeholderLinks.view.query({ token }))).toMatchObject({
      appCode: 'STAKEHOLDER_LINK_GONE',
      httpStatus: 410,
      details: { reason: 'revoked' },
    });
    const again = await a.client.stakeholderLinks.revoke.mutate({ linkId: link.id });
    expect(again.revokedAt).toBe(revoked.revokedAt);
    // The refused read is not an open.
    expect((await a.client.stakeholderLinks.opens.query({ linkId: link.id })).openCount).toBe(1);
  });

  it("answers 404 for another organization's link (revoke and opens), 403 without sessions:read, 400 without linkId", async () => {
    const theirs = await sessionLink(b);
    expect(await trpcFailure(a.client.stakeholderLinks.revoke.mutate({ linkId: theirs.id }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
      details: { fields: [{ path: 'linkId' }] },
    });
    expect(await trpcFailure(a.client.stakeholderLinks.opens.query({ linkId: theirs.id }))).toMatchObject({ appCode: 'RESOURCE_NOT_FOUND', httpStatus: 404 });
    expect((await linkRow(theirs.id)).revoked_at).toBeNull();
    const noSessions = t.clientOf(await t.createKey(b.tenant.organizationId, ['campaigns:read', 'campaigns:write']));
    expect(await trpcFailure(noSessions.stakeholderLinks.revoke.mutate({ linkId: theirs.id }))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      httpStatus: 403,
    });
    expect(await trpcFailure(a.client.stakeholderLinks.revoke.mutate({} as never))).toMatchObject({
      appCode: 'INVALID_REQUEST',
      httpStatus: 400,
      details: { fields: [{ path: 'linkId' }] },
    });
  });
});

describe('stakeholderLinks.view (public)', () => {
  it('shows the session without any credentials: answers and transcript, the participant named when PII is not redacted', async () => {
    const link = await sessionLink(a);
    const view = await anonymous.stakeholderLinks.view.query({ token: tokenOf(link.url) });
    expect(view.link).toMatchObject({
      kind: 'session',
      includeTranscripts: true,
      redactPii: false,
      expiresAt: link.expiresAt,
      organizationName: 'Test organization',
    });
    expect(view.campaign).toBeNull();
    expect(view.collection).toBeNull();
    expect(view.session).toMatchObject({ id: a.sessionId, participant: 'Ada', status: 'completed' });
    expect(view.session!.answers.length).toBeGreaterThan(0);
    const transcript = view.session!.transcript!.map((utterance) => utterance.text).join('\n');
    expect(transcript).toContain('ada.lovelace@example.com');
    expect(transcript).toContain('Ada Lovelace');
    // Nothing of the participant's contact or device beyond what the view shape has.
    expect(JSON.stringify(view)).not.toMatch(/participant-[a-z0-9]+@example\.com/);
  });

  it('redacts PII when asked: no email, no name, in the transcript and the answers; no participant named', async () => {
    const link = await sessionLink(a, { redactPii: true });
    const view = await anonymous.stakeholderLinks.view.query({ token: tokenOf(link.url) });
    const text = JSON.stringify(view);
    expect(view.session!.participant).toBeNull();
    expect(text).not.toContain('ada.lovelace@example.com');
    expect(text).not.toMatch(/\bAda\b/);
    expect(text).not.toMatch(/Lovelace/i);
    expect(text).not.toContain('7946');
    const first = view.session!.transcript!.find((utterance) => utterance.speaker === 'participant')!.text;
    expect(first).toContain('[EMAIL REDACTED]');
    expect(first).toContain('[NAME REDACTED]');
  });

  it('leaves the transcript out when not included', async () => {
    const link = await sessionLink(a, { includeTranscripts: false });
    const view = await anonymous.stakeholderLinks.view.query({ token: tokenOf(link.url) });
    expect(view.session!.transcript).toBeNull();
    expect(view.session!.answers.length).toBeGreaterThan(0);
    expect(JSON.stringify(view)).not.toContain('broken links');
  });

  it('records each read: the count, the last time and an audit row with the time only', async () => {
    const link = await sessionLink(a);
    const token = tokenOf(link.url);
    await anonymous.stakeholderLinks.view.query({ token });
    await anonymous.stakeholderLinks.view.query({ token });
    const opens = await a.client.stakeholderLinks.opens.query({ linkId: link.id });
    expect(opens).toEqual({ linkId: link.id, openCount: 2, opens: [{ openedAt: expect.any(String) }, { openedAt: expect.any(String) }] });
    const [listed] = (await a.client.stakeholderLinks.list.query({ kind: 'session', targetId: a.sessionId, limit: 1 })).data;
    expect(listed).toMatchObject({ id: link.id, openCount: 2, lastOpenedAt: opens.opens[0]!.openedAt });
    const rows = await t.em().execute<Record<string, unknown>[]>(`select * from stakeholder_link_opens where link_id = ?`, [link.id]);
    expect(rows).toHaveLength(2);
    // Nothing about the reader: no address, no browser.
    expect(Object.keys(rows[0]!).sort()).toEqual(['id', 'link_id', 'opened_at']);
  });

  it('answers 404 for an unknown or malformed token, 410 expired at once after the expiry', async () => {
    for (const token of ['A'.repeat(32), 'short', `${'a'.repeat(31)}!`]) {
      expect(await trpcFailure(anonymous.stakeholderLinks.view.query({ token }))).toMatchObject({ appCode: 'RESOURCE_NOT_FOUND', httpStatus: 404 });
    }
    const link = await sessionLink(a);
    await t.em().execute(`update stakeholder_links set expires_at = now() - interval '1 second' where id = ?`, [link.id]);
    expect(await trpcFailure(anonymous.stakeholderLinks.view.query({ token: tokenOf(link.url) }))).toMatchObject({
      appCode: 'STAKEHOLDER_LINK_GONE',
      httpStatus: 410,
      details: { reason: 'expired' },
    });
    const [listed] = (await a.client.stakeholderLinks.list.query({ kind: 'session', targetId: a.sessionId, limit: 1 })).data;
    expect(listed).toMatchObject({ id: link.id, status: 'expired', openCount: 0 });
  });

  it('never shows a preview session: a link whose session became a preview answers 410', async () => {
    const other = await completedTextInterview(t, apiAs(t.http, a.tenant), ANSWERS, { runJobs: false });
    const link = await a.client.stakeholderLinks.create.mutate({
      target: { kind: 'session', id: other.sessionId },
      includeTranscripts: true,
      redactPii: false,
    });
    await t.em().execute(`update sessions set preview = true where id = ?`, [other.sessionId]);
    expect(await trpcFailure(anonymous.stakeholderLinks.view.query({ token: tokenOf(link.url) }))).toMatchObject({
      httpStatus: 410,
      details: { reason: 'removed' },
    });
  });

  it("shows a collection's quotes with their question and context, leaving out quotes of preview sessions", async () => {
    const other = await completedTextInterview(t, apiAs(t.http, a.tenant), ['The preview answer about pricing pages.', ...TEXT_ANSWERS.slice(1)], {
      runJobs: false,
    });
    const utterance = async (sessionId: string) =>
      (
        await t
          .em()
          .execute<{ id: string; text: string }[]>(
            `select id, text from session_utterances where session_id = ? and speaker = 'participant' order by seq limit 1`,
            [sessionId],
          )
      )[0]!;
    const mine = await utterance(a.sessionId);
    const previewed = await utterance(other.sessionId);
    const collection = await a.client.collections.create.mutate({ name: 'For the board', description: 'Quotes for the board' });
    const kept = await a.client.highlights.create.mutate({ sessionId: a.sessionId, utteranceId: mine.id, start: 0, end: mine.text.indexOf(',') });
    const hidden = await a.client.highlights.create.mutate({ sessionId: other.sessionId, utteranceId: previewed.id, start: 0, end: 10 });
    await a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: kept.id, note: 'Ada said it first' });
    await a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: hidden.id });
    await t.em().execute(`update sessions set preview = true where id = ?`, [other.sessionId]);

    const plain = await a.client.stakeholderLinks.create.mutate({
      target: { kind: 'collection', id: collection.id },
      includeTranscripts: true,
      redactPii: false,
    });
    const view = await anonymous.stakeholderLinks.view.query({ token: tokenOf(plain.url) });
    expect(view.collection).toEqual({
      name: 'For the board',
      description: 'Quotes for the board',
      items: [
        {
          quote: 'My name is Ada Lovelace',
          label: null,
          note: 'Ada said it first',
          speaker: 'participant',
          campaignName: expect.any(String),
          question: 'How was your first week with the product?',
          startTime: expect.any(Number),
          context: mine.text,
        },
      ],
    });

    const redacted = await a.client.stakeholderLinks.create.mutate({
      target: { kind: 'collection', id: collection.id },
      includeTranscripts: false,
      redactPii: true,
    });
    const safe = await anonymous.stakeholderLinks.view.query({ token: tokenOf(redacted.url) });
    expect(safe.collection!.items).toHaveLength(1);
    expect(safe.collection!.items[0]).toMatchObject({ context: null });
    expect(JSON.stringify(safe)).not.toMatch(/Ada|Lovelace/);
  });

  it('checks a campaign link before its content: unknown 404, revoked and expired 410 (the content is the results domain)', async () => {
    const link = await a.client.stakeholderLinks.create.mutate({ target: { kind: 'campaign', id: a.campaignId }, includeTranscripts: true, redactPii: true });
    const token = tokenOf(link.url);
    await t.em().execute(`update stakeholder_links set expires_at = now() - interval '1 second' where id = ?`, [link.id]);
    expect(await trpcFailure(anonymous.stakeholderLinks.view.query({ token }))).toMatchObject({ httpStatus: 410, details: { reason: 'expired' } });
    await a.client.stakeholderLinks.revoke.mutate({ linkId: link.id });
    expect(await trpcFailure(anonymous.stakeholderLinks.view.query({ token }))).toMatchObject({ httpStatus: 410, details: { reason: 'revoked' } });
    expect(await trpcFailure(anonymous.stakeholderLinks.view.query({ token: token.replace(/.$/, (last) => (last === 'a' ? 'b' : 'a')) }))).toMatchObject({
      httpStatus: 404,
    });
    // The view reads the results with the viewer's filter, and the read is an open.
    const live = await a.client.stakeholderLinks.create.mutate({ target: { kind: 'campaign', id: a.campaignId }, includeTranscripts: true, redactPii: true });
    const view = await anonymous.stakeholderLinks.view.query({ token: tokenOf(live.url), filter: { completion: 'completed' } });
    expect(view.campaign!.results.filter).toEqual({ completion: 'completed' });
    expect(view.campaign!.sessions!.length).toBeGreaterThan(0);
    expect(view.campaign!.sessions!.every((session) => session.status === 'completed' && session.participant === null)).toBe(true);
    expect((await a.client.stakeholderLinks.opens.query({ linkId: live.id })).openCount).toBe(1);
  });

  it("shows open answers' quotes on a campaign link, without transcripts too, redacted on a redacting link", async () => {
    const plain = await a.client.stakeholderLinks.create.mutate({
      target: { kind: 'campaign', id: a.campaignId },
      includeTranscripts: false,
      redactPii: false,
    });
    const view = await anonymous.stakeholderLinks.view.query({ token: tokenOf(plain.url) });
    const experience = view.campaign!.results.questions.find((question) => question.questionId === ANSWER_QUESTION)!;
    expect(experience).toMatchObject({ type: 'open', answered: 1, quotes: [{ sessionId: a.sessionId, text: ANSWERS[0] }] });
    expect(view.campaign!.sessions).toBeNull();

    const redacting = await a.client.stakeholderLinks.create.mutate({
      target: { kind: 'campaign', id: a.campaignId },
      includeTranscripts: false,
      redactPii: true,
    });
    const safe = await anonymous.stakeholderLinks.view.query({ token: tokenOf(redacting.url) });
    const [quote] = safe.campaign!.results.questions.find((question) => question.questionId === ANSWER_QUESTION)!.quotes;
    expect(quote!.text).toContain('[EMAIL REDACTED]');
    expect(quote!.text).toContain('broken links');
    expect(JSON.stringify(safe)).not.toContain('ada.lovelace@example.com');
    expect(JSON.stringify(safe)).not.toMatch(/Lovelace/);
  });
});

describe('stakeholderLinks.view with PII redacted: invite metadata', () => {
  /** Two participants of one campaign in team Platform, each with their own employee id; the first says both. */
  async function platformCampaign() {
    const api = apiAs(t.http, a.tenant);
    const first = await completedTextInterview(t, api, [
      'Ada here: the platform team set up my account, and my employee id E-48213 still shows on every invoice.',
      ...TEXT_ANSWERS.slice(1),
    ]);
    const second = await completedTextInterview(t, api, TEXT_ANSWERS, { campaignId: first.campaign.id });
    for (const [session, employeeId] of [
      [first.sessionId, 'E-48213'],
      [second.sessionId, 'E-51007'],
    ] as const) {
      const metadata = JSON.stringify({ team: 'Platform', employeeId });
      await t.em().execute(`update sessions set metadata = ?::jsonb where id = ?`, [metadata, session]);
      await t.em().execute(`update invites set metadata = ?::jsonb where id = (select invite_id from sessions where id = ?)`, [metadata, session]);
    }
    return { campaignId: first.campaign.id, sessionId: first.sessionId };
  }

  it('keeps a value two participants of the campaign hold ("the platform team"), redacts one only one holds and the name', async () => {
    const { campaignId, sessionId } = await platformCampaign();
    const link = await a.client.stakeholderLinks.create.mutate({ target: { kind: 'campaign', id: campaignId }, includeTranscripts: true, redactPii: true });
    const view = await anonymous.stakeholderLinks.view.query({ token: tokenOf(link.url) });
    const said = view
      .campaign!.sessions!.find((session) => session.id === sessionId)!
      .transcript!.find((utterance) => utterance.speaker === 'participant')!.text;
    expect(said).toBe('[NAME REDACTED] here: the platform team set up my account, and my employee id [REDACTED] still shows on every invoice.');

    const session = await a.client.stakeholderLinks.create.mutate({ target: { kind: 'session', id: sessionId }, includeTranscripts: true, redactPii: true });
    const alone = await anonymous.stakeholderLinks.view.query({ token: tokenOf(session.url) });
    expect(alone.session!.transcript!.find((utterance) => utterance.speaker === 'participant')!.text).toBe(said);
    expect(JSON.stringify(alone)).not.toMatch(/E-48213|\bAda\b/);
  });

  it("keeps it in a collection's quote too, counted within the quote's campaign", async () => {
    // Another campaign of the organization with two participants in team Platform: they do not count for this one.
    await platformCampaign();
    const { sessionId } = await platformCampaign();
    const [utterance] = await t
      .em()
      .execute<{ id: string; text: string }[]>(
        `select id, text from session_utterances where session_id = ? and speaker = 'participant' order by seq limit 1`,
        [sessionId],
      );
    const highlight = await a.client.highlights.create.mutate({ sessionId, utteranceId: utterance!.id, start: 0, end: utterance!.text.length });
    const collection = await a.client.collections.create.mutate({ name: 'Teams' });
    await a.client.collections.addHighlight.mutate({ collectionId: collection.id, highlightId: highlight.id });
    const link = await a.client.stakeholderLinks.create.mutate({
      target: { kind: 'collection', id: collection.id },
      includeTranscripts: false,
      redactPii: true,
    });
    const view = await anonymous.stakeholderLinks.view.query({ token: tokenOf(link.url) });
    expect(view.collection!.items[0]!.quote).toBe(
      '[NAME REDACTED] here: the platform team set up my account, and my employee id [REDACTED] still shows on every invoice.',
    );

    // One participant of the campaign left in team Platform (the other moved): the value names them, so it is redacted.
    await t
      .em()
      .execute(`update sessions set metadata = '{}'::jsonb where campaign_id = (select campaign_id from sessions where id = ?) and id <> ?`, [
        sessionId,
        sessionId,
      ]);
    await t
      .em()
      .execute(
        `update invites set metadata = '{}'::jsonb where id in (select invite_id from sessions where campaign_id = (select campaign_id from sessions where id = ?) and id <> ?)`,
        [sessionId, sessionId],
      );
    const again = await anonymous.stakeholderLinks.view.query({ token: tokenOf(link.url) });
    expect(again.collection!.items[0]!.quote).toBe(
      '[NAME REDACTED] here: the [REDACTED] team set up my account, and my employee id [REDACTED] still shows on every invoice.',
    );
  });
});

describe('the /shared/{token} page', () => {
  let dist: string;
  let page: supertest.Agent;
  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'shared-page-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
    page = supertest.agent(express().use(dashboardRoutes(t.runtime.services, dist)));
  });
  afterAll(() => rm(dist, { recursive: true, force: true }));

  it("is the dashboard's page under its CSP, never cached, referred or indexed, with no cookie; 404 unknown, 410 revoked", async () => {
    const link = await sessionLink(a);
    const app = await page.get('/app/').expect(200);
    const shared = await page.get(new URL(link.url).pathname).expect(200);
    expect(shared.text).toBe(app.text);
    expect(shared.headers['content-security-policy']).toBe(app.headers['content-security-policy']);
    expect(shared.headers).toMatchObject({
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-robots-tag': 'noindex, nofollow',
      'x-frame-options': 'DENY',
    });
    expect(shared.headers['set-cookie']).toBeUndefined();
    await page.get(`/shared/${'B'.repeat(32)}`).expect(404);
    await a.client.stakeholderLinks.revoke.mutate({ linkId: link.id });
    const gone = await page.get(new URL(link.url).pathname).expect(410);
    expect(gone.headers['cache-control']).toBe('no-store');
    // Loading the page is not a read of the content.
    expect((await linkRow(link.id)).open_count).toBe(0);
  });
});

describe('logs', () => {
  it('never carry the token: the page, a read, a refused read and a bad input log the route only', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, callback) => (lines.push(String(chunk)), callback()) });
    const logged = await startTestApp({}, createLogger('debug', sink));
    const server = await listen(logged);
    try {
      const tenant = await logged.createTenant();
      const client = trpcClient(server.url, { token: () => tenant.apiKey });
      const collection = await client.collections.create.mutate({ name: 'Logged' });
      const link = await client.stakeholderLinks.create.mutate({
        target: { kind: 'collection', id: collection.id },
        includeTranscripts: true,
        redactPii: true,
      });
      const token = tokenOf(link.url);
      const stranger = trpcClient(server.url);
      await stranger.stakeholderLinks.view.query({ token });
      await supertest(createApp(logged.runtime.services, { isReady: () => true })).get(`/shared/${token}`);
      await trpcFailure(stranger.stakeholderLinks.view.query({ token, filter: { completion: 'nope' } as never }));
      await client.stakeholderLinks.revoke.mutate({ linkId: link.id });
      await trpcFailure(stranger.stakeholderLinks.view.query({ token }));
      expect(lines.some((line) => line.includes('"route":"/shared/:token"'))).toBe(true);
      expect(lines.length).toBeGreaterThan(5);
      expect(lines.filter((line) => line.includes(token))).toEqual([]);
    } finally {
      await server.close();
      await logged.close();
    }
  });
});
