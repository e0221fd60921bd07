import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger.js';

export interface OutgoingEmail {
  to: { address: string; name?: string | null };
  replyTo?: string | null;
  subject: string;
  html: string;
  text: string;
  /** Message-ID header, e.g. `<inv_x.1@host>`; stable across retries so receivers can deduplicate. */
  messageId: string;
  headers?: Record<string, string>;
}

export interface SentEmail {
  messageId: string;
  /** Set by the outbox mailer: the `.eml` file written. */
  outboxFile?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(email: OutgoingEmail): Promise<SentEmail>;
  close(): void;
}

function toMailOptions(email: OutgoingEmail) {
  return {
    to: email.to.name ? { name: email.to.name, address: email.to.address } : email.to.address,
    replyTo: email.replyTo ?? undefined,
    subject: email.subject,
    html: email.html,
    text: email.text,
    messageId: email.messageId,
    headers: email.headers,
  };
}

/**
 * SMTP when `smtpUrl` is set; otherwise messages are written to `<dataDir>/outbox` as `.eml`
 * files, so the embedded quick start works without a mail relay.
 */
export function createMailer(options: { smtpUrl: string | undefined; emailFrom: string; dataDir: string }, logger: Logger): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options.emailFrom) : outboxMailer(path.join(options.dataDir, 'outbox'), options.emailFrom, logger);
}

function smtpMailer(smtpUrl: string, from: string): Mailer {
  // nodemailer's defaults (2 min to connect, 10 min idle) would hold a worker slot far too long.
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }, { from });
  return {
    kind: 'smtp',
    async send(email) {
      const info = await transport.sendMail(toMailOptions(email));
      return { messageId: info.messageId };
    },
    close: () => transport.close(),
  };
}

/**
 * Test mode's mailer: whatever the service's own, a test world's emails are written to
 * `<dataDir>/outbox` and never reach a recipient.
 */
export function createOutboxMailer(options: { emailFrom: string; dataDir: string }, logger: Logger): Mailer {
  return outboxMailer(path.join(options.dataDir, 'outbox'), options.emailFrom, logger);
}

function outboxMailer(directory: string, from: string, logger: Logger): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }, { from });
  return {
    kind: 'outbox',
    async send(email) {
      const info = await transport.sendMail(toMailOptions(email));
      await mkdir(directory, { recursive: true });
      // `:` and `<>` are not allowed in Windows file names.
      // Without '@': a file name must not look like an address (the log scrubs those).
      const safeId = email.messageId
        .replace(/[^A-Za-z0-9._-]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .slice(0, 100);
      const file = path.join(directory, `${new Date().toISOString().replace(/:/g, '-')}-${safeId}.eml`);
      // Whoever watches the outbox must never see a half-written message.
      const temporary = `${file}.${randomBytes(6).toString('hex')}.partial`;
      try {
        await writeFile(temporary, info.message as Buffer, { flag: 'wx' });
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      logger.info({ outboxFile: file }, 'email written to outbox');
      return { messageId: info.messageId, outboxFile: file };
    },
    close: () => transport.close(),
  };
}

interface SmtpErrorFields {
  code?: unknown;
  command?: unknown;
  response?: unknown;
  responseCode?: unknown;
}

function responseCodeOf(error: unknown): number | undefined {
  const code = (error as SmtpErrorFields | null)?.responseCode;
  return typeof code === 'number' ? code : undefined;
}

/**
 * True when the recipient was refused for good: a 5xx reply to RCPT TO, or to DATA with an
 * enhanced status about the address (5.1.x). Other 5xx replies (AUTH with wrong credentials, a
 * sender the relay will not take, 503 "bad sequence") are the relay's configuration or state,
 * not the participant's address: they are retried and end in `failed`, not `bounced`.
 */
export function isPermanentEmailFailure(error: unknown): boolean {
  const code = responseCodeOf(error);
  if (code === undefined || code < 500 || code >= 600 || code === 503) return false;
  const fields = error as SmtpErrorFields;
  if (fields.command === 'RCPT TO') return true;
  return fields.command === 'DATA' && typeof fields.response === 'string' && /^5\d\d[ -]5\.1\.\d{1,3}\b/.test(fields.response);
}

/**
 * A short description to store or log. For SMTP replies only the codes are kept: the reply
 * text often quotes the recipient's address. Credentials in a URL are masked in case an error
 * message ever quotes the SMTP URL.
 */
export function describeEmailFailure(error: unknown): string {
  const fields = (error ?? {}) as SmtpErrorFields;
  const responseCode = responseCodeOf(error);
  if (responseCode !== undefined) {
    const command = typeof fields.command === 'string' ? fields.command : 'the message';
    const enhanced = typeof fields.response === 'string' ? /^\d{3}[ -](\d\.\d{1,3}\.\d{1,3})\b/.exec(fields.response)?.[1] : undefined;
    return `SMTP server replied ${responseCode}${enhanced ? ` ${enhanced}` : ''} to ${command}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof fields.code === 'string' && !message.includes(fields.code) ? `${fields.code}: ` : '';
  return `${code}${message}`.replace(/\/\/[^\s/@]*@/g, '//***@').slice(0, 200);
}
