import { Migration } from '@mikro-orm/migrations';

/**
 * The voice a session's AI turns are spoken in, chosen when it starts (the SDK's `voice`, else
 * the campaign's or the script's `settings.voice`), so every turn of one interview sounds the
 * same. Null for sessions started before, and when nothing names a voice: the default voice.
 */
export class Migration20261128000000SessionVoice extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "sessions" add column "voice" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "sessions" drop column "voice";`);
  }
}
