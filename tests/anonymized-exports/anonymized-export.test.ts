import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../shared/permissions.js';
import { asBytes } from '../helpers/audio.js';
import { type Api, apiAs, createCampaign, createInvite, createProject, createPublishedScript } from '../helpers/factories.js';
import { interviewFixture, PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { type ListeningTestApp, startListeningTestApp, type TrpcClient, trpcFailure } from '../helpers/members.js';
import { RESULTS_QUESTIONS, runCompletionChain } from '../helpers/results.js';
import { type TestTenant } from '../helpers/test-app.js';

/**
 * Anonymized export (issue 16): transcripts and answers without who gave them — no email, name,
 * phone, metadata or original id anywhere in the file (scanned) — ids replaced consistently, and
 * what research needs kept.
 */

let t: ListeningTestApp;
let tenant: TestTenant;
let api: Api;
let client: TrpcClient;

beforeAll(async () => {
  t = await startListeningTestApp(PARTICIPANT_BUDGET);
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  client = t.clientOf(tenant);
});
afterAll(() => t?.close());

interface Person {
  email: string;
  name: string;
  phone: string;
  company: string;
  externalId: string;
}

const MARGARET: Person = {
  email: 'margaret.hamilton@apollo-labs.example',
  name: 'Margaret Hamilton',
  phone: '+1 415 555 0132',
  company: 'Initech',
  externalId: 'crm-884213',
};
const KATHERINE: Person = { email: 'kjohnson@langley.example', name: 'Katherine Johnson', phone: '020 7946 0321', company: 'Globex', externalId: 'crm-551907' };

function answersOf(person: Person): string[] {
  const [first] = person.name.split(' ');
  return [
    `Hi, ${person.name} here from ${person.company}. The onboarding emails had broken links and the setup took two days; write to ${person.email} or call ${person.phone}.`,
    `Support was quick to respond, my colleague said "thanks ${first}!" and the reporting dashboard saves me a lot of time. My customer number is ${person.externalId}.`,
    'I would say four out of five',
    'yes, absolutely',
    'In-app chat, it would be nice if the chat kept my history between visits.',
  ];
}

/** A finished interview of `person`, invited with their name, email and metadata. */
async function interviewOf(campaignId: string, person: Person): Promise<{ sessionId: string; inviteId: string }> {
  const invite = await createInvite(api, campaignId, {
    email: person.email,
    name: person.name,
    sendEmail: false,
    metadata: { external_id: person.externalId, company: person.company },
  });
  const participant = participantAs(t.http, invite.token);
  const started = await participant.start().expect(201);
  let state = started.body;
  for (const answer of answersOf(person)) {
    if (state.turn === null) break;
    state = (await participant.answer(answer).expect(200)).body;
  }
  expect(state.session.status).toBe('completed');
  await runCompletionChain(t, started.body.session.id);
  return { sessionId: started.body.session.id, inviteId: invite.id };
}

async function downloaded(url: string): Promise<Buffer> {
  return (await asBytes(t.http.get(new URL(url).pathname)).expect(200)).body as Buffer;
}

/** Everything that would say who took part: identity, contact, metadata, and every original id. */
async function identifying(sessionIds: string[], people: Person[], extra: string[]): Promise<string[]> {
  const ids = await t
    .em()
    .execute<{ id: string }[]>(
      `select id from session_utterances where session_id in (?) union all select id from session_files where session_id in (?) union all select invite_id from sessions where id in (?)`,
      [sessionIds, sessionIds, sessionIds],
    );
  return [
    ...sessionIds,
    ...ids.map((row) => row.id),
    tenant.organizationId,
    ...extra,
    ...people.flatMap((person) => [
      person.email,
      person.email.split('@')[0]!,
      person.name,
      ...person.name.split(' '),
      person.phone,
      person.phone.replace(/\D/g, '').slice(-7),
      person.company,
      person.externalId,
    ]),
  ];
}

function expectNoneIn(content: string, needles: string[]): void {
  const lower = content.toLowerCase();
  const found = needles.filter((needle) => lower.includes(needle.toLowerCase()));
  expect(found).toEqual([]);
}

describe('anonymizedExports.create', () => {
  it('JSON of a campaign: no email, name, phone, metadata or original id anywhere in the file; pseudonyms consistent; questions, answers, effective sentiment, relative times and statuses kept', async () => {
    const { campaign } = await interviewFixture(api, { questions: RESULTS_QUESTIONS });
    const margaret = await interviewOf(campaign.id, MARGARET);
    const katherine = await interviewOf(campaign.id, KATHERINE);
    const [answer] = await t
      .em()
      .execute<{ id: string; sentiment: string }[]>(
        `select id, sentiment from session_utterances where session_id = ? and speaker = 'participant' order by seq limit 1`,
        [katherine.sessionId],
      );
    const override = answer!.sentiment === 'positive' ? 'negative' : 'positive';
    await client.sentimentOverrides.set.mutate({ sessionId: katherine.sessionId, utteranceId: answer!.id, sentiment: override });

    const created = await client.anonymizedExports.create.mutate({ campaignId: campaign.id, format: 'json' });
    expect(created).toMatchObject({ id: expect.stringMatching(/^anx_/), format: 'json', sessionCount: 2, url: expect.stringContaining('/files/') });
    const expiresIn = new Date(created.expiresAt).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(3590_000);
    expect(expiresIn).toBeLessThanOrEqual(3600_000);

    const bytes = await downloaded(created.url);
    const [row] = await t
      .em()
      .execute<{ organization_id: string; session_count: number; size_bytes: string; sha256: string; created_by_kind: string; scope: unknown }[]>(
        `select organization_id, session_count, size_bytes, sha256, created_by_kind, scope from anonymized_exports where id = ?`,
        [created.id],
      );
    expect(row).toMatchObject({
      organization_id: tenant.organizationId,
      session_count: 2,
      created_by_kind: 'api_key',
      scope: { type: 'campaign', id: campaign.id },
    });
    expect(Number(row!.size_bytes)).toBe(bytes.length);
    expect(row!.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));

    const content = bytes.toString('utf8');
    expectNoneIn(
      content,
      await identifying([margaret.sessionId, katherine.sessionId], [MARGARET, KATHERINE], [campaign.id, margaret.inviteId, katherine.inviteId]),
    );

    const file = JSON.parse(content);
    expect(file.campaigns).toEqual([{ id: 'campaign_1', name: expect.any(String) }]);
    expect(
      file.sessions.map((session: { id: string; participantId: string; campaignId: string }) => [session.id, session.participantId, session.campaignId]),
    ).toEqual([
      ['session_1', 'participant_1', 'campaign_1'],
      ['session_2', 'participant_2', 'campaign_1'],
    ]);
    const [first, second] = file.sessions;
    expect(first).toMatchObject({
      status: 'completed',
      completionStatus: 'completed',
      language: 'en',
      transcriptStatus: 'ready',
      questionsAnswered: 5,
      totalQuestions: 5,
    });
    expect(first.durationSeconds).toEqual(expect.any(Number));
    expect(first.sentiment).toEqual({ overall: expect.any(String), score: expect.any(Number) });
    expect(first.answers).toEqual(
      expect.arrayContaining([
        { questionId: 'ease', question: 'How easy was the setup?', type: 'rating', value: 4 },
        { questionId: 'recommend', question: 'Would you recommend it to a colleague?', type: 'yes_no', value: true },
      ]),
    );
    const opening = first.utterances.find((utterance: { speaker: string }) => utterance.speaker === 'participant');
    expect(opening.text).toBe(
      'Hi, [NAME REDACTED] here from [REDACTED]. The onboarding emails had broken links and the setup took two days; write to [EMAIL REDACTED] or call [PHONE REDACTED].',
    );
    expect(first.utterances[0]).toMatchObject({ index: 0, speaker: 'ai', questionId: 'experience', startTime: expect.any(Number) });
    expect(first.utterances[0].startTime).toBeLessThan(60);
    expect(Object.keys(first.utterances[0]).sort()).toEqual([
      'endTime',
      'index',
      'keywords',
      'questionId',
      'sentiment',
      'speaker',
      'startTime',
      'text',
      'value',
    ]);
    expect(Object.keys(first).sort()).toEqual(
      [
        'answers',
        'campaignId',
        'completionStatus',
        'durationSeconds',
        'id',
        'language',
        'participantId',
        'questionsAnswered',
        'sentiment',
        'status',
        'totalQuestions',
        'transcriptStatus',
        'utterances',
      ].sort(),
    );
    // The override is what the export shows.
    expect(second.utterances.find((utterance: { speaker: string }) => utterance.speaker === 'participant').sentiment).toBe(override);

    // The same sessions again in another file: the same pseudonyms only by order, no link between files.
    const again = await client.anonymizedExports.create.mutate({ sessionIds: [katherine.sessionId, margaret.sessionId, katherine.sessionId], format: 'json' });
    expect(again.sessionCount).toBe(2);
  });

  it('CSV of a project and of listed sessions: one row per utterance with pseudonyms, nothing identifying; the link is refused once expired', async () => {
    const project = await createProject(api);
    const script = await createPublishedScript(api, { questions: RESULTS_QUESTIONS });
    const campaign = await createCampaign(api, { scriptId: script.id, projectId: project.id });
    const margaret = await interviewOf(campaign.id, MARGARET);
    const katherine = await interviewOf(campaign.id, KATHERINE);

    for (const input of [{ projectId: project.id }, { sessionIds: [margaret.sessionId, katherine.sessionId] }]) {
      const created = await client.anonymizedExports.create.mutate({ ...input, format: 'csv' });
      expect(created.sessionCount).toBe(2);
      const content = (await downloaded(created.url)).toString('utf8');
      expectNoneIn(
        content,
        await identifying([margaret.sessionId, katherine.sessionId], [MARGARET, KATHERINE], [campaign.id, project.id, margaret.inviteId, katherine.inviteId]),
      );
      const records = parse(content, { columns: true, record_delimiter: '\r\n' }) as Record<string, string>[];
      expect(new Set(records.map((record) => record.session_id))).toEqual(new Set(['session_1', 'session_2']));
      expect(new Set(records.map((record) => record.participant_id))).toEqual(new Set(['participant_1', 'participant_2']));
      expect(records.every((record) => record.campaign_id === 'campaign_1')).toBe(true);
      expect(records.find((record) => record.question_id === 'ease' && record.speaker === 'participant')!.value).toBe('4');
      expect(
        records.filter((record) => record.speaker === 'participant').every((record) => ['positive', 'neutral', 'negative'].includes(record.sentiment!)),
      ).toBe(true);
    }

    const created = await client.anonymizedExports.create.mutate({ sessionIds: [margaret.sessionId], format: 'csv' });
    await t.em().execute(`update anonymized_exports set expires_at = now() - interval '1 second' where id = ?`, [created.id]);
    await t.http.get(new URL(created.url).pathname).expect(404);
    // The next export deletes expired ones, and adds the job that deletes their files.
    const [expired] = await t.em().execute<{ storage_key: string }[]>(`select storage_key from anonymized_exports where id = ?`, [created.id]);
    await client.anonymizedExports.create.mutate({ sessionIds: [margaret.sessionId], format: 'json' });
    expect(await t.em().execute(`select id from anonymized_exports where id = ?`, [created.id])).toEqual([]);
    const jobs = await t
      .em()
      .execute<{ payload: { keys: string[] } }[]>(
        `select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'storage__delete_files'`,
      );
    expect(jobs.map((job) => job.payload.keys)).toContainEqual([expired!.storage_key]);
    await t.runtime.services.storage.open(expired!.storage_key).then((stream) => stream.destroy());
    await runJobsOnce(t, { tasks: ['storage__delete_files'] });
    await expect(t.runtime.services.storage.open(expired!.storage_key)).rejects.toThrow();
  });

  it('answers 400 with the field for no scope or two, 404 naming the field for another organization or an unknown session, 422 for an unfinished session, 403 without sessions:read', async () => {
    const { campaign } = await interviewFixture(api, { questions: RESULTS_QUESTIONS });
    const finished = await interviewOf(campaign.id, MARGARET);

    const none = await trpcFailure(client.anonymizedExports.create.mutate({ format: 'json' }));
    expect(none.httpStatus).toBeGreaterThanOrEqual(400);
    expect(none.httpStatus).toBeLessThan(500);
    expect(none.details.fields).toEqual([{ path: 'campaignId', message: 'one of campaignId, projectId or sessionIds is required' }]);
    const two = await trpcFailure(client.anonymizedExports.create.mutate({ campaignId: campaign.id, sessionIds: [finished.sessionId], format: 'json' }));
    expect(two.details.fields).toEqual([expect.objectContaining({ path: 'sessionIds' })]);
    const bad = await trpcFailure(client.anonymizedExports.create.mutate({ campaignId: campaign.id, format: 'xml' as never }));
    expect(bad.details.fields).toEqual([expect.objectContaining({ path: 'format' })]);

    const other = await t.createTenant();
    const outsider = t.clientOf(other);
    expect(await trpcFailure(outsider.anonymizedExports.create.mutate({ campaignId: campaign.id, format: 'json' }))).toMatchObject({
      httpStatus: 404,
      details: { fields: [{ path: 'campaignId', message: expect.any(String) }] },
    });
    expect(await trpcFailure(outsider.anonymizedExports.create.mutate({ sessionIds: [finished.sessionId], format: 'json' }))).toMatchObject({
      httpStatus: 404,
      details: { fields: [{ path: 'sessionIds[0]', message: expect.any(String) }] },
    });
    expect(await trpcFailure(client.anonymizedExports.create.mutate({ sessionIds: [finished.sessionId, 'ses_unknown'], format: 'json' }))).toMatchObject({
      httpStatus: 404,
      details: { fields: [{ path: 'sessionIds[1]', message: expect.any(String) }] },
    });
    expect(await trpcFailure(outsider.anonymizedExports.create.mutate({ projectId: 'prj_unknown', format: 'json' }))).toMatchObject({ httpStatus: 404 });

    const { invite } = await interviewFixture(api);
    const running = await participantAs(t.http, invite.token).start().expect(201);
    expect(
      await trpcFailure(client.anonymizedExports.create.mutate({ sessionIds: [finished.sessionId, running.body.session.id], format: 'json' })),
    ).toMatchObject({
      httpStatus: 422,
      details: { fields: [{ path: 'sessionIds[1]', message: 'is in_progress; only finished sessions are exported' }] },
    });

    const writer = await t.createKey(
      tenant.organizationId,
      PERMISSIONS.filter((permission) => permission !== 'sessions:read'),
    );
    expect(await trpcFailure(t.clientOf(writer).anonymizedExports.create.mutate({ campaignId: campaign.id, format: 'json' }))).toMatchObject({
      httpStatus: 403,
      appCode: 'INSUFFICIENT_PERMISSIONS',
    });
    const [count] = await t
      .em()
      .execute<{ count: number }[]>(`select count(*)::int as count from anonymized_exports where organization_id = ?`, [other.organizationId]);
    expect(count!.count).toBe(0);
  });
});
