import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchFilters } from '../../shared/schemas/search.js';
import { encodeSearchCursor } from '../../server/domains/search/search-cursor.js';
import { snippetSegments } from '../../server/domains/search/search-transcripts.js';
import { type Api, apiAs, createCampaign, createInvite, createProject, createPublishedScript } from '../helpers/factories.js';
import { PARTICIPANT_BUDGET } from '../helpers/interviews.js';
import { type ListeningTestApp, startListeningTestApp, type TrpcClient, trpcFailure } from '../helpers/members.js';
import { completedTextInterview } from '../helpers/results.js';
import { type TestTenant } from '../helpers/test-app.js';

/**
 * search.query (issue 16, "cross-transcript search"): PostgreSQL full-text search over every
 * utterance of the organization, ranked, with snippets; filters; cursor pages; the index follows
 * the row (a redaction's `[REDACTED]`, a sentiment override); relevance on a fixture of interviews
 * written for it (tests/fixtures/search-relevance.json).
 */

interface FixtureSession {
  key: string;
  startedAt: string;
  answers: Record<string, [string, 'positive' | 'neutral' | 'negative']>;
}
interface FixtureCampaign {
  key: string;
  name: string;
  language: string;
  project: string | null;
  questions: Record<string, string>;
  sessions: FixtureSession[];
}
interface Fixture {
  campaigns: FixtureCampaign[];
  queries: { query: string; first: string; filters?: SearchFilters }[];
}

const fixture = JSON.parse(readFileSync(new URL('../fixtures/search-relevance.json', import.meta.url), 'utf8')) as Fixture;

