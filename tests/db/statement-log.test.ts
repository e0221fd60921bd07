import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bindStatement } from '../../server/db/bound-connection.js';
import { acceptInvitation } from '../../server/domains/members/accept-invitation.js';
import { inviteMember } from '../../server/domains/members/invite-member.js';
import { PERMISSIONS } from '../../shared/permissions.js';
import { apiAs, createCampaign, createPublishedScript } from '../helpers/factories.js';
import { participantAs, PARTICIPANT_BUDGET } from '../helpers/interviews.js';
import { listen, trpcClient } from '../helpers/members.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase, withAdmin } from '../helpers/test-database.js';
import { createOrm } from '../../server/db/orm.js';

/**
 * Every value a request carries reaches PostgreSQL as a bound parameter, never in a statement's
 * text, and the service's sessions keep parameters out of the server log: with
 * `log_statement = 'all'` on the database, a tour of the API leaves none of its values in
 * PostgreSQL's own log.
 */

const logFile = inject('postgresLogFile');

describe('bindStatement (the ORM placeholder grammar, bound)', () => {
  it('binds values, lists an array, quotes identifiers, keeps escaped question marks and JSON objects as text', () => {
    const date = new Date('2026-11-27T10:00:00.000Z');
    expect(bindStatement('select ?? from t where a = ? and b in (?) and c \\? ? and d = ?', ['col', 'x', [1, 2, 3], 'k', { a: 1 }])).toEqual({
      sql: 'select "col" from t where a = ? and b in (?, ?, ?) and c \\? ? and d = ?',
      bindings: ['x', 1, 2, 3, 'k', '{"a":1}'],
    });
    expect(bindStatement('insert into t values (?, ?, ?)', [date, undefined, null]).bindings).toEqual([date, null, null]);
    expect(bindStatement("select '{}'::jsonb \\? 'a'", [])).toEqual({ sql: "select '{}'::jsonb \\? 'a'", bindings: [] });
  });
});

describe('the ORM on a real database, every value bound', () => {
  it('reads lists, JSON objects and dates as the ORM always has, and sends a statement without parameters as written', async () => {
    const database = await createTestDatabase();
    const orm = await createOrm({ url: database.url, poolSize: 1 });
    try {
      const em = orm.em.fork();
      const [row] = await em.execute<{ listed: boolean; json: string; day: string; jsonb_has: boolean }[]>(
        `select 2 in (?) as listed, (?::jsonb)->>'a' as json, to_char(?::timestamptz at time zone 'UTC', 'YYYY-MM-DD') as day,
                '{"k": 1}'::jsonb \\? ? as jsonb_has`,
        [[1, 2, 3], { a: 'x' }, new Date('2026-11-27T10:00:00Z'), 'k'],
      );
      expect(row).toEqual({ listed: true, json: 'x', day: '2026-11-27', jsonb_has: true });
      // No parameters: a `?` in the text is PostgreSQL's (jsonb's "has key"), not a placeholder.
      const [plain] = await em.execute<{ has: boolean }[]>(`select '{"a": 1}'::jsonb ? 'a' as has`);
      expect(plain).toEqual({ has: true });
      // Inside a transaction too.
      const inside = await em.transactional((tx) => tx.execute<{ name: string }[]>(`select ? as name`, ['bound']));
      expect(inside).toEqual([{ name: 'bound' }]);
    } finally {
      await orm.close(true);
      await database.drop();
    }
  });
});

describe.skipIf(!logFile)("PostgreSQL's log after a tour of the API with log_statement = 'all'", () => {
  const marker = randomBytes(6).toString('hex');
  const values = {
    email: `tour-${marker}@example.com`,
    memberEmail: `member-${marker}@example.com`,
    name: `Ada Tour${marker}`,
    answer: `I paid with the card ending ${marker} and it was slow`,
    scriptText: `How did the checkout ${marker} go?`,
    password: `horse battery ${marker} staple`,
    webhookUrl: `https://127.0.0.1:9/hooks/${marker}`,
  };
  const secrets: Record<string, string> = {};
  let t: TestApp;
  let server: { url: string; close(): Promise<void> } | undefined;
  let logStart = 0;
  let databaseName = '';

  beforeAll(async () => {
    logStart = (await readFile(logFile!)).length;
    t = await startTestApp({ ...PARTICIPANT_BUDGET, WEBHOOK_ALLOW_HOSTS: '127.0.0.1' }, undefined, {
      prepareDatabase: async (database) => {
        databaseName = database.name;
        await withAdmin((client) => client.query(`alter database ${database.name} set log_statement = 'all'`));
      },
    });
    server = await listen(t);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('holds statements of the tour, with placeholders, and none of the values the tour sent or the service keeps secret', async () => {
    // Key use: the key and its hash.
    const tenant = await t.createTenant();
    secrets.apiKey = tenant.apiKey;
    secrets.apiKeyHash = createHash('sha256').update(tenant.apiKey).digest('hex');
    const api = apiAs(t.http, tenant);

    // Script, campaign, invite (an email and a name), an interview (an answer).
    const script = await createPublishedScript(api, { questions: [{ id: 'checkout', text: values.scriptText, type: 'open', followUp: { enabled: false } }] });
    const campaign = await createCampaign(api, { scriptId: script.id });
    const invite = (await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: values.email, name: values.name, sendEmail: false }).expect(201)).body;
    secrets.inviteToken = invite.token;
    const participant = participantAs(t.http, invite.token);
    await participant.start().expect(201);
    await participant.answer(values.answer).expect(200);

    // A webhook endpoint: its URL and its secret.
    const endpoint = (await api.post('/api/webhooks', { url: values.webhookUrl, events: ['interview.completed'] }).expect(201)).body;
    secrets.webhookSecret = endpoint.secret;

    // A member accepts an invitation and signs in over tRPC: password, refresh and access tokens.
    const invited = await inviteMember(
      { em: t.em(), services: t.runtime.services },
      { organizationId: tenant.organizationId, permissions: PERMISSIONS },
      { email: values.memberEmail, role: 'admin' },
    );
    const client = trpcClient(server!.url);
    const invitationToken = new URL(invited.invitationUrl).searchParams.get('token')!;
    await acceptInvitation(
      { em: t.em(), services: t.runtime.services },
      { token: invitationToken, password: values.password, client: { ip: undefined, userAgent: undefined } },
    );
    const signedIn = await client.auth.signIn.mutate({ email: values.memberEmail, password: values.password });
    secrets.refreshToken = signedIn.refreshToken;
    secrets.accessToken = signedIn.accessToken;

    // The service's own URL-signing secret, written at start.
    const [signing] = await t.em().getConnection().execute<{ value: string }[]>(`select value from app_secrets where name = 'url_signing'`);
    secrets.urlSigning = signing!.value;

    const log = (await readFile(logFile!)).subarray(logStart).toString('utf8');
    // The log did record this database's statements: the test would see a value if one were there.
    expect(log).toMatch(/insert into "?invites"?/i);
    expect(log).toMatch(/insert into "?session_utterances"?/i);
    expect(log).toMatch(/execute <unnamed>: .*\$1/);
    const found = Object.entries({ ...values, ...secrets })
      .filter(([, value]) => value && log.includes(value))
      .map(([name]) => name);
    expect(found, `values found in PostgreSQL's log (database ${databaseName})`).toEqual([]);
    expect(log).not.toContain(marker);
    expect(log).not.toMatch(/DETAIL: {2}parameters:/);
  });
});
