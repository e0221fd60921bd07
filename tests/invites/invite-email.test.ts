import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer, type SMTPServerError } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailTemplates } from '../../server/email/templates.js';
import { Campaign, Invite } from '../../server/entities/index.js';
import { sendInviteEmail } from '../../server/domains/invites/send-invite-email.js';
import { type Api, apiAs, createCampaign, createInvite, createPublishedScript, type InviteBody, uniqueName } from '../helpers/factories.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const EMAIL_FROM = '"Acme Research" <research@acme.test>';
const ORGANIZATION_NAME = 'Acme Research Lab';

interface Delivery {
  envelope: { from: string | false; to: string[] };
  email: Email;
}

/** Everything the SMTP server accepted, in order. */
const delivered: Delivery[] = [];
/**
 * Replies the SMTP server gives to RCPT TO for an address, one per attempt, before it accepts:
 * `[451]` refuses the first attempt temporarily and accepts the next.
 */
const rcptReplies = new Map<string, number[]>();

let smtp: SMTPServer;
let smtpUrl: string;
let t: TestApp;
let api: Api;
const temporaryDirs: string[] = [];

function uniqueAddress(local: string): string {
  return `${local}.${randomBytes(4).toString('hex')}@example.test`;
}

function deliveriesTo(address: string): Delivery[] {
  return delivered.filter((delivery) => delivery.envelope.to.includes(address));
}

interface JobRow {
  task_identifier: string;
  attempts: number;
  max_attempts: number;
  /** run_at is later than the database's now(). */
  in_future: boolean;
  last_error: string | null;
}

async function emailJobs(app: TestApp, inviteId: string): Promise<JobRow[]> {
  return app
    .em()
    .execute<JobRow[]>(`select task_identifier, attempts, max_attempts, run_at > now() as in_future, last_error from graphile_worker.jobs where key = ?`, [
      `invite-email:${inviteId}`,
    ]);
}

async function countEmailJobs(app: TestApp): Promise<number> {
  const [row] = await app.em().execute<{ count: string }[]>(`select count(*) from graphile_worker.jobs where task_identifier = 'invite__send_email'`);
  return Number(row!.count);
}

/** Makes the invite's rescheduled email job due now; `attempts` simulates earlier failed runs. */
async function makeEmailJobDue(app: TestApp, inviteId: string, attempts?: number): Promise<void> {
  await app
    .em()
    .execute(`update graphile_worker._private_jobs set run_at = now(), attempts = coalesce(?, attempts) where key = ?`, [
      attempts ?? null,
      `invite-email:${inviteId}`,
    ]);
}

async function storedEmailError(app: TestApp, inviteId: string): Promise<string | null> {
  const [row] = await app.em().execute<{ email_error: string | null }[]>(`select email_error from invites where id = ?`, [inviteId]);
  return row!.email_error;
}

async function namedCampaign(as: Api, overrides: Record<string, unknown> = {}) {
  const name = uniqueName('Onboarding study');
  const campaign = await createCampaign(as, { name, ...overrides });
  return { ...campaign, name };
}

beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = rcptReplies.get(address.address)?.shift();
      if (code === undefined) return callback();
      const error: SMTPServerError = new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later');
      error.responseCode = code;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks)).then(
          (email) => {
            delivered.push({
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : false,
                to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              },
              email,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;

  t = await startTestApp({ SMTP_URL: smtpUrl, EMAIL_FROM });
  api = apiAs(t.http, await t.createTenant());
  await api.patch('/v1/organization', { name: ORGANIZATION_NAME }).expect(200);
});

afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(resolve) : resolve()));
  await Promise.all(temporaryDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('delivering an invitation over SMTP', () => {
  it('the invitation reaches the recipient from EMAIL_FROM, naming organization and campaign, with the invite link', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('ada');
    const invite = await createInvite(api, campaign.id, { email: address, name: 'Ada Lovelace' });
    expect(invite.emailStatus).toBe('queued');
    expect(invite.inviteUrl).toBe(`http://127.0.0.1:3000/interview/${invite.token}`);

    await runJobsOnce(t);

    const [delivery, ...others] = deliveriesTo(address);
    expect(others).toEqual([]);
    expect(delivery!.envelope).toEqual({ from: 'research@acme.test', to: [address] });
    const { email } = delivery!;
    expect(email.to).toEqual([{ name: 'Ada Lovelace', address }]);
    expect(email.from).toEqual({ name: 'Acme Research', address: 'research@acme.test' });
    expect(email.subject).toBe(`${ORGANIZATION_NAME} invites you to an interview: ${campaign.name}`);
    expect(email.html).toContain(`href="${invite.inviteUrl}"`);
    expect(email.text).toContain(invite.inviteUrl);
    expect(email.text).toContain(invite.token);
    expect(email.text!.startsWith('Hello Ada Lovelace,')).toBe(true);
  });

  it("is written in the invite's language, else the campaign's", async () => {
    const campaign = await namedCampaign(api);
    const dutch = uniqueAddress('sanne');
    await createInvite(api, campaign.id, { email: dutch, name: 'Sanne', language: 'nl' });
    const german = await createCampaign(api, { name: uniqueName('Studie'), settings: { language: 'de' } });
    const address = uniqueAddress('jonas');
    await createInvite(api, german.id, { email: address, name: 'Jonas' });
    await runJobsOnce(t);
    const [nl] = deliveriesTo(dutch);
    expect(nl!.email.subject).toBe(`${ORGANIZATION_NAME} nodigt je uit voor een interview: ${campaign.name}`);
    expect(nl!.email.text!.startsWith('Hallo Sanne,')).toBe(true);
    const [de] = deliveriesTo(address);
    expect(de!.email.subject).toBe(`${ORGANIZATION_NAME} lädt dich zu einem Interview ein: ${german.name}`);
    expect(de!.email.text).toContain('Diese Einladung läuft am ');
  });

  it('the link in the email opens the participant page of the campaign without an API key', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('grace');
    const invite = await createInvite(api, campaign.id, { email: address });
    await runJobsOnce(t);

    const html = deliveriesTo(address)[0]!.email.html!;
    const link = /href="([^"]+\/interview\/[^"]+)"/.exec(html)![1]!;
    expect(link).toBe(invite.inviteUrl);

    const page = await t.http.get(new URL(link).pathname);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain(campaign.name);
  });

  it('after delivery the invite reads emailStatus sent with emailSentAt set, and no job is left', async () => {
    const campaign = await namedCampaign(api);
    const invite = await createInvite(api, campaign.id, { email: uniqueAddress('sent') });
    const before = Date.now();
    await runJobsOnce(t);

    const response = await api.get(`/v1/invites/${invite.id}`).expect(200);
    expect(response.body.emailStatus).toBe('sent');
    expect(Date.parse(response.body.emailSentAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(response.body.emailSentAt)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await emailJobs(t, invite.id)).toEqual([]);
  });

  it('creating an invite enqueues one invite__send_email job keyed by the invite, with 5 attempts', async () => {
    const campaign = await namedCampaign(api);
    const invite = await createInvite(api, campaign.id, { email: uniqueAddress('queued') });

    const jobs = await emailJobs(t, invite.id);
    expect(jobs).toEqual([expect.objectContaining({ task_identifier: 'invite__send_email', attempts: 0, max_attempts: 5 })]);
    await runJobsOnce(t);
  });

  it('sendEmail false queues no job and delivers nothing', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('silent');
    const invite = await createInvite(api, campaign.id, { email: address, sendEmail: false });
    expect(invite.emailStatus).toBe('not_sent');
    expect(await emailJobs(t, invite.id)).toEqual([]);

    await runJobsOnce(t);

    expect(deliveriesTo(address)).toEqual([]);
    const response = await api.get(`/v1/invites/${invite.id}`).expect(200);
    expect(response.body).toMatchObject({ emailStatus: 'not_sent', emailSentAt: null });
  });

  it('a bulk create delivers one message per invite, each carrying its own token', async () => {
    const campaign = await namedCampaign(api);
    const addresses = [uniqueAddress('bulk1'), uniqueAddress('bulk2'), uniqueAddress('bulk3')];
    const response = await api
      .post(`/v1/campaigns/${campaign.id}/invites/bulk`, { invites: addresses.map((email, i) => ({ email, name: `Participant ${i + 1}` })) })
      .expect(201);
    const invites = response.body.data as InviteBody[];
    expect(invites).toHaveLength(3);
    expect(new Set(invites.map((invite) => invite.token)).size).toBe(3);

    await runJobsOnce(t);

    invites.forEach((invite, i) => {
      const messages = deliveriesTo(addresses[i]!);
      expect(messages).toHaveLength(1);
      const { email } = messages[0]!;
      expect(email.to).toEqual([{ name: `Participant ${i + 1}`, address: addresses[i] }]);
      expect(email.html).toContain(`href="${invite.inviteUrl}"`);
      expect(email.text).toContain(invite.inviteUrl);
      for (const other of invites.filter((candidate) => candidate.id !== invite.id)) {
        expect(email.text).not.toContain(other.token);
        expect(email.html).not.toContain(other.token);
      }
    });
    const list = await api.get(`/v1/campaigns/${campaign.id}/invites`).expect(200);
    expect(list.body.data.map((invite: InviteBody) => invite.emailStatus)).toEqual(['sent', 'sent', 'sent']);
  });
});