let t: ListeningTestApp;
let tenant: TestTenant;
let api: Api;
let client: TrpcClient;
/** Fixture key → id, for sessions, campaigns and projects. */
const ids: Record<string, string> = {};
const sessionKeyById = new Map<string, string>();

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(11).toString('hex')}`;
}

async function sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
  return t.em().execute<T[]>(query, params);
}

/**
 * The fixture's campaigns through the API (scripts, projects, campaigns, one invite per session),
 * then its finished sessions and their utterances written as the engine and the transcript job
 * leave them (an interviewer question, then the participant's answer with its sentiment).
 */
async function seedFixture(): Promise<void> {
  const script = await createPublishedScript(api);
  const [version] = await sql<{ version: number }>(`select max(version) as version from script_versions where script_id = ?`, [script.id]);
  for (const project of new Set(fixture.campaigns.map((campaign) => campaign.project).filter((key): key is string => key !== null))) {
    ids[project] = (await createProject(api, { name: `Project ${project}` })).id;
  }
  const sessions: unknown[] = [];
  const utterances: unknown[] = [];
  for (const campaign of fixture.campaigns) {
    const created = await createCampaign(api, { scriptId: script.id, name: campaign.name, ...(campaign.project ? { projectId: ids[campaign.project] } : {}) });
    ids[campaign.key] = created.id;
    for (const session of campaign.sessions) {
      const invite = await createInvite(api, created.id, { email: `${session.key}@example.com`, sendEmail: false });
      const sessionId = newId('ses');
      ids[session.key] = sessionId;
      sessionKeyById.set(sessionId, session.key);
      sessions.push({
        id: sessionId,
        campaign_id: created.id,
        invite_id: invite.id,
        language: campaign.language,
        started_at: session.startedAt,
        total_questions: Object.keys(campaign.questions).length,
      });
      let seq = 0;
      for (const [questionId, question] of Object.entries(campaign.questions)) {
        const [answer, sentiment] = session.answers[questionId]!;
        utterances.push({
          id: newId('utt'),
          session_id: sessionId,
          seq: seq++,
          speaker: 'ai',
          kind: 'question',
          text: question,
          question_id: questionId,
          sentiment: null,
          start_time: seq * 30,
        });
        utterances.push({
          id: newId('utt'),
          session_id: sessionId,
          seq: seq++,
          speaker: 'participant',
          kind: 'answer',
          text: answer,
          question_id: questionId,
          sentiment,
          start_time: seq * 30,
        });
      }
    }
  }
  await sql(
    `insert into sessions (id, organization_id, campaign_id, invite_id, script_id, script_version, status, completion_status, language, metadata, consent_required,
                           started_at, completed_at, last_activity_at, total_questions, answers, created_at, updated_at)
     select v.id, ?, v.campaign_id, v.invite_id, ?, ?, 'completed', 'completed', v.language, '{}', false,
            v.started_at, v.started_at + interval '20 minutes', v.started_at + interval '20 minutes', v.total_questions, '[]', v.started_at, v.started_at
       from jsonb_to_recordset(?::jsonb) as v(id text, campaign_id text, invite_id text, language text, started_at timestamptz, total_questions int)`,
    [tenant.organizationId, script.id, version!.version, JSON.stringify(sessions)],
  );
  await sql(
    `insert into session_utterances (id, organization_id, session_id, seq, speaker, kind, text, question_id, sentiment, start_time, end_time, created_at)
     select v.id, ?, v.session_id, v.seq, v.speaker, v.kind, v.text, v.question_id, v.sentiment, v.start_time, v.start_time + 20, now()
       from jsonb_to_recordset(?::jsonb) as v(id text, session_id text, seq int, speaker text, kind text, text text, question_id text, sentiment text, start_time double precision)`,
    [tenant.organizationId, JSON.stringify(utterances)],
  );
}

/** The participant's answer of a fixture session to one question. */
async function answerRow(sessionKey: string, questionId: string) {
  const [row] = await sql<{ id: string; text: string }>(
    `select id, text from session_utterances where session_id = ? and question_id = ? and speaker = 'participant'`,
    [ids[sessionKey], questionId],
  );
  return row!;
}

beforeAll(async () => {
  t = await startListeningTestApp(PARTICIPANT_BUDGET);
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  client = t.clientOf(tenant);
  await seedFixture();
});
afterAll(() => t?.close());

describe('search.query relevance (tests/fixtures/search-relevance.json)', () => {
  it.each(fixture.queries)('"$query" ranks $first first', async ({ query, first, filters }) => {
    const result = await client.search.query.query({ query, ...(filters ? { filters } : {}), limit: 5 });
    const ranked = result.data.map((hit) => `${sessionKeyById.get(hit.sessionId) ?? hit.sessionId} (${hit.rank.toFixed(3)})`);
    expect(ranked[0], `ranking: ${ranked.join(', ')}`).toMatch(new RegExp(`^${first} `));
  });
});

describe('search.query', () => {
  it('answers the matching utterances best first, with their session, campaign, highlighted snippet and effective sentiment', async () => {
    const result = await client.search.query.query({ query: 'spreadsheet import' });
    const row = await answerRow('onb-import', 'setup');
    const [session] = await sql<{ campaign_id: string }>(`select campaign_id from sessions where id = ?`, [ids['onb-import']]);
    expect(result.data[0]).toEqual({
      sessionId: ids['onb-import'],
      campaignId: session!.campaign_id,
      campaignName: 'Onboarding interviews Q3',
      utteranceId: row.id,
      questionId: 'setup',
      speaker: 'participant',
      text: row.text,
      snippet: expect.any(Array),
      rank: expect.any(Number),
      startTime: 60,
      sentiment: 'negative',
      sessionStartedAt: '2026-09-08T09:15:00.000Z',
    });
    expect(result.data[0]!.snippet.filter((segment) => segment.match).map((segment) => segment.text.toLowerCase())).toEqual([
      'import',
      'spreadsheet',
      'import',
    ]);
    expect(result.data[0]!.snippet.map((segment) => segment.text).join('')).toBe(row.text);
    // Both the answer with the words side by side and the one with them apart match; the first wins.
    expect(result.data.map((hit) => sessionKeyById.get(hit.sessionId))).toEqual(['onb-import', 'onb-tracker']);
    expect(result).toMatchObject({ total: 2, totalCapped: false, hasMore: false, nextCursor: null });
    expect(result.data[0]!.rank).toBeGreaterThan(result.data[1]!.rank);
    expect(result.data[0]!.rank).toBeLessThan(1);
  });

  it("indexes each utterance in its language: the session's, or the one the participant answered in", async () => {
    const languages = await sql<{ session_id: string; search_language: string }>(
      `select distinct session_id, search_language from session_utterances where session_id = any(array[?]::text[])`,
      [[ids['nl-facturen'], ids['mob-crash'], ids['pr-seats']]],
    );
    expect(Object.fromEntries(languages.map((row) => [sessionKeyById.get(row.session_id), row.search_language]))).toEqual({
      'nl-facturen': 'dutch',
      'mob-crash': 'english',
      'pr-seats': 'english',
    });
    // Dutch stemming: "factuur" finds "facturen".
    expect((await client.search.query.query({ query: 'factuur' })).data.map((hit) => sessionKeyById.get(hit.sessionId)).sort()).toEqual([
      'nl-abonnement',
      'nl-facturen',
    ]);

    const row = await answerRow('pr-invoices', 'plan');
    await sql(`update session_utterances set text = ?, detected_language = 'de' where id = ?`, [
      'Wir teilen uns einen Zugang, damit die Lizenzen günstig bleiben.',
      row.id,
    ]);
    const [updated] = await sql<{ search_language: string }>(`select search_language from session_utterances where id = ?`, [row.id]);
    expect(updated!.search_language).toBe('german');
    // German stemming: "Lizenz" finds "Lizenzen".
    expect((await client.search.query.query({ query: 'Lizenz' })).data.map((hit) => hit.utteranceId)).toEqual([row.id]);
  });

  it('follows the stored text: a redacted word is no longer found, the rest of the utterance still is', async () => {
    const row = await answerRow('onb-sso', 'setup');
    expect((await client.search.query.query({ query: 'Okta' })).data.map((hit) => hit.utteranceId)).toEqual([row.id]);
    await sql(`update session_utterances set text = replace(text, 'Okta', '[REDACTED]') where id = ?`, [row.id]);

    expect((await client.search.query.query({ query: 'Okta' })).data).toEqual([]);
    const hit = (await client.search.query.query({ query: 'SAML certificate' })).data[0]!;
    expect(hit.utteranceId).toBe(row.id);
    expect(hit.text).toContain('[REDACTED]');
    expect(hit.text).not.toContain('Okta');
  });

  it("filters on the effective sentiment: a researcher's override wins over the analysed one", async () => {
    const row = await answerRow('pr-increase', 'price');
    const negative = async () =>
      (await client.search.query.query({ query: 'price increase', filters: { sentiment: ['negative'], speaker: 'participant' } })).data.map(
        (hit) => hit.utteranceId,
      );
    expect(await negative()).toContain(row.id);

    await sql(`update session_utterances set sentiment_override = 'positive' where id = ?`, [row.id]);
    expect(await negative()).not.toContain(row.id);
    const positive = await client.search.query.query({ query: 'price increase', filters: { sentiment: ['positive'] } });
    expect(positive.data.map((hit) => [hit.utteranceId, hit.sentiment])).toEqual([[row.id, 'positive']]);
    await sql(`update session_utterances set sentiment_override = null where id = ?`, [row.id]);
  });

  it("filters by campaign, project, date of the session's start, question and speaker", async () => {
    const keys = async (query: string, filters: SearchFilters) =>
      [...new Set((await client.search.query.query({ query, filters, limit: 100 })).data.map((hit) => sessionKeyById.get(hit.sessionId)))].sort();

    expect(await keys('support', {})).toEqual(['onb-csm', 'onb-emails', 'onb-import', 'onb-sso', 'onb-tracker']);
    // The interviewer asks every pricing session about its "finance team".
    expect(await keys('team', { campaignIds: [ids.pricing!] })).toEqual(['pr-annual', 'pr-increase', 'pr-invoices', 'pr-seats']);
    expect(await keys('team', { campaignIds: [ids.pricing!], speaker: 'participant' })).toEqual(['pr-increase', 'pr-seats']);
    expect(await keys('team', { projectIds: [ids.growth!], speaker: 'participant' })).toEqual(['onb-emails', 'onb-sso']);
    expect(await keys('team', { projectIds: [ids.monetisation!], campaignIds: [ids.mobile!], speaker: 'participant' })).toEqual(['mob-happy']);
    expect(await keys('app', { from: '2026-10-15T00:00:00Z', to: '2026-10-22T00:00:00Z' })).toEqual(['mob-battery', 'mob-offline']);
    expect(await keys('app', { from: '2026-10-22T19:05:00.000Z' })).toEqual(['mob-happy', 'nl-app']);
    expect(await keys('finance', { questionIds: ['price'] })).toEqual([]);
    expect(await keys('finance', { questionIds: ['invoice', 'plan'], speaker: 'participant' })).toEqual(['pr-annual', 'pr-increase', 'pr-invoices']);

    const asked = await client.search.query.query({ query: 'support', filters: { speaker: 'ai' } });
    expect(asked.data.map((hit) => [hit.speaker, hit.questionId])).toEqual(Array(5).fill(['ai', 'support']));
    expect(
      (await client.search.query.query({ query: 'support', filters: { speaker: 'participant' } })).data.every((hit) => hit.speaker === 'participant'),
    ).toBe(true);
  });

  it("ranks a participant's answer above the interviewer's question that uses the same words", async () => {
    const result = await client.search.query.query({ query: 'support', limit: 100 });
    const speakers = result.data.map((hit) => hit.speaker);
    expect(speakers.indexOf('ai')).toBeGreaterThan(speakers.lastIndexOf('participant'));
  });

  it('pages by cursor through every match once, in rank order', async () => {
    const all = await client.search.query.query({ query: 'app or support or team', limit: 100 });
    expect(all.hasMore).toBe(false);
    expect(all.data.length).toBeGreaterThan(12);
    const paged: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.search.query.query({ query: 'app or support or team', limit: 5, ...(cursor ? { cursor } : {}) });
      expect(page.data.length).toBeLessThanOrEqual(5);
      expect(page.total).toBe(all.data.length);
      paged.push(...page.data.map((hit) => hit.utteranceId));
      expect(page.hasMore).toBe(page.nextCursor !== null);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(all.data.map((hit) => hit.utteranceId));
    const ranks = all.data.map((hit) => hit.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
  });

  it('counts matches exactly up to 1000, then says the total is capped', async () => {
    const other = await t.createTenant();
    const otherApi = apiAs(t.http, other);
    const campaign = await createCampaign(otherApi);
    const invite = await createInvite(otherApi, campaign.id, { email: 'many@example.com', sendEmail: false });
    const [script] = await sql<{ script_id: string }>(`select script_id from campaigns where id = ?`, [campaign.id]);
    const sessionId = newId('ses');
    await sql(
      `insert into sessions (id, organization_id, campaign_id, invite_id, script_id, script_version, status, language, metadata, consent_required, started_at, last_activity_at, total_questions, answers, created_at, updated_at)
       values (?, ?, ?, ?, ?, 1, 'completed', 'en', '{}', false, now(), now(), 1, '[]', now(), now())`,
      [sessionId, other.organizationId, campaign.id, invite.id, script!.script_id],
    );
    await sql(
      `insert into session_utterances (id, organization_id, session_id, seq, speaker, kind, text, start_time, end_time, created_at)
       select 'utt_many_' || n, ?, ?, n, 'participant', 'answer', 'The zeppelin tour number ' || n || ' was lovely', n, n + 1, now() from generate_series(1, 1005) n`,
      [other.organizationId, sessionId],
    );
    const otherClient = t.clientOf(other);
    expect(await otherClient.search.query.query({ query: 'zeppelin', limit: 3 })).toMatchObject({ total: 1000, totalCapped: true, hasMore: true });
    expect(await otherClient.search.query.query({ query: '"tour number 7"' })).toMatchObject({ total: 1, totalCapped: false, hasMore: false });
  });

  it("finds what the interview engine itself wrote, and only in the caller's organization", async () => {
    const other = await t.createTenant();
    const otherApi = apiAs(t.http, other);
    const otherClient = t.clientOf(other);
    const { sessionId } = await completedTextInterview(t, otherApi);

    const theirs = await otherClient.search.query.query({ query: 'broken links' });
    expect(theirs.data.map((hit) => hit.sessionId)).toEqual([sessionId]);
    expect(theirs.data[0]!.sentiment).not.toBeNull();
    const ours = await client.search.query.query({ query: 'broken links', limit: 100 });
    expect(ours.data.length).toBeGreaterThan(0);
    expect(ours.data.map((hit) => hit.sessionId)).not.toContain(sessionId);
    expect((await otherClient.search.query.query({ query: 'spreadsheet import' })).data).toEqual([]);
  });

  it('answers 404 for a campaign or project filter of another organization', async () => {
    const other = await t.createTenant();
    const otherClient = t.clientOf(other);
    expect(await trpcFailure(otherClient.search.query.query({ query: 'price', filters: { campaignIds: [ids.pricing!] } }))).toMatchObject({
      httpStatus: 404,
      appCode: 'RESOURCE_NOT_FOUND',
      details: { resource: 'campaign', id: ids.pricing, fields: [{ path: 'filters.campaignIds[0]' }] },
    });
    expect(await trpcFailure(client.search.query.query({ query: 'price', filters: { projectIds: [ids.growth!, 'prj_missing'] } }))).toMatchObject({
      httpStatus: 404,
      details: { resource: 'project', id: 'prj_missing', fields: [{ path: 'filters.projectIds[1]' }] },
    });
  });

  it('answers 403 to a key without sessions:read', async () => {
    const key = await t.createKey(tenant.organizationId, ['campaigns:read', 'sessions:write']);
    const failure = await trpcFailure(t.clientOf(key).search.query.query({ query: 'price' }));
    expect(failure).toMatchObject({ httpStatus: 403, appCode: 'INSUFFICIENT_PERMISSIONS' });
  });

  it('refuses bad input with the field at fault', async () => {
    const failures = await Promise.all([
      trpcFailure(client.search.query.query({ query: '   ' })),
      trpcFailure(client.search.query.query({ query: 'price', limit: 0 })),
      trpcFailure(client.search.query.query({ query: 'price', filters: { from: '2026-10-02T00:00:00Z', to: '2026-10-01T00:00:00Z' } })),
      trpcFailure(client.search.query.query({ query: 'price', filters: { sentiment: ['angry' as 'negative'] } })),
      trpcFailure(client.search.query.query({ query: 'price', filters: { colour: 'red' } as SearchFilters })),
      trpcFailure(client.search.query.query({ query: '-price' })),
    ]);
    expect(failures.map((failure) => [failure.httpStatus, (failure.details.fields as { path: string }[] | undefined)?.[0]?.path])).toEqual([
      [422, 'query'],
      [422, 'limit'],
      [422, 'filters.to'],
      [422, 'filters.sentiment[0]'],
      [expect.any(Number), expect.stringMatching(/^filters/)],
      [422, 'query'],
    ]);
    expect(failures[4]!.httpStatus).toBeGreaterThanOrEqual(400);
    expect(failures[4]!.httpStatus).toBeLessThan(500);
  });

  it('refuses a cursor it did not make, or made for another search, with 400', async () => {
    const first = await client.search.query.query({ query: 'support', limit: 2 });
    expect(first.nextCursor).not.toBeNull();
    expect(await trpcFailure(client.search.query.query({ query: 'support', cursor: 'nonsense' }))).toMatchObject({
      httpStatus: 400,
      appCode: 'INVALID_REQUEST',
      details: { fields: [{ path: 'cursor' }] },
    });
    expect(await trpcFailure(client.search.query.query({ query: 'team', limit: 2, cursor: first.nextCursor! }))).toMatchObject({
      httpStatus: 400,
      details: { fields: [{ path: 'cursor' }] },
    });
    expect(await trpcFailure(client.search.query.query({ query: 'support', limit: 2, filters: { speaker: 'ai' }, cursor: first.nextCursor! }))).toMatchObject({
      httpStatus: 400,
    });
    const second = await client.search.query.query({ query: 'support', limit: 2, cursor: first.nextCursor! });
    expect(second.data[0]!.utteranceId).not.toBe(first.data[1]!.utteranceId);
  });

  it('refuses with 400 a cursor of this search whose rank PostgreSQL could not read as a real (never a 500)', async () => {
    const first = await client.search.query.query({ query: 'support', limit: 2 });
    const id = first.data[1]!.utteranceId;
    for (const rank of ['', ' ', '0x10', '1e', '.5', 'Infinity', 'NaN', '1e50', '1e-50', '1_0', '٣']) {
      const cursor = encodeSearchCursor('support', {}, { rank, id });
      expect(await trpcFailure(client.search.query.query({ query: 'support', limit: 2, cursor })), `rank ${JSON.stringify(rank)}`).toMatchObject({
        httpStatus: 400,
        appCode: 'INVALID_REQUEST',
        details: { fields: [{ path: 'cursor', message: 'is not a search cursor this API made' }] },
      });
    }
    // What PostgreSQL writes for a real is read back: plain, fractional or with an exponent.
    for (const rank of ['0', '1', '0.0607927', '6.07927e-05']) {
      const page = await client.search.query.query({ query: 'support', limit: 2, cursor: encodeSearchCursor('support', {}, { rank, id }) });
      expect(page.data.every((hit) => hit.rank <= Number(rank))).toBe(true);
    }
  });

  it('a query of stop words only finds nothing rather than failing', async () => {
    expect(await client.search.query.query({ query: 'the' })).toMatchObject({ data: [], total: 0, hasMore: false });
  });
});

describe('snippet segments', () => {
  it('split ts_headline output at its markers into plain text, marking cuts with …', () => {
    const text = 'We compared <b>three</b> tools. The calendar sync failed twice and the calendar export too, then we gave up on the whole thing.';
    expect(snippetSegments('We compared <b>three</b> tools. The \uE000calendar\uE001 sync failed', text)).toEqual([
      { text: 'We compared <b>three</b> tools. The ', match: false },
      { text: 'calendar', match: true },
      { text: ' sync failed', match: false },
      { text: ' …', match: false },
    ]);
    expect(snippetSegments('sync failed twice and the \uE000calendar\uE001 export', text)[0]).toEqual({ text: '… ', match: false });
    expect(snippetSegments('\uE000calendar\uE001 \uE000sync\uE001', 'calendar sync')).toEqual([
      { text: 'calendar', match: true },
      { text: ' ', match: false },
      { text: 'sync', match: true },
    ]);
  });
});
