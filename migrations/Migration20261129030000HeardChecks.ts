import { Migration } from '@mikro-orm/migrations';

/**
 * Confidence-aware results (issue 30): an answer heard with low speech-recognition confidence is
 * read back to the participant in a turn of kind `check_heard` ("We heard: “…”. Is that right?")
 * before it counts. The answer row says how that went (`heard_check`: `unclear` until the
 * participant confirmed or corrected it, then `confirmed` or `corrected`) and keeps the recognised
 * text a correction replaced (`heard_as`). Insights record how many unsure answers they left out.
 */
export class Migration20261129030000HeardChecks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sessions" drop constraint if exists "sessions_pending_check";`);
    this.addSql(`alter table "sessions" add constraint "sessions_pending_check" check ("pending" in ('question', 'follow_up', 're_ask', 'confirm', 'check_heard'));`);
    this.addSql(`alter table "session_utterances" drop constraint if exists "session_utterances_kind_check";`);
    this.addSql(
      `alter table "session_utterances" add constraint "session_utterances_kind_check" check ("kind" in ('question', 'follow_up', 're_ask', 'confirm', 'check_heard', 'closing', 'answer'));`,
    );
    this.addSql(`alter table "session_utterances" add column "heard_check" text null, add column "heard_as" text null;`);
    this.addSql(
      `alter table "session_utterances" add constraint "session_utterances_heard_check_check" check ("heard_check" in ('unclear', 'confirmed', 'corrected'));`,
    );
    this.addSql(`alter table "session_insights" add column "excluded_low_confidence" integer not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "session_insights" drop column "excluded_low_confidence";`);
    this.addSql(`alter table "session_utterances" drop column "heard_check", drop column "heard_as";`);
    this.addSql(`alter table "session_utterances" drop constraint if exists "session_utterances_kind_check";`);
    this.addSql(
      `alter table "session_utterances" add constraint "session_utterances_kind_check" check ("kind" in ('question', 'follow_up', 're_ask', 'confirm', 'closing', 'answer'));`,
    );
    this.addSql(`alter table "sessions" drop constraint if exists "sessions_pending_check";`);
    this.addSql(`alter table "sessions" add constraint "sessions_pending_check" check ("pending" in ('question', 'follow_up', 're_ask', 'confirm'));`);
  }
}
