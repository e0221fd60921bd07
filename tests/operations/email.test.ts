import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer, type SMTPServerError } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer, describeEmailFailure, isPermanentEmailFailure, type OutgoingEmail } from '../../server/email/mailer.js';
import { BUILT_IN_TEMPLATE_NAMES, EmailTemplates, type InvitationEmailContext } from '../../server/email/templates.js';
import { createLogger } from '../../server/logger.js';

const logger = createLogger('silent');
const emailFrom = '"Acme Research" <research@acme.test>';

function invitation(overrides: Partial<InvitationEmailContext> = {}): InvitationEmailContext {
  return {
    participantName: 'Ada',
    campaignName: 'Onboarding study',
    organizationName: 'Acme',
    logoUrl: 'https://cdn.acme.test/logo.png',
    brandColor: '#aa3300',
    inviteUrl: 'https://interviews.example.test/i/inv_7Yq2mK',
    expiresAt: new Date('2026-11-23T14:05:00Z'),
    language: 'en',
    ...overrides,
  };
}

let templates: EmailTemplates;
let temporaryDirs: string[] = [];

async function temporaryDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'email-test-'));
  temporaryDirs.push(dir);
  return dir;
}

async function outgoing(to: string, messageId: string): Promise<OutgoingEmail> {
  return { to: { address: to, name: 'Ada Lovelace' }, messageId, ...templates.renderInvitation('default', invitation()) };
}

/** Recipients named `reject-<code>@…` are refused with that reply code. */
let smtp: SMTPServer;
let smtpPort: number;
const received: Email[] = [];

beforeAll(async () => {
  templates = await EmailTemplates.load();
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = /^reject-(\d{3})@/.exec(address.address)?.[1];
      if (!code) return callback();
      const error: SMTPServerError = new Error('Mailbox unavailable');
      error.responseCode = Number(code);
      callback(error);
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks)).then(
          (email) => {
            received.push(email);
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp?.close(resolve));
  await Promise.all(temporaryDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  temporaryDirs = [];
});

describe('SMTP mailer', () => {
  it('delivers the rendered invitation to the recipient, from EMAIL_FROM, with link and logo', async () => {
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, emailFrom, dataDir: '/nonexistent' }, logger);
    expect(mailer.kind).toBe('smtp');
    const sent = await mailer.send(await outgoing('ada@example.test', '<inv_smtp.1@interviews.example.test>'));
    mailer.close();

    expect(sent).toEqual({ messageId: '<inv_smtp.1@interviews.example.test>' });
    const email = received.find((message) => message.messageId === sent.messageId)!;
    expect(email.to).toEqual([{ name: 'Ada Lovelace', address: 'ada@example.test' }]);
    expect(email.from).toEqual({ name: 'Acme Research', address: 'research@acme.test' });
    expect(email.subject).toBe('Acme invites you to an interview: Onboarding study');
    expect(email.html).toContain('href="https://interviews.example.test/i/inv_7Yq2mK"');
    expect(email.html).toContain('src="https://cdn.acme.test/logo.png"');
    expect(email.text).toContain('https://interviews.example.test/i/inv_7Yq2mK');
  });

  it('a 550 reply is a permanent failure, described without the recipient address', async () => {
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, emailFrom, dataDir: '/nonexistent' }, logger);
    const error = await mailer.send(await outgoing('reject-550@example.test', '<inv_550.1@host>')).catch((e: unknown) => e);
    mailer.close();

    expect(isPermanentEmailFailure(error)).toBe(true);
    expect(describeEmailFailure(error)).toContain('550');
    expect(describeEmailFailure(error)).not.toContain('reject-550@example.test');
  });

  it('a 5xx from the relay about the sender or login is not a bounce: the address was never refused', async () => {
    const relay = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onMailFrom(_address, _session, callback) {
        const error: SMTPServerError = new Error('Sender not allowed');
        error.responseCode = 550;
        callback(error);
      },
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${(relay.server.address() as AddressInfo).port}`, emailFrom, dataDir: '/nonexistent' }, logger);
    const error = await mailer.send(await outgoing('ada@example.test', '<inv_from.1@host>')).catch((e: unknown) => e);
    mailer.close();
    await new Promise<void>((resolve) => relay.close(resolve));

    expect((error as { responseCode?: number }).responseCode).toBe(550);
    expect(isPermanentEmailFailure(error)).toBe(false);
    const authFailure = Object.assign(new Error('Invalid login'), { responseCode: 535, command: 'AUTH PLAIN' });
    expect(isPermanentEmailFailure(authFailure)).toBe(false);
    const unknownUserAfterData = Object.assign(new Error('x'), { responseCode: 550, command: 'DATA', response: '550 5.1.1 User unknown' });
    expect(isPermanentEmailFailure(unknownUserAfterData)).toBe(true);
  });

  it('a 451 reply is a temporary failure', async () => {
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, emailFrom, dataDir: '/nonexistent' }, logger);
    const error = await mailer.send(await outgoing('reject-451@example.test', '<inv_451.1@host>')).catch((e: unknown) => e);
    mailer.close();

    expect(error).toBeInstanceOf(Error);
    expect(isPermanentEmailFailure(error)).toBe(false);
  });

  it('a refused connection is a temporary failure, described without the SMTP credentials', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const mailer = createMailer({ smtpUrl: `smtp://mailer:hunter2secret@127.0.0.1:${port}`, emailFrom, dataDir: '/nonexistent' }, logger);
    const error = await mailer.send(await outgoing('ada@example.test', '<inv_refused.1@host>')).catch((e: unknown) => e);
    mailer.close();

    expect(isPermanentEmailFailure(error)).toBe(false);
    expect(describeEmailFailure(error)).toMatch(/ECONNREFUSED/);
    expect(describeEmailFailure(error)).not.toContain('hunter2secret');
  });
});