describe('delivery failures', () => {
  it('a 451 reply keeps the email queued and reschedules the job in the future with attempts 1', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('greylisted');
    rcptReplies.set(address, [451]);
    const invite = await createInvite(api, campaign.id, { email: address });

    await runJobsOnce(t);

    expect(deliveriesTo(address)).toEqual([]);
    const response = await api.get(`/v1/invites/${invite.id}`).expect(200);
    expect(response.body).toMatchObject({ emailStatus: 'queued', emailSentAt: null });
    const [job, ...others] = await emailJobs(t, invite.id);
    expect(others).toEqual([]);
    expect(job!.attempts).toBe(1);
    expect(job!.max_attempts).toBe(5);
    expect(job!.in_future).toBe(true);
    expect(job!.last_error).toBeTruthy();
    const error = await storedEmailError(t, invite.id);
    expect(error).toContain('451');
    expect(error).not.toContain(address);
  });

  it('a temporarily refused email is delivered on a later attempt, once', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('later');
    rcptReplies.set(address, [451]);
    const invite = await createInvite(api, campaign.id, { email: address });
    await runJobsOnce(t);
    expect(deliveriesTo(address)).toEqual([]);

    await makeEmailJobDue(t, invite.id);
    await runJobsOnce(t);

    expect(deliveriesTo(address)).toHaveLength(1);
    expect(deliveriesTo(address)[0]!.email.text).toContain(invite.inviteUrl);
    const response = await api.get(`/v1/invites/${invite.id}`).expect(200);
    expect(response.body.emailStatus).toBe('sent');
    expect(response.body.emailSentAt).not.toBeNull();
    expect(await storedEmailError(t, invite.id)).toBeNull();
    expect(await emailJobs(t, invite.id)).toEqual([]);
  });

  it('a 550 reply marks the invite bounced and leaves no job to retry', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('nobody');
    rcptReplies.set(address, [550, 550, 550, 550, 550]);
    const invite = await createInvite(api, campaign.id, { email: address });

    await runJobsOnce(t);

    expect(deliveriesTo(address)).toEqual([]);
    const response = await api.get(`/v1/invites/${invite.id}`).expect(200);
    expect(response.body).toMatchObject({ emailStatus: 'bounced', emailSentAt: null });
    expect(await emailJobs(t, invite.id)).toEqual([]);
    expect(await storedEmailError(t, invite.id)).toContain('550');
    rcptReplies.delete(address);
  });

  it('a temporary failure on the last (5th) attempt marks the invite failed and leaves no job', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('unlucky');
    rcptReplies.set(address, [451]);
    const invite = await createInvite(api, campaign.id, { email: address });
    await makeEmailJobDue(t, invite.id, 4);

    await runJobsOnce(t);

    expect(deliveriesTo(address)).toEqual([]);
    const response = await api.get(`/v1/invites/${invite.id}`).expect(200);
    expect(response.body).toMatchObject({ emailStatus: 'failed', emailSentAt: null });
    expect(await emailJobs(t, invite.id)).toEqual([]);
    expect(await storedEmailError(t, invite.id)).toContain('451');
  });
});

