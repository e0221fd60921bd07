import { Migration } from '@mikro-orm/migrations';

/**
 * Highlights, comments, collections and saved searches (the research workspace). Highlights keep
 * only offsets into an utterance's text, never a copy of it: the quote is cut at read time, so a
 * redaction of the utterance cannot leave the words behind here. Names of collections and saved
 * searches are unique per organization regardless of case.
 */
export class Migration20261126100000Highlights extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "highlights" (
      "id" text not null, "organization_id" text not null, "session_id" text not null, "utterance_id" text not null,
      "start_offset" int not null, "end_offset" int not null, "label" text null, "color" text not null, "note" text null,
      "author_kind" text check ("author_kind" in ('member', 'api_key')) not null, "author_id" text not null, "author_name" text not null,
      "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null,
      constraint "highlights_pkey" primary key ("id"),
      constraint "highlights_offsets_check" check ("start_offset" >= 0 and "end_offset" > "start_offset"));`);
    this.addSql(`alter table "highlights" add constraint "highlights_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "highlights" add constraint "highlights_session_id_foreign" foreign key ("session_id") references "sessions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "highlights" add constraint "highlights_utterance_id_foreign" foreign key ("utterance_id") references "session_utterances" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "highlights_organization_id_created_at_index" on "highlights" ("organization_id", "created_at", "id");`);
    this.addSql(`create index "highlights_session_id_index" on "highlights" ("session_id");`);
    this.addSql(`create index "highlights_utterance_id_index" on "highlights" ("utterance_id");`);

    this.addSql(`create table "comments" (
      "id" text not null, "organization_id" text not null, "session_id" text not null, "utterance_id" text null, "parent_id" text null,
      "body" text null,
      "author_kind" text check ("author_kind" in ('member', 'api_key')) not null, "author_id" text not null, "author_name" text not null,
      "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "edited_at" timestamptz(3) null, "deleted_at" timestamptz(3) null,
      constraint "comments_pkey" primary key ("id"),
      constraint "comments_tombstone_check" check (("deleted_at" is null) = ("body" is not null)));`);
    this.addSql(`alter table "comments" add constraint "comments_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "comments" add constraint "comments_session_id_foreign" foreign key ("session_id") references "sessions" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "comments" add constraint "comments_utterance_id_foreign" foreign key ("utterance_id") references "session_utterances" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "comments" add constraint "comments_parent_id_foreign" foreign key ("parent_id") references "comments" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "comments_session_id_created_at_index" on "comments" ("session_id", "created_at");`);
    this.addSql(`create index "comments_utterance_id_index" on "comments" ("utterance_id");`);
    this.addSql(`create index "comments_parent_id_index" on "comments" ("parent_id");`);

    this.addSql(`create table "collections" (
      "id" text not null, "organization_id" text not null, "name" text not null, "description" text null,
      "author_kind" text check ("author_kind" in ('member', 'api_key')) not null, "author_id" text not null, "author_name" text not null,
      "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null,
      constraint "collections_pkey" primary key ("id"));`);
    this.addSql(`alter table "collections" add constraint "collections_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`create unique index "collections_organization_id_name_unique" on "collections" ("organization_id", lower("name"));`);
    this.addSql(`create index "collections_organization_id_created_at_index" on "collections" ("organization_id", "created_at", "id");`);

    // `position` orders items by when they were added, ties included.
    this.addSql(`create table "collection_items" (
      "collection_id" text not null, "highlight_id" text not null, "organization_id" text not null, "note" text null,
      "added_by_kind" text check ("added_by_kind" in ('member', 'api_key')) not null, "added_by_id" text not null, "added_by_name" text not null,
      "added_at" timestamptz(3) not null, "position" bigint generated always as identity,
      constraint "collection_items_pkey" primary key ("collection_id", "highlight_id"));`);
    this.addSql(`alter table "collection_items" add constraint "collection_items_collection_id_foreign" foreign key ("collection_id") references "collections" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "collection_items" add constraint "collection_items_highlight_id_foreign" foreign key ("highlight_id") references "highlights" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "collection_items" add constraint "collection_items_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "collection_items_highlight_id_index" on "collection_items" ("highlight_id");`);
    this.addSql(`create index "collection_items_collection_id_position_index" on "collection_items" ("collection_id", "position");`);

    this.addSql(`create table "saved_searches" (
      "id" text not null, "organization_id" text not null, "name" text not null, "query" text not null, "filters" jsonb not null,
      "author_kind" text check ("author_kind" in ('member', 'api_key')) not null, "author_id" text not null, "author_name" text not null,
      "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null,
      constraint "saved_searches_pkey" primary key ("id"));`);
    this.addSql(`alter table "saved_searches" add constraint "saved_searches_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
    this.addSql(`create unique index "saved_searches_organization_id_name_unique" on "saved_searches" ("organization_id", lower("name"));`);
    this.addSql(`create index "saved_searches_organization_id_created_at_index" on "saved_searches" ("organization_id", "created_at", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "saved_searches" cascade;`);
    this.addSql(`drop table if exists "collection_items" cascade;`);
    this.addSql(`drop table if exists "collections" cascade;`);
    this.addSql(`drop table if exists "comments" cascade;`);
    this.addSql(`drop table if exists "highlights" cascade;`);
  }
}
