import { Migration } from '@mikro-orm/migrations';

/** Highlights, comments, collections and saved searches. */
export class Migration20261126100000Highlights extends Migration {
  override async up(): Promise<void> {
    // Filled in by the work on this part.
  }
}
