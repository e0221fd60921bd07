import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PERMISSIONS } from '../../shared/permissions.js';
import { openEmbeddedPostgres } from '../../server/db/embedded-postgres.js';
import { createApiKey } from '../../server/domains/api-keys/create-api-key.js';
import { systemCaller } from '../../server/domains/common/caller.js';
import { createOrganization } from '../../server/domains/organizations/create-organization.js';
import type { Logger } from '../../server/logger.js';

export interface BenchDatabase {
  /** A throwaway directory, removed by close(). */
  workDir: string;
  /** DATABASE_URL, or an embedded cluster in workDir. */
  databaseUrl: string;
  /** An empty DATA_DIR for the services the benchmark starts. */
  dataDir: string;
  close(): Promise<void>;
}

export async function openBenchDatabase(name: string, logger: Logger): Promise<BenchDatabase> {
  const workDir = await mkdtemp(path.join(tmpdir(), `interview-bench-${name}-`));
  const cluster = process.env.DATABASE_URL ? undefined : await openEmbeddedPostgres({ dataDir: path.join(workDir, 'postgres'), logger });
  const dataDir = path.join(workDir, 'data');
  await mkdir(dataDir, { recursive: true });
  return {
    workDir,
    databaseUrl: process.env.DATABASE_URL ?? cluster!.url,
    dataDir,
    async close() {
      await cluster?.stop();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** An enterprise organization with credits to spare and a key with every permission. */
export async function createBenchTenant(em: EntityManager, name: string): Promise<{ organizationId: string; authorization: string }> {
  const organization = await createOrganization({ em }, { name, plan: 'enterprise', credits: 10_000_000 });
  const { secret } = await createApiKey({ em }, systemCaller(organization.id), { name: 'bench', permissions: [...PERMISSIONS] });
  return { organizationId: organization.id, authorization: `Bearer ${secret}` };
}
