import { Migration } from '@mikro-orm/migrations';

/**
 * The interview language of one invite (over the campaign's and the script's), and the language
 * a participant's answer was written in when it is not the interview's.
 */
export class Migration20261125200000InviteLanguage extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "invites" add column "language" text null;`);
    this.addSql(`alter table "session_utterances" add column "detected_language" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "session_utterances" drop column "detected_language";`);
    this.addSql(`alter table "invites" drop column "language";`);
  }
}
