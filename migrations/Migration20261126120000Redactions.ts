import { Migration } from '@mikro-orm/migrations';

/**
 * Manual redactions, sentiment overrides and their audit log, and anonymized exports.
 *
 * - `session_utterances.sentiment_override`: a researcher's label for the utterance; readers use
 *   `coalesce(sentiment_override, sentiment)`, so the analysis' own label stays and clearing the
 *   override brings it back. Who and when, as `{kind, id, name}` and a timestamp.
 * - `transcript_audit_log`: one row per redaction or override change. `details` holds offsets,
 *   time ranges, file ids and sentiments, never the words removed: the log must not become the
 *   copy a redaction left behind.
 * - `anonymized_exports`: the files of `anonymizedExports.create`, served by a signed link for an
 *   hour and deleted after.
 */
export class Migration20261126120000Redactions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "session_utterances" add column "sentiment_override" text check ("sentiment_override" in ('positive', 'neutral', 'negative')) null, add column "sentiment_overridden_at" timestamptz(3) null, add column "sentiment_overridden_by" jsonb null;`);

    this.addSql(`create table "transcript_audit_log" (
      "id" text not null, "organization_id" text not null, "session_id" text not null, "utterance_id" text not null,
      "action" text check ("action" in ('redact', 'sentiment_override', 'sentiment_override_cleared')) not null,
      "actor_kind" text check ("actor_kind" in ('member', 'api_key')) not null, "actor_id" text not null, "actor_name" text not null,
      "reason" text null, "details" jsonb not null, "created_at" timestamptz(3) not null,
      constraint "transcript_audit_log_pkey" primary key ("id"));`);
    this.addSql(`alter table "transcript_audit_log" add constraint "transcript_audit_log_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "transcript_audit_log" add constraint "transcript_audit_log_session_id_foreign" foreign key ("session_id") references "sessions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "transcript_audit_log" add constraint "transcript_audit_log_utterance_id_foreign" foreign key ("utterance_id") references "session_utterances" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "transcript_audit_log_session_id_created_at_index" on "transcript_audit_log" ("session_id", "created_at", "id");`);
    this.addSql(`create index "transcript_audit_log_utterance_id_index" on "transcript_audit_log" ("utterance_id");`);
    this.addSql(`create index "transcript_audit_log_organization_id_index" on "transcript_audit_log" ("organization_id");`);

    this.addSql(`create table "anonymized_exports" (
      "id" text not null, "organization_id" text not null, "format" text check ("format" in ('json', 'csv')) not null,
      "scope" jsonb not null, "session_count" int not null, "storage_key" text not null, "size_bytes" bigint not null, "sha256" text not null,
      "created_by_kind" text check ("created_by_kind" in ('member', 'api_key')) not null, "created_by_id" text not null, "created_by_name" text not null,
      "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null,
      constraint "anonymized_exports_pkey" primary key ("id"));`);
    this.addSql(`alter table "anonymized_exports" add constraint "anonymized_exports_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "anonymized_exports_organization_id_expires_at_index" on "anonymized_exports" ("organization_id", "expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "anonymized_exports" cascade;`);
    this.addSql(`drop table if exists "transcript_audit_log" cascade;`);
    this.addSql(`alter table "session_utterances" drop column "sentiment_override", drop column "sentiment_overridden_at", drop column "sentiment_overridden_by";`);
  }
}
