import type { EntityManager } from '@mikro-orm/postgresql';
import { parseArgs } from 'node:util';
import { parseDurationSeconds } from '../../shared/durations.js';
import { parsePermissionList, PERMISSIONS } from '../../shared/permissions.js';
import { isPlan, PLAN_NAMES, rateLimitFor } from '../../shared/plans.js';
import path from 'node:path';
import { BackupError, createBackup, embeddedDatabaseOf, type RestoredBackup, restoreBackup, verifyBackup } from '../backup/embedded-backup.js';
import { type Config, loadConfig } from '../config.js';
import { UnsupportedPostgresError } from '../db/database-server.js';
import { EmbeddedPostgresError, openEmbeddedPostgres } from '../db/embedded-postgres.js';
import { createApiKey } from '../domains/api-keys/create-api-key.js';
import { describeApiKey, listApiKeys } from '../domains/api-keys/list-api-keys.js';
import { revokeApiKeyAsOperator } from '../domains/api-keys/revoke-api-key.js';
import { systemCaller } from '../domains/common/caller.js';
import { createOrganization } from '../domains/organizations/create-organization.js';
import { grantCredits } from '../domains/organizations/grant-credits.js';
import { setPlan } from '../domains/organizations/set-plan.js';
import { AppError, notFound } from '../errors.js';
import { copyFiles } from '../storage/copy-files.js';
import { LocalDiskStorage } from '../storage/local-disk-storage.js';
import { parseS3Url, S3Storage } from '../storage/s3-storage.js';
import { createLogger, type Logger } from '../logger.js';
import { setPaymentCustomer } from './queries.js';
import { openRuntime } from '../runtime.js';
import type { AppServices } from '../services.js';
import { ZInviteMemberInput } from '../../shared/schemas/members.js';
import { inviteMember } from '../domains/members/invite-member.js';
import { rollOverBillingPeriods } from '../domains/billing/roll-over-billing-periods.js';

const USAGE = `Usage: npm run --silent admin -- <command> [options] [--json]

Commands:
  create-org    --name NAME [--plan ${PLAN_NAMES.join('|')}] [--credits N]
  create-key    [--org ORG_ID] --name NAME --permissions all|perm1,perm2 [--expires-in 90d] [--test]
                (without --org a new organization is created; --test: an isk_test_ key of its test world)
  revoke-key    --id KEY_ID
  list-keys     --org ORG_ID
  set-plan      --org ORG_ID --plan PLAN [--rate-limit N]   (custom limit: enterprise only, up to 10000)
  grant-credits --org ORG_ID --amount N
  invite-member --org ORG_ID --email EMAIL --role owner|admin|member|viewer [--name NAME]
                emails the invitation and prints its link (for a host without SMTP)
  set-payment-customer --org ORG_ID --customer cus_…|none
                the organization's Stripe customer, whose default method pays purchases
  roll-over-billing   move organizations into the current billing period now (the worker does it hourly)
  backup        --out FILE        online backup of the embedded database and DATA_DIR/files
  backup        --verify FILE     restore FILE into a temporary cluster and check it
  restore       --from FILE       restore FILE into DATA_DIR, which must be empty
  copy-files    --to s3://BUCKET/PREFIX?region=…&endpoint=…
                copy DATA_DIR/files to an S3-compatible bucket and verify every copy by
                SHA-256 (run again after an interruption: files already there are kept)

With --json the last line of stdout is one JSON object; errors too ({"error": {...}}, exit code 1).`;

class UsageError extends Error {}

const OPTIONS = {
  json: { type: 'boolean' },
  test: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  plan: { type: 'string' },
  credits: { type: 'string' },
  org: { type: 'string' },
  permissions: { type: 'string' },
  'expires-in': { type: 'string' },
  id: { type: 'string' },
  'rate-limit': { type: 'string' },
  amount: { type: 'string' },
  out: { type: 'string' },
  verify: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  customer: { type: 'string' },
} as const;

type Options = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function required(options: Options, name: keyof Options): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required.`);
  return value.trim();
}

/** Credits are kept to 4 decimals; no plan or grant comes near a billion. */
const MAX_CLI_AMOUNT = 1_000_000_000;

function numberOption(options: Options, name: keyof Options, { integer = false } = {}): number | undefined {
  const raw = options[name];
  if (raw === undefined) return undefined;
  const pattern = integer ? /^-?\d+$/ : /^-?\d+(\.\d{1,4})?$/;
  if (typeof raw !== 'string' || !pattern.test(raw.trim()) || Math.abs(Number(raw)) > MAX_CLI_AMOUNT) {
    throw new UsageError(`--${name} must be ${integer ? 'an integer' : 'a decimal number with at most 4 decimals'} of at most ${MAX_CLI_AMOUNT} in size.`);
  }
  return Number(raw);
}

function planOption(options: Options) {
  const plan = options.plan;
  if (plan === undefined) return undefined;
  if (!isPlan(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}.`);
  return plan;
}

