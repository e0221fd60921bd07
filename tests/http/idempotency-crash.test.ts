import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiAs, createCampaign } from '../helpers/factories.js';
import { exitOf, freePort, startServer, waitFor } from '../helpers/processes.js';
import { startTestApp, type TestApp, type TestTenant } from '../helpers/test-app.js';

/**
 * A POST with an Idempotency-Key is never run twice, whichever moment its process dies at: a
 * real server process kills itself (SIGKILL, through the TEST_FAULTS hook) just before or just
 * after the transaction that holds both the work and its stored answer commits, and the client
 * retries with the same key.
 */
let t: TestApp;
let tenant: TestTenant;
let api: Api;

beforeAll(async () => {
  t = await startTestApp();
  tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
});
afterAll(() => t?.close());

async function serverThatDiesAt(fault: string) {
  const port = await freePort();
  const server = startServer({
    DATABASE_URL: t.database.url,
    DATA_DIR: t.dataDir,
    PORT: String(port),
    PUBLIC_URL: 'http://127.0.0.1:3000',
    TEST_FAULTS: fault,
  });
  await waitFor(
    async () => ((await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200 ? true : undefined),
    60_000,
    () => `the server never became healthy:\n${server.output()}`,
  );
  return { ...server, url: `http://127.0.0.1:${port}` };
}

/** Posts a bulk of invites with a new key to a server that dies during it; resolves once it is dead. */
async function postBulkUntilKilled(server: Awaited<ReturnType<typeof serverThatDiesAt>>, campaignId: string, count: number) {
  const key = `crash-${randomBytes(6).toString('hex')}`;
  const body = bulkBody(count);
  const first = fetch(`${server.url}/v1/campaigns/${campaignId}/invites/bulk`, {
    method: 'POST',
    headers: { Authorization: tenant.authorization, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify(body),
  });
  await expect(first).rejects.toThrow();
  await exitOf(server.child);
  return { key, body };
}

const bulkBody = (count: number) => ({
  invites: Array.from({ length: count }, (_, i) => ({ email: `crash-${i}-${randomBytes(3).toString('hex')}@example.com` })),
});

async function invitesAndEmailJobs(campaignId: string) {
  const [row] = await t.em().execute<{ invites: string; jobs: string }[]>(
    `select (select count(*) from invites where campaign_id = ?) as invites,
            (select count(*) from graphile_worker._private_jobs j join invites i on i.id = j.payload->>'inviteId' where i.campaign_id = ?) as jobs`,
    [campaignId, campaignId],
  );
  return { invites: Number(row!.invites), jobs: Number(row!.jobs) };
}

describe('a process killed during a POST with an Idempotency-Key', () => {
  it('after the commit: the retry replays the stored answer, and the bulk of 50 invites and emails exists once', async () => {
    const campaign = await createCampaign(api);
    const server = await serverThatDiesAt('idempotency:after-commit');
    const { key, body } = await postBulkUntilKilled(server, campaign.id, 50);
    expect(server.child.signalCode).toBe('SIGKILL');

    const retry = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, body).set('Idempotency-Key', key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.count).toBe(50);
    expect(await invitesAndEmailJobs(campaign.id)).toEqual({ invites: 50, jobs: 50 });
  }, 90_000);

  it('before the commit: nothing was done, the key stays in flight until its claim lapses, then the retry runs it once', async () => {
    const campaign = await createCampaign(api);
    const server = await serverThatDiesAt('idempotency:before-commit');
    const { key, body } = await postBulkUntilKilled(server, campaign.id, 20);
    expect(await invitesAndEmailJobs(campaign.id)).toEqual({ invites: 0, jobs: 0 });

    const whileClaimed = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, body).set('Idempotency-Key', key);
    expect(whileClaimed.status).toBe(409);
    expect(whileClaimed.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');

    // The dead process renews its claim no more: its 30 s lapse, here moved into the past.
    await t.em().execute(`update idempotency_keys set locked_until = now() - interval '1 second' where key = ?`, [key]);
    const retry = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, body).set('Idempotency-Key', key);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const replay = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, body).set('Idempotency-Key', key);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await invitesAndEmailJobs(campaign.id)).toEqual({ invites: 20, jobs: 20 });
  }, 90_000);
});