describe('an unreachable mail server', () => {
  let unreachable: TestApp;
  let unreachableApi: Api;

  beforeAll(async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    unreachable = await startTestApp({ SMTP_URL: `smtp://mailer:hunter2secret@127.0.0.1:${port}`, EMAIL_FROM });
    unreachableApi = apiAs(unreachable.http, await unreachable.createTenant());
  });
  afterAll(() => unreachable?.close());

  it('a refused connection is temporary: the email stays queued and the job is rescheduled, without the SMTP password in the error', async () => {
    const campaign = await namedCampaign(unreachableApi);
    const invite = await createInvite(unreachableApi, campaign.id, { email: uniqueAddress('refused') });

    await runJobsOnce(unreachable);

    expect((await unreachableApi.get(`/v1/invites/${invite.id}`).expect(200)).body.emailStatus).toBe('queued');
    expect(await emailJobs(unreachable, invite.id)).toEqual([expect.objectContaining({ attempts: 1, in_future: true })]);
    const error = await storedEmailError(unreachable, invite.id);
    expect(error).toMatch(/ECONNREFUSED/);
    expect(error).not.toContain('hunter2secret');
  });
});

describe('cancel and resend', () => {
  it('cancelling before the job runs sends nothing and leaves emailStatus not_sent', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('cancelled');
    const invite = await createInvite(api, campaign.id, { email: address });
    const cancelled = await api.post(`/v1/invites/${invite.id}/cancel`).expect(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', emailStatus: 'not_sent' });

    await runJobsOnce(t);

    expect(deliveriesTo(address)).toEqual([]);
    const response = await api.get(`/v1/invites/${invite.id}`).expect(200);
    expect(response.body).toMatchObject({ status: 'cancelled', emailStatus: 'not_sent', emailSentAt: null });
    expect(await emailJobs(t, invite.id)).toEqual([]);
  });

  it('cancelling while a retry is pending: the later run sends nothing and the invite stays not_sent', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('cancel-retry');
    rcptReplies.set(address, [451]);
    const invite = await createInvite(api, campaign.id, { email: address });
    await runJobsOnce(t);
    await api.post(`/v1/invites/${invite.id}/cancel`).expect(200);

    await makeEmailJobDue(t, invite.id);
    await runJobsOnce(t);

    expect(deliveriesTo(address)).toEqual([]);
    expect((await api.get(`/v1/invites/${invite.id}`).expect(200)).body).toMatchObject({ status: 'cancelled', emailStatus: 'not_sent' });
    expect(await emailJobs(t, invite.id)).toEqual([]);
  });

  it('an invite that expired before its email job ran is not emailed and is not left reading queued', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('expired');
    const invite = await createInvite(api, campaign.id, { email: address });
    await t.em().execute(`update invites set expires_at = now() - interval '1 minute' where id = ?`, [invite.id]);

    await runJobsOnce(t);

    expect(deliveriesTo(address)).toEqual([]);
    expect(await emailJobs(t, invite.id)).toEqual([]);
    const response = await api.get(`/v1/invites/${invite.id}`).expect(200);
    expect(response.body.status).toBe('expired');
    // Nothing will ever send it now; "queued" would claim otherwise.
    expect(response.body.emailStatus).toBe('not_sent');
  });

  it.each(['pause', 'archive'])('after %s of the campaign a queued email is not sent and reads not_sent', async (action) => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress(`campaign-${action}`);
    const invite = await createInvite(api, campaign.id, { email: address });
    await api.post(`/v1/campaigns/${campaign.id}/${action}`).expect(200);

    await runJobsOnce(t);

    expect(deliveriesTo(address)).toEqual([]);
    expect(await emailJobs(t, invite.id)).toEqual([]);
    expect((await api.get(`/v1/invites/${invite.id}`).expect(200)).body.emailStatus).toBe('not_sent');
  });

  /** A mailer whose send waits until the test lets it finish, to act while a send is in flight. */
  function blockedMailer() {
    let entered!: () => void;
    let finish!: (error?: Error) => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const mailer = {
      kind: 'smtp' as const,
      close() {},
      send: () =>
        new Promise<{ messageId: string }>((resolve, reject) => {
          finish = (error) => (error ? reject(error) : resolve({ messageId: '<blocked@test>' }));
          entered();
        }),
    };
    return { mailer, inFlight, finish: (error?: Error) => finish(error) };
  }

  it('a resend during an in-flight send that then fails for good is not lost: the new request is delivered', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('resend-in-flight');
    const invite = await createInvite(api, campaign.id, { email: address });
    const blocked = blockedMailer();
    const running = sendInviteEmail(
      { em: t.em(), services: { ...t.runtime.services, mailer: blocked.mailer } },
      { inviteId: invite.id, attempt: { number: 5, maxAttempts: 5 } },
    );
    await blocked.inFlight;
    expect((await api.post(`/v1/invites/${invite.id}/resend`).expect(200)).body.emailStatus).toBe('queued');
    blocked.finish(Object.assign(new Error('try later'), { responseCode: 451, command: 'RCPT TO' }));
    await running;
    // The old request's failure did not overwrite the resend.
    expect((await api.get(`/v1/invites/${invite.id}`).expect(200)).body.emailStatus).toBe('queued');

    await runJobsOnce(t);

    expect(deliveriesTo(address)).toHaveLength(1);
    expect((await api.get(`/v1/invites/${invite.id}`).expect(200)).body.emailStatus).toBe('sent');
  });

  it('a message delivered while the invite was being cancelled records sent, not not_sent', async () => {
    const campaign = await namedCampaign(api);
    const invite = await createInvite(api, campaign.id, { email: uniqueAddress('cancel-in-flight') });
    const blocked = blockedMailer();
    const running = sendInviteEmail(
      { em: t.em(), services: { ...t.runtime.services, mailer: blocked.mailer } },
      { inviteId: invite.id, attempt: { number: 1, maxAttempts: 5 } },
    );
    await blocked.inFlight;
    await api.post(`/v1/invites/${invite.id}/cancel`).expect(200);
    blocked.finish();
    expect(await running).toBe('sent');
    const read = (await api.get(`/v1/invites/${invite.id}`).expect(200)).body;
    expect(read).toMatchObject({ status: 'cancelled', emailStatus: 'sent' });
    expect(read.emailSentAt).not.toBeNull();
  });

  it('the link of a cancelled invite answers 410', async () => {
    const campaign = await namedCampaign(api);
    const invite = await createInvite(api, campaign.id, { email: uniqueAddress('gone'), sendEmail: false });
    await t.http.get(new URL(invite.inviteUrl).pathname).expect(200);
    await api.post(`/v1/invites/${invite.id}/cancel`).expect(200);
    await t.http.get(new URL(invite.inviteUrl).pathname).expect(410);
  });

  it('resend queues a new job and delivers the invitation again, under a new Message-ID', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('again');
    const invite = await createInvite(api, campaign.id, { email: address });
    await runJobsOnce(t);
    expect(deliveriesTo(address)).toHaveLength(1);

    const resent = await api.post(`/v1/invites/${invite.id}/resend`).expect(200);
    expect(resent.body.emailStatus).toBe('queued');
    expect(await emailJobs(t, invite.id)).toEqual([expect.objectContaining({ task_identifier: 'invite__send_email', attempts: 0 })]);
    await runJobsOnce(t);

    const messages = deliveriesTo(address);
    expect(messages).toHaveLength(2);
    expect(messages[1]!.email.text).toContain(invite.inviteUrl);
    expect(messages[1]!.email.messageId).not.toBe(messages[0]!.email.messageId);
    const response = await api.get(`/v1/invites/${invite.id}`).expect(200);
    expect(response.body.emailStatus).toBe('sent');
  });

  it('resend while a retry is pending replaces that job: one job, attempts 0, due now, one delivery', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('resend-retry');
    rcptReplies.set(address, [451]);
    const invite = await createInvite(api, campaign.id, { email: address });
    await runJobsOnce(t);
    expect(await emailJobs(t, invite.id)).toEqual([expect.objectContaining({ attempts: 1, in_future: true })]);

    await api.post(`/v1/invites/${invite.id}/resend`).expect(200);
    expect(await emailJobs(t, invite.id)).toEqual([expect.objectContaining({ attempts: 0, in_future: false })]);
    await runJobsOnce(t);

    expect(deliveriesTo(address)).toHaveLength(1);
    expect((await api.get(`/v1/invites/${invite.id}`).expect(200)).body.emailStatus).toBe('sent');
  });

  it('resend of an invite created with sendEmail false delivers it', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('late');
    const invite = await createInvite(api, campaign.id, { email: address, sendEmail: false });
    await api.post(`/v1/invites/${invite.id}/resend`).expect(200);
    await runJobsOnce(t);
    expect(deliveriesTo(address)).toHaveLength(1);
    expect((await api.get(`/v1/invites/${invite.id}`).expect(200)).body.emailStatus).toBe('sent');
  });
});

