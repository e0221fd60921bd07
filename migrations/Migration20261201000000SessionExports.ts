import { Migration } from '@mikro-orm/migrations';

/**
 * A finished session's exports (transcript JSON, PDF report) are made by a job of their own,
 * after its recordings and beside its `interview.completed` announcement, which no longer waits
 * for a PDF to render (issue 33). `exports_prepared_at` marks them made; sessions whose files were
 * made before this change had their exports made with them.
 */
export class Migration20261201000000SessionExports extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sessions" add column "exports_prepared_at" timestamptz(3) null;`);
    this.addSql(`update "sessions" set "exports_prepared_at" = "files_prepared_at" where "files_prepared_at" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "sessions" drop column "exports_prepared_at";`);
  }
}
