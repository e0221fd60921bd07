import { Migration } from '@mikro-orm/migrations';

/**
 * Refresh tokens remember where they came from and who spent them, so that the same token
 * presented twice within seconds by the same client (two tabs of one person, a retry after a lost
 * answer) can be told from a copy played back later.
 *
 * - `parent_hash`: the token whose spending issued this one (null for a sign-in's first token).
 * - `used_user_agent`: the user agent of the request that spent it.
 */
export class Migration20261127000000RefreshGrace extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "refresh_tokens" add column "parent_hash" text null, add column "used_user_agent" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "refresh_tokens" drop column "parent_hash", drop column "used_user_agent";`);
  }
}
