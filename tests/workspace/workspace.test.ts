import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSessionView } from '../../server/domains/workspace/get-session-view.js';
import { systemCaller } from '../../server/domains/common/caller.js';
import { dashboardRoutes } from '../../server/http/dashboard-routes.js';
import { errorHandler } from '../../server/http/write-error.js';
import { apiAs } from '../helpers/factories.js';
import { type ListeningTestApp, startListeningTestApp, trpcFailure } from '../helpers/members.js';
import { completedTextInterview } from '../helpers/results.js';

/**
 * The dashboard's read models (`workspace.*`, tRPC only): the session view with effective
 * sentiment, counts and a signed recording link, and signed downloads (PDF, transcript text,
 * invoice PDF) opened as signed `/files/{token}` links; and how `/app` itself is served.
 */

let t: ListeningTestApp;

beforeAll(async () => {
  t = await startListeningTestApp();
});
afterAll(() => t?.close());

interface UtteranceRow {
  id: string;
  text: string | null;
  speaker: 'ai' | 'participant';
  sentiment: string | null;
  start_time: number;
}

async function organizationWithInterview() {
  const tenant = await t.createTenant();
  const interview = await completedTextInterview(t, apiAs(t.http, tenant));
  const utterances = await t
    .em()
    .execute<UtteranceRow[]>(`select id, text, speaker, sentiment, start_time from session_utterances where session_id = ? and text is not null order by seq`, [
      interview.sessionId,
    ]);
  const answer = utterances.find((utterance) => utterance.speaker === 'participant' && utterance.text?.includes('broken links'))!;
  return { tenant, client: t.clientOf(tenant), sessionId: interview.sessionId, campaignId: interview.campaign.id, utterances, answer };
}

let a: Awaited<ReturnType<typeof organizationWithInterview>>;
let b: Awaited<ReturnType<typeof organizationWithInterview>>;

beforeAll(async () => {
  [a, b] = await Promise.all([organizationWithInterview(), organizationWithInterview()]);
}, 90_000);

/** Path and query of a signed link (the test app's PUBLIC_URL is not where it listens). */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

