import { Migration } from '@mikro-orm/migrations';

/** Sessions (the interview engine), their utterances, files and feedback; credit holds and debts on organizations; monthly usage. */
export class Migration20261122300000Sessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sessions" ("id" text not null, "organization_id" text not null, "campaign_id" text not null, "invite_id" text not null, "script_id" text not null, "script_version" int not null, "status" text check ("status" in ('created', 'in_progress', 'paused', 'completed', 'abandoned')) not null, "completion_status" text check ("completion_status" in ('completed', 'timed_out', 'abandoned')) null, "language" text not null, "participant_email" text null, "participant_name" text null, "device" jsonb null, "metadata" jsonb not null, "consent_required" boolean not null, "consent" jsonb null, "pause_reason" text null, "started_at" timestamptz(3) null, "completed_at" timestamptz(3) null, "last_activity_at" timestamptz(3) not null, "active_since" timestamptz(3) null, "active_seconds" double precision not null default 0, "duration_seconds" int not null default 0, "max_duration_seconds" int null, "total_questions" int not null, "questions_answered" int not null default 0, "answers" jsonb not null, "question_index" int not null default 0, "pending" text check ("pending" in ('question', 'follow_up', 're_ask')) null, "pending_utterance_id" text null, "follow_ups_asked" int not null default 0, "re_asked" boolean not null default false, "next_seq" int not null default 0, "hold_credits" numeric(14,4) not null default 0, "billing" jsonb null, "transcript_generated_at" timestamptz(3) null, "insights_generated_at" timestamptz(3) null, "completion_announced_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "sessions_pkey" primary key ("id"));`);
    this.addSql(`create index "sessions_invite_id_index" on "sessions" ("invite_id");`);
    this.addSql(`create index "sessions_campaign_id_created_at_index" on "sessions" ("campaign_id", "created_at");`);
    this.addSql(`create index "sessions_organization_id_completed_at_index" on "sessions" ("organization_id", "completed_at");`);
    this.addSql(`create unique index "sessions_one_unfinished_per_invite" on "sessions" ("invite_id") where "status" in ('created', 'in_progress', 'paused');`);
    this.addSql(`create table "session_utterances" ("id" text not null, "organization_id" text not null, "session_id" text not null, "seq" int not null, "speaker" text check ("speaker" in ('ai', 'participant')) not null, "kind" text check ("kind" in ('question', 'follow_up', 're_ask', 'closing', 'answer')) not null, "text" text null, "question_id" text null, "value" jsonb null, "start_time" double precision not null, "end_time" double precision not null, "confidence" double precision null, "audio_file_id" text null, "decided_by" text null, "created_at" timestamptz(3) not null, constraint "session_utterances_pkey" primary key ("id"));`);
    this.addSql(`create index "session_utterances_organization_id_index" on "session_utterances" ("organization_id");`);
    this.addSql(`alter table "session_utterances" add constraint "session_utterances_session_id_seq_unique" unique ("session_id", "seq");`);
    this.addSql(`create table "session_files" ("id" text not null, "organization_id" text not null, "session_id" text not null, "kind" text check ("kind" in ('audio', 'merged_audio', 'upload', 'export')) not null, "name" text not null, "content_type" text not null, "size_bytes" bigint not null, "duration_seconds" double precision null, "sha256" text not null, "storage_key" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "session_files_pkey" primary key ("id"));`);
    this.addSql(`create index "session_files_organization_id_index" on "session_files" ("organization_id");`);
    this.addSql(`create index "session_files_session_id_created_at_index" on "session_files" ("session_id", "created_at");`);
    this.addSql(`create table "session_feedback" ("id" text not null, "organization_id" text not null, "session_id" text not null, "overall_rating" int null, "ease_of_use_rating" int null, "audio_quality_rating" int null, "question_clarity_rating" int null, "comments" text null, "technical_issues" text null, "would_recommend" boolean null, "submitted_at" timestamptz(3) not null, constraint "session_feedback_pkey" primary key ("id"));`);
    this.addSql(`create index "session_feedback_organization_id_index" on "session_feedback" ("organization_id");`);
    this.addSql(`alter table "session_feedback" add constraint "session_feedback_session_id_unique" unique ("session_id");`);
    this.addSql(`alter table "sessions" add constraint "sessions_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "sessions" add constraint "sessions_campaign_id_foreign" foreign key ("campaign_id") references "campaigns" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "sessions" add constraint "sessions_invite_id_foreign" foreign key ("invite_id") references "invites" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "session_utterances" add constraint "session_utterances_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "session_utterances" add constraint "session_utterances_session_id_foreign" foreign key ("session_id") references "sessions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "session_files" add constraint "session_files_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "session_files" add constraint "session_files_session_id_foreign" foreign key ("session_id") references "sessions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "session_feedback" add constraint "session_feedback_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "session_feedback" add constraint "session_feedback_session_id_foreign" foreign key ("session_id") references "sessions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "organizations" add column "credits_held" numeric(14,4) not null default 0, add column "credits_owed" numeric(14,4) not null default 0;`);
    this.addSql(`alter table "organizations" add constraint organizations_credits_held_nonnegative check(credits_held >= 0);`);
    this.addSql(`create table "billing_usage" ("organization_id" text not null, "period_start" timestamptz(0) not null, "minutes" int not null default 0, "free_minutes_used" int not null default 0, "sessions" int not null default 0, constraint "billing_usage_pkey" primary key ("organization_id", "period_start"));`);
    this.addSql(`alter table "billing_usage" add constraint "billing_usage_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing_usage" cascade;`);
    this.addSql(`drop table if exists "session_feedback" cascade;`);
    this.addSql(`drop table if exists "session_files" cascade;`);
    this.addSql(`drop table if exists "session_utterances" cascade;`);
    this.addSql(`drop table if exists "sessions" cascade;`);
    this.addSql(`alter table "organizations" drop constraint if exists organizations_credits_held_nonnegative;`);
    this.addSql(`alter table "organizations" drop column "credits_held", drop column "credits_owed";`);
  }
}