type Outcome = { result: Record<string, unknown>; text: string };
type Command = (em: EntityManager, options: Options, services: AppServices) => Promise<Outcome>;
/** Commands on the database's files rather than through it: they open no runtime (no migrations). */
type FileCommand = (config: Config, logger: Logger, options: Options) => Promise<Outcome>;

const COMMANDS: Record<string, Command> = {
  async 'create-org'(em, options) {
    const credits = numberOption(options, 'credits');
    if (credits !== undefined && credits < 0) throw new UsageError('--credits must not be negative.');
    const organization = await createOrganization({ em }, { name: required(options, 'name'), plan: planOption(options), credits });
    return {
      result: { organizationId: organization.id, name: organization.name, plan: organization.plan, credits: organization.creditBalance },
      text: `Created organization ${organization.id} (${organization.plan} plan, ${organization.creditBalance} credits).`,
    };
  },

  async 'create-key'(em, options) {
    const name = required(options, 'name');
    let permissions;
    try {
      permissions = parsePermissionList(required(options, 'permissions'));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    let expiresAt: Date | null = null;
    if (options['expires-in'] !== undefined) {
      const seconds = parseDurationSeconds(options['expires-in']);
      if (seconds === undefined) throw new UsageError('--expires-in must look like 30d, 12h or 2w.');
      expiresAt = new Date(Date.now() + seconds * 1000);
    }
    const createdOrganization = options.org ? undefined : await createOrganization({ em }, { name: `${name} organization` });
    const organizationId = options.org ?? createdOrganization!.id;
    const mode = options.test === true ? 'test' : 'live';
    const { apiKey, secret } = await createApiKey({ em }, systemCaller(organizationId), { name, permissions, expiresAt, mode });
    return {
      result: {
        id: apiKey.id,
        apiKey: secret,
        permissions: apiKey.permissions,
        organizationId,
        livemode: mode === 'live',
        ...(createdOrganization ? { organizationCreated: true } : {}),
        expiresAt: apiKey.expiresAt?.toISOString() ?? null,
      },
      text: [
        `Created ${mode === 'test' ? 'test-mode ' : ''}API key ${apiKey.id} for organization ${organizationId}${createdOrganization ? ' (new)' : ''}.`,
        `Permissions: ${apiKey.permissions.join(', ')}`,
        '',
        `  ${secret}`,
        '',
        'This is the only time the key is shown. Store it now.',
      ].join('\n'),
    };
  },

  async 'revoke-key'(em, options) {
    const apiKey = await revokeApiKeyAsOperator({ em }, { apiKeyId: required(options, 'id') });
    return {
      result: { id: apiKey.id, revokedAt: apiKey.revokedAt!.toISOString() },
      text: `Revoked API key ${apiKey.id} at ${apiKey.revokedAt!.toISOString()}.`,
    };
  },

  async 'list-keys'(em, options) {
    const organizationId = required(options, 'org');
    const keys = (await listApiKeys({ em }, systemCaller(organizationId))).map(describeApiKey);
    const lines = keys.map(
      (key) => `${key.id}  ${key.mode}  ${key.hint}  ${key.name}  ${key.revokedAt ? `revoked ${key.revokedAt}` : 'active'}  [${key.permissions.join(', ')}]`,
    );
    return { result: { organizationId, keys }, text: lines.length > 0 ? lines.join('\n') : 'No API keys.' };
  },

  async 'set-plan'(em, options) {
    const plan = planOption(options);
    if (!plan) throw new UsageError('--plan is required.');
    const rateLimitPerMinute = numberOption(options, 'rate-limit', { integer: true });
    const updated = await setPlan({ em }, systemCaller(required(options, 'org')), { plan, rateLimitPerMinute });
    return {
      result: { organizationId: updated.organization.id, plan: updated.organization.plan, rateLimitPerMinute: updated.rateLimitPerMinute },
      text: `Organization ${updated.organization.id} is on the ${plan} plan (${rateLimitFor(plan, updated.organization.rateLimitPerMinute ?? null)} requests per minute per key).`,
    };
  },

  async 'grant-credits'(em, options) {
    const amount = numberOption(options, 'amount');
    if (amount === undefined || amount === 0) throw new UsageError('--amount is required and must not be 0.');
    const organizationId = required(options, 'org');
    const booked = await grantCredits({ em }, systemCaller(organizationId), { amount });
    return {
      result: { organizationId, amount, balance: booked.balance, transactionId: booked.transactionId },
      text: `Granted ${amount} credits to ${organizationId}; balance ${booked.balance}.`,
    };
  },

  async 'invite-member'(em, options, services) {
    const parsed = ZInviteMemberInput.safeParse({ email: required(options, 'email'), role: required(options, 'role'), name: options.name });
    if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => `--${String(issue.path[0])}: ${issue.message}`).join('\n'));
    const organizationId = required(options, 'org');
    // The operator acts with every permission: the first owner of an organization comes from here.
    const invited = await inviteMember({ em, services }, { organizationId, permissions: PERMISSIONS }, parsed.data);
    return {
      result: { memberId: invited.member.id, organizationId, email: invited.member.email, role: invited.member.role, invitationUrl: invited.invitationUrl },
      text: `Invited ${invited.member.email} (${invited.member.role}) as ${invited.member.id}; the email is queued.\nInvitation link (works once, 7 days):\n\n  ${invited.invitationUrl}\n`,
    };
  },

  async 'set-payment-customer'(em, options) {
    const organizationId = required(options, 'org');
    const customer = required(options, 'customer');
    if (customer !== 'none' && !/^cus_[0-9A-Za-z]+$/.test(customer)) throw new UsageError('--customer must be a Stripe customer id (cus_…) or none.');
    const updated = await setPaymentCustomer.rows(em, { organizationId, customer: customer === 'none' ? null : customer });
    if (updated.length === 0) throw notFound('organization', organizationId);
    return {
      result: { organizationId, paymentCustomerId: customer === 'none' ? null : customer },
      text: `Organization ${organizationId} pays with ${customer === 'none' ? 'no customer on file' : customer}.`,
    };
  },

  async 'roll-over-billing'(em) {
    const result = await rollOverBillingPeriods({ em });
    return { result: { ...result }, text: `Rolled over ${result.organizations} organization(s); ${result.invoices} invoice(s) issued.` };
  },
};

