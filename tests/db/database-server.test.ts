import type pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { checkDatabaseServer, UnsupportedPostgresError } from '../../server/db/database-server.js';
import { createLogger } from '../../server/logger.js';
import { withAdmin } from '../helpers/test-database.js';

/**
 * The server the service runs on: named in the start log, refused below PostgreSQL 15 with one
 * line saying why (no older server is at hand here, so that answer is checked on a stand-in
 * client that reports 14.10; the suite itself runs on 15 and 18, docs/deployment.md, "Supported PostgreSQL
 * versions").
 */

function loggerInto(lines: Array<{ level: number; msg: string; postgresVersion?: string }>) {
  const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
  return createLogger('info', stream as unknown as NodeJS.WritableStream);
}

/** A client that answers the check's first question as an old server would, and fails anything after it. */
function serverReporting(version: string, versionNum: string): pg.ClientBase {
  let asked = 0;
  return {
    query: async () => {
      asked += 1;
      if (asked > 1) throw new Error('function has_parameter_privilege(unknown, unknown) does not exist');
      return { rows: [{ server_version: version, server_version_num: versionNum, log_statement: 'none', log_min_duration_statement: '-1' }] };
    },
  } as unknown as pg.ClientBase;
}

describe('the database server at start', () => {
  it('below PostgreSQL 15 is refused with one line naming the version found and the versions supported', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const refused = checkDatabaseServer(serverReporting('14.10 (Debian 14.10-1)', '140010'), loggerInto(lines));
    await expect(refused).rejects.toBeInstanceOf(UnsupportedPostgresError);
    const error = await refused.catch((caught: Error) => caught);
    expect((error as Error).message).toMatch(/^PostgreSQL 14\.10 is not supported: the service needs PostgreSQL 15 or newer/);
    expect((error as Error).message).not.toContain('\n');
  });

  it("is named in the log, with its version, and this suite's server is one the service supports", async () => {
    const lines: Array<{ level: number; msg: string; postgresVersion?: string }> = [];
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: inject('adminDatabaseUrl') });
    await client.connect();
    try {
      const { major, version } = await checkDatabaseServer(client, loggerInto(lines));
      expect(major).toBeGreaterThanOrEqual(15);
      expect(lines).toContainEqual(expect.objectContaining({ msg: `database: PostgreSQL ${version}`, postgresVersion: version }));
      // The check keeps this session's statement parameters out of PostgreSQL's log where it may.
      const { rows } = await client.query<{ value: string }>(`select current_setting('log_parameter_max_length') as value`);
      expect(rows[0]!.value).toBe('0');
    } finally {
      await client.end();
    }
  });

  it('warns when PostgreSQL logs statements with their parameters and this role may not change that', async () => {
    const role = `limited_${Math.random().toString(36).slice(2, 10)}`;
    // An ordinary role whose sessions an operator set to log every statement.
    await withAdmin(async (admin) => {
      await admin.query(`create role ${role} login password '${role}'`);
      await admin.query(`alter role ${role} set log_statement = 'all'`);
    });
    try {
      const url = new URL(inject('adminDatabaseUrl'));
      url.username = role;
      url.password = role;
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: url.toString() });
      await client.connect();
      const lines: Array<{ level: number; msg: string }> = [];
      try {
        await checkDatabaseServer(client, loggerInto(lines));
      } finally {
        await client.end().catch(() => undefined);
      }
      expect(lines.find((line) => line.level === 40)?.msg).toMatch(/log_parameter_max_length = 0/);
    } finally {
      await withAdmin((admin) => admin.query(`drop role if exists ${role}`));
    }
  });
});