describe('workspace.session', () => {
  it('answers the transcript in order with sentiment, question wording and no recording for a text interview', async () => {
    const view = await a.client.workspace.session.query({ sessionId: a.sessionId });
    expect(view.session).toMatchObject({ id: a.sessionId, campaignId: a.campaignId, status: 'completed', transcriptStatus: 'ready' });
    expect(view.utterances.map((utterance) => utterance.id)).toEqual(a.utterances.map((row) => row.id));
    expect(view.utterances.map((utterance) => utterance.text)).toEqual(a.utterances.map((row) => row.text));
    expect(view.utterances.map((utterance) => utterance.sentiment)).toEqual(a.utterances.map((row) => row.sentiment));
    const answer = view.utterances.find((utterance) => utterance.id === a.answer.id)!;
    expect(answer).toMatchObject({ speaker: 'participant', sentimentOverridden: false, highlightCount: 0, commentCount: 0, questionId: expect.any(String) });
    expect(answer.questionText).toMatch(/\?$/);
    expect(view.recording).toBeNull();
    expect(view.counts).toEqual({ highlights: 0, comments: 0 });
  });

  it('counts highlights and comments per utterance, and comments on the whole session', async () => {
    const { client, sessionId, answer } = await organizationWithInterview();
    await client.highlights.create.mutate({ sessionId, utteranceId: answer.id, start: 0, end: 8 });
    await client.highlights.create.mutate({ sessionId, utteranceId: answer.id, start: 10, end: 20, label: 'Onboarding' });
    await client.comments.create.mutate({ sessionId, utteranceId: answer.id, body: 'Follow up on this' });
    await client.comments.create.mutate({ sessionId, body: 'Good interview' });
    const deleted = await client.comments.create.mutate({ sessionId, utteranceId: answer.id, body: 'Never mind' });
    await client.comments.delete.mutate({ commentId: deleted.id });

    const view = await client.workspace.session.query({ sessionId });
    expect(view.utterances.find((utterance) => utterance.id === answer.id)).toMatchObject({ highlightCount: 2, commentCount: 1 });
    expect(view.counts).toEqual({ highlights: 2, comments: 2 });
  });

  it("shows a researcher's sentiment override as the utterance's sentiment", async () => {
    const { client, sessionId, answer } = await organizationWithInterview();
    const other = answer.sentiment === 'positive' ? 'negative' : 'positive';
    await client.sentimentOverrides.set.mutate({ sessionId, utteranceId: answer.id, sentiment: other });
    const [row] = await t.em().execute<{ sentiment_override: string }[]>(`select sentiment_override from session_utterances where id = ?`, [answer.id]);
    expect(row!.sentiment_override).toBe(other);
    const view = await client.workspace.session.query({ sessionId });
    expect(view.utterances.find((utterance) => utterance.id === answer.id)).toMatchObject({
      sentiment: other,
      analysedSentiment: answer.sentiment,
      sentimentOverridden: true,
    });
  });

  it('reads the view in three statements (four when the script is not cached), however many lines the transcript has', async () => {
    const { tenant, sessionId } = await organizationWithInterview();
    const statements: string[] = [];
    const knex = t.runtime.orm.em.getConnection().getKnex();
    const listener = (query: { sql: string }) => statements.push(query.sql);
    knex.on('query', listener);
    // The domain function itself: a request adds its authentication's statements.
    const view = await getSessionView({ em: t.em(), services: t.runtime.services }, systemCaller(tenant.organizationId), { sessionId });
    knex.removeListener('query', listener);
    expect(view.utterances.length).toBeGreaterThan(4);
    // The session with its comment count, the lines with theirs, the recording; the pinned script's plan is cached since the interview read it.
    expect(statements.filter((text) => !/^(begin|commit|rollback|set )/i.test(text))).toHaveLength(3);
  });

  it('links the recording for one hour, placed at the session time it starts', async () => {
    const { client, tenant, sessionId } = await organizationWithInterview();
    await t.em().execute(
      `insert into session_files (id, organization_id, session_id, kind, name, content_type, size_bytes, duration_seconds, sha256, storage_key, created_at, updated_at)
       values ('fil_workspaceTest000000001', ?, ?, 'merged_audio', 'merged.ogg', 'audio/ogg', 10, 42.5, 'x', 'none', now(), now())`,
      [tenant.organizationId, sessionId],
    );
    const before = Date.now();
    const view = await client.workspace.session.query({ sessionId });
    expect(view.recording).toMatchObject({ contentType: 'audio/ogg', durationSeconds: 42.5, offsetSeconds: 0, url: expect.stringContaining('/files/') });
    const after = Date.now();
    // The link's expiry is whole seconds (JWT exp) counted from the moment it was signed, somewhere between before and after.
    const expiresAt = Date.parse(view.recording!.expiresAt);
    expect(expiresAt).toBeGreaterThan(before - 1000 + 3600_000);
    expect(expiresAt).toBeLessThanOrEqual(after + 3600_000);
  });

  it("answers 404 for another organization's session", async () => {
    expect(await trpcFailure(a.client.workspace.session.query({ sessionId: b.sessionId }))).toMatchObject({ appCode: 'RESOURCE_NOT_FOUND', httpStatus: 404 });
  });

  it('needs sessions:read (403 for a key without it)', async () => {
    const key = await t.createKey(a.tenant.organizationId, ['campaigns:read', 'billing:read']);
    expect(await trpcFailure(t.clientOf(key).workspace.session.query({ sessionId: a.sessionId }))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      httpStatus: 403,
    });
    const reader = await t.createKey(a.tenant.organizationId, ['sessions:read']);
    expect((await t.clientOf(reader).workspace.session.query({ sessionId: a.sessionId })).session.id).toBe(a.sessionId);
  });

  it('refuses bad input with the field path', async () => {
    const failure = await trpcFailure(a.client.workspace.session.query({ sessionId: '' }));
    expect(failure).toMatchObject({ appCode: 'VALIDATION_ERROR', httpStatus: 422 });
    expect(JSON.stringify(failure.details)).toContain('sessionId');
  });
});

