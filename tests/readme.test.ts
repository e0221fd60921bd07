import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
