import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashInviteToken } from '../../server/lib/invite-tokens.js';
import { PERMISSIONS } from '../../shared/permissions.js';
import { type Api, apiAs, createCampaign, createInvite, createScript, uniqueName } from '../helpers/factories.js';
import { ONE_QUESTION, PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { type ListeningTestApp, startListeningTestApp, trpcFailure } from '../helpers/members.js';
import { completedTextInterview, runCompletionChain, TEXT_ANSWERS } from '../helpers/results.js';
import type { TestTenant } from '../helpers/test-app.js';

/**
 * "Preview as participant" (issue 31): `scripts.createPreview` makes a preview invite on the
 * script's hidden preview campaign and answers the real interview page's URL. A preview runs the
 * draft, costs no credits, announces nothing to webhooks and appears in no result.
 */

let t: ListeningTestApp;

beforeAll(async () => {
  t = await startListeningTestApp(PARTICIPANT_BUDGET);
});
afterAll(() => t?.close());

async function organization() {
  const tenant = await t.createTenant();
  return { tenant, api: apiAs(t.http, tenant), client: t.clientOf(tenant) };
}

function tokenOf(url: string): string {
  const match = /\/interview\/([^/?#]+)$/.exec(new URL(url).pathname);
  if (!match) throw new Error(`not an interview URL: ${url}`);
  return decodeURIComponent(match[1]!);
}

async function previewCampaignOf(scriptId: string) {
  const rows = await t
    .em()
    .execute<{ id: string; name: string; participant_title: string | null; status: string; project_id: string | null }[]>(
      `select id, name, participant_title, status, project_id from campaigns where script_id = ? and preview`,
      [scriptId],
    );
  return rows;
}

async function inviteRowOfToken(token: string) {
  const [row] = await t
    .em()
    .execute<{ id: string; campaign_id: string; script_version: number | null; email: string | null; email_status: string }[]>(
      `select id, campaign_id, script_version, email, email_status from invites where token_hash = ?`,
      [hashInviteToken(token)],
    );
  return row!;
}

describe('scripts.createPreview', () => {
  it("answers the interview page URL of a fresh preview invite (no email) on the script's hidden preview campaign, made once and reused", async () => {
    const { client } = await organization();
    const name = uniqueName('Draft script');
    const script = await client.scripts.create.mutate({ name, systemPrompt: 'You are a researcher.', questions: ONE_QUESTION as never });
    const before = Date.now();
    const first = await client.scripts.createPreview.mutate({ scriptId: script.id });
    expect(first.version).toBe(1);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/interview\/[^/]+$/);
    const lifetime = Date.parse(first.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(23 * 3600_000);
    expect(lifetime).toBeLessThan(25 * 3600_000);

    const campaigns = await previewCampaignOf(script.id);
    expect(campaigns).toEqual([{ id: expect.any(String), name: `Preview of ${name}`, participant_title: name, status: 'active', project_id: null }]);
    const invite = await inviteRowOfToken(tokenOf(first.url));
    expect(invite).toMatchObject({ campaign_id: campaigns[0]!.id, script_version: 1, email: null, email_status: 'not_sent' });

    const second = await client.scripts.createPreview.mutate({ scriptId: script.id });
    expect(second.url).not.toBe(first.url);
    expect(await previewCampaignOf(script.id)).toHaveLength(1);
    expect((await inviteRowOfToken(tokenOf(second.url))).campaign_id).toBe(campaigns[0]!.id);
  });

  it('runs the draft by default, else the newest published version; a version asked for runs that one', async () => {
    const { client, api } = await organization();
    const script = await client.scripts.create.mutate({
      name: uniqueName('Versions'),
      systemPrompt: 'You are a researcher.',
      questions: ONE_QUESTION as never,
    });
    await api.post(`/v1/scripts/${script.id}/publish`).expect(200);
    expect((await client.scripts.createPreview.mutate({ scriptId: script.id })).version).toBe(1);
    const changed = [{ ...ONE_QUESTION[0]!, text: 'What should we fix before anything else?' }];
    await api.patch(`/v1/scripts/${script.id}`, { questions: changed }).expect(200);
    const draft = await client.scripts.createPreview.mutate({ scriptId: script.id });
    expect(draft.version).toBe(2);
    const older = await client.scripts.createPreview.mutate({ scriptId: script.id, version: 1 });
    expect(older.version).toBe(1);

    // The participant is asked the draft's question, not the published one.
    const started = await participantAs(t.http, tokenOf(draft.url)).start().expect(201);
    expect(started.body.turn.text).toBe('What should we fix before anything else?');
    const startedOlder = await participantAs(t.http, tokenOf(older.url)).start().expect(201);
    expect(startedOlder.body.turn.text).toBe(ONE_QUESTION[0]!.text);
  });

  it('refuses a version the script does not have with 422 naming the field `version`, and a malformed one with its field path', async () => {
    const { client } = await organization();
    const script = await client.scripts.create.mutate({
      name: uniqueName('Versions'),
      systemPrompt: 'You are a researcher.',
      questions: ONE_QUESTION as never,
    });
    const missing = await trpcFailure(client.scripts.createPreview.mutate({ scriptId: script.id, version: 7 }));
    expect(missing).toMatchObject({ httpStatus: 422, appCode: 'VALIDATION_ERROR' });
    expect(missing.details.fields).toEqual([{ path: 'version', message: expect.stringContaining('no version 7') }]);
    const malformed = await trpcFailure(client.scripts.createPreview.mutate({ scriptId: script.id, version: 0 }));
    expect([400, 422]).toContain(malformed.httpStatus);
    expect((malformed.details.fields as { path: string }[]).map((field) => field.path)).toEqual(['version']);
    const unknownField = await trpcFailure(client.scripts.createPreview.mutate({ scriptId: script.id, extra: true } as never));
    expect([400, 422]).toContain(unknownField.httpStatus);
    expect(await previewCampaignOf(script.id)).toEqual([]);
  });

  it("is 404 for an unknown script and for another organization's, and creates nothing", async () => {
    const a = await organization();
    const b = await organization();
    const script = await a.client.scripts.create.mutate({
      name: uniqueName('Theirs'),
      systemPrompt: 'You are a researcher.',
      questions: ONE_QUESTION as never,
    });
    expect(await trpcFailure(b.client.scripts.createPreview.mutate({ scriptId: script.id }))).toMatchObject({ httpStatus: 404, appCode: 'RESOURCE_NOT_FOUND' });
    expect(await trpcFailure(a.client.scripts.createPreview.mutate({ scriptId: 'scr_doesnotexist000000000' }))).toMatchObject({
      httpStatus: 404,
      appCode: 'RESOURCE_NOT_FOUND',
    });
    expect(await previewCampaignOf(script.id)).toEqual([]);
  });

  it('is 403 for a caller without campaigns:write', async () => {
    const { tenant, client } = await organization();
    const script = await client.scripts.create.mutate({
      name: uniqueName('Read only'),
      systemPrompt: 'You are a researcher.',
      questions: ONE_QUESTION as never,
    });
    const reader = await t.createKey(
      tenant.organizationId,
      PERMISSIONS.filter((permission) => permission !== 'campaigns:write'),
    );
    const failure = await trpcFailure(t.clientOf(reader).scripts.createPreview.mutate({ scriptId: script.id }));
    expect(failure).toMatchObject({ httpStatus: 403, appCode: 'INSUFFICIENT_PERMISSIONS' });
    expect(await previewCampaignOf(script.id)).toEqual([]);
  });

  it('refuses an archived script with 409 SCRIPT_ARCHIVED, saying so in words', async () => {
    const { client, api } = await organization();
    const script = await client.scripts.create.mutate({ name: uniqueName('Old'), systemPrompt: 'You are a researcher.', questions: ONE_QUESTION as never });
    await api.post(`/v1/scripts/${script.id}/archive`).expect(200);
    const failure = await trpcFailure(client.scripts.createPreview.mutate({ scriptId: script.id }));
    expect(failure).toMatchObject({ httpStatus: 409, appCode: 'SCRIPT_ARCHIVED' });
    expect(failure.message).toBe(`Script ${script.id} is archived; it cannot be previewed.`);
  });
});

describe('the hidden preview campaign', () => {
  it('is never listed, is 404 through the API, takes no invites, and does not keep its script in use', async () => {
    const { client, api } = await organization();
    const script = await client.scripts.create.mutate({ name: uniqueName('Hidden'), systemPrompt: 'You are a researcher.', questions: ONE_QUESTION as never });
    await api.post(`/v1/scripts/${script.id}/publish`).expect(200);
    const visible = await createCampaign(api, { scriptId: script.id });
    await client.scripts.createPreview.mutate({ scriptId: script.id });
    const [hidden] = await previewCampaignOf(script.id);

    const listed = await api.get('/v1/campaigns?limit=100').expect(200);
    expect(listed.body.data.map((campaign: { id: string }) => campaign.id)).toEqual([visible.id]);
    expect(listed.body.pagination.total).toBe(1);
    await api.get(`/v1/campaigns/${hidden!.id}`).expect(404);
    await api.get(`/v1/campaigns/${hidden!.id}/sessions`).expect(404);
    await api.patch(`/v1/campaigns/${hidden!.id}`, { name: 'Renamed' }).expect(404);
    await api.post(`/v1/campaigns/${hidden!.id}/invites`, { email: 'someone@example.com', sendEmail: false }).expect(404);
    await api.get(`/api/campaigns/${hidden!.id}/transcripts`).expect(404);

    // The visible campaign keeps the script in use; archiving it frees the script despite its preview campaign.
    await api.delete(`/v1/scripts/${script.id}`).expect(409);
    await api.post(`/v1/campaigns/${visible.id}/archive`).expect(200);
    await api.delete(`/v1/scripts/${script.id}`).expect(204);
  });
});

describe('a preview interview', () => {
  let tenant: TestTenant;
  let api: Api;
  let client: ReturnType<ListeningTestApp['clientOf']>;
  let control: Awaited<ReturnType<typeof completedTextInterview>>;
  let previewSessionId: string;
  let previewCampaignId: string;
  let before: { balance: string; held: string; owed: string; transactions: string; usage: string | null; events: string };

  const money = async () => {
    const [row] = await t.em().execute<(typeof before)[]>(
      `select o.credit_balance::text as balance, o.credits_held::text as held, o.credits_owed::text as owed,
              (select count(*) from credit_transactions c where c.organization_id = o.id)::text as transactions,
              (select sum(sessions)::text from billing_usage u where u.organization_id = o.id) as usage,
              (select count(*) from webhook_events e where e.organization_id = o.id)::text as events
         from organizations o where o.id = ?`,
      [tenant.organizationId],
    );
    return row!;
  };

  beforeAll(async () => {
    ({ tenant, api, client } = await organization());
    // A finished interview on an ordinary campaign: what a preview must not look like.
    control = await completedTextInterview(t, api, ['The quokka import was fine, the setup took two days.', ...TEXT_ANSWERS.slice(1)]);
    await t.http.post('/api/interview/feedback').set('Authorization', `Bearer ${control.invite.token}`).send({ overall_rating: 5 }).expect(201);

    const script = await createScript(api, { name: uniqueName('Preview me'), questions: ONE_QUESTION });
    const preview = await client.scripts.createPreview.mutate({ scriptId: script.id });
    previewCampaignId = (await previewCampaignOf(script.id))[0]!.id;
    before = await money();
    const participant = participantAs(t.http, tokenOf(preview.url));
    const started = await participant.start().expect(201);
    previewSessionId = started.body.session.id;
    const [held] = await t.em().execute<{ credits_held: string }[]>(`select credits_held::text from organizations where id = ?`, [tenant.organizationId]);
    expect(held!.credits_held).toBe(before.held);
    const done = await participant.answer('The zebracorn onboarding flow should come first.').expect(200);
    expect(done.body.session.status).toBe('completed');
    await runCompletionChain(t, previewSessionId);
    await participant.feedback({ overall_rating: 4, comments: 'zebracorn feedback' }).expect(201);
  }, 120_000);

  it('is marked preview, holds and charges no credits and adds no usage', async () => {
    const [session] = await t
      .em()
      .execute<{ preview: boolean; billing: unknown; hold_credits: string; transcript_status: string }[]>(
        `select preview, billing, hold_credits::text, transcript_status from sessions where id = ?`,
        [previewSessionId],
      );
    expect(session).toEqual({ preview: true, billing: null, hold_credits: '0.0000', transcript_status: 'ready' });
    expect(await money()).toEqual(before);
    const range = `from=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}`;
    const usage = await api.get(`/v1/billing/usage?group_by=campaign&${range}`).expect(200);
    expect(usage.body.rows.map((row: { campaignId: string | null }) => row.campaignId)).not.toContain(previewCampaignId);
    expect(usage.body.rows.find((row: { campaignId: string }) => row.campaignId === control.campaign.id)).toMatchObject({ sessions: 1 });
  });

  it('sends no webhook event: neither session.started, transcript.ready, interview.completed nor session.feedback_submitted', async () => {
    const events = await t
      .em()
      .execute<{ session_id: string; type: string }[]>(`select session_id, type from webhook_events where organization_id = ? order by type`, [
        tenant.organizationId,
      ]);
    expect(events).toEqual([
      { session_id: control.sessionId, type: 'interview.completed' },
      { session_id: control.sessionId, type: 'session.feedback_submitted' },
      { session_id: control.sessionId, type: 'session.started' },
      { session_id: control.sessionId, type: 'transcript.ready' },
    ]);
  });

  it('is absent from search, summaries, anonymized exports and highlights', async () => {
    expect((await client.search.query.query({ query: 'zebracorn' })).total).toBe(0);
    expect((await client.search.query.query({ query: 'quokka' })).total).toBe(1);
    expect((await client.search.query.query({ query: 'zebracorn', filters: { from: '2020-01-01T00:00:00Z' } })).total).toBe(0);
    expect(await trpcFailure(client.search.query.query({ query: 'zebracorn', filters: { campaignIds: [previewCampaignId] } }))).toMatchObject({
      httpStatus: 404,
    });
    expect(await trpcFailure(client.summaries.create.mutate({ sessionIds: [previewSessionId] }))).toMatchObject({ httpStatus: 404 });
    expect(await trpcFailure(client.summaries.create.mutate({ campaignId: previewCampaignId }))).toMatchObject({ httpStatus: 404 });
    expect(await trpcFailure(client.anonymizedExports.create.mutate({ sessionIds: [previewSessionId] }))).toMatchObject({ httpStatus: 404 });
    expect(await trpcFailure(client.anonymizedExports.create.mutate({ campaignId: previewCampaignId }))).toMatchObject({ httpStatus: 404 });
    const [utterance] = await t
      .em()
      .execute<{ id: string }[]>(`select id from session_utterances where session_id = ? and speaker = 'participant'`, [previewSessionId]);
    expect(await trpcFailure(client.highlights.create.mutate({ sessionId: previewSessionId, utteranceId: utterance!.id, start: 0, end: 4 }))).toMatchObject({
      httpStatus: 404,
    });
  });

  it("is absent from session lists, exports and campaign stats, and from the comparisons of the script's campaigns", async () => {
    await api.get(`/v1/campaigns/${previewCampaignId}/sessions`).expect(404);
    await api.get(`/api/campaigns/${previewCampaignId}/transcripts`).expect(404);
    const campaigns = await api.get('/v1/campaigns?limit=100').expect(200);
    expect(campaigns.body.data.map((campaign: { id: string }) => campaign.id)).toEqual([control.campaign.id]);
    expect(campaigns.body.data[0].stats).toMatchObject({ completedSessions: 1 });
    const sessions = await client.sessions.list.query({ campaignId: control.campaign.id });
    expect(sessions.data.map((session) => session.id)).toEqual([control.sessionId]);
    const exported = await api.get(`/api/campaigns/${control.campaign.id}/transcripts?format=json`).expect(200);
    expect(exported.text).toContain(control.sessionId);
    expect(exported.text).not.toContain(previewSessionId);
    expect(
      await trpcFailure(client.comparisons.compare.query({ segments: [{ campaignId: control.campaign.id }, { campaignId: previewCampaignId }] } as never)),
    ).toMatchObject({ httpStatus: 404 });
  });
});

describe('a preview costs no credits', () => {
  it('starts with no credits left, where an ordinary invite is refused 402', async () => {
    const { tenant, api, client } = await organization();
    const script = await createScript(api, { name: uniqueName('Broke'), questions: ONE_QUESTION });
    await api.post(`/v1/scripts/${script.id}/publish`).expect(200);
    const campaign = await createCampaign(api, { scriptId: script.id });
    const invite = await createInvite(api, campaign.id, { email: 'participant@example.com', sendEmail: false });
    const preview = await client.scripts.createPreview.mutate({ scriptId: script.id });
    await t.em().execute(`update organizations set credit_balance = 0, credits_held = 0, credits_owed = 0 where id = ?`, [tenant.organizationId]);
    expect((await participantAs(t.http, invite.token).start().expect(402)).body.error.code).toBe('INSUFFICIENT_CREDITS');
    const started = await participantAs(t.http, tokenOf(preview.url)).start().expect(201);
    const done = await participantAs(t.http, tokenOf(preview.url)).answer('Nothing to add.').expect(200);
    expect(done.body.session.status).toBe('completed');
    const [organizationRow] = await t
      .em()
      .execute<{ credit_balance: string; credits_held: string; credits_owed: string }[]>(
        `select credit_balance::text, credits_held::text, credits_owed::text from organizations where id = ?`,
        [tenant.organizationId],
      );
    expect(organizationRow).toEqual({ credit_balance: '0.0000', credits_held: '0.0000', credits_owed: '0.0000' });
    expect(started.body.session.id).toMatch(/^ses_/);
  });
});

describe('the interview page of a preview', () => {
  it('says it is a preview that is not recorded and costs no credits, under the script name (never "Preview of …")', async () => {
    const { client } = await organization();
    const name = uniqueName('Pricing study');
    const script = await client.scripts.create.mutate({ name, systemPrompt: 'You are a researcher.', questions: ONE_QUESTION as never });
    const preview = await client.scripts.createPreview.mutate({ scriptId: script.id });
    const page = await t.http.get(new URL(preview.url).pathname).expect(200);
    expect(page.text).toContain('<strong>Preview:</strong> this interview is not recorded in results and costs no credits.');
    expect(page.text).toContain(`<title>${name}</title>`);
    expect(page.text).not.toContain('Preview of');
    const config = JSON.parse(/<script type="application\/json" id="interview-config">(.*?)<\/script>/s.exec(page.text)![1]!);
    expect(config).toMatchObject({ preview: true, campaignName: name });
  });

  it("says it in the interview's language", async () => {
    const { client } = await organization();
    const script = await client.scripts.create.mutate({
      name: uniqueName('Onboarding'),
      systemPrompt: 'Du bist Forscherin.',
      questions: ONE_QUESTION as never,
      settings: { language: 'de' },
    } as never);
    const preview = await client.scripts.createPreview.mutate({ scriptId: script.id });
    const page = await t.http.get(new URL(preview.url).pathname).expect(200);
    expect(page.text).toContain('<html lang="de">');
    expect(page.text).toContain('<strong>Vorschau:</strong> dieses Interview erscheint nicht in den Ergebnissen und kostet keine Credits.');
  });

  it('an ordinary invite page says nothing of a preview', async () => {
    const { api } = await organization();
    const campaign = await createCampaign(api);
    const invite = await createInvite(api, campaign.id, { email: 'participant@example.com', sendEmail: false });
    const page = await t.http.get(`/interview/${invite.token}`).expect(200);
    expect(page.text).not.toContain('preview-notice');
  });
});
