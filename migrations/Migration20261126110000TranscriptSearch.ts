import { Migration } from '@mikro-orm/migrations';

/** Full-text search over utterances. */
export class Migration20261126110000TranscriptSearch extends Migration {
  override async up(): Promise<void> {
    // Filled in by the work on this part.
  }
}
