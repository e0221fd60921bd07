import { Migration } from '@mikro-orm/migrations';

/**
 * Stakeholder links (issue 31): a read-only share of a campaign's results, a collection or a
 * session. The token is kept as its SHA-256 only. Each read of the content is a row of
 * `stakeholder_link_opens` (when, nothing about the reader); the link keeps the count and the
 * last time for its list.
 */
export class Migration20261130010000StakeholderLinks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "stakeholder_links" ("id" text not null, "organization_id" text not null, "kind" text check ("kind" in ('campaign', 'collection', 'session')) not null, "target_id" text not null, "include_transcripts" boolean not null, "redact_pii" boolean not null, "token_hash" text not null, "expires_at" timestamptz(3) not null, "revoked_at" timestamptz(3) null, "created_by_kind" text check ("created_by_kind" in ('member', 'api_key')) not null, "created_by_id" text not null, "created_by_name" text not null, "created_at" timestamptz(3) not null, "open_count" int not null default 0, "last_opened_at" timestamptz(3) null, constraint "stakeholder_links_pkey" primary key ("id"));`);
    this.addSql(`alter table "stakeholder_links" add constraint "stakeholder_links_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "stakeholder_links_organization_id_created_at_index" on "stakeholder_links" ("organization_id", "created_at");`);
    this.addSql(`create index "stakeholder_links_organization_id_kind_target_id_index" on "stakeholder_links" ("organization_id", "kind", "target_id");`);
    this.addSql(`create table "stakeholder_link_opens" ("id" bigserial primary key, "link_id" text not null, "opened_at" timestamptz(3) not null);`);
    this.addSql(`create index "stakeholder_link_opens_link_id_opened_at_index" on "stakeholder_link_opens" ("link_id", "opened_at");`);
    this.addSql(`alter table "stakeholder_links" add constraint "stakeholder_links_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "stakeholder_link_opens" add constraint "stakeholder_link_opens_link_id_foreign" foreign key ("link_id") references "stakeholder_links" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "stakeholder_link_opens" cascade;`);
    this.addSql(`drop table if exists "stakeholder_links" cascade;`);
  }
}
