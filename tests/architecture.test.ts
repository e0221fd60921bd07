import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/processes.js';

/**
 * The rules of the code's shape (docs/architecture.md), checked on the source text:
 * - the database is reached through entities or declared statements; `execute` only in server/db;
 * - a domain uses another domain only through that domain's index.ts;
 * - no import cycle between domains;
 * - domain code knows no HTTP: nothing under server/domains imports server/http, and only a
 *   domain's router.ts imports server/trpc.
 */

const DOMAINS_DIR = path.join(ROOT, 'server', 'domains');
/** Shared by every domain (caller, deps, paging, authorship): not a domain itself. */
const COMMON = 'common';

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function relative(file: string): string {
  return path.relative(ROOT, file).split(path.sep).join('/');
}

/** The files a source file imports (relative specifiers only), resolved to .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/g), ...text.matchAll(/import\(\s*'(\.[^']+)'\s*\)/g)].map(
    (match) => match[1]!,
  );
  return specifiers.map((specifier) => path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts'));
}

function domainOf(file: string): string | null {
  const inDomains = path.relative(DOMAINS_DIR, file);
  if (inDomains.startsWith('..')) return null;
  const [first, ...rest] = inDomains.split(path.sep);
  return rest.length > 0 && first !== COMMON ? first! : null;
}

const domainFiles = sourceFiles(DOMAINS_DIR);

describe('the code keeps its shape', () => {
  it('reaches the database through entities or declared statements: `execute` only in server/db', () => {
    const offenders = [...sourceFiles(path.join(ROOT, 'server')), ...sourceFiles(path.join(ROOT, 'worker'))]
      .filter((file) => !relative(file).startsWith('server/db/'))
      .filter((file) => /\.execute\s*(<|\()/.test(readFileSync(file, 'utf8')))
      .map(relative);
    expect(offenders).toEqual([]);
  });

  it('uses another domain only through its index.ts', () => {
    const offenders: string[] = [];
    for (const file of domainFiles) {
      const from = domainOf(file);
      for (const imported of importsOf(file)) {
        const to = domainOf(imported);
        if (!from || !to || to === from) continue;
        if (path.basename(imported) === 'index.ts' && path.dirname(imported) === path.join(DOMAINS_DIR, to)) continue;
        offenders.push(`${relative(file)} -> ${relative(imported)}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('has no import cycle between domains', () => {
    const edges = new Map<string, Set<string>>();
    for (const file of domainFiles) {
      const from = domainOf(file);
      if (!from) continue;
      for (const imported of importsOf(file)) {
        const to = domainOf(imported);
        if (to && to !== from) {
          if (!edges.has(from)) edges.set(from, new Set());
          edges.get(from)!.add(to);
        }
      }
    }
    expect(cyclesIn(edges)).toEqual([]);
  });

  it('keeps HTTP out of domain code: no server/http import, server/trpc only in router.ts', () => {
    const offenders: string[] = [];
    for (const file of domainFiles) {
      for (const imported of importsOf(file)) {
        const target = relative(imported);
        const edge = `${relative(file)} -> ${target}`;
        if (target.startsWith('server/http/')) offenders.push(edge);
        if (target.startsWith('server/trpc/') && path.basename(file) !== 'router.ts') offenders.push(edge);
      }
    }
    expect(offenders).toEqual([]);
  });
});

/** Each cycle as its path ("a -> b -> a"), found by depth-first search from every node. */
function cyclesIn(edges: Map<string, Set<string>>): string[] {
  const cycles = new Set<string>();
  const visit = (node: string, trail: string[]): void => {
    const at = trail.indexOf(node);
    if (at >= 0) {
      const cycle = trail.slice(at);
      // The same cycle from another start is reported once: rotate it to start at its smallest node.
      const start = cycle.indexOf([...cycle].sort()[0]!);
      const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
      cycles.add([...rotated, rotated[0]].join(' -> '));
      return;
    }
    if (trail.length > 12) return;
    for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
  };
  for (const node of edges.keys()) visit(node, []);
  return [...cycles].sort();
}
