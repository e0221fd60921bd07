import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe('migrations', () => {
  it('produce exactly the schema the entities describe (no drift)', async () => {
    const diff = await t.runtime.orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: false });
    // The research workspace's tables (highlights, comments, collections, saved searches) are
    // queried with plain SQL and have no entity; the ORM knows nothing of them and would drop
    // the foreign keys between them. Everything on an entity's table must still match exactly.
    const entityTables = new Set(Object.values(t.runtime.orm.getMetadata().getAll()).map((meta) => meta.tableName));
    const onEntityTables = diff
      .split('\n')
      .filter((line) => line.trim() !== '')
      .filter((line) => {
        const table = /^(?:alter|create|drop) (?:table|index)[^"]*"([^"]+)"/.exec(line)?.[1];
        return !table || entityTables.has(table) || !/^alter table "[^"]+" drop constraint/.test(line);
      });
    expect(onEntityTables).toEqual([]);
  });

  it('are recorded once and are a no-op when run again', async () => {
    const migrator = t.runtime.orm.getMigrator();
    expect((await migrator.getPendingMigrations()).length).toBe(0);
    expect((await migrator.getExecutedMigrations()).map((m) => m.name)).toEqual([
      'Migration20261122000000Initial',
      'Migration20261122100000InvitesAndShareLinks',
      'Migration20261122200000PlatformGuarantees',
      'Migration20261122300000Sessions',
      'Migration20261125000000Transcripts',
      'Migration20261125100000Webhooks',
      'Migration20261125200000InviteLanguage',
      'Migration20261126000000MembersAndBilling',
      'Migration20261126100000Highlights',
      'Migration20261126110000TranscriptSearch',
      'Migration20261126120000Redactions',
      'Migration20261127000000RefreshGrace',
      'Migration20261127010000WebhookUrlsAsParsed',
      'Migration20261128000000SessionVoice',
      'Migration20261128010000TurnTaking',
      'Migration20261128020000SessionTracks',
      'Migration20261128030000ConfirmTurnsAndMediaAlt',
      'Migration20261129010000ProbeLedger',
      'Migration20261129030000HeardChecks',
      'Migration20261130000000StudyBuilder',
      'Migration20261130010000StakeholderLinks',
      'Migration20261130020000PreviewAndSessionSentiment',
      'Migration20261201000000SessionExports',
      'Migration20261202000000WebhookDrains',
      'Migration20261203000000WebhookSignatureScheme',
      'Migration20261204000000EventStream',
      'Migration20261205000000TestMode',
    ]);
  });

  it("install graphile-worker's schema", async () => {
    const rows = await t.em().execute<{ count: string }[]>(`select count(*) as count from graphile_worker.migrations`);
    expect(Number(rows[0]!.count)).toBeGreaterThan(0);
  });
});