describe('choosing the template', () => {
  it('emailTemplate reminder on create sends the reminder', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('reminded');
    const invite = await createInvite(api, campaign.id, { email: address, emailTemplate: 'reminder' });
    expect(invite.emailTemplate).toBe('reminder');
    await runJobsOnce(t);

    const { email } = deliveriesTo(address)[0]!;
    expect(email.subject).toBe(`Reminder: your interview for ${campaign.name}`);
    expect(email.text).toContain('friendly reminder');
    expect(email.text).toContain(invite.inviteUrl);
  });

  it("the campaign's inviteDefaults.emailTemplate is used when the invite names none", async () => {
    const campaign = await namedCampaign(api, { inviteDefaults: { emailTemplate: 'reminder' } });
    const address = uniqueAddress('defaulted');
    const invite = await createInvite(api, campaign.id, { email: address });
    expect(invite.emailTemplate).toBe('reminder');
    await runJobsOnce(t);
    expect(deliveriesTo(address)[0]!.email.subject).toBe(`Reminder: your interview for ${campaign.name}`);
  });

  it("the invite's emailTemplate wins over the campaign default", async () => {
    const campaign = await namedCampaign(api, { inviteDefaults: { emailTemplate: 'reminder' } });
    const address = uniqueAddress('explicit');
    await createInvite(api, campaign.id, { email: address, emailTemplate: 'default' });
    await runJobsOnce(t);
    expect(deliveriesTo(address)[0]!.email.subject).toBe(`${ORGANIZATION_NAME} invites you to an interview: ${campaign.name}`);
  });

  it('an unknown template on invite create answers 422 naming emailTemplate, and creates nothing', async () => {
    const campaign = await namedCampaign(api);
    const jobsBefore = await countEmailJobs(t);
    const response = await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: uniqueAddress('x'), emailTemplate: 'nope' });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.fields.map((field: { path: string }) => field.path)).toEqual(['emailTemplate']);
    expect(await t.em().count(Invite, { campaign: campaign.id })).toBe(0);
    expect(await countEmailJobs(t)).toBe(jobsBefore);
  });

  it('an unknown template on bulk create answers 422 naming emailTemplate, and creates nothing', async () => {
    const campaign = await namedCampaign(api);
    const response = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, {
      invites: [{ email: uniqueAddress('x') }, { email: uniqueAddress('y') }],
      emailTemplate: 'nope',
    });
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields.map((field: { path: string }) => field.path)).toEqual(['emailTemplate']);
    expect(await t.em().count(Invite, { campaign: campaign.id })).toBe(0);
  });

  it('an unknown inviteDefaults.emailTemplate on campaign create answers 422, and creates nothing', async () => {
    const script = await createPublishedScript(api);
    const before = await t.em().count(Campaign, {});
    const response = await api.post('/v1/campaigns', {
      name: uniqueName('Campaign'),
      scriptId: script.id,
      inviteDefaults: { emailTemplate: 'nope' },
    });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.fields.map((field: { path: string }) => field.path)).toEqual(['inviteDefaults.emailTemplate']);
    expect(await t.em().count(Campaign, {})).toBe(before);
  });

  it('an unknown inviteDefaults.emailTemplate on campaign update answers 422, and changes nothing', async () => {
    const campaign = await namedCampaign(api, { inviteDefaults: { emailTemplate: 'reminder' } });
    const response = await api.patch(`/v1/campaigns/${campaign.id}`, { name: 'Renamed', inviteDefaults: { emailTemplate: 'nope' } });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.fields.map((field: { path: string }) => field.path)).toEqual(['inviteDefaults.emailTemplate']);
    const after = await api.get(`/v1/campaigns/${campaign.id}`).expect(200);
    expect(after.body).toMatchObject({ name: campaign.name, inviteDefaults: { emailTemplate: 'reminder' } });
  });

  it('a template from EMAIL_TEMPLATES_DIR is unknown to an app started without that directory', async () => {
    const campaign = await namedCampaign(api);
    const response = await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: uniqueAddress('x'), emailTemplate: 'welcome' });
    expect(response.status).toBe(422);
  });
});

