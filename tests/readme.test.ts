import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_VERSION } from '../shared/api-version.js';
import { LOWEST_SUPPORTED_POSTGRES_MAJOR } from '../server/db/database-server.js';
import { renderErrorTable, renderOperationsTable } from '../server/docs/reference-tables.js';
import { ROOT } from './helpers/processes.js';

describe('README', async () => {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');

  it('lists every operation with its permission and success status, as the code does', () => {
    expect(readme).toContain(renderOperationsTable());
  });

  it('lists every error code with its status', () => {
    expect(readme).toContain(renderErrorTable());
  });

  it('names the API version the service answers, and no document outside the repository', () => {
    expect(readme).toContain(`(now \`${API_VERSION}\``);
    // The specification and design notes live with the planning documents, not in a clone.
    expect(readme).not.toMatch(/\.\.\/shared\//);
  });

  it('names the supported PostgreSQL versions, the lowest being the one the start refuses below', () => {
    expect(readme).toContain(`PostgreSQL ${LOWEST_SUPPORTED_POSTGRES_MAJOR}, 16, 17 and 18`);
  });

  it('keeps the two-command quick start', () => {
    expect(readme).toMatch(/npm ci\nnpm start .*\nnpm test /);
  });

  it('documents every environment variable the configuration reads', async () => {
    const config = await readFile(path.join(ROOT, 'server', 'config.ts'), 'utf8');
    const variables = [...config.matchAll(/^ {2}([A-Z][A-Z_]+): /gm)].map((match) => match[1]!);
    expect(variables.length).toBeGreaterThan(10);
    for (const variable of variables) expect(readme, variable).toContain(`| \`${variable}\` |`);
  });
});