/** With DATABASE_URL the database is not ours to copy: say what to do instead of pretending. */
const EXTERNAL_DATABASE_BACKUPS =
  'DATABASE_URL is set: back up that PostgreSQL with its own tools (pg_dump, or your provider\'s snapshots and point-in-time recovery), and DATA_DIR/files with a file backup (see the README, "Backups").';

function describeRestore(restored: RestoredBackup) {
  const rows = Object.values(restored.manifest.tables).reduce((sum, count) => sum + count, 0);
  return {
    backupStartedAt: restored.manifest.startedAt,
    postgres: restored.contents.version,
    tables: Object.keys(restored.contents.tables).length,
    rows,
    files: restored.manifest.files.count,
    missingFiles: restored.contents.missingFiles.length,
    migrations: restored.contents.migrations.length,
    pendingMigrations: restored.pendingMigrations,
  };
}

class CopyMismatchError extends Error {
  readonly code = 'STORAGE_COPY_MISMATCH';
}

const FILE_COMMANDS: Record<string, FileCommand> = {
  async 'copy-files'(config, logger, options) {
    let location;
    try {
      location = parseS3Url(required(options, 'to'));
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`--to: ${(error as Error).message}`);
    }
    const source = new LocalDiskStorage(path.join(config.dataDir, 'files'));
    const destination = new S3Storage(location);
    try {
      const report = await copyFiles(source, destination, (key, outcome) => logger.info({ key, outcome }, 'file'));
      const result = { from: path.join(config.dataDir, 'files'), to: `s3://${location.bucket}/${location.prefix}`, ...report };
      if (report.mismatched.length > 0) {
        throw new CopyMismatchError(
          `${report.mismatched.length} copies differ from their source after writing (${report.mismatched.slice(0, 5).join(', ')}); nothing was deleted, run the command again.`,
        );
      }
      return {
        result,
        text: `Copied ${report.copied} files (${report.bytes} bytes) to ${result.to}; ${report.alreadyThere} were already there. Every copy was read back and matches its source's SHA-256. Set STORAGE_URL to use the bucket.`,
      };
    } finally {
      destination.close();
    }
  },

  async backup(config, logger, options) {
    if (options.verify !== undefined) {
      if (options.out !== undefined) throw new UsageError('--out and --verify do not go together.');
      const file = required(options, 'verify');
      const restored = await verifyBackup(file, logger);
      const result = { file: path.resolve(file), verified: true, ...describeRestore(restored) };
      return { result, text: `${result.file} restores: ${result.tables} tables, ${result.rows} rows, ${result.files} files, as its manifest says.` };
    }
    const out = required(options, 'out');
    if (config.databaseUrl) throw new BackupError('BACKUP_NOT_SUPPORTED', EXTERNAL_DATABASE_BACKUPS);
    // Before opening: a mistyped DATA_DIR must not start (and back up) a new empty cluster.
    await embeddedDatabaseOf(config.dataDir);
    const database = await openEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPostgresPort, logger });
    try {
      const backup = await createBackup({ dataDir: config.dataDir, databaseUrl: database.url, out, logger });
      const rows = Object.values(backup.manifest.tables).reduce((sum, count) => sum + count, 0);
      const result = {
        file: backup.file,
        size: backup.size,
        startedAt: backup.manifest.startedAt,
        finishedAt: backup.manifest.finishedAt,
        tables: Object.keys(backup.manifest.tables).length,
        rows,
        files: backup.manifest.files.count,
      };
      return { result, text: `Backed up ${result.tables} tables (${rows} rows) and ${result.files} files to ${backup.file} (${backup.size} bytes).` };
    } finally {
      await database.stop();
    }
  },

  async restore(config, logger, options) {
    const from = required(options, 'from');
    if (config.databaseUrl) throw new BackupError('BACKUP_NOT_SUPPORTED', EXTERNAL_DATABASE_BACKUPS);
    const restored = await restoreBackup(from, config.dataDir, logger);
    const result = { dataDir: config.dataDir, restored: true, ...describeRestore(restored) };
    return {
      result,
      text: `Restored ${path.resolve(from)} into ${config.dataDir}: ${result.tables} tables, ${result.rows} rows, ${result.files} files. Start the service with this DATA_DIR.`,
    };
  },
};

