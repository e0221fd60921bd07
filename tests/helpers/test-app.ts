import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Express } from 'express';
import supertest from 'supertest';
import type { Permission } from '../../shared/permissions.js';
import { PERMISSIONS } from '../../shared/permissions.js';
import type { Plan } from '../../shared/plans.js';
import { loadConfig } from '../../server/config.js';
import { createApiKey } from '../../server/domains/api-keys/create-api-key.js';
import { systemCaller } from '../../server/domains/common/caller.js';
import { createOrganization } from '../../server/domains/organizations/create-organization.js';
import { setPlan } from '../../server/domains/organizations/set-plan.js';
import { createApp } from '../../server/http/app.js';
import { createLogger, type Logger } from '../../server/logger.js';
import { openRuntime, type Runtime } from '../../server/runtime.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestTenant {
  organizationId: string;
  apiKeyId: string;
  apiKey: string;
  /** `Authorization` header value. */
  authorization: string;
}

export interface TestApp {
  app: Express;
  http: supertest.Agent;
  runtime: Runtime;
  database: TestDatabase;
  dataDir: string;
  em(): EntityManager;
  /**
   * A new organization with one API key. Without a plan it is enterprise at 10,000 requests per
   * minute, so only the rate-limit tests meet the limit.
   */
  createTenant(options?: { permissions?: readonly Permission[]; plan?: Plan; rateLimitPerMinute?: number }): Promise<TestTenant>;
  /** Another key for an existing organization. */
  createKey(organizationId: string, permissions: readonly Permission[]): Promise<TestTenant>;
  close(): Promise<void>;
}

/**
 * The real application (Express, tRPC, REST adapter, ORM) on its own real PostgreSQL database.
 * `env` overrides configuration, e.g. `{ JSON_BODY_LIMIT: '1kb' }`.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  logger?: Logger,
  options: {
    /** How the app reaches its database, e.g. through a TCP proxy the test can stop. */
    databaseUrl?: (url: string) => string;
    /** Runs on the new database before the app opens it (e.g. `alter database … set …`, read at each connection). */
    prepareDatabase?: (database: TestDatabase) => Promise<void>;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  await options.prepareDatabase?.(database);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'interview-test-data-'));
  const config = loadConfig({
    DATABASE_URL: options.databaseUrl ? options.databaseUrl(database.url) : database.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    PUBLIC_URL: 'http://127.0.0.1:3000',
    DATABASE_POOL_SIZE: '4',
    RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
    ...env,
  });
  const runtime = await openRuntime(config, logger ?? createLogger(config.logLevel));
  const app = createApp(runtime.services, { isReady: () => true });
  const em = () => runtime.orm.em.fork();

  const createKey = async (organizationId: string, permissions: readonly Permission[]): Promise<TestTenant> => {
    const { apiKey, secret } = await createApiKey({ em: em() }, systemCaller(organizationId), { name: 'test key', permissions: [...permissions] });
    return { organizationId, apiKeyId: apiKey.id, apiKey: secret, authorization: `Bearer ${secret}` };
  };

  return {
    app,
    http: supertest.agent(app),
    runtime,
    database,
    dataDir,
    em,
    async createTenant(options = {}) {
      const organization = await createOrganization({ em: em() }, { name: 'Test organization', plan: options.plan });
      const customLimit = options.rateLimitPerMinute ?? (options.plan === undefined ? 10_000 : undefined);
      if (customLimit !== undefined) {
        await setPlan({ em: em() }, systemCaller(organization.id), { plan: 'enterprise', rateLimitPerMinute: customLimit });
      }
      return createKey(organization.id, options.permissions ?? PERMISSIONS);
    },
    createKey,
    async close() {
      await runtime.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
