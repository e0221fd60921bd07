import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** DATABASE_STATEMENT_TIMEOUT: a statement on the service's pool cannot run (and hold its connection) past it. */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ DATABASE_STATEMENT_TIMEOUT: '1' });
});
afterAll(() => t?.close());

describe('DATABASE_STATEMENT_TIMEOUT', () => {
  it('is set on every pooled connection; a slower statement is cancelled and the connection serves the next one', async () => {
    const connections = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.em().execute<{ statement_timeout: string }[]>("select current_setting('statement_timeout') as statement_timeout, pg_sleep(0.05)"),
      ),
    );
    expect(connections.map(([row]) => row!.statement_timeout)).toEqual(['1s', '1s', '1s', '1s']);
    await expect(t.em().execute('select pg_sleep(2)')).rejects.toThrow(/statement timeout/);
    expect(await t.em().execute('select 1 as one')).toEqual([{ one: 1 }]);
  });
});
