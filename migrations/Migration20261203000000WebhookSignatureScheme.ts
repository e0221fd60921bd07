import { Migration } from '@mikro-orm/migrations';

/**
 * Standard Webhooks signing, opt-in per endpoint (issue 35): `signature_scheme` is `design` (the
 * payload design's own headers, what every endpoint had) or `standard_webhooks`. Existing
 * endpoints keep `design`; the column has no default afterwards, as every insert names it.
 */
export class Migration20261203000000WebhookSignatureScheme extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "webhook_endpoints" add column "signature_scheme" text check ("signature_scheme" in ('design', 'standard_webhooks')) not null default 'design';`,
    );
    this.addSql(`alter table "webhook_endpoints" alter column "signature_scheme" drop default;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_endpoints" drop column "signature_scheme";`);
  }
}