describe('a custom template from EMAIL_TEMPLATES_DIR', () => {
  let custom: TestApp;
  let customApi: Api;

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'invite-email-templates-'));
    temporaryDirs.push(dir);
    await writeFile(path.join(dir, 'welcome.subject.mustache'), 'Welcome aboard: {{campaignName}} with {{organizationName}}');
    await writeFile(path.join(dir, 'welcome.html.mustache'), '<p>{{greeting}} <a href="{{inviteUrl}}">Join {{campaignName}}</a></p>');
    await writeFile(path.join(dir, 'welcome.text.mustache'), 'WELCOME-TEMPLATE {{greeting}} {{inviteUrl}}');
    custom = await startTestApp({ SMTP_URL: smtpUrl, EMAIL_FROM, EMAIL_TEMPLATES_DIR: dir });
    customApi = apiAs(custom.http, await custom.createTenant());
  });
  afterAll(() => custom?.close());

  it('an invite naming the custom template is sent with it', async () => {
    const campaign = await namedCampaign(customApi);
    const address = uniqueAddress('welcome');
    const invite = await createInvite(customApi, campaign.id, { email: address, name: 'Ada', emailTemplate: 'welcome' });
    expect(invite.emailTemplate).toBe('welcome');
    await runJobsOnce(custom);

    const { email } = deliveriesTo(address)[0]!;
    expect(email.subject).toBe(`Welcome aboard: ${campaign.name} with Test organization`);
    expect(email.html).toContain(`<a href="${invite.inviteUrl}">Join ${campaign.name}</a>`);
    expect(email.text!.trim()).toBe(`WELCOME-TEMPLATE Hello Ada, ${invite.inviteUrl}`);
  });

  it('a campaign can name the custom template as its default', async () => {
    const campaign = await namedCampaign(customApi, { inviteDefaults: { emailTemplate: 'welcome' } });
    const address = uniqueAddress('welcome-default');
    await createInvite(customApi, campaign.id, { email: address });
    await runJobsOnce(custom);
    expect(deliveriesTo(address)[0]!.email.subject).toBe(`Welcome aboard: ${campaign.name} with Test organization`);
  });

  it('a worker that does not know the template marks the invite failed after the last attempt, not queued forever', async () => {
    const campaign = await namedCampaign(customApi);
    const address = uniqueAddress('no-template');
    const invite = await createInvite(customApi, campaign.id, { email: address, emailTemplate: 'welcome' });
    await makeEmailJobDue(custom, invite.id, 4);
    // A worker process started without EMAIL_TEMPLATES_DIR (or after the template was removed).
    const workerServices = { ...custom.runtime.services, emailTemplates: await EmailTemplates.load() };

    await runJobsOnce(custom, { services: workerServices });

    expect(deliveriesTo(address)).toEqual([]);
    const response = await customApi.get(`/v1/invites/${invite.id}`).expect(200);
    expect(response.body.emailStatus).toBe('failed');
  });

  it('the built-in templates remain available beside it', async () => {
    const campaign = await namedCampaign(customApi);
    const address = uniqueAddress('builtin');
    await createInvite(customApi, campaign.id, { email: address, emailTemplate: 'reminder' });
    await runJobsOnce(custom);
    expect(deliveriesTo(address)[0]!.email.subject).toBe(`Reminder: your interview for ${campaign.name}`);
  });
});

