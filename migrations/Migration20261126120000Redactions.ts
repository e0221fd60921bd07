import { Migration } from '@mikro-orm/migrations';

/** Manual redactions, sentiment overrides and their audit log. */
export class Migration20261126120000Redactions extends Migration {
  override async up(): Promise<void> {
    // Filled in by the work on this part.
  }
}
