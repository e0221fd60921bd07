import { Migration } from '@mikro-orm/migrations';

/**
 * Confirmation turns: an answer understood but not surely ("maybe a four?") is read back in one
 * short turn of kind `confirm` (the session's pending turn and an utterance kind). And alt text
 * for script media: images shown with a question carry it to the participant's page; null for
 * media uploaded before, or without it.
 */
export class Migration20261128030000ConfirmTurnsAndMediaAlt extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sessions" drop constraint if exists "sessions_pending_check";`);
    this.addSql(`alter table "sessions" add constraint "sessions_pending_check" check ("pending" in ('question', 'follow_up', 're_ask', 'confirm'));`);
    this.addSql(`alter table "session_utterances" drop constraint if exists "session_utterances_kind_check";`);
    this.addSql(
      `alter table "session_utterances" add constraint "session_utterances_kind_check" check ("kind" in ('question', 'follow_up', 're_ask', 'confirm', 'closing', 'answer'));`,
    );
    this.addSql(`alter table "script_media" add column "alt" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "script_media" drop column "alt";`);
    this.addSql(`alter table "session_utterances" drop constraint if exists "session_utterances_kind_check";`);
    this.addSql(`alter table "session_utterances" add constraint "session_utterances_kind_check" check ("kind" in ('question', 'follow_up', 're_ask', 'closing', 'answer'));`);
    this.addSql(`alter table "sessions" drop constraint if exists "sessions_pending_check";`);
    this.addSql(`alter table "sessions" add constraint "sessions_pending_check" check ("pending" in ('question', 'follow_up', 're_ask'));`);
  }
}
