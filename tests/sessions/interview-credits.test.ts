import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abandonIdleSession } from '../../server/domains/sessions/abandon-idle-session.js';
import { bookCreditMovement } from '../../server/domains/billing/book-credit-movement.js';
import { systemCaller } from '../../server/domains/common/caller.js';
import { chargeSession } from '../../server/domains/sessions/session-billing.js';
import { generateTranscriptJob } from '../../server/domains/sessions/session-jobs.js';
import { timeOutSession } from '../../server/domains/sessions/time-out-session.js';
import { Session } from '../../server/entities/index.js';
import { addJobs } from '../../server/jobs/add-jobs.js';
import { type Api, apiAs, createCampaign, createInvite, createPublishedScript } from '../helpers/factories.js';
import { ONE_QUESTION, PARTICIPANT_BUDGET, participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { exitOf, freePort, startServer, waitForHealthy } from '../helpers/processes.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * Credits for interviews (design.md "Limits and platform" → Credits): a start holds one minute,
 * a finish replaces the hold with the real charge (free minutes first, never below zero, the
 * rest owed), booked once per session, and a crash right after the finishing commit loses none
 * of the jobs that follow it.
 */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(PARTICIPANT_BUDGET);
});
afterAll(() => t?.close());

interface OrganizationCredits {
  balance: number;
  held: number;
  owed: number;
}

async function credits(organizationId: string): Promise<OrganizationCredits> {
  const [row] = await t
    .em()
    .execute<{ credit_balance: string; credits_held: string; credits_owed: string }[]>(
      'select credit_balance, credits_held, credits_owed from organizations where id = ?',
      [organizationId],
    );
  return { balance: Number(row!.credit_balance), held: Number(row!.credits_held), owed: Number(row!.credits_owed) };
}

async function setBalance(organizationId: string, balance: number): Promise<void> {
  await t.em().execute('update organizations set credit_balance = ? where id = ?', [balance, organizationId]);
}

interface ChargeRow {
  id: string;
  kind: string;
  amount: number;
  balance_after: number;
  source: string;
}

async function charges(organizationId: string): Promise<ChargeRow[]> {
  const rows = await t
    .em()
    .execute<{ id: string; kind: string; amount: string; balance_after: string; source: string }[]>(
      `select id, kind, amount, balance_after, source from credit_transactions where organization_id = ? and kind = 'charge' order by created_at, id`,
      [organizationId],
    );
  return rows.map((row) => ({ ...row, amount: Number(row.amount), balance_after: Number(row.balance_after) }));
}

interface SessionRow {
  status: string;
  completion_status: string | null;
  duration_seconds: number;
  hold_credits: string;
  billing: Record<string, unknown> | null;
  completed_at: Date | null;
  transcript_generated_at: Date | null;
  insights_generated_at: Date | null;
  completion_announced_at: Date | null;
}

async function sessionRow(sessionId: string): Promise<SessionRow> {
  const [row] = await t.em().execute<SessionRow[]>('select * from sessions where id = ?', [sessionId]);
  if (!row) throw new Error(`No session ${sessionId}`);
  return row;
}

/** Seconds in progress so far, set directly: an interview of many minutes without waiting for them. */
async function setActiveSeconds(sessionId: string, seconds: number): Promise<void> {
  await t.em().execute('update sessions set active_seconds = ? where id = ?', [seconds, sessionId]);
}

async function invitedParticipant(api: Api, options: { settings?: Record<string, unknown> } = {}) {
  const script = await createPublishedScript(api, { questions: ONE_QUESTION });
  const campaign = await createCampaign(api, { scriptId: script.id, ...(options.settings ? { settings: options.settings } : {}) });
  const invite = await createInvite(api, campaign.id, { email: `billing-${randomBytes(4).toString('hex')}@example.com`, sendEmail: false });
  return { campaign, invite, participant: participantAs(t.http, invite.token) };
}

/** A one-question interview that has been in progress `activeSeconds` when its answer completes it. */
async function completedInterview(api: Api, activeSeconds: number): Promise<string> {
  const { participant } = await invitedParticipant(api);
  const sessionId: string = (await participant.start().expect(201)).body.session.id;
  await setActiveSeconds(sessionId, activeSeconds);
  const reply = await participant.answer('Mostly the importer, it failed on large files.').expect(200);
  expect(reply.body.turn).toBeNull();
  expect(reply.body.session.status).toBe('completed');
  return sessionId;
}