/** Where a run of the CLI reads its configuration and writes its output. */
export interface AdminCliIo {
  env: Record<string, string | undefined>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * Runs one admin command and answers its exit code: 0 done, 1 failed, 2 a usage error. The
 * `npm run admin` entry (admin.ts) calls it with the process's own streams; tests call it in
 * process, which spares each command a whole CLI start.
 */
export async function runAdminCli(argv: string[], io: AdminCliIo): Promise<number> {
  const { stdout, stderr } = io;
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values: options, positionals } = parsed;
  const json = options.json === true;
  const commandName = positionals[0];
  const command = commandName ? COMMANDS[commandName] : undefined;
  const fileCommand = commandName ? FILE_COMMANDS[commandName] : undefined;
  if (options.help || !(command || fileCommand) || positionals.length > 1) {
    const unknown = commandName && !command && !fileCommand ? `Unknown command: ${commandName}\n\n` : '';
    (options.help ? stdout : stderr).write(`${unknown}${USAGE}\n`);
    return options.help ? 0 : 2;
  }

  const fail = (code: string, message: string, exitCode: number) => {
    stderr.write(`${message}\n`);
    if (json) stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
    return exitCode;
  };

  const config = loadConfig(io.env);
  // Logs go to stderr so that stdout carries only the command's output.
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, stderr);
  const failure = (error: unknown) => {
    if (error instanceof UsageError) return fail('INVALID_REQUEST', `${error.message}\n\n${USAGE}`, 2);
    if (error instanceof AppError || error instanceof BackupError || error instanceof CopyMismatchError) return fail(error.code, error.message, 1);
    if (error instanceof EmbeddedPostgresError) return fail('DATABASE_UNAVAILABLE', error.message, 1);
    if (error instanceof UnsupportedPostgresError) return fail('DATABASE_UNSUPPORTED', error.message, 1);
    stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    return fail('INTERNAL_ERROR', 'Unexpected error; the details are on stderr.', 1);
  };
  if (fileCommand) {
    // Ctrl-C or a stop mid-way: exit through the exit handlers, which stop the temporary
    // PostgreSQL and remove the staging copy (a signal's default would skip them).
    process.once('SIGINT', () => process.exit(130));
    process.once('SIGTERM', () => process.exit(143));
    try {
      const { result, text } = await fileCommand(config, logger, options);
      stdout.write(json ? `${JSON.stringify(result)}\n` : `${text}\n`);
      return 0;
    } catch (error) {
      return failure(error);
    }
  }
  let runtime;
  try {
    runtime = await openRuntime(config, logger);
  } catch (error) {
    return fail('DATABASE_UNAVAILABLE', `Could not open the database: ${(error as Error).message}`, 1);
  }
  try {
    const { result, text } = await command!(runtime.orm.em.fork(), options, runtime.services);
    stdout.write(json ? `${JSON.stringify(result)}\n` : `${text}\n`);
    return 0;
  } catch (error) {
    return failure(error);
  } finally {
    await runtime.close();
  }
}
