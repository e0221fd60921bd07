import { Migration } from '@mikro-orm/migrations';

/** Invites (participant tokens stored as hashes only) and share links. */
export class Migration20261122100000InvitesAndShareLinks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "share_links" ("id" text not null, "organization_id" text not null, "campaign_id" text not null, "code" text not null, "max_respondents" int null, "expires_at" timestamptz(3) null, "closed_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "share_links_pkey" primary key ("id"));`);
    this.addSql(`create index "share_links_organization_id_index" on "share_links" ("organization_id");`);
    this.addSql(`alter table "share_links" add constraint "share_links_code_unique" unique ("code");`);
    this.addSql(`create index "share_links_campaign_id_created_at_index" on "share_links" ("campaign_id", "created_at");`);
    this.addSql(`create table "invites" ("id" text not null, "organization_id" text not null, "campaign_id" text not null, "share_link_id" text null, "token_hash" text not null, "email" text null, "name" text null, "status" text check ("status" in ('pending', 'started', 'completed', 'expired', 'cancelled')) not null default 'pending', "email_status" text check ("email_status" in ('not_sent', 'queued', 'sent', 'failed', 'bounced')) not null default 'not_sent', "email_template" text null, "email_error" text null, "email_sent_at" timestamptz(3) null, "email_queued_at" timestamptz(3) null, "expires_at" timestamptz(3) not null, "metadata" jsonb not null, "started_at" timestamptz(3) null, "completed_at" timestamptz(3) null, "cancelled_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "invites_pkey" primary key ("id"));`);
    this.addSql(`create index "invites_organization_id_index" on "invites" ("organization_id");`);
    this.addSql(`alter table "invites" add constraint "invites_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "invites_campaign_id_created_at_index" on "invites" ("campaign_id", "created_at");`);
    this.addSql(`create index "invites_share_link_id_started_at_index" on "invites" ("share_link_id", "started_at");`);
    this.addSql(`create index "invites_status_expires_at_index" on "invites" ("status", "expires_at");`);
    this.addSql(`alter table "share_links" add constraint "share_links_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "share_links" add constraint "share_links_campaign_id_foreign" foreign key ("campaign_id") references "campaigns" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "invites" add constraint "invites_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "invites" add constraint "invites_campaign_id_foreign" foreign key ("campaign_id") references "campaigns" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "invites" add constraint "invites_share_link_id_foreign" foreign key ("share_link_id") references "share_links" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "invites" cascade;`);
    this.addSql(`drop table if exists "share_links" cascade;`);
  }
}