describe('outbox mailer (no SMTP_URL)', () => {
  it('writes a parseable .eml file under dataDir/outbox and logs its path but not the recipient', async () => {
    const dataDir = await temporaryDir();
    const logLines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    const mailer = createMailer({ smtpUrl: undefined, emailFrom, dataDir }, createLogger('info', sink));
    expect(mailer.kind).toBe('outbox');

    const sent = await mailer.send(await outgoing('ada@example.test', '<inv_outbox.1@interviews.example.test>'));
    mailer.close();

    expect(path.dirname(sent.outboxFile!)).toBe(path.join(dataDir, 'outbox'));
    expect(path.basename(sent.outboxFile!)).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-inv_outbox\.1_interviews\.example\.test\.eml$/);
    expect(await readdir(path.join(dataDir, 'outbox'))).toEqual([path.basename(sent.outboxFile!)]);

    const email = await PostalMime.parse(await readFile(sent.outboxFile!));
    expect(email.messageId).toBe('<inv_outbox.1@interviews.example.test>');
    expect(email.to).toEqual([{ name: 'Ada Lovelace', address: 'ada@example.test' }]);
    expect(email.html).toContain('href="https://interviews.example.test/i/inv_7Yq2mK"');
    expect(email.text).toContain('https://interviews.example.test/i/inv_7Yq2mK');

    expect(logLines).toHaveLength(1);
    expect(JSON.parse(logLines[0]!)).toMatchObject({ msg: 'email written to outbox', outboxFile: sent.outboxFile });
    expect(logLines[0]).not.toContain('ada@example.test');
  });
});

describe('invitation templates', () => {
  it('include a default and a reminder template', () => {
    expect(BUILT_IN_TEMPLATE_NAMES).toEqual(expect.arrayContaining(['default', 'reminder']));
    expect(templates.names()).toEqual(expect.arrayContaining(['default', 'reminder']));
  });

  it.each(['default', 'reminder'])('%s greets the participant by name, or generically without one', (name) => {
    const named = templates.renderInvitation(name, invitation({ participantName: 'Ada' }));
    expect(named.text.startsWith('Hello Ada,\n')).toBe(true);
    expect(named.html).toContain('Hello Ada,');

    const anonymous = templates.renderInvitation(name, invitation({ participantName: null }));
    expect(anonymous.text.startsWith('Hello,\n')).toBe(true);
    expect(anonymous.html).toContain('>Hello,<');
  });

  it.each([
    [
      'nl',
      'Acme nodigt je uit voor een interview: Onboarding study',
      'Hallo Ada,',
      'Deze uitnodiging verloopt op 23 november 2026, 14:05 UTC.',
      'Interview starten',
    ],
    [
      'de-AT',
      'Acme lädt dich zu einem Interview ein: Onboarding study',
      'Hallo Ada,',
      'Diese Einladung läuft am 23. November 2026, 14:05 UTC ab.',
      'Interview starten',
    ],
    [
      'fr',
      'Acme vous invite à un entretien : Onboarding study',
      'Bonjour Ada,',
      'Cette invitation expire le 23 novembre 2026, 14:05 UTC.',
      'Commencer l&#39;entretien',
    ],
    [
      'es',
      'Acme te invita a una entrevista: Onboarding study',
      'Hola, Ada:',
      'Esta invitación caduca el 23 de noviembre de 2026, 14:05 UTC.',
      'Empezar la entrevista',
    ],
  ])('the built-in invitation in %s: subject, greeting, date and button in that language', (language, subject, greeting, expiry, button) => {
    const email = templates.renderInvitation('default', invitation({ language }));
    expect(email.subject).toBe(subject);
    expect(email.text.startsWith(`${greeting}\n`)).toBe(true);
    expect(email.text).toContain(expiry);
    expect(email.html).toContain(`<html lang="${language}">`);
    expect(email.html).toContain(`>${button}</a>`);
    expect(email.html).toContain('<strong>Onboarding study</strong>');
  });

  it('the reminder is worded as a friendly reminder', () => {
    const reminder = templates.renderInvitation('reminder', invitation());
    expect(reminder.subject).toBe('Reminder: your interview for Onboarding study');
    expect(reminder.text).toContain('friendly reminder');
  });

  it('HTML-escapes the campaign name in the HTML part only', () => {
    const email = templates.renderInvitation('default', invitation({ campaignName: '<b>Q&A</b>' }));
    expect(email.html).toContain('&lt;b&gt;Q&amp;A&lt;/b&gt;');
    expect(email.html).not.toContain('<b>Q&A</b>');
    expect(email.text).toContain('<b>Q&A</b>');
    expect(email.subject).toBe('Acme invites you to an interview: <b>Q&A</b>');
  });

  it('the subject never contains a line break, even when the campaign name does', () => {
    const email = templates.renderInvitation('default', invitation({ campaignName: 'Study\r\nBcc: victim@example.test' }));
    expect(email.subject).not.toMatch(/[\r\n]/);
  });

  it('states the expiry in UTC', () => {
    const email = templates.renderInvitation('default', invitation({ expiresAt: new Date('2026-11-23T14:05:00Z') }));
    expect(email.text).toContain('This invitation expires on 23 November 2026, 14:05 UTC.');
    expect(email.html).toContain('23 November 2026, 14:05 UTC');
  });

  it('shows the logo only when set and falls back to a neutral brand colour', () => {
    const email = templates.renderInvitation('default', invitation({ logoUrl: null, brandColor: null }));
    expect(email.html).not.toContain('<img');
    expect(email.html).toContain('background-color:#2563eb');
    expect(templates.renderInvitation('default', invitation()).html).toContain('background-color:#aa3300');
  });

  it('an unknown template name throws', () => {
    expect(() => templates.renderInvitation('nope', invitation())).toThrow(/Unknown email template "nope"/);
  });
});

