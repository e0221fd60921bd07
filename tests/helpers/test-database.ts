import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database of its own (a clone of the template made in global setup). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = inject('templateDatabase');
  // The suffix keeps the pid of the run's global setup so its teardown finds leftovers.
  const name = `interview_test_${randomBytes(6).toString('hex')}_${template.split('_').pop()}`;
  await withAdmin((client) => client.query(`create database ${name} template ${template} strategy ${inject('templateCloneStrategy')}`));
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => withAdmin((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}
