import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook endpoint URLs were stored as written; they are now stored as parsed (WHATWG URL, the
 * form that is checked and connected to). Endpoints stored earlier are rewritten to that form so
 * the URL shown is the one delivered to (`https://a\@b/` was shown as written but goes to `a`).
 * Every stored URL passed `new URL` when it was accepted; one that no longer parses is left alone.
 */
export class Migration20261127010000WebhookUrlsAsParsed extends Migration {
  override async up(): Promise<void> {
    const rows = (await this.execute(`select id, url from webhook_endpoints`)) as { id: string; url: string }[];
    for (const row of rows) {
      let href: string;
      try {
        href = new URL(row.url).href;
      } catch {
        continue;
      }
      if (href !== row.url) this.addSql(this.getKnex().raw(`update webhook_endpoints set url = ? where id = ?`, [href, row.id]));
    }
  }

  override async down(): Promise<void> {
    // Nothing to undo: the parsed form is the same URL.
  }
}