describe('the hold at the start', () => {
  it('50 concurrent starts against credit for 10 minutes: exactly 10 start (201), 40 answer 402 INSUFFICIENT_CREDITS, the balance never moves', async () => {
    const tenant = await t.createTenant({ plan: 'free' });
    const api = apiAs(t.http, tenant);
    await setBalance(tenant.organizationId, 10);
    const script = await createPublishedScript(api, { questions: ONE_QUESTION });
    const campaign = await createCampaign(api, { scriptId: script.id });
    const bulk = await api
      .post(`/v1/campaigns/${campaign.id}/invites/bulk`, {
        invites: Array.from({ length: 50 }, (_, index) => ({ email: `burst-${index}-${randomBytes(3).toString('hex')}@example.com` })),
        sendEmail: false,
      })
      .expect(201);
    const invites = bulk.body.data as { id: string; token: string }[];
    expect(invites).toHaveLength(50);

    // Watches the organization's row while the starts race.
    const samples: OrganizationCredits[] = [];
    let racing = true;
    const sampler = (async () => {
      while (racing) {
        samples.push(await credits(tenant.organizationId));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const replies = await Promise.all(invites.map((invite) => t.http.post('/api/interview/start').set('Authorization', `Bearer ${invite.token}`).send({})));
    racing = false;
    await sampler;

    const statuses = replies.map((reply) => reply.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(40);
    for (const reply of replies.filter((candidate) => candidate.status === 402)) {
      expect(reply.body).toEqual({
        error: { code: 'INSUFFICIENT_CREDITS', message: expect.any(String), details: { required: 1 }, requestId: expect.stringMatching(/^req_/) },
      });
    }
    expect(await credits(tenant.organizationId)).toEqual({ balance: 10, held: 10, owed: 0 });
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) {
      expect(sample.balance).toBe(10);
      expect(sample.held).toBeGreaterThanOrEqual(0);
      expect(sample.held).toBeLessThanOrEqual(sample.balance);
    }

    const sessions = await t
      .em()
      .execute<{ invite_id: string; hold_credits: string; status: string }[]>('select invite_id, hold_credits, status from sessions where campaign_id = ?', [
        campaign.id,
      ]);
    expect(sessions).toHaveLength(10);
    expect(sessions.every((session) => Number(session.hold_credits) === 1 && session.status === 'in_progress')).toBe(true);
    const started = new Set(replies.flatMap((reply, index) => (reply.status === 201 ? [invites[index]!.id] : [])));
    expect(new Set(sessions.map((session) => session.invite_id))).toEqual(started);
    const [inviteCounts] = await t
      .em()
      .execute<{ started: string; pending: string }[]>(
        `select count(*) filter (where status = 'started') as started, count(*) filter (where status = 'pending') as pending from invites where campaign_id = ?`,
        [campaign.id],
      );
    expect(inviteCounts).toEqual({ started: '10', pending: '40' });
  });
});

describe('the charge at the finish', () => {
  it("charges ceil(duration / 60) minutes less the free minutes left, at the plan's price: one ledger row, the hold released, the billing snapshot kept", async () => {
    const tenant = await t.createTenant({ plan: 'professional' }); // 300 free minutes a month, then 0.8 credits a minute
    const api = apiAs(t.http, tenant);
    const before = await credits(tenant.organizationId);

    const sessionId = await completedInterview(api, 302 * 60 + 30); // 302.5 minutes → 303 minutes

    const session = await sessionRow(sessionId);
    expect(session.duration_seconds).toBe(18_150);
    expect(session.billing).toEqual({
      totalMinutes: 303,
      freeMinutesApplied: 300,
      billableMinutes: 3,
      amountCredits: 2.4,
      chargedCredits: 2.4,
      owedCredits: 0,
      plan: 'professional',
      pricePerMinuteCredits: 0.8,
    });
    expect(Number(session.hold_credits)).toBe(0);
    expect(await charges(tenant.organizationId)).toEqual([
      { id: expect.stringMatching(/^txn_/), kind: 'charge', amount: -2.4, balance_after: before.balance - 2.4, source: `session:${sessionId}` },
    ]);
    expect(await credits(tenant.organizationId)).toEqual({ balance: before.balance - 2.4, held: 0, owed: 0 });
  });

  it("applies the month's free minutes first: a session within them costs nothing, the next pays only for the minutes beyond", async () => {
    const tenant = await t.createTenant({ plan: 'free' }); // 10 free minutes a month, then 1 credit a minute; 30 credits included
    const api = apiAs(t.http, tenant);

    const first = await completedInterview(api, 330); // 5.5 minutes → 6, all free
    expect((await sessionRow(first)).billing).toMatchObject({
      totalMinutes: 6,
      freeMinutesApplied: 6,
      billableMinutes: 0,
      amountCredits: 0,
      chargedCredits: 0,
    });
    expect(await charges(tenant.organizationId)).toEqual([]);
    expect(await credits(tenant.organizationId)).toEqual({ balance: 30, held: 0, owed: 0 });

    const second = await completedInterview(api, 390); // 6.5 minutes → 7: the 4 free minutes left, then 3 paid
    expect((await sessionRow(second)).billing).toMatchObject({
      totalMinutes: 7,
      freeMinutesApplied: 4,
      billableMinutes: 3,
      amountCredits: 3,
      chargedCredits: 3,
    });
    expect(await charges(tenant.organizationId)).toEqual([expect.objectContaining({ amount: -3, balance_after: 27, source: `session:${second}` })]);
    expect(await credits(tenant.organizationId)).toEqual({ balance: 27, held: 0, owed: 0 });
  });

  it("five sessions finishing at once share the month's free minutes exactly once: each reads the free minutes the others used", async () => {
    const tenant = await t.createTenant({ plan: 'free' }); // 10 free minutes a month, then 1 credit a minute; 30 credits included
    const api = apiAs(t.http, tenant);
    const participants = [];
    for (let index = 0; index < 5; index += 1) {
      const { participant } = await invitedParticipant(api);
      const sessionId: string = (await participant.start().expect(201)).body.session.id;
      await setActiveSeconds(sessionId, 150); // 2.5 minutes each, billed as 3 (the half minute leaves room for the time the answers take): 15 in all, 10 of them free
      participants.push({ participant, sessionId });
    }

    const replies = await Promise.all(participants.map(({ participant }) => participant.answer('The export, every single week.')));
    expect(replies.map((reply) => [reply.status, reply.body.session.status])).toEqual(Array.from({ length: 5 }, () => [200, 'completed']));

    const bills = await Promise.all(
      participants.map(async ({ sessionId }) => (await sessionRow(sessionId)).billing as { freeMinutesApplied: number; chargedCredits: number }),
    );
    expect(bills.reduce((sum, bill) => sum + bill.freeMinutesApplied, 0)).toBe(10);
    expect(bills.reduce((sum, bill) => sum + bill.chargedCredits, 0)).toBe(5);
    expect(await credits(tenant.organizationId)).toEqual({ balance: 25, held: 0, owed: 0 });
  });

  it('a balance too small for the charge: charged what is there, the rest recorded as owed, the balance exactly 0', async () => {
    const tenant = await t.createTenant({ plan: 'free' });
    const api = apiAs(t.http, tenant);
    await setBalance(tenant.organizationId, 2);

    const sessionId = await completedInterview(api, 870); // 14.5 minutes → 15: 10 free, 5 paid

    expect((await sessionRow(sessionId)).billing).toMatchObject({
      totalMinutes: 15,
      freeMinutesApplied: 10,
      billableMinutes: 5,
      amountCredits: 5,
      chargedCredits: 2,
      owedCredits: 3,
    });
    expect(await charges(tenant.organizationId)).toEqual([expect.objectContaining({ amount: -2, balance_after: 0, source: `session:${sessionId}` })]);
    expect(await credits(tenant.organizationId)).toEqual({ balance: 0, held: 0, owed: 3 });
  });

  it('a session abandoned after 0 seconds in progress costs nothing and releases its hold', async () => {
    const tenant = await t.createTenant({ plan: 'free' });
    const api = apiAs(t.http, tenant);
    const { participant } = await invitedParticipant(api);
    const sessionId: string = (await participant.start().expect(201)).body.session.id;
    expect(await credits(tenant.organizationId)).toEqual({ balance: 30, held: 1, owed: 0 });
    await t.em().execute('update sessions set active_since = now() where id = ?', [sessionId]);

    const ended = await participant.end().expect(200);

    expect(ended.body.session).toMatchObject({ status: 'abandoned', completionStatus: 'abandoned', duration: 0 });
    expect((await sessionRow(sessionId)).billing).toMatchObject({
      totalMinutes: 0,
      freeMinutesApplied: 0,
      billableMinutes: 0,
      amountCredits: 0,
      chargedCredits: 0,
      owedCredits: 0,
    });
    expect(await charges(tenant.organizationId)).toEqual([]);
    expect(await credits(tenant.organizationId)).toEqual({ balance: 30, held: 0, owed: 0 });
  });
});

describe('the charge is booked once per session', () => {
  let tenant: TestTenant;
  let api: Api;

  beforeAll(async () => {
    tenant = await t.createTenant({ plan: 'free' });
    api = apiAs(t.http, tenant);
  });

  it('a second end is a no-op, and the timeout and idle jobs that come due afterwards change nothing', async () => {
    const { participant } = await invitedParticipant(api, { settings: { maxDuration: 3600 } });
    const sessionId: string = (await participant.start().expect(201)).body.session.id;
    const balance = (await credits(tenant.organizationId)).balance;
    await setActiveSeconds(sessionId, 870); // 15 minutes: 10 free (this tenant's first session), 5 paid

    await participant.end().expect(200);
    const finished = await sessionRow(sessionId);
    expect(finished.billing).toMatchObject({ billableMinutes: 5, chargedCredits: 5 });
    expect(await credits(tenant.organizationId)).toEqual({ balance: balance - 5, held: 0, owed: 0 });

    const again = await participant.end().expect(200);
    expect(again.body.session).toMatchObject({ id: sessionId, status: 'abandoned' });

    // The session's watch jobs, brought forward: they find it finished.
    const moved = await t
      .em()
      .execute<{ id: string }[]>(`update graphile_worker._private_jobs set run_at = now() where key in (?, ?) returning id`, [
        `session-timeout:${sessionId}`,
        `session-idle:${sessionId}`,
      ]);
    expect(moved).toHaveLength(2);
    await runJobsOnce(t, { tasks: ['session__time_out', 'session__abandon_idle'] });
    expect(await timeOutSession({ em: t.em() }, { sessionId })).toBe('nothing');
    expect(await abandonIdleSession({ em: t.em(), services: t.runtime.services }, { sessionId, now: new Date(Date.now() + 86_400_000) })).toBe('nothing');

    const after = await sessionRow(sessionId);
    expect(after).toMatchObject({ status: 'abandoned', completion_status: 'abandoned', billing: finished.billing, completed_at: finished.completed_at });
    expect(await charges(tenant.organizationId)).toEqual([expect.objectContaining({ amount: -5, source: `session:${sessionId}` })]);
    expect(await credits(tenant.organizationId)).toEqual({ balance: balance - 5, held: 0, owed: 0 });
  });

  it("booking a billed session again is a no-op: the ledger's unique source keeps one row, and the balance, holds and debt stay as they were", async () => {
    const tenant = await t.createTenant({ plan: 'free' });
    const api = apiAs(t.http, tenant);
    await setBalance(tenant.organizationId, 2);
    const sessionId = await completedInterview(api, 870); // 5 paid minutes: 2 charged, 3 owed
    const billed = await credits(tenant.organizationId);
    expect(billed).toEqual({ balance: 0, held: 0, owed: 3 });
    const billing = (await sessionRow(sessionId)).billing;

    const repeated = await t.em().transactional(async (tx) => {
      const session = await tx.findOneOrFail(Session, sessionId);
      return {
        booking: await bookCreditMovement({ em: tx }, systemCaller(tenant.organizationId), { amount: -2, kind: 'charge', source: `session:${sessionId}` }),
        charge: await chargeSession(tx, session, new Date()),
      };
    });

    expect(repeated.booking.duplicate).toBe(true);
    expect(repeated.charge).toEqual(billing);
    expect(await charges(tenant.organizationId)).toHaveLength(1);
    expect(await credits(tenant.organizationId)).toEqual(billed);
  });
});

describe('a crash between the finishing commit and its jobs', () => {
  it('loses no job: the session is completed, billed and its transcript job queued; the chain transcript → insights → announcement then runs once', async () => {
    const tenant = await t.createTenant({ plan: 'free' });
    const api = apiAs(t.http, tenant);
    const { invite, participant } = await invitedParticipant(api);
    const sessionId: string = (await participant.start().expect(201)).body.session.id;
    await setActiveSeconds(sessionId, 690); // 11.5 minutes → 12: 10 free, 2 paid

    const port = await freePort();
    const server = startServer(
      {
        ...PARTICIPANT_BUDGET,
        DATABASE_URL: t.database.url,
        DATA_DIR: t.dataDir,
        PORT: String(port),
        PUBLIC_URL: 'http://127.0.0.1:3000',
        TEST_FAULTS: 'session:after-finish',
      },
      ['--role=api'],
    );
    await waitForHealthy(server, port, 60_000);
    const lastAnswer = fetch(`http://127.0.0.1:${port}/api/interview/answer`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${invite.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'Mostly the importer, it failed on large files.' }),
    });
    await expect(lastAnswer).rejects.toThrow();
    await exitOf(server.child);
    expect(server.child.signalCode).toBe('SIGKILL');

    // Everything the finish wrote committed together, its first job included.
    const finished = await sessionRow(sessionId);
    expect(finished).toMatchObject({ status: 'completed', completion_status: 'completed', transcript_generated_at: null });
    expect(finished.billing).toMatchObject({ totalMinutes: 12, freeMinutesApplied: 10, billableMinutes: 2, chargedCredits: 2 });
    expect(await credits(tenant.organizationId)).toEqual({ balance: 28, held: 0, owed: 0 });
    expect(await charges(tenant.organizationId)).toEqual([expect.objectContaining({ amount: -2, source: `session:${sessionId}` })]);
    const [inviteRow] = await t.em().execute<{ status: string }[]>('select status from invites where id = ?', [invite.id]);
    expect(inviteRow!.status).toBe('completed');
    const chainJobs = () =>
      t
        .em()
        .execute<{ task_identifier: string }[]>(`select task_identifier from graphile_worker.jobs where key in (?, ?, ?) order by task_identifier`, [
          `session-transcript:${sessionId}`,
          `session-insights:${sessionId}`,
          `session-announce:${sessionId}`,
        ]);
    expect(await chainJobs()).toEqual([{ task_identifier: 'session__generate_transcript' }]);

    // A worker comes along afterwards and runs the chain, each step adding the next.
    for (let pass = 0; pass < 5 && (await sessionRow(sessionId)).completion_announced_at === null; pass++) await runJobsOnce(t);
    const done = await sessionRow(sessionId);
    expect(done.transcript_generated_at).not.toBeNull();
    expect(done.insights_generated_at).not.toBeNull();
    expect(done.completion_announced_at).not.toBeNull();
    expect(new Date(done.transcript_generated_at!).getTime()).toBeLessThanOrEqual(new Date(done.insights_generated_at!).getTime());
    expect(new Date(done.insights_generated_at!).getTime()).toBeLessThanOrEqual(new Date(done.completion_announced_at!).getTime());
    expect(await chainJobs()).toEqual([]);

    // A retried first step (and another run of everything) neither repeats a step nor restarts the chain.
    await addJobs(t.em(), [generateTranscriptJob(sessionId)]);
    await runJobsOnce(t);
    await runJobsOnce(t);
    const rerun = await sessionRow(sessionId);
    expect(rerun).toMatchObject({
      transcript_generated_at: done.transcript_generated_at,
      insights_generated_at: done.insights_generated_at,
      completion_announced_at: done.completion_announced_at,
      billing: done.billing,
    });
    expect(await chainJobs()).toEqual([]);
    expect(await credits(tenant.organizationId)).toEqual({ balance: 28, held: 0, owed: 0 });
  }, 90_000);
});

describe('what is owed, and free minutes already used', () => {
  it('a debt counts against what is available (402 until it is covered), and credits granted pay it first', async () => {
    const tenant = await t.createTenant({ plan: 'free' });
    const api = apiAs(t.http, tenant);
    await t.em().execute('update organizations set credit_balance = 1, credits_owed = 50 where id = ?', [tenant.organizationId]);
    const { participant } = await invitedParticipant(api);
    const refused = await participant.start();
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('INSUFFICIENT_CREDITS');

    const { grantCredits } = await import('../../server/domains/organizations/grant-credits.js');
    const granted = await grantCredits({ em: t.em() }, systemCaller(tenant.organizationId), { amount: 60 });
    expect(granted.balance).toBe(11);
    expect(await credits(tenant.organizationId)).toEqual({ balance: 11, held: 0, owed: 0 });
    expect((await charges(tenant.organizationId)).map((row) => [row.amount, row.source])).toEqual([[-50, `debt:${granted.transactionId}`]]);
    await participant.start().expect(201);
  });

  it("deleting a campaign (and its sessions) does not give the month's free minutes back", async () => {
    const tenant = await t.createTenant({ plan: 'free' }); // 10 free minutes a month
    const api = apiAs(t.http, tenant);
    const firstId = await completedInterview(api, 10 * 60);
    expect((await sessionRow(firstId)).billing).toMatchObject({ freeMinutesApplied: 10 });
    const [first] = await t.em().execute<{ campaign_id: string }[]>('select campaign_id from sessions where id = ?', [firstId]);
    await api.post(`/v1/campaigns/${first!.campaign_id}/archive`).expect(200);
    await api.delete(`/v1/campaigns/${first!.campaign_id}`).expect(204);

    const secondId = await completedInterview(api, 5 * 60);
    expect((await sessionRow(secondId)).billing).toMatchObject({ totalMinutes: 5, freeMinutesApplied: 0, billableMinutes: 5, chargedCredits: 5 });
  });
});
