import { Migration } from '@mikro-orm/migrations';

/**
 * "Preview as participant" (issue 31). A preview invite runs the version it was made for, the
 * script's draft included (`invites.script_version`; null: the campaign's script's published
 * version, as every other invite). One hidden preview campaign per script, so two previews
 * started at once share it instead of creating two.
 */
export class Migration20261130020000ScriptPreview extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "invites" add column "script_version" integer null;`);
    this.addSql(`create unique index "campaigns_preview_script_unique" on "campaigns" ("script_id") where "preview";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "campaigns_preview_script_unique";`);
    this.addSql(`alter table "invites" drop column "script_version";`);
  }
}
