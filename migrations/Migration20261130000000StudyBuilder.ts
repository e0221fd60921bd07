import { Migration } from '@mikro-orm/migrations';

/**
 * Running a study from the dashboard (issue 31). A campaign gets the title participants see
 * (`participant_title`; null: its name). A script is previewed "as a participant" on a hidden
 * preview campaign (`preview`): its sessions are marked `preview` too, so results, exports,
 * searches, webhooks and billing leave them out with one condition on the session row.
 */
export class Migration20261130000000StudyBuilder extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "campaigns" add column "participant_title" text null, add column "preview" boolean not null default false;`);
    this.addSql(`alter table "sessions" add column "preview" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "sessions" drop column "preview";`);
    this.addSql(`alter table "campaigns" drop column "participant_title", drop column "preview";`);
  }
}
