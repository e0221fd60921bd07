import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../platform/metrics.js';
import { createBackup, type CreatedBackup } from './embedded-backup.js';

/** `interview-backup-20261125T031500Z.tar.gz`: sorts by time, and is all that pruning ever deletes. */
const SCHEDULED_NAME = /^interview-backup-\d{8}T\d{6}Z\.tar\.gz$/;

export function scheduledBackupName(at: Date): string {
  return `interview-backup-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')}.tar.gz`;
}

export interface ScheduledBackupServices {
  config: Pick<Config, 'dataDir' | 'backup'>;
  logger: Logger;
  metrics: Pick<Metrics, 'backups' | 'backupLastSuccess' | 'backupLastSize' | 'backupLastDuration'>;
}

/**
 * `maintenance__backup` (BACKUP_CRON): a backup into BACKUP_DIR, then the oldest scheduled
 * backups beyond BACKUP_KEEP are deleted (never a file of another name). The outcome goes to the
 * log and to /metrics; a failure also fails the job (worker_jobs_total, failed_jobs).
 */
export async function runScheduledBackup(services: ScheduledBackupServices, databaseUrl: string, now = new Date()): Promise<CreatedBackup | undefined> {
  const { config, logger, metrics } = services;
  if (!config.backup) return undefined;
  const { dir, keep } = config.backup;
  const started = performance.now();
  let backup: CreatedBackup;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    backup = await createBackup({ dataDir: config.dataDir, databaseUrl, out: path.join(dir, scheduledBackupName(now)), logger });
  } catch (error) {
    metrics.backups.inc({ outcome: 'failure' });
    logger.error({ err: error, dir }, 'scheduled backup failed');
    throw error;
  }
  const seconds = (performance.now() - started) / 1000;
  metrics.backups.inc({ outcome: 'success' });
  metrics.backupLastSuccess.set(Date.now() / 1000);
  metrics.backupLastSize.set(backup.size);
  metrics.backupLastDuration.set(seconds);
  const pruned = await pruneBackups(dir, keep);
  logger.info({ file: backup.file, size: backup.size, seconds: Number(seconds.toFixed(1)), pruned }, 'scheduled backup written');
  return backup;
}

/**
 * At worker start: the last successful backup's time and size from the newest scheduled backup in
 * BACKUP_DIR, so the age alert does not fire after every restart.
 */
export async function loadLastBackupMetrics(services: Pick<ScheduledBackupServices, 'config' | 'metrics'>): Promise<void> {
  if (!services.config.backup) return;
  const { dir } = services.config.backup;
  const newest = (await readdir(dir).catch(() => [] as string[]))
    .filter((name) => SCHEDULED_NAME.test(name))
    .sort()
    .at(-1);
  if (!newest) return;
  const info = await stat(path.join(dir, newest)).catch(() => undefined);
  if (!info) return;
  services.metrics.backupLastSuccess.set(info.mtimeMs / 1000);
  services.metrics.backupLastSize.set(info.size);
}

/** Deletes the oldest scheduled backups in `dir` so that `keep` remain; returns the names deleted. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const scheduled = (await readdir(dir)).filter((name) => SCHEDULED_NAME.test(name)).sort();
  const old = scheduled.slice(0, Math.max(0, scheduled.length - keep));
  for (const name of old) await rm(path.join(dir, name), { force: true });
  return old;
}
