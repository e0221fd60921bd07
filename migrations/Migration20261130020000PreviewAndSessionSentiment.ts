import { Migration } from '@mikro-orm/migrations';

/**
 * "Preview as participant" (issue 31). A preview invite runs the version it was made for, the
 * script's draft included (`invites.script_version`; null: the campaign's script's published
 * version, as every other invite). One hidden preview campaign per script, so two previews
 * started at once share it instead of creating two.
 *
 * A session's sentiment label now comes from its score (analysis/session-sentiment.ts): the
 * sessions analysed before get the label their stored score carries, so no stored label sits
 * beside a score that says otherwise ("negative (0.01)").
 */
export class Migration20261130020000PreviewAndSessionSentiment extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "invites" add column "script_version" integer null;`);
    this.addSql(`create unique index "campaigns_preview_script_unique" on "campaigns" ("script_id") where "preview";`);
    this.addSql(`update "sessions" set "sentiment" = case when "sentiment_score" >= 0.05 then 'positive' when "sentiment_score" <= -0.05 then 'negative' else 'neutral' end
      where "sentiment_score" is not null and "sentiment" is distinct from case when "sentiment_score" >= 0.05 then 'positive' when "sentiment_score" <= -0.05 then 'negative' else 'neutral' end;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "campaigns_preview_script_unique";`);
    this.addSql(`alter table "invites" drop column "script_version";`);
  }
}
