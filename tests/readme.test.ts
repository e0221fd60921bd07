import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_VERSION } from '../shared/api-version.js';
import { LOWEST_SUPPORTED_POSTGRES_MAJOR } from '../server/db/database-server.js';
import { renderErrorTable, renderOperationsTable } from '../server/docs/reference-tables.js';
import { ROOT } from './helpers/processes.js';

const read = (file: string) => readFile(path.join(ROOT, file), 'utf8');

describe('README and docs/', async () => {
  const readme = await read('README.md');
  const api = await read('docs/api.md');
  const configuration = await read('docs/configuration.md');
  const deployment = await read('docs/deployment.md');
  const docsFiles = (await readdir(path.join(ROOT, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
  const pages = new Map<string, string>([['README.md', readme]]);
  for (const file of docsFiles) pages.set(file, await read(file));

  it('lists every operation with its permission and success status, as the code does', () => {
    expect(api).toContain(renderOperationsTable());
  });

  it('lists every error code with its status', () => {
    expect(api).toContain(renderErrorTable());
  });

  it('names the API version the service answers, and no document outside the repository', () => {
    expect(api).toContain(`(now \`${API_VERSION}\``);
    // The specification and design notes live with the planning documents, not in a clone.
    for (const [file, text] of pages) expect(text, file).not.toMatch(/\.\.\/shared\//);
  });

  it('names the supported PostgreSQL versions, the lowest being the one the start refuses below', () => {
    const versions = `PostgreSQL ${LOWEST_SUPPORTED_POSTGRES_MAJOR}, 16, 17 and 18`;
    expect(readme).toContain(versions);
    expect(deployment).toContain(versions);
  });

  it('keeps the two-command quick start', () => {
    expect(readme).toMatch(/npm ci\nnpm start .*\nnpm test /);
  });

  it('documents every environment variable the configuration reads', async () => {
    const config = await read('server/config.ts');
    const variables = [...config.matchAll(/^ {2}([A-Z][A-Z_]+): /gm)].map((match) => match[1]!);
    expect(variables.length).toBeGreaterThan(10);
    for (const variable of variables) expect(configuration, variable).toContain(`| \`${variable}\` |`);
  });

  it('links only to files that exist, and to headings those files have', async () => {
    const broken: string[] = [];
    for (const [file, text] of pages) {
      for (const target of relativeLinks(text)) {
        const [linkPath, anchor] = target.split('#') as [string, string | undefined];
        const resolved = linkPath === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), linkPath));
        const linked = pages.get(resolved) ?? (await read(resolved).catch(() => undefined));
        if (linked === undefined) broken.push(`${file}: ${target} (no file ${resolved})`);
        else if (anchor && resolved.endsWith('.md') && !headingAnchors(linked).has(anchor))
          broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
    expect(broken).toEqual([]);
  });
});

/** Targets of Markdown links that are not URLs, outside code (where `](` may be code). */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const match of prose.matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = match[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}