describe('organization branding in the email', () => {
  let branded: Api;
  let domain: string;

  beforeAll(async () => {
    branded = apiAs(t.http, await t.createTenant());
    domain = `interviews-${randomBytes(3).toString('hex')}.globex.test`;
    await branded
      .patch('/v1/organization', {
        name: 'Globex Studies',
        logo: 'https://cdn.globex.test/logo.png',
        domain,
        settings: { brandColor: '#aa3300', replyToEmail: 'team@globex.test' },
      })
      .expect(200);
  });

  it('the logo, brand colour and organization name appear in the message', async () => {
    const campaign = await namedCampaign(branded);
    const address = uniqueAddress('branded');
    await createInvite(branded, campaign.id, { email: address });
    await runJobsOnce(t);

    const { email } = deliveriesTo(address)[0]!;
    expect(email.subject).toBe(`Globex Studies invites you to an interview: ${campaign.name}`);
    expect(email.html).toContain('src="https://cdn.globex.test/logo.png"');
    expect(email.html).toContain('alt="Globex Studies"');
    expect(email.html).toContain('background-color:#aa3300');
    expect(email.html).not.toContain('#2563eb');
    expect(email.text).toContain('Sent by Globex Studies.');
  });

  it('Reply-To is the organization replyToEmail while From stays EMAIL_FROM', async () => {
    const campaign = await namedCampaign(branded);
    const address = uniqueAddress('reply');
    await createInvite(branded, campaign.id, { email: address });
    await runJobsOnce(t);

    const { email } = deliveriesTo(address)[0]!;
    expect(email.replyTo).toEqual([{ name: '', address: 'team@globex.test' }]);
    expect(email.from).toEqual({ name: 'Acme Research', address: 'research@acme.test' });
  });

  it('an organization without replyToEmail sends no Reply-To header', async () => {
    const campaign = await namedCampaign(api);
    const address = uniqueAddress('noreply');
    await createInvite(api, campaign.id, { email: address });
    await runJobsOnce(t);
    const { email } = deliveriesTo(address)[0]!;
    expect(email.replyTo).toBeUndefined();
    expect(email.headers.some((header) => header.key === 'reply-to')).toBe(false);
  });

  it('the link in the message is on the custom domain, and the same as the API inviteUrl', async () => {
    const campaign = await namedCampaign(branded);
    const address = uniqueAddress('domain');
    const invite = await createInvite(branded, campaign.id, { email: address });
    expect(invite.inviteUrl).toBe(`https://${domain}/interview/${invite.token}`);
    await runJobsOnce(t);

    const { email } = deliveriesTo(address)[0]!;
    expect(email.html).toContain(`href="https://${domain}/interview/${invite.token}"`);
    expect(email.text).toContain(`https://${domain}/interview/${invite.token}`);
    expect(email.text).not.toContain('127.0.0.1:3000');
    expect(email.messageId).toMatch(new RegExp(`@${domain.replace(/\./g, '\\.')}>$`));
  });
});

