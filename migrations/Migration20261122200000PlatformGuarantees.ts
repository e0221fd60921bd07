import { Migration } from '@mikro-orm/migrations';

/** Idempotency keys (the `failed_jobs` view is recreated on every start: see server/db/migrate.ts). */
export class Migration20261122200000PlatformGuarantees extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_keys" ("organization_id" text not null, "key" text not null, "request_hash" text not null, "status" text check ("status" in ('in_flight', 'completed')) not null, "locked_until" timestamptz(3) null, "response_status" int null, "response_headers" jsonb null, "response_body" text null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, constraint "idempotency_keys_pkey" primary key ("organization_id", "key"));`);
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`);
    this.addSql(`alter table "idempotency_keys" add constraint "idempotency_keys_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
  }
}
