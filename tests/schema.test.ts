import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('migrations', () => {
  it('produce exactly the schema the entities describe (no drift)', async () => {
    const diff = await t.runtime.orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: false });
    expect(diff.trim()).toBe('');
  });

  it('are recorded once and are a no-op when run again', async () => {
    const migrator = t.runtime.orm.getMigrator();
    expect((await migrator.getPendingMigrations()).length).toBe(0);
    expect((await migrator.getExecutedMigrations()).map((m) => m.name)).toEqual(['Migration20261122000000Initial', 'Migration20261122100000InvitesAndShareLinks', 'Migration20261122200000PlatformGuarantees', 'Migration20261122300000Sessions', 'Migration20261125000000Transcripts', 'Migration20261125100000Webhooks', 'Migration20261125200000InviteLanguage', 'Migration20261126000000MembersAndBilling']);
  });

  it("install graphile-worker's schema", async () => {
    const rows = await t.em().execute<{ count: string }[]>(`select count(*) as count from graphile_worker.migrations`);
    expect(Number(rows[0]!.count)).toBeGreaterThan(0);
  });
});
