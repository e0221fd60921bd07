import { Migration } from '@mikro-orm/migrations';

/** Organizations, API keys, the credit ledger, projects, scripts and their versions and media, campaigns, rate-limit windows, worker liveness. */
export class Migration20261122000000Initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "app_secrets" ("name" text not null, "value" text not null, "created_at" timestamptz(3) not null, constraint "app_secrets_pkey" primary key ("name"));`);
    this.addSql(`create table "organizations" ("id" text not null, "name" text not null, "plan" text check ("plan" in ('free', 'starter', 'professional', 'enterprise')) not null default 'free', "rate_limit_per_minute" int null, "credit_balance" numeric(14,4) not null default 0, "logo" text null, "domain" text null, "settings" jsonb not null default '{}', "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "organizations_pkey" primary key ("id"), constraint organizations_credit_balance_nonnegative check (credit_balance >= 0));`);
    this.addSql(`alter table "organizations" add constraint "organizations_domain_unique" unique ("domain");`);
    this.addSql(`create table "credit_transactions" ("id" text not null, "organization_id" text not null, "kind" text check ("kind" in ('plan_included', 'grant', 'purchase', 'charge', 'adjustment')) not null, "amount" numeric(14,4) not null, "balance_after" numeric(14,4) not null, "source" text null, "description" text null, "created_at" timestamptz(3) not null, constraint "credit_transactions_pkey" primary key ("id"));`);
    this.addSql(`alter table "credit_transactions" add constraint "credit_transactions_organization_id_source_unique" unique ("organization_id", "source");`);
    this.addSql(`create table "api_keys" ("id" text not null, "organization_id" text not null, "name" text not null, "key_hash" text not null, "key_hint" text not null, "permissions" jsonb not null, "last_used_at" timestamptz(3) null, "expires_at" timestamptz(3) null, "revoked_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "api_keys_pkey" primary key ("id"));`);
    this.addSql(`create index "api_keys_organization_id_index" on "api_keys" ("organization_id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash");`);
    this.addSql(`create table "projects" ("id" text not null, "organization_id" text not null, "name" text not null, "description" text null, "color" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "projects_pkey" primary key ("id"));`);
    this.addSql(`create index "projects_organization_id_created_at_index" on "projects" ("organization_id", "created_at");`);
    this.addSql(`create unlogged table "rate_limit_counters" ("bucket" text not null, "window_start" timestamptz(0) not null, "count" int not null, constraint "rate_limit_counters_pkey" primary key ("bucket", "window_start"));`);
    this.addSql(`create table "scripts" ("id" text not null, "organization_id" text not null, "project_id" text null, "name" text not null, "description" text null, "status" text check ("status" in ('draft', 'published', 'archived')) not null default 'draft', "latest_version" int not null default 1, "published_version" int null, "published_at" timestamptz(3) null, "archived_at" timestamptz(3) null, "deleted_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "scripts_pkey" primary key ("id"));`);
    this.addSql(`create index "scripts_project_id_index" on "scripts" ("project_id");`);
    this.addSql(`create index "scripts_organization_id_created_at_index" on "scripts" ("organization_id", "created_at");`);
    this.addSql(`create table "campaigns" ("id" text not null, "organization_id" text not null, "project_id" text null, "script_id" text not null, "name" text not null, "description" text null, "status" text check ("status" in ('active', 'paused', 'archived')) not null default 'active', "settings" jsonb not null, "invite_defaults" jsonb not null, "metadata" jsonb not null, "archived_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "campaigns_pkey" primary key ("id"));`);
    this.addSql(`create index "campaigns_project_id_index" on "campaigns" ("project_id");`);
    this.addSql(`create index "campaigns_script_id_index" on "campaigns" ("script_id");`);
    this.addSql(`create index "campaigns_organization_id_created_at_index" on "campaigns" ("organization_id", "created_at");`);
    this.addSql(`create index "campaigns_organization_id_status_index" on "campaigns" ("organization_id", "status");`);
    this.addSql(`create table "script_media" ("id" text not null, "organization_id" text not null, "script_id" text not null, "question_id" text null, "kind" text check ("kind" in ('image', 'audio')) not null, "content_type" text not null, "filename" text not null, "size_bytes" bigint not null, "sha256" text not null, "storage_key" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "script_media_pkey" primary key ("id"));`);
    this.addSql(`create index "script_media_organization_id_index" on "script_media" ("organization_id");`);
    this.addSql(`create index "script_media_script_id_created_at_index" on "script_media" ("script_id", "created_at");`);
    this.addSql(`create table "script_versions" ("id" text not null, "script_id" text not null, "version" int not null, "status" text check ("status" in ('draft', 'published')) not null default 'draft', "changelog" text null, "system_prompt" text not null, "questions" jsonb not null, "settings" jsonb not null, "created_at" timestamptz(3) not null, "published_at" timestamptz(3) null, constraint "script_versions_pkey" primary key ("id"));`);
    this.addSql(`alter table "script_versions" add constraint "script_versions_script_id_version_unique" unique ("script_id", "version");`);
    this.addSql(`create table "worker_processes" ("id" text not null, "worker_ids" jsonb not null, "started_at" timestamptz(3) not null, "last_seen_at" timestamptz(3) not null, constraint "worker_processes_pkey" primary key ("id"));`);
    this.addSql(`create index "worker_processes_last_seen_at_index" on "worker_processes" ("last_seen_at");`);
    this.addSql(`alter table "credit_transactions" add constraint "credit_transactions_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "projects" add constraint "projects_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "scripts" add constraint "scripts_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "scripts" add constraint "scripts_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "campaigns" add constraint "campaigns_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "campaigns" add constraint "campaigns_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "campaigns" add constraint "campaigns_script_id_foreign" foreign key ("script_id") references "scripts" ("id") on update cascade on delete restrict;`);
    this.addSql(`alter table "script_media" add constraint "script_media_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "script_media" add constraint "script_media_script_id_foreign" foreign key ("script_id") references "scripts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "script_versions" add constraint "script_versions_script_id_foreign" foreign key ("script_id") references "scripts" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "worker_processes" cascade;`);
    this.addSql(`drop table if exists "script_versions" cascade;`);
    this.addSql(`drop table if exists "script_media" cascade;`);
    this.addSql(`drop table if exists "campaigns" cascade;`);
    this.addSql(`drop table if exists "scripts" cascade;`);
    this.addSql(`drop table if exists "rate_limit_counters" cascade;`);
    this.addSql(`drop table if exists "projects" cascade;`);
    this.addSql(`drop table if exists "api_keys" cascade;`);
    this.addSql(`drop table if exists "credit_transactions" cascade;`);
    this.addSql(`drop table if exists "organizations" cascade;`);
    this.addSql(`drop table if exists "app_secrets" cascade;`);
  }
}
