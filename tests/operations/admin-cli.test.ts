import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../shared/permissions.js';
import { ApiKey, CreditTransaction, Organization } from '../../server/entities/index.js';
import { runAdminInProcess } from '../helpers/admin-cli.js';
import { lastJsonLine, runAdmin } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let env: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  env = { DATABASE_URL: t.database.url, DATA_DIR: t.dataDir };
});
afterAll(() => t?.close());

// Most commands run in this process through runAdminCli, the function `npm run admin` calls: a
// whole CLI process takes 3-5 s to start on a busy machine. The tests marked "(process)" run the
// real entry the way operators do, for its exit codes and its output on stdout.
describe('admin CLI', { timeout: 60_000 }, () => {
  it('create-org prints the organization id; default plan free with its included credits', async () => {
    const result = await runAdminInProcess(['create-org', '--name', 'Acme Research', '--json'], env);
    expect(result.code).toBe(0);
    const output = lastJsonLine(result.stdout);
    expect(output).toEqual({ organizationId: expect.stringMatching(/^org_/), name: 'Acme Research', plan: 'free', credits: 30 });
    const organization = await t.em().findOneOrFail(Organization, { id: output.organizationId });
    expect(organization.creditBalance).toBe(30);
    expect(await t.em().count(CreditTransaction, { organization: output.organizationId, kind: 'plan_included' })).toBe(1);
  });

  it('create-org takes a plan and a starting balance', async () => {
    const result = await runAdminInProcess(['create-org', '--name', 'Big Co', '--plan', 'professional', '--credits', '5000', '--json'], env);
    expect(lastJsonLine(result.stdout)).toMatchObject({ plan: 'professional', credits: 5000 });
  });

  it('create-key prints a usable key once; the key works against the API (process)', async () => {
    const org = lastJsonLine((await runAdminInProcess(['create-org', '--name', 'Keys Inc', '--json'], env)).stdout);
    const result = await runAdmin(
      ['create-key', '--org', org.organizationId, '--name', 'ci', '--permissions', 'campaigns:read,campaigns:write', '--json'],
      env,
    );
    expect(result.code).toBe(0);
    const key = lastJsonLine(result.stdout);
    expect(key).toEqual({
      id: expect.stringMatching(/^key_/),
      apiKey: expect.stringMatching(/^isk_live_/),
      permissions: ['campaigns:read', 'campaigns:write'],
      organizationId: org.organizationId,
      livemode: true,
      expiresAt: null,
    });
    await t.http.post('/v1/projects').set('Authorization', `Bearer ${key.apiKey}`).send({ name: 'From CLI key' }).expect(201);
    await t.http.get('/v1/projects').set('Authorization', `Bearer ${key.apiKey}`).expect(200);
  }, 60_000);

  it('create-key --test prints an isk_test_ key of the test world, listed beside the live ones', async () => {
    const org = lastJsonLine((await runAdminInProcess(['create-org', '--name', 'Test Mode Inc', '--json'], env)).stdout);
    const made = await runAdminInProcess(['create-key', '--org', org.organizationId, '--name', 'sandbox', '--permissions', 'all', '--test', '--json'], env);
    const key = lastJsonLine(made.stdout);
    expect(key).toMatchObject({ apiKey: expect.stringMatching(/^isk_test_/), organizationId: org.organizationId, livemode: false });
    const seen = (await t.http.get('/v1/organization').set('Authorization', `Bearer ${key.apiKey}`).expect(200)).body;
    expect(seen).toMatchObject({ name: 'Test Mode Inc', livemode: false });
    expect(seen.id).not.toBe(org.organizationId);
    const keys = lastJsonLine((await runAdminInProcess(['list-keys', '--org', org.organizationId, '--json'], env)).stdout).keys;
    expect(keys).toEqual([expect.objectContaining({ id: key.id, mode: 'test' })]);
  });

  it('create-key without --org creates an organization too', async () => {
    const key = lastJsonLine((await runAdminInProcess(['create-key', '--name', 'x', '--permissions', 'all', '--json'], env)).stdout);
    expect(key.organizationCreated).toBe(true);
    expect(key.permissions).toEqual([...PERMISSIONS]);
    expect(await t.em().count(Organization, { id: key.organizationId })).toBe(1);
  });

  it('list-keys shows keys without their secret; revoke-key makes the key answer 401', async () => {
    const key = lastJsonLine((await runAdminInProcess(['create-key', '--name', 'to revoke', '--permissions', 'all', '--json'], env)).stdout);
    const listed = await runAdminInProcess(['list-keys', '--org', key.organizationId, '--json'], env);
    const { keys } = lastJsonLine(listed.stdout);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: key.id, name: 'to revoke', revokedAt: null, hint: expect.stringMatching(/^isk_live_.{4}….{4}$/) });
    expect(listed.stdout).not.toContain(key.apiKey);

    const revoked = lastJsonLine((await runAdminInProcess(['revoke-key', '--id', key.id, '--json'], env)).stdout);
    expect(revoked).toEqual({ id: key.id, revokedAt: expect.any(String) });
    await t.http.get('/v1/projects').set('Authorization', `Bearer ${key.apiKey}`).expect(401);
  });

  it('set-plan changes the per-key limit; a custom limit needs the enterprise plan', async () => {
    const key = lastJsonLine((await runAdminInProcess(['create-key', '--name', 'limits', '--permissions', 'all', '--json'], env)).stdout);
    const enterprise = await runAdminInProcess(['set-plan', '--org', key.organizationId, '--plan', 'enterprise', '--rate-limit', '5000', '--json'], env);
    expect(lastJsonLine(enterprise.stdout)).toEqual({ organizationId: key.organizationId, plan: 'enterprise', rateLimitPerMinute: 5000 });
    const response = await t.http.get('/v1/projects').set('Authorization', `Bearer ${key.apiKey}`).expect(200);
    expect(response.headers['x-ratelimit-limit']).toBe('5000');

    const refused = await runAdminInProcess(['set-plan', '--org', key.organizationId, '--plan', 'starter', '--rate-limit', '5000', '--json'], env);
    expect(refused.code).toBe(1);
    expect(lastJsonLine(refused.stdout).error.code).toBe('VALIDATION_ERROR');
    const tooHigh = await runAdminInProcess(['set-plan', '--org', key.organizationId, '--plan', 'enterprise', '--rate-limit', '10001', '--json'], env);
    expect(tooHigh.code).toBe(1);
  });

  it('grant-credits books a ledger row and moves the balance', async () => {
    const org = lastJsonLine((await runAdminInProcess(['create-org', '--name', 'Credits', '--credits', '10', '--json'], env)).stdout);
    const granted = lastJsonLine((await runAdminInProcess(['grant-credits', '--org', org.organizationId, '--amount', '25', '--json'], env)).stdout);
    expect(granted).toEqual({ organizationId: org.organizationId, amount: 25, balance: 35, transactionId: expect.stringMatching(/^txn_/) });
    const overdraw = await runAdminInProcess(['grant-credits', '--org', org.organizationId, '--amount=-100', '--json'], env);
    expect(overdraw.code).toBe(1);
    expect(lastJsonLine(overdraw.stdout).error.code).toBe('INSUFFICIENT_CREDITS');
    expect((await t.em().findOneOrFail(Organization, { id: org.organizationId })).creditBalance).toBe(35);
  });

  it('invite-member invites the first owner and prints the one-use link; set-payment-customer and roll-over-billing', async () => {
    const org = lastJsonLine((await runAdminInProcess(['create-org', '--name', 'Members', '--json'], env)).stdout);
    const invited = lastJsonLine(
      (await runAdminInProcess(['invite-member', '--org', org.organizationId, '--email', 'First.Owner@Example.com', '--role', 'owner', '--json'], env)).stdout,
    );
    expect(invited).toEqual({
      memberId: expect.stringMatching(/^mem_/),
      organizationId: org.organizationId,
      email: 'first.owner@example.com',
      role: 'owner',
      invitationUrl: expect.stringMatching(/\/members\/accept\?token=mit_[A-Za-z0-9_-]{43}$/),
    });
    const badRole = await runAdminInProcess(['invite-member', '--org', org.organizationId, '--email', 'x@example.com', '--role', 'king', '--json'], env);
    expect(badRole.code).toBe(2);
    const customer = lastJsonLine(
      (await runAdminInProcess(['set-payment-customer', '--org', org.organizationId, '--customer', 'cus_Test123', '--json'], env)).stdout,
    );
    expect(customer).toEqual({ organizationId: org.organizationId, paymentCustomerId: 'cus_Test123' });
    expect((await runAdminInProcess(['set-payment-customer', '--org', org.organizationId, '--customer', 'visa', '--json'], env)).code).toBe(2);
    const rolled = lastJsonLine((await runAdminInProcess(['roll-over-billing', '--json'], env)).stdout);
    expect(rolled).toEqual({ organizations: expect.any(Number), invoices: expect.any(Number) });
  });

  it('grant-credits --amount 99999999999999999999, 0x10, 1.23456 or ten is a usage error (exit 2) and books nothing', async () => {
    const org = lastJsonLine((await runAdminInProcess(['create-org', '--name', 'Amounts', '--json'], env)).stdout);
    const before = await t
      .em()
      .getConnection()
      .execute<{ count: string }[]>('select count(*) from credit_transactions where organization_id = ?', [org.organizationId]);
    const amounts = ['99999999999999999999', '0x10', '1.23456', 'ten'];
    const results = await Promise.all(
      amounts.map((amount) => runAdminInProcess(['grant-credits', '--org', org.organizationId, `--amount=${amount}`, '--json'], env)),
    );
    for (const [index, result] of results.entries()) {
      expect(result.code, amounts[index]).toBe(2);
      expect(lastJsonLine(result.stdout).error.code, amounts[index]).toBe('INVALID_REQUEST');
      expect(result.stdout).not.toMatch(/at .*:\d+:\d+|insert into|select .* from|update \w+ set/i);
    }
    const after = await t
      .em()
      .getConnection()
      .execute<{ count: string }[]>('select count(*) from credit_transactions where organization_id = ?', [org.organizationId]);
    expect(after[0]!.count).toBe(before[0]!.count);
  });

  it('usage errors exit 2; unknown organizations exit 1 with RESOURCE_NOT_FOUND (process)', async () => {
    expect((await runAdmin(['frobnicate'], env)).code).toBe(2);
    const badPermission = await runAdminInProcess(['create-key', '--name', 'x', '--permissions', 'campaigns:delete', '--json'], env);
    expect(badPermission.code).toBe(2);
    expect(lastJsonLine(badPermission.stdout).error.message).toContain('Unknown permission');
    const missing = await runAdmin(['list-keys', '--org', 'org_missing', '--json'], env);
    expect(missing.code).toBe(1);
    expect(lastJsonLine(missing.stdout).error.code).toBe('RESOURCE_NOT_FOUND');
    expect(await t.em().count(ApiKey, { name: 'x', permissions: { $contains: ['campaigns:delete'] } as never })).toBe(0);
  }, 90_000);

  it('works on the embedded default without DATABASE_URL, starting the cluster itself (process)', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'interview-cli-'));
    try {
      const result = await runAdmin(['create-org', '--name', 'Embedded', '--json'], { DATA_DIR: dataDir });
      expect(result.code, result.stderr).toBe(0);
      expect(lastJsonLine(result.stdout).organizationId).toMatch(/^org_/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
