import { Migration } from '@mikro-orm/migrations';

/**
 * Members and their sign-in (sessions, rotating refresh tokens, brute-force throttles), and
 * billing: invoices with yearly numbers, each organization's current billing period and its
 * customer at the payment provider.
 */
export class Migration20261126000000MembersAndBilling extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "members" ("id" text not null, "organization_id" text not null, "email" text not null, "name" text null, "role" text check ("role" in ('owner', 'admin', 'member', 'viewer')) not null, "status" text check ("status" in ('invited', 'active')) not null, "password_hash" text null, "invitation_token_hash" text null, "invitation_expires_at" timestamptz(3) null, "invitation_email_status" text check ("invitation_email_status" in ('queued', 'sent', 'failed')) null, "last_sign_in_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "members_pkey" primary key ("id"));`);
    this.addSql(`alter table "members" add constraint "members_invitation_token_hash_unique" unique ("invitation_token_hash");`);
    this.addSql(`create index "members_email_index" on "members" ("email");`);
    this.addSql(`alter table "members" add constraint "members_organization_id_email_unique" unique ("organization_id", "email");`);
    this.addSql(`alter table "members" add constraint "members_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "member_sessions" ("id" text not null, "member_id" text not null, "created_at" timestamptz(3) not null, "last_refreshed_at" timestamptz(3) null, "expires_at" timestamptz(3) not null, "revoked_at" timestamptz(3) null, "revoked_reason" text check ("revoked_reason" in ('sign_out', 'refresh_token_reused', 'member_removed')) null, "ip_address" text null, "user_agent" text null, constraint "member_sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "member_sessions_member_id_index" on "member_sessions" ("member_id");`);
    this.addSql(`alter table "member_sessions" add constraint "member_sessions_member_id_foreign" foreign key ("member_id") references "members" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "refresh_tokens" ("token_hash" text not null, "session_id" text not null, "expires_at" timestamptz(3) not null, "used_at" timestamptz(3) null, "created_at" timestamptz(3) not null, constraint "refresh_tokens_pkey" primary key ("token_hash"));`);
    this.addSql(`create index "refresh_tokens_session_id_index" on "refresh_tokens" ("session_id");`);
    this.addSql(`alter table "refresh_tokens" add constraint "refresh_tokens_session_id_foreign" foreign key ("session_id") references "member_sessions" ("id") on update cascade on delete cascade;`);

    this.addSql(`create table "sign_in_throttles" ("subject" text not null, "failures" int not null, "window_started_at" timestamptz(3) not null, "locked_until" timestamptz(3) null, constraint "sign_in_throttles_pkey" primary key ("subject"));`);

    this.addSql(`create table "invoices" ("id" text not null, "organization_id" text not null, "number" text not null, "kind" text check ("kind" in ('purchase', 'usage')) not null, "status" text check ("status" in ('draft', 'open', 'paid', 'void')) not null, "amount" bigint not null, "currency" text not null, "period_start" timestamptz(3) not null, "period_end" timestamptz(3) not null, "lines" jsonb not null, "issued_at" timestamptz(3) not null, "paid_at" timestamptz(3) null, "payment_id" text null, "source" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "invoices_pkey" primary key ("id"));`);
    this.addSql(`alter table "invoices" add constraint "invoices_number_unique" unique ("number");`);
    this.addSql(`create index "invoices_organization_id_created_at_index" on "invoices" ("organization_id", "created_at");`);
    this.addSql(`alter table "invoices" add constraint "invoices_organization_id_source_unique" unique ("organization_id", "source");`);
    this.addSql(`alter table "invoices" add constraint "invoices_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`create table "invoice_number_counters" ("year" int not null, "last_number" int not null, constraint "invoice_number_counters_pkey" primary key ("year"));`);

    // Existing organizations got this month's included credits when they were created (or earlier).
    this.addSql(`alter table "organizations" add column "current_period_start" timestamptz(3) null, add column "payment_customer_id" text null;`);
    this.addSql(`update "organizations" set "current_period_start" = date_trunc('month', now() at time zone 'utc') at time zone 'utc';`);
    this.addSql(`alter table "organizations" alter column "current_period_start" set not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "organizations" drop column "current_period_start", drop column "payment_customer_id";`);
    this.addSql(`drop table if exists "invoice_number_counters" cascade;`);
    this.addSql(`drop table if exists "invoices" cascade;`);
    this.addSql(`drop table if exists "sign_in_throttles" cascade;`);
    this.addSql(`drop table if exists "refresh_tokens" cascade;`);
    this.addSql(`drop table if exists "member_sessions" cascade;`);
    this.addSql(`drop table if exists "members" cascade;`);
  }
}
