import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { SMTPServer } from 'smtp-server';
import PostalMime, { type Email } from 'postal-mime';
import type { AppRouter } from '../../server/trpc/app-router.js';
import { startTestApp, type TestApp, type TestTenant } from './test-app.js';

export type TrpcClient = ReturnType<typeof createTRPCClient<AppRouter>>;

/** The test app listening on loopback, for the typed tRPC client (supertest has no port). */
export async function listen(t: TestApp): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A test app on a loopback port with a tRPC client per tenant; `close` stops the listener and the app. */
export interface ListeningTestApp extends TestApp {
  url: string;
  /** A client on the tenant's API key. */
  clientOf(tenant: TestTenant): TrpcClient;
}

/** `startTestApp` plus `listen`, for files that talk to the tRPC router (the workspace procedures have no REST path). */
export async function startListeningTestApp(env: Record<string, string> = {}): Promise<ListeningTestApp> {
  const t = await startTestApp(env);
  const server = await listen(t);
  return {
    ...t,
    url: server.url,
    clientOf: (tenant) => trpcClient(server.url, { token: () => tenant.apiKey }),
    async close() {
      await server.close();
      await t.close();
    },
  };
}

/**
 * A first-party client: the bearer token (a member's access token or an API key) and the client
 * address (`X-Forwarded-For`, for apps started with TRUST_PROXY=loopback) as a frontend sends them.
 */
export function trpcClient(baseUrl: string, options: { token?: () => string | undefined; ip?: string } = {}): TrpcClient {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${baseUrl}/trpc`,
        headers: () => {
          const token = options.token?.();
          return { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(options.ip ? { 'X-Forwarded-For': options.ip } : {}) };
        },
      }),
    ],
  });
}

/** The app code and status of a failed tRPC call. */
export async function trpcFailure(call: Promise<unknown>): Promise<{ appCode: string; httpStatus: number; message: string; details: Record<string, unknown> }> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof TRPCClientError)) throw new Error(`expected a tRPC error, got ${JSON.stringify(error)}`);
  const data = error.data as { appCode: string; httpStatus: number; details: Record<string, unknown> };
  return { appCode: data.appCode, httpStatus: data.httpStatus, message: error.message, details: data.details };
}

export interface MailSink {
  url: string;
  delivered: { to: string[]; email: Email }[];
  close(): Promise<void>;
}

/** A real SMTP server on loopback that keeps every message it receives, parsed. */
export async function startMailSink(): Promise<MailSink> {
  const delivered: MailSink['delivered'] = [];
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks)).then(
          (email) => {
            delivered.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), email });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    delivered,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** The invitation token in an email's accept link. */
export function invitationTokenIn(email: Email): string {
  const match = /\/members\/accept\?token=(mit_[A-Za-z0-9_-]+)/.exec(email.text ?? '');
  if (!match) throw new Error(`no invitation link in: ${email.text}`);
  return match[1]!;
}
