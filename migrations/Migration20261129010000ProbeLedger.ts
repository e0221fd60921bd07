import { Migration } from '@mikro-orm/migrations';

/**
 * The probe ledger (issue 30): each AI follow-up records why it was asked (its reason, the
 * participant's words it picked up, who worded it, its number on the question), so answers stay
 * comparable across participants. Null on every other turn and on follow-ups asked before.
 */
export class Migration20261129010000ProbeLedger extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "session_utterances" add column "probe" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "session_utterances" drop column "probe";`);
  }
}
