import { Migration } from '@mikro-orm/migrations';

/** Idempotency keys, and `failed_jobs`: the operators' view of jobs that used up their attempts. */
export class Migration20261122200000PlatformGuarantees extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_keys" ("organization_id" text not null, "key" text not null, "request_hash" text not null, "status" text check ("status" in ('in_flight', 'completed')) not null, "locked_until" timestamptz(3) null, "response_status" int null, "response_headers" jsonb null, "response_body" text null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, constraint "idempotency_keys_pkey" primary key ("organization_id", "key"));`);
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`);
    this.addSql(`alter table "idempotency_keys" add constraint "idempotency_keys_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`create view "failed_jobs" as
      select j.id, t.identifier as task, j.key, j.payload, j.attempts, j.max_attempts, j.last_error, j.created_at, j.updated_at
      from graphile_worker._private_jobs j
      join graphile_worker._private_tasks t on t.id = j.task_id
      where j.attempts >= j.max_attempts and j.locked_at is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop view if exists "failed_jobs";`);
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
  }
}
