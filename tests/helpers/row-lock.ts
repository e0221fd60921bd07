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
