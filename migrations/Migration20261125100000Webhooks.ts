import { Migration } from '@mikro-orm/migrations';

/** Webhook endpoints, events and their deliveries. */
export class Migration20261125100000Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "webhook_endpoints" ("id" text not null, "organization_id" text not null, "url" text not null, "events" jsonb not null, "design" text check ("design" in ('A', 'B')) not null, "description" text null, "status" text check ("status" in ('enabled', 'disabled')) not null, "disabled_reason" text check ("disabled_reason" in ('gone', 'manual')) null, "sealed_secret" text not null, "sealed_previous_secret" text null, "previous_secret_expires_at" timestamptz(3) null, "secret_rotated_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "webhook_endpoints_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_endpoints_organization_id_created_at_index" on "webhook_endpoints" ("organization_id", "created_at");`);
    this.addSql(`create table "webhook_events" ("id" text not null, "organization_id" text not null, "type" text not null, "session_id" text null, "facts" jsonb not null, "occurred_at" timestamptz(3) not null, constraint "webhook_events_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_events_session_id_index" on "webhook_events" ("session_id");`);
    this.addSql(`create index "webhook_events_organization_id_occurred_at_index" on "webhook_events" ("organization_id", "occurred_at");`);
    this.addSql(`create table "webhook_deliveries" ("id" text not null, "organization_id" text not null, "endpoint_id" text not null, "event_id" text not null, "status" text check ("status" in ('pending', 'succeeded', 'failed')) not null, "design" text check ("design" in ('A', 'B')) not null, "attempts" jsonb not null, "attempt_count" int not null default 0, "next_attempt_at" timestamptz(3) null, "redelivery_of" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "webhook_deliveries_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_deliveries_event_id_index" on "webhook_deliveries" ("event_id");`);
    this.addSql(`create index "webhook_deliveries_endpoint_id_created_at_index" on "webhook_deliveries" ("endpoint_id", "created_at");`);
    this.addSql(`create index "webhook_deliveries_organization_id_status_index" on "webhook_deliveries" ("organization_id", "status");`);
    this.addSql(`alter table "webhook_endpoints" add constraint "webhook_endpoints_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_events" add constraint "webhook_events_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_events" add constraint "webhook_events_session_id_foreign" foreign key ("session_id") references "sessions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoints" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "webhook_deliveries" add constraint "webhook_deliveries_event_id_foreign" foreign key ("event_id") references "webhook_events" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
    this.addSql(`drop table if exists "webhook_events" cascade;`);
    this.addSql(`drop table if exists "webhook_endpoints" cascade;`);
  }
}
