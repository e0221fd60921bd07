import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenSecret } from '../../clients/cli/listen.js';
import { createApiKey } from '../../server/domains/api-keys/create-api-key.js';
import { revokeApiKeyAsOperator } from '../../server/domains/api-keys/revoke-api-key.js';
import { systemCaller } from '../../server/domains/common/caller.js';
import { PERMISSIONS } from '../../shared/permissions.js';
import { WEBHOOK_PAYLOADS } from '../../shared/schemas/webhook-payloads.js';
import { WEBHOOK_EVENT_TYPES } from '../../shared/schemas/webhooks.js';
import { verifyWebhookA } from '../../shared/webhook-signatures.js';
import { apiAs } from '../helpers/factories.js';
import { interviewFixture, participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { childEnv, killLeftovers, ROOT, waitFor } from '../helpers/processes.js';
import { strictly } from '../helpers/strict-schema.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * The local loop (issue 35): `npm run cli -- listen --forward-to <url>` reads the organization's
 * event stream with an API key and forwards each event to a local URL, signed. A real interview
 * start makes the event; the forwarded request is verified by the `standardwebhooks` package, as
 * the developer's receiver would verify it; another organization's events never arrive.
 */

interface Forwarded {
  headers: http.IncomingHttpHeaders;
  raw: string;
}

let t: TestApp;
let server: http.Server;
let serviceUrl: string;
let receiver: http.Server;
let receiverUrl: string;
const forwarded: Forwarded[] = [];
const children: ChildProcess[] = [];
let tenant: TestTenant;
let stranger: TestTenant;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.createTenant();
  stranger = await t.createTenant();
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  serviceUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      forwarded.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await killLeftovers(children);
  server?.closeAllConnections();
  server?.close();
  receiver?.close();
  await t?.close();
});

/** A participant starts an interview of the tenant's, and the job that announces it runs: one `session.started` event. */
async function startInterview(owner: TestTenant): Promise<string> {
  const { invite } = await interviewFixture(apiAs(t.http, owner));
  const sessionId = (await participantAs(t.http, invite.token).start().expect(201)).body.session.id as string;
  await runJobsOnce(t, { tasks: ['session__announce_start'] });
  return sessionId;
}

/** The CLI as a developer runs it, its output collected. */
function startCli(args: string[], apiKey: string): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'clients/cli/main.ts', 'listen', ...args], {
    cwd: ROOT,
    env: childEnv({ INTERVIEW_API_KEY: apiKey, INTERVIEW_URL: serviceUrl }),
  });
  children.push(child);
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** Reads a stream for a while and answers its status and what arrived. */
async function readStream(path: string, headers: Record<string, string>, forMs: number): Promise<{ status: number; text: string }> {
  const response = await fetch(`${serviceUrl}${path}`, { headers, signal: AbortSignal.timeout(forMs) });
  let text = '';
  try {
    for await (const chunk of response.body!) text += Buffer.from(chunk).toString();
  } catch {
    // The reading time is up.
  }
  return { status: response.status, text };
}

