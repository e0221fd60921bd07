import { Migration } from '@mikro-orm/migrations';

/**
 * First attempts are sent by one drain per endpoint (`webhook__drain`), which reads the endpoint's
 * deliveries that have had no attempt yet, oldest first: this index holds only those, so the read
 * costs the same however long the endpoint's history.
 */
export class Migration20261202000000WebhookDrains extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "webhook_deliveries_first_attempt_due" on "webhook_deliveries" ("endpoint_id", "created_at") where "status" = 'pending' and "attempt_count" = 0;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "webhook_deliveries_first_attempt_due";`);
  }
}
