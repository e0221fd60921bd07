/**
 * The lint rules that catch real bugs are on: ESLint, with the repository's own config, reports
 * each bug marked `// expect: <rule>` in tests/fixtures/lint/bugs.ts on its line, and nothing else.
 * That the repository itself lints clean is `npm run lint`'s job in .ci/run, not this test's.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const FIXTURE = path.join(ROOT, 'tests/fixtures/lint/bugs.ts');

describe('lint rules', () => {
  it('reports floating and misused promises, awaited non-promises and unused code', async () => {
    const expected = (await readFile(FIXTURE, 'utf8'))
      .split('\n')
      .flatMap((line, index) => [...line.matchAll(/\/\/ expect: (\S+)/g)].map((match) => `${index + 1} ${match[1]}`));
    expect(expected).toContain('15 @typescript-eslint/no-floating-promises');

    // The fixture is ignored by `npm run lint` (its bugs are on purpose): linted here by name.
    const eslint = new ESLint({ cwd: ROOT, ignore: false });
    const [result] = await eslint.lintFiles([FIXTURE]);
    const reported = result!.messages.map((message) => `${message.line} ${message.ruleId ?? message.message}`);

    expect(reported.sort()).toEqual(expected.sort());
  }, 60_000);
});
