import { Migration } from '@mikro-orm/migrations';

/**
 * A voice session's three recordings: beside `merged_audio`, the participant's track
 * (`participant_audio`) and the AI's (`ai_audio`). The kind is a check constraint: widened, no
 * row changes.
 */
export class Migration20261128020000SessionTracks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "session_files" drop constraint if exists "session_files_kind_check";`);
    this.addSql(
      `alter table "session_files" add constraint "session_files_kind_check" check ("kind" in ('audio', 'merged_audio', 'participant_audio', 'ai_audio', 'upload', 'export'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "session_files" where "kind" in ('participant_audio', 'ai_audio');`);
    this.addSql(`alter table "session_files" drop constraint if exists "session_files_kind_check";`);
    this.addSql(`alter table "session_files" add constraint "session_files_kind_check" check ("kind" in ('audio', 'merged_audio', 'upload', 'export'));`);
  }
}
