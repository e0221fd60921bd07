import type pg from 'pg';
import type { Logger } from '../logger.js';

/**
 * The PostgreSQL majors the service supports: every one the PostgreSQL project still supports.
 * The suite runs on the lowest and the highest (docs/deployment.md, "Supported PostgreSQL versions").
 */
export const LOWEST_SUPPORTED_POSTGRES_MAJOR = 15;

/** A server the service cannot run on; its message is the one line the start prints. */
export class UnsupportedPostgresError extends Error {}

/**
 * Keeps the values of bound statements out of PostgreSQL's log on this session, where the role may
 * change the setting (a superuser, or one granted SET on it): with `log_statement` or
 * `log_min_duration_statement` on, PostgreSQL otherwise prints each statement's parameters on a
 * `DETAIL: parameters:` line. Guarded by `has_parameter_privilege` so a role that may not change
 * it gets no error (and the server log no complaint) on every new connection.
 */
export const HIDE_PARAMETERS_FROM_LOG = `select set_config('log_parameter_max_length', '0', false)
  where has_parameter_privilege('log_parameter_max_length', 'SET')`;

interface ServerFacts {
  server_version: string;
  server_version_num: string;
  log_statement: string;
  log_min_duration_statement: string;
}

/**
 * Checked once at start, before migrations: names the server in the start log, refuses a major
 * below the lowest supported with a one-line reason, and warns when PostgreSQL would log the
 * values of statements and this role cannot stop it.
 */
export async function checkDatabaseServer(client: pg.ClientBase, logger: Logger): Promise<{ version: string; major: number }> {
  // Read before anything version-specific runs (has_parameter_privilege is new in 15).
  const { rows } = await client.query<ServerFacts>(
    `select current_setting('server_version') as server_version, current_setting('server_version_num') as server_version_num,
            current_setting('log_statement') as log_statement, current_setting('log_min_duration_statement') as log_min_duration_statement`,
  );
  const facts = rows[0]!;
  const major = Math.floor(Number(facts.server_version_num) / 10_000);
  const version = facts.server_version.split(' ')[0]!;
  if (!(major >= LOWEST_SUPPORTED_POSTGRES_MAJOR)) {
    throw new UnsupportedPostgresError(
      `PostgreSQL ${version} is not supported: the service needs PostgreSQL ${LOWEST_SUPPORTED_POSTGRES_MAJOR} or newer (15, 16, 17 or 18). Upgrade the server DATABASE_URL names, or unset DATABASE_URL to use the embedded PostgreSQL.`,
    );
  }
  logger.info({ postgresVersion: version, postgresMajor: major }, `database: PostgreSQL ${version}`);
  await client.query(HIDE_PARAMETERS_FROM_LOG);
  const hidden = await client.query<{ value: string }>(`select current_setting('log_parameter_max_length') as value`);
  const logsStatements = facts.log_statement !== 'none' || facts.log_min_duration_statement !== '-1';
  if (logsStatements && hidden.rows[0]!.value !== '0') {
    logger.warn(
      { logStatement: facts.log_statement, logMinDurationStatement: facts.log_min_duration_statement, logParameterMaxLength: hidden.rows[0]!.value },
      "PostgreSQL logs statements with their parameters and this role may not change that: values the service binds (emails, answers, key hashes) can reach PostgreSQL's log. Set log_parameter_max_length = 0 for this role (ALTER ROLE … SET log_parameter_max_length = 0, as a superuser).",
    );
  }
  return { version, major };
}
