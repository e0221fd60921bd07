import { Migration } from '@mikro-orm/migrations';

/**
 * Test mode (issue 35): an organization's test world is an organization row of its own whose
 * `live_organization_id` names the live one. Every table is already scoped by organization, so
 * test campaigns, invites, sessions, webhooks and events never meet live ones, and a key of one
 * world finds nothing of the other (404). At most one test world per organization; it goes when
 * its live organization goes.
 */
export class Migration20261205000000TestMode extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "organizations" add column "live_organization_id" text null;`);
    this.addSql(`alter table "organizations" add constraint "organizations_live_organization_id_unique" unique ("live_organization_id");`);
    this.addSql(
      `alter table "organizations" add constraint "organizations_live_organization_id_foreign" foreign key ("live_organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "organizations" drop constraint "organizations_live_organization_id_foreign";`);
    this.addSql(`alter table "organizations" drop constraint "organizations_live_organization_id_unique";`);
    this.addSql(`alter table "organizations" drop column "live_organization_id";`);
  }
}