describe('without SMTP_URL: the outbox', () => {
  let outbox: TestApp;
  let outboxApi: Api;

  beforeAll(async () => {
    outbox = await startTestApp({ EMAIL_FROM });
    outboxApi = apiAs(outbox.http, await outbox.createTenant());
  });
  afterAll(() => outbox?.close());

  it('running the job writes one .eml under <dataDir>/outbox with the invite link, and the invite reads sent', async () => {
    const campaign = await namedCampaign(outboxApi);
    const address = uniqueAddress('outbox');
    const invite = await createInvite(outboxApi, campaign.id, { email: address, name: 'Ada' });
    await runJobsOnce(outbox);

    const directory = path.join(outbox.dataDir, 'outbox');
    const files = await readdir(directory);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const email = await PostalMime.parse(await readFile(path.join(directory, files[0]!)));
    expect(email.to).toEqual([{ name: 'Ada', address }]);
    expect(email.from).toEqual({ name: 'Acme Research', address: 'research@acme.test' });
    expect(email.html).toContain(`href="${invite.inviteUrl}"`);
    expect(email.text).toContain(invite.inviteUrl);
    expect(deliveriesTo(address)).toEqual([]);

    const response = await outboxApi.get(`/v1/invites/${invite.id}`).expect(200);
    expect(response.body.emailStatus).toBe('sent');
    expect(response.body.emailSentAt).not.toBeNull();
  });
});