describe('custom template directory', () => {
  async function templateDir(files: Record<string, string>): Promise<string> {
    const dir = await temporaryDir();
    for (const [file, content] of Object.entries(files)) await writeFile(path.join(dir, file), content);
    return dir;
  }

  it('a complete template is added beside the built-ins', async () => {
    const dir = await templateDir({
      'welcome.subject.mustache': 'Welcome to {{campaignName}}',
      'welcome.html.mustache': '<p>{{greeting}} <a href="{{inviteUrl}}">{{campaignName}}</a></p>',
      'welcome.text.mustache': '{{greeting}} {{inviteUrl}} ({{expiresAt}})',
      'README.md': 'not a template',
    });
    const loaded = await EmailTemplates.load(dir);

    expect(loaded.has('welcome')).toBe(true);
    expect(loaded.has('default')).toBe(true);
    expect(loaded.renderInvitation('welcome', invitation({ campaignName: 'R&D' }))).toEqual({
      subject: 'Welcome to R&D',
      html: '<p>Hello Ada, <a href="https://interviews.example.test/i/inv_7Yq2mK">R&amp;D</a></p>',
      text: 'Hello Ada, https://interviews.example.test/i/inv_7Yq2mK (2026-11-23T14:05:00.000Z)',
    });
  });

  it('a directory template with a built-in name replaces the built-in', async () => {
    const dir = await templateDir({
      'default.subject.mustache': 'Custom {{campaignName}}',
      'default.html.mustache': '<p>custom</p>',
      'default.text.mustache': 'custom',
    });
    expect((await EmailTemplates.load(dir)).renderInvitation('default', invitation()).subject).toBe('Custom Onboarding study');
  });

  it('an incomplete template fails to load, naming the missing file', async () => {
    const dir = await templateDir({ 'welcome.subject.mustache': 'Hi', 'welcome.html.mustache': '<p>Hi</p>' });
    await expect(EmailTemplates.load(dir)).rejects.toThrow(path.join(dir, 'welcome.text.mustache'));
  });

  it('a template that does not parse fails to load, naming the file', async () => {
    const dir = await templateDir({
      'welcome.subject.mustache': 'Hi',
      'welcome.html.mustache': '<p>{{#open}}never closed</p>',
      'welcome.text.mustache': 'Hi',
    });
    await expect(EmailTemplates.load(dir)).rejects.toThrow(`${path.join(dir, 'welcome.html.mustache')} does not parse`);
  });

  it('a misnamed template file fails to load', async () => {
    const dir = await templateDir({ 'Welcome.subject.mustache': 'Hi' });
    await expect(EmailTemplates.load(dir)).rejects.toThrow(/Welcome\.subject\.mustache is misnamed/);
  });

  it('a missing directory fails to load', async () => {
    const dir = path.join(await temporaryDir(), 'missing');
    await expect(EmailTemplates.load(dir)).rejects.toThrow(`Email templates directory ${dir} does not exist`);
  });
});
