import pg from 'pg';

/**
 * Runs `work` while another connection holds a campaign's row lock (`select … for update` in an
 * open transaction), so requests that need that row wait: how the tests make a request slow
 * on purpose. The lock is released (rolled back) when `work` settles, whatever its outcome.
 */
export async function whileCampaignLocked<T>(databaseUrl: string, campaignId: string, work: (holder: pg.Client) => Promise<T>): Promise<T> {
  const holder = new pg.Client({ connectionString: databaseUrl });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('select id from campaigns where id = $1 for update', [campaignId]);
    return await work(holder);
  } finally {
    await holder.query('rollback').catch(() => undefined);
    await holder.end().catch(() => undefined);
  }
}

/**
 * Resolves once at least `count` backends of the holder's database wait on a lock (10 s at most,
 * else throws). The holder is inside a transaction, where PostgreSQL serves `pg_stat_activity`
 * from a snapshot taken at its first read: each poll clears it, or it would never change.
 */
export async function waitForLockWaiters(holder: pg.Client, count = 1): Promise<void> {
  let waiting = 0;
  for (let polls = 0; polls < 100; polls += 1) {
    await holder.query('select pg_stat_clear_snapshot()');
    const { rows } = await holder.query<{ waiting: string }>(
      `select count(*) as waiting from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
    );
    waiting = Number(rows[0]!.waiting);
    if (waiting >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${waiting} backends wait on a lock after 10 s, fewer than ${count}`);
}
