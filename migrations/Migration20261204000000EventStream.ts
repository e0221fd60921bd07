import { Migration } from '@mikro-orm/migrations';

/**
 * The developer CLI's event stream (issue 35) reads an organization's events in the order their
 * transactions committed, and must not skip one whose transaction committed after a later one's.
 * `recorded_xid` is the writing transaction's id: the stream reads only below the oldest
 * transaction still running (`pg_snapshot_xmin`), where nothing can appear any more. Added without
 * a value for the events already kept (a volatile default on `add column` would rewrite the
 * table); the stream only reads forward from its start. The index is built in the migration's
 * transaction, which holds event inserts while it builds: on an installation with millions of
 * events, build it first with `create index concurrently` under the same name.
 */
export class Migration20261204000000EventStream extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_events" add column "recorded_xid" xid8 null;`);
    this.addSql(`alter table "webhook_events" alter column "recorded_xid" set default pg_current_xact_id();`);
    this.addSql(`create index "webhook_events_organization_id_recorded_xid_index" on "webhook_events" ("organization_id", "recorded_xid");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "webhook_events_organization_id_recorded_xid_index";`);
    this.addSql(`alter table "webhook_events" drop column "recorded_xid";`);
  }
}