describe('workspace.sessionDownload and its /files/{token} links', () => {
  it('signs a PDF link for one hour that opens without credentials', async () => {
    const before = Date.now();
    const link = await a.client.workspace.sessionDownload.mutate({ sessionId: a.sessionId, format: 'pdf' });
    expect(link.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/files\/[A-Za-z0-9_.-]+$/);
    expect(Date.parse(link.expiresAt) - before).toBeGreaterThan(3590_000);
    const pdf = await t.http
      .get(pathOf(link.url))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="interview-${a.sessionId}.pdf"`);
    expect(pdf.headers['cache-control']).toBe('private, max-age=300');
    expect((pdf.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('signs a transcript text link holding every utterance', async () => {
    const link = await a.client.workspace.sessionDownload.mutate({ sessionId: a.sessionId, format: 'text' });
    const text = await t.http.get(pathOf(link.url)).expect(200);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.text).toContain(a.answer.text!.slice(0, 40));
  });

  it('opens nothing for a tampered or expired token, nor for a link of another purpose', async () => {
    const link = await a.client.workspace.sessionDownload.mutate({ sessionId: a.sessionId, format: 'text' });
    const token = pathOf(link.url).split('/').at(-1)!;
    const tampered = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    const refused = await t.http.get(`/files/${tampered}`).expect(404);
    expect(refused.body.error.code).toBe('RESOURCE_NOT_FOUND');
    await t.http.get('/files/not-a-token').expect(404);
    const signer = t.runtime.services.signer;
    const expired = await signer.signFileLink({ fileId: a.sessionId, purpose: 'session_transcript_text' }, 3600, new Date(Date.now() - 3601_000));
    await t.http.get(pathOf(expired.url)).expect(404);
    // A session id signed as a session file (another purpose) opens nothing.
    const otherPurpose = await signer.signFileLink({ fileId: a.sessionId, purpose: 'session_file' }, 3600);
    await t.http.get(pathOf(otherPurpose.url)).expect(404);
    expect(await signer.verifyFileToken(token)).toEqual({ fileId: a.sessionId, purpose: 'session_transcript_text' });
  });

  it("answers 404 for another organization's session, 403 without sessions:read, 422 for an unknown format", async () => {
    expect(await trpcFailure(a.client.workspace.sessionDownload.mutate({ sessionId: b.sessionId, format: 'pdf' }))).toMatchObject({
      appCode: 'RESOURCE_NOT_FOUND',
      httpStatus: 404,
    });
    const key = await t.createKey(a.tenant.organizationId, ['billing:read']);
    expect(await trpcFailure(t.clientOf(key).workspace.sessionDownload.mutate({ sessionId: a.sessionId, format: 'pdf' }))).toMatchObject({ httpStatus: 403 });
    const failure = await trpcFailure(a.client.workspace.sessionDownload.mutate({ sessionId: a.sessionId, format: 'docx' as 'pdf' }));
    expect(failure).toMatchObject({ appCode: 'VALIDATION_ERROR', httpStatus: 422 });
    expect(JSON.stringify(failure.details)).toContain('format');
  });
});

describe('workspace.invoiceDownload', () => {
  it("signs an invoice's PDF; another organization's invoice is 404 and billing:read is needed", async () => {
    const purchase = await apiAs(t.http, a.tenant).post('/v1/billing/credits/purchase', { amount: 10 }).expect(201);
    const invoiceId = purchase.body.invoice.id as string;
    const link = await a.client.workspace.invoiceDownload.mutate({ invoiceId });
    const pdf = await t.http.get(pathOf(link.url)).expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="${purchase.body.invoice.number}.pdf"`);

    expect(await trpcFailure(b.client.workspace.invoiceDownload.mutate({ invoiceId }))).toMatchObject({ appCode: 'RESOURCE_NOT_FOUND', httpStatus: 404 });
    const key = await t.createKey(a.tenant.organizationId, ['sessions:read']);
    expect(await trpcFailure(t.clientOf(key).workspace.invoiceDownload.mutate({ invoiceId }))).toMatchObject({
      appCode: 'INSUFFICIENT_PERMISSIONS',
      httpStatus: 403,
    });
    expect(await trpcFailure(a.client.workspace.invoiceDownload.mutate({ invoiceId: '' }))).toMatchObject({ appCode: 'VALIDATION_ERROR', httpStatus: 422 });
  });
});

describe('/app', () => {
  let distDir: string;
  let app: express.Express;
  beforeAll(async () => {
    distDir = await mkdtemp(path.join(tmpdir(), 'dashboard-dist-'));
    app = express();
    app.use(dashboardRoutes(t.runtime.services, distDir));
    app.use(errorHandler(t.runtime.services.logger));
  });
  afterAll(async () => {
    await rm(distDir, { recursive: true, force: true });
  });

  it('says how to build the dashboard while it is not built', async () => {
    const response = await supertest(app).get('/app/').expect(503);
    expect(response.text).toContain('npm run build:dashboard');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers every path under /app with the page (deep links), its assets immutable, under a strict CSP', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(path.join(distDir, 'assets'), { recursive: true });
    await writeFile(path.join(distDir, 'index.html'), '<!doctype html><title>x</title><script type="module" src="/app/assets/index-abc123.js"></script>');
    await writeFile(path.join(distDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    for (const url of ['/app', '/app/', '/app/sessions/ses_1', '/app/search?q=x']) {
      const page = await supertest(app).get(url).expect(200);
      expect(page.text).toContain('/app/assets/index-abc123.js');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    const asset = await supertest(app).get('/app/assets/index-abc123.js').expect(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/javascript/);
    await supertest(app).get('/app/assets/missing.js').expect(404);
    await supertest(app).get('/app/assets/..%2Findex.html').expect(404);
  });
});
