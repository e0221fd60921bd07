import { Migration } from '@mikro-orm/migrations';

/**
 * Full-text search over utterances (`search.query`). The index lives on the utterance row itself,
 * so whatever rewrites `text` (a redaction writing `[REDACTED]`) rewrites what can be found:
 *
 * - `search_language`: the text-search configuration of the row, by name (`english`, `dutch`,
 *   `german`, `french`, `spanish`, else `simple`): the language a participant actually answered in
 *   when the transcript job detected another one (`detected_language`), else the session's. Set by
 *   a trigger, because it comes from another table. A name, not a `regconfig` column: pg_upgrade
 *   refuses tables holding reg* types.
 * - `search_vector`: generated from `text` in that configuration (stored), participant answers
 *   weighted A and the interviewer's turns D, so an answer outranks the question that repeats the
 *   same words in every session of a campaign.
 * - a GIN index on `search_vector`.
 */
export class Migration20261126110000TranscriptSearch extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function interview_search_language(language text) returns text language sql immutable parallel safe as $$
      select case split_part(lower(coalesce(language, '')), '-', 1)
        when 'en' then 'english' when 'nl' then 'dutch' when 'de' then 'german' when 'fr' then 'french' when 'es' then 'spanish'
        else 'simple' end
    $$;`);
    // No check constraint: the trigger's function is the only writer, and the entity declares the column as plain text.
    this.addSql(`alter table "session_utterances" add column "search_language" text not null default 'simple';`);
    this.addSql(`update "session_utterances" u set "search_language" = interview_search_language(coalesce(u."detected_language", s."language")) from "sessions" s where s."id" = u."session_id";`);
    this.addSql(`create or replace function session_utterances_search_language() returns trigger language plpgsql as $$
      begin
        new.search_language := interview_search_language(coalesce(new.detected_language, (select s.language from sessions s where s.id = new.session_id)));
        return new;
      end
    $$;`);
    this.addSql(`create trigger "session_utterances_search_language" before insert or update of "session_id", "detected_language" on "session_utterances" for each row execute function session_utterances_search_language();`);
    this.addSql(`alter table "session_utterances" add column "search_vector" tsvector generated always as (
      setweight(
        to_tsvector(
          case "search_language" when 'english' then 'english'::regconfig when 'dutch' then 'dutch'::regconfig when 'german' then 'german'::regconfig
            when 'french' then 'french'::regconfig when 'spanish' then 'spanish'::regconfig else 'simple'::regconfig end,
          coalesce("text", '')),
        case when "speaker" = 'participant' then 'A'::"char" else 'D'::"char" end)
    ) stored;`);
    this.addSql(`create index "session_utterances_search_vector_index" on "session_utterances" using gin ("search_vector");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "session_utterances_search_vector_index";`);
    this.addSql(`alter table "session_utterances" drop column if exists "search_vector";`);
    this.addSql(`drop trigger if exists "session_utterances_search_language" on "session_utterances";`);
    this.addSql(`drop function if exists session_utterances_search_language();`);
    this.addSql(`alter table "session_utterances" drop column if exists "search_language";`);
    this.addSql(`drop function if exists interview_search_language(text);`);
  }
}
