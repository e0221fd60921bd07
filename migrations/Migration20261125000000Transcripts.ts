import { Migration } from '@mikro-orm/migrations';

/** Transcript analysis (per-utterance sentiment and keywords, the session's sentiment), session insights, and when a session's files were prepared. */
export class Migration20261125000000Transcripts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "session_insights" ("session_id" text not null, "organization_id" text not null, "summary" text not null, "key_quotes" jsonb not null, "action_items" jsonb not null, "topics" jsonb not null, "generated_by" text check ("generated_by" in ('builtin', 'llm')) not null, "generated_at" timestamptz(3) not null, constraint "session_insights_pkey" primary key ("session_id"));`);
    this.addSql(`create index "session_insights_organization_id_index" on "session_insights" ("organization_id");`);
    this.addSql(`alter table "session_insights" add constraint "session_insights_session_id_foreign" foreign key ("session_id") references "sessions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "session_insights" add constraint "session_insights_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "sessions" add column "transcript_status" text check ("transcript_status" in ('ready', 'none')) null, add column "transcript_none_reason" text check ("transcript_none_reason" in ('no_answers', 'too_little_speech')) null, add column "analyzed_by" text null, add column "sentiment" text check ("sentiment" in ('positive', 'neutral', 'negative')) null, add column "sentiment_score" double precision null, add column "files_prepared_at" timestamptz(3) null;`);
    this.addSql(`alter table "session_utterances" add column "sentiment" text check ("sentiment" in ('positive', 'neutral', 'negative')) null, add column "sentiment_score" double precision null, add column "keywords" jsonb null;`);
    // Sessions finished before this version went through placeholder steps that only recorded
    // their times: they are made again, for real (graphile-worker's schema is migrated first).
    this.addSql(`with reset as (
      update "sessions" set "transcript_generated_at" = null, "insights_generated_at" = null, "updated_at" = now()
      where "status" in ('completed', 'abandoned') and "transcript_generated_at" is not null
      returning "id")
    select graphile_worker.add_job('session__generate_transcript', json_build_object('sessionId', "id"), job_key => 'session-transcript:' || "id") from reset;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "session_insights" cascade;`);
    this.addSql(`alter table "sessions" drop column "transcript_status", drop column "transcript_none_reason", drop column "analyzed_by", drop column "sentiment", drop column "sentiment_score", drop column "files_prepared_at";`);
    this.addSql(`alter table "session_utterances" drop column "sentiment", drop column "sentiment_score", drop column "keywords";`);
  }
}