describe('cli listen', () => {
  it("forwards the organization's events to a local URL, signed with the secret it prints, and no other organization's", async () => {
    const cli = startCli(['--forward-to', receiverUrl], tenant.apiKey);
    const secret = await waitFor(
      async () => /Signing secret \(Standard Webhooks\): (whsec_\S+)/.exec(cli.output())?.[1],
      30_000,
      () => `the CLI to be ready: ${cli.output()}`,
    );
    expect(secret).toBe(listenSecret(tenant.apiKey));
    expect(cli.output()).toContain(`Ready: forwarding every event of ${tenant.organizationId} (Design B) to ${receiverUrl}`);

    // Another organization's interview first, then ours: when ours has arrived, theirs would have too.
    const theirs = await startInterview(stranger);
    const ours = await startInterview(tenant);
    const request = await waitFor(
      async () => forwarded[0],
      20_000,
      () => `a forwarded event: ${cli.output()}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(forwarded).toHaveLength(1);

    // Verified as the developer's receiver would: by the standardwebhooks package, with the printed secret.
    const payload = new Webhook(secret).verify(request.raw, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    }) as { id: string; type: string; data: { session_id: string } };
    expect(payload.type).toBe('session.started');
    expect(payload.data.session_id).toBe(ours);
    expect(request.raw).not.toContain(theirs);
    expect(request.headers['webhook-id']).toBe(payload.id);
    expect(request.headers['content-type']).toBe('application/json');
    // The event is the one the events API lists, and the CLI printed what it did.
    const listed = (await apiAs(t.http, tenant).get('/v1/events?type=session.started').expect(200)).body.data;
    expect(listed.map((event: { id: string }) => event.id)).toContain(payload.id);
    expect(cli.output()).toMatch(new RegExp(`session\\.started\\s+${payload.id}\\s+-> 204`));
    cli.child.kill('SIGINT');
  }, 90_000);

  it("signs with the design's own headers when asked, a Design A body, only the types asked for", async () => {
    forwarded.length = 0;
    const cli = startCli(['--forward-to', receiverUrl, '--design', 'A', '--signature', 'design', '--events', 'session.started'], tenant.apiKey);
    await waitFor(
      async () => (cli.output().includes('Ready:') ? true : undefined),
      30_000,
      () => cli.output(),
    );
    expect(cli.output()).toContain('Ready: forwarding session.started event of');
    const ours = await startInterview(tenant);
    const request = await waitFor(
      async () => forwarded[0],
      20_000,
      () => `a forwarded event: ${cli.output()}`,
    );
    expect(verifyWebhookA(Buffer.from(request.raw), request.headers['x-webhook-signature'] as string, listenSecret(tenant.apiKey))).toBe(true);
    expect(request.headers['x-webhook-event']).toBe('session.started');
    expect(JSON.parse(request.raw)).toMatchObject({ event: 'session.started', session_id: ours });
    cli.child.kill('SIGINT');
  }, 90_000);

  it('stops when its key is revoked: the stream ends, and the CLI exits with the API refusal', async () => {
    const key = await t.createKey(tenant.organizationId, ['organization:read', 'sessions:read']);
    const cli = startCli(['--forward-to', receiverUrl], key.apiKey);
    await waitFor(
      async () => (cli.output().includes('Ready:') ? true : undefined),
      30_000,
      () => cli.output(),
    );
    await revokeApiKeyAsOperator({ em: t.em() }, { apiKeyId: key.apiKeyId });
    const code = await new Promise<number | null>((resolve) => cli.child.once('exit', resolve));
    expect(code).toBe(1);
    expect(cli.output()).toContain('The service ended the stream: {"code":"INVALID_API_KEY"');
    expect(cli.output()).toContain('The service answered 401');
  }, 60_000);

  it('refuses a key without the permissions, and says why', async () => {
    const readOnly = await t.createKey(tenant.organizationId, ['organization:read']);
    const cli = startCli(['--forward-to', receiverUrl], readOnly.apiKey);
    const code = await new Promise<number | null>((resolve) => cli.child.once('exit', resolve));
    expect(code).toBe(1);
    expect(cli.output()).toContain('403');
    expect(cli.output()).toContain('sessions:read');
  }, 60_000);
});

describe('cli trigger', () => {
  /** The CLI run once to its end. */
  async function runCli(args: string[], apiKey: string): Promise<{ code: number | null; output: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'clients/cli/main.ts', ...args], {
      cwd: ROOT,
      env: childEnv({ INTERVIEW_API_KEY: apiKey, INTERVIEW_URL: serviceUrl }),
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, output };
  }

  it('sends a sample of each type, a new event each time, signed as listen signs, exactly its published schema; nothing is recorded', async () => {
    forwarded.length = 0;
    const before = (await apiAs(t.http, tenant).get('/v1/events').expect(200)).body.pagination.total;
    for (const type of WEBHOOK_EVENT_TYPES) {
      const { code, output } = await runCli(['trigger', type, '--forward-to', receiverUrl], tenant.apiKey);
      expect(code, output).toBe(0);
      expect(output).toMatch(new RegExp(`${type.replace('.', '\\.')}\\s+\\S+\\s+-> 204`));
    }
    expect(forwarded).toHaveLength(WEBHOOK_EVENT_TYPES.length);
    const webhook = new Webhook(listenSecret(tenant.apiKey));
    const ids = new Set<string>();
    for (const [index, request] of forwarded.entries()) {
      const type = WEBHOOK_EVENT_TYPES[index]!;
      const body = webhook.verify(request.raw, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      }) as { id: string; type: string; created_at: string };
      expect(body.type).toBe(type);
      expect(() => strictly(WEBHOOK_PAYLOADS[type].B).parse(body)).not.toThrow();
      expect(Date.now() - Date.parse(body.created_at)).toBeLessThan(60_000);
      ids.add(body.id);
    }
    expect(ids.size).toBe(WEBHOOK_EVENT_TYPES.length);
    expect((await apiAs(t.http, tenant).get('/v1/events').expect(200)).body.pagination.total).toBe(before);
  }, 120_000);

  it("with a test key makes the event in the test world, which the test key's listen forwards and a live listen never sees", async () => {
    forwarded.length = 0;
    const made = await createApiKey({ em: t.em() }, systemCaller(tenant.organizationId), { name: 'laptop', permissions: [...PERMISSIONS], mode: 'test' });
    const testKey = made.secret;
    const liveListen = startCli(['--forward-to', `${receiverUrl}?live`], tenant.apiKey);
    const testListen = startCli(['--forward-to', receiverUrl], testKey);
    for (const cli of [liveListen, testListen]) {
      await waitFor(
        async () => (cli.output().includes('Ready:') ? true : undefined),
        30_000,
        () => cli.output(),
      );
    }
    expect(testListen.output()).toContain(`Ready: forwarding every event of ${made.apiKey.organization.id} (test mode) (Design B)`);
    const before = (await apiAs(t.http, tenant).get('/v1/events').expect(200)).body.pagination.total;

    // No --forward-to: the event is made on the service, and listen forwards it.
    const { code, output } = await runCli(['trigger', 'interview.completed'], testKey);
    expect(code, output).toBe(0);
    const eventId = /Made interview\.completed event (\S+) in test mode/.exec(output)?.[1];
    expect(eventId, output).toBeDefined();
    const request = await waitFor(
      async () => forwarded.find((item) => item.raw.includes(eventId!)),
      20_000,
      () => `the forwarded event: ${testListen.output()}`,
    );
    const body = new Webhook(listenSecret(testKey)).verify(request.raw, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    }) as { id: string; type: string; data: { completion_status: string } };
    expect(body).toMatchObject({ id: eventId, type: 'interview.completed', data: { completion_status: 'completed' } });
    expect(() => strictly(WEBHOOK_PAYLOADS['interview.completed'].B).parse(body)).not.toThrow();
    // The live world: nothing forwarded to the live listen, nothing listed.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(forwarded.filter((item) => item.raw.includes(eventId!))).toHaveLength(1);
    expect(liveListen.output()).not.toContain(eventId);
    expect((await apiAs(t.http, tenant).get('/v1/events').expect(200)).body.pagination.total).toBe(before);
    // A live key's trigger without --forward-to is a usage error: it may write nothing.
    expect((await runCli(['trigger', 'interview.completed'], tenant.apiKey)).code).toBe(2);
    liveListen.child.kill('SIGINT');
    testListen.child.kill('SIGINT');
  }, 120_000);

  it('refuses an unknown type, and fails when the local URL does not answer 2xx', async () => {
    const unknown = await runCli(['trigger', 'interview.finished', '--forward-to', receiverUrl], tenant.apiKey);
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain('Unknown event type: interview.finished');
    const nowhere = await runCli(['trigger', 'session.started', '--forward-to', 'http://127.0.0.1:9/hooks'], tenant.apiKey);
    expect(nowhere.code).toBe(1);
    expect(nowhere.output).toContain('-> failed');
  }, 60_000);
});

describe('GET /v1/event-stream', () => {
  it('needs a key with both permissions, and refuses an unknown event type by name', async () => {
    expect((await fetch(`${serviceUrl}/v1/event-stream`)).status).toBe(401);
    const readOnly = await t.createKey(tenant.organizationId, ['organization:read']);
    const denied = await fetch(`${serviceUrl}/v1/event-stream`, { headers: { authorization: readOnly.authorization } });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { error: { details: unknown } }).error.details).toEqual({ required: 'sessions:read' });
    const bad = await fetch(`${serviceUrl}/v1/event-stream?types=interview.finished`, { headers: { authorization: tenant.authorization } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('types');
  });

  it('holds at most 5 streams per API key at a time: the sixth is 429 until one closes', async () => {
    const key = await t.createKey(tenant.organizationId, ['organization:read', 'sessions:read']);
    const open = (signal: AbortSignal) => fetch(`${serviceUrl}/v1/event-stream`, { headers: { authorization: key.authorization }, signal });
    const controllers = Array.from({ length: 5 }, () => new AbortController());
    try {
      const streams = await Promise.all(controllers.map((controller) => open(controller.signal)));
      expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200]);
      const sixth = await open(AbortSignal.timeout(5000));
      expect(sixth.status).toBe(429);
      expect(sixth.headers.get('retry-after')).toBe('10');
      expect(((await sixth.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
      controllers[0]!.abort();
      await waitFor(
        async () => {
          const retry = await open(AbortSignal.timeout(2000)).catch(() => undefined);
          if (retry?.status !== 200) return undefined;
          await retry.body?.cancel().catch(() => undefined);
          return true;
        },
        10_000,
        () => 'a stream once one closed',
      );
    } finally {
      for (const controller of controllers) controller.abort();
    }
  });

  it('does not skip an event whose transaction commits after a later one: it waits for it, and sends both in order', async () => {
    const insert = (client: pg.Client, id: string) =>
      client.query(
        `insert into webhook_events (id, organization_id, type, session_id, facts, occurred_at) values ($1, $2, 'credits.low', null, $3::jsonb, now())`,
        [id, tenant.organizationId, JSON.stringify({ organizationId: tenant.organizationId, balance: 4, threshold: 5, transactionId: `txn_${id}` })],
      );
    const slow = new pg.Client({ connectionString: t.database.url });
    const quick = new pg.Client({ connectionString: t.database.url });
    await Promise.all([slow.connect(), quick.connect()]);
    try {
      const reading = fetch(`${serviceUrl}/v1/event-stream?types=credits.low`, {
        headers: { authorization: tenant.authorization },
        signal: AbortSignal.timeout(6000),
      });
      const response = await reading;
      const received: string[] = [];
      const collected = (async () => {
        let text = '';
        try {
          for await (const chunk of response.body!) {
            text += Buffer.from(chunk).toString();
            received.splice(
              0,
              received.length,
              ...[...text.matchAll(/^data: (.+)$/gm)]
                .map((match) => JSON.parse(match[1]!) as { id?: string; body?: string })
                .flatMap((data) => (data.body ? [data.id!] : [])),
            );
          }
        } catch {
          // The reading time is up.
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The first writer's transaction stays open while a second one writes and commits.
      await slow.query('begin');
      await insert(slow, 'evt_slow_writer');
      await insert(quick, 'evt_quick_writer');
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(received).toEqual([]);
      await slow.query('commit');
      await waitFor(
        async () => (received.length === 2 ? true : undefined),
        4000,
        () => `both events: ${received.join(', ')}`,
      );
      expect(received).toEqual(['evt_slow_writer', 'evt_quick_writer']);
      await collected;
    } finally {
      await slow.query('rollback').catch(() => undefined);
      await Promise.all([slow.end(), quick.end()]);
    }
  });

  it('goes on after Last-Event-ID: the events written after it, not before', async () => {
    const first = await startInterview(tenant);
    const firstEvent = (await apiAs(t.http, tenant).get('/v1/events?type=session.started&limit=1').expect(200)).body.data[0];
    expect(firstEvent.data.session_id).toBe(first);
    const second = await startInterview(tenant);
    const resumed = await readStream('/v1/event-stream?types=session.started', { authorization: tenant.authorization, 'last-event-id': firstEvent.id }, 3000);
    expect(resumed.status).toBe(200);
    expect(resumed.text).toContain('event: ready');
    const sessions = [...resumed.text.matchAll(/^data: (.+)$/gm)]
      .map((match) => JSON.parse(match[1]!))
      .filter((data) => data.body)
      .map((data) => JSON.parse(data.body).data.session_id);
    expect(sessions).toEqual([second]);
    // Every message carries the position after it, the ready one too: resuming from that reads
    // what came after, here nothing more.
    const positions = [...resumed.text.matchAll(/^id: (pos_.+)$/gm)].map((match) => match[1]!);
    expect(positions).toHaveLength(2);
    const third = await startInterview(tenant);
    const again = await readStream('/v1/event-stream?types=session.started', { authorization: tenant.authorization, 'last-event-id': positions[1]! }, 3000);
    const after = [...again.text.matchAll(/^data: (.+)$/gm)]
      .map((match) => JSON.parse(match[1]!))
      .filter((data) => data.body)
      .map((data) => JSON.parse(data.body).data.session_id);
    expect(after).toEqual([third]);
  });
});
