/**
 * The ceiling for `bench/api.ts`: bare Express + `pg`, no ORM, no tRPC, no zod, doing the SQL
 * each measured operation cannot do without, on the real tables:
 *
 *   every request: the API key (the service's own lookup statement) and the rate-limit upsert
 *                  (the service's own statement), then
 *   list:   one page of campaigns with the total (counted apart), and their stats;
 *   get:    the campaign, and its stats;
 *   create: the campaign inserted from its script (checked usable) in one INSERT … SELECT;
 *   invite: the invite inserted from its campaign (checked active) and its email job added, in
 *           one statement; bulk: 500 of them, the same way;
 *   invites: the campaign (checked the organization's), its domain, and a page of its invites
 *           with the total, in one statement.
 *
 * The answers have the service's shape (stats, links, pagination). Left out, as a ceiling should:
 * input validation beyond what the SQL needs, idempotency, metrics. Each request is logged as one
 * JSON line, as the service logs it.
 *
 *   DATABASE_URL=… PORT=… SIGNING_SECRET=… [DATABASE_POOL_SIZE=10] node --import tsx bench/helpers/api-ceiling-server.ts
 */
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import pg from 'pg';
import { pino } from 'pino';
import { isoTimestamp } from '../../server/db/sql.js';
import { campaignDtoFromRow } from '../../server/domains/campaigns/campaign-rows.js';
import { hashApiKey } from '../../server/lib/api-key-format.js';
import { newId } from '../../server/lib/ids.js';
import { hashInviteToken, InviteTokens } from '../../server/lib/invite-tokens.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
const logger = pino({ level: 'info', base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
const tokens = new InviteTokens(process.env.SIGNING_SECRET!);
const publicUrl = process.env.PUBLIC_URL ?? 'http://127.0.0.1';

const KEY_LOOKUP = `with found as (
    select k.id, k.organization_id, k.permissions, o.plan, o.rate_limit_per_minute
    from api_keys k join organizations o on o.id = k.organization_id
    where k.key_hash = $1 and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())
  ), touched as (
    update api_keys set last_used_at = now()
    where id in (select id from found) and (last_used_at is null or last_used_at < now() - interval '1 minute')
  )
  select * from found`;

const RATE_LIMIT = `insert into rate_limit_counters (bucket, window_start, count)
  select budget.bucket, date_trunc('minute', clock_timestamp()), budget.units
  from jsonb_to_recordset($1::jsonb) as budget(bucket text, units int)
  on conflict (bucket, window_start) do update set count = rate_limit_counters.count + excluded.count
  returning bucket, count, extract(epoch from window_start)::bigint as window_start`;

const STATS = `with ids as (select unnest($1::text[]) as campaign_id),
  invited as (select campaign_id, count(*) as total_invites from invites where campaign_id in (select campaign_id from ids) group by campaign_id),
  completed as (
    select campaign_id, count(*) as completed, avg(duration_seconds) as average_duration from sessions
    where campaign_id in (select campaign_id from ids) and status = 'completed' group by campaign_id
  )
  select ids.campaign_id, invited.total_invites, completed.completed, completed.average_duration
  from ids left join invited using (campaign_id) left join completed using (campaign_id)`;

const CAMPAIGN_COLUMNS = `c.id, c.project_id, c.script_id, c.name, c.description, c.status, c.settings, c.invite_defaults, c.metadata, ${isoTimestamp('c.created_at')} as created_at, ${isoTimestamp('c.updated_at')} as updated_at`;

type CampaignRow = Omit<Parameters<typeof campaignDtoFromRow>[0], 'total_invites' | 'completed' | 'average_duration'>;

/** The service's own mapper (pure, the same CPU on both sides): the answer has the same shape. */
function campaignOf(row: CampaignRow, stats: { total_invites: string | null; completed: string | null; average_duration: string | null } = NO_STATS) {
  return campaignDtoFromRow({ ...row, ...stats });
}

const NO_STATS = { total_invites: null, completed: null, average_duration: null };

async function statsOf(ids: string[]) {
  const { rows } = await pool.query<{ campaign_id: string; total_invites: string | null; completed: string | null; average_duration: string | null }>(STATS, [
    ids,
  ]);
  return new Map(rows.map((row) => [row.campaign_id, row]));
}

declare global {
  namespace Express {
    interface Request {
      organizationId?: string;
    }
  }
}

const app = express();
app.disable('x-powered-by');
app.use((req: Request, res: Response, next: NextFunction) => {
  const started = performance.now();
  const requestId = `req_${randomUUID()}`;
  res.on('close', () => {
    const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    logger.info({ requestId, method: req.method, route: req.route?.path ?? req.path, status: res.statusCode, durationMs }, 'request');
  });
  next();
});
app.use(express.json({ limit: '1mb' }));
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
app.use('/v1', async (req: Request, res: Response, next: NextFunction) => {
  try {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
    const { rows } = await pool.query<{ id: string; organization_id: string; rate_limit_per_minute: number | null }>(KEY_LOOKUP, [
      hashApiKey(match?.[1] ?? ''),
    ]);
    const key = rows[0];
    if (!key) return void res.status(401).json({ error: { code: 'INVALID_API_KEY', message: 'Invalid API key.', details: {} } });
    const limit = key.rate_limit_per_minute ?? 10_000;
    const counted = await pool.query<{ count: number; window_start: string }>(RATE_LIMIT, [JSON.stringify([{ bucket: `key:${key.id}`, units: 1 }])]);
    const count = Number(counted.rows[0]!.count);
    res.setHeader('X-RateLimit-Limit', String(limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - count)));
    res.setHeader('X-RateLimit-Reset', String(Number(counted.rows[0]!.window_start) + 60));
    if (count > limit) return void res.status(429).json({ error: { code: 'RATE_LIMITED', message: 'Too many requests.', details: {} } });
    req.organizationId = key.organization_id;
    next();
  } catch (error) {
    next(error);
  }
});

app.get('/v1/campaigns', async (req: Request, res: Response) => {
  const limit = Math.min(100, Number(req.query.limit ?? 20));
  const offset = Number(req.query.offset ?? 0);
  const { rows } = await pool.query<CampaignRow & { total: string }>(
    // The page by the (organization, created_at) index, and the total counted apart (an index-only count).
    `select ${CAMPAIGN_COLUMNS}, (select count(*) from campaigns where organization_id = $1 and not preview) as total
       from campaigns c where c.organization_id = $1 and not c.preview order by c.created_at desc, c.id desc limit $2 offset $3`,
    [req.organizationId, limit, offset],
  );
  const stats = await statsOf(rows.map((row) => row.id));
  const total = Number(rows[0]?.total ?? 0);
  res.json({
    data: rows.map((row) => campaignOf(row, stats.get(row.id)!)),
    pagination: { total, limit, offset, hasMore: offset + rows.length < total, nextCursor: null },
  });
});

app.get('/v1/campaigns/:id', async (req: Request, res: Response) => {
  const { rows } = await pool.query<CampaignRow>(`select ${CAMPAIGN_COLUMNS} from campaigns c where c.id = $1 and c.organization_id = $2`, [
    req.params.id,
    req.organizationId,
  ]);
  if (!rows[0]) return void res.status(404).json({ error: { code: 'RESOURCE_NOT_FOUND', message: 'Not found.', details: {} } });
  res.json(campaignOf(rows[0], (await statsOf([rows[0].id])).get(rows[0].id)!));
});

app.post('/v1/campaigns', async (req: Request, res: Response) => {
  const body = req.body as { name: string; scriptId: string; projectId?: string; description?: string };
  const { rows } = await pool.query<CampaignRow>(
    `insert into campaigns (id, organization_id, project_id, script_id, name, description, status, settings, invite_defaults, metadata, archived_at, created_at, updated_at)
     select $1, s.organization_id, $2, s.id, $3, $4, 'active', '{}', '{}', '{}', null, now(), now()
     from scripts s where s.id = $5 and s.organization_id = $6 and s.status <> 'archived' and s.published_version is not null and s.deleted_at is null
     returning id, project_id, script_id, name, description, status, settings, invite_defaults, metadata, ${isoTimestamp('created_at')} as created_at, ${isoTimestamp('updated_at')} as updated_at`,
    [newId('cam'), body.projectId ?? null, body.name, body.description ?? null, body.scriptId, req.organizationId],
  );
  if (!rows[0]) return void res.status(422).json({ error: { code: 'VALIDATION_ERROR', message: 'scriptId is not usable.', details: {} } });
  res.status(201).json(campaignOf(rows[0]));
});

interface InviteRow {
  id: string;
  campaign_id: string;
  email: string | null;
  name: string | null;
  status: string;
  email_status: string;
  expires_at: Date;
  metadata: unknown;
  created_at: Date;
  updated_at: Date;
  domain: string | null;
}

/**
 * Invites inserted from their campaign (which must be the organization's and active) with their
 * email jobs, in one statement: what `insertInvites` must write, without the ORM.
 */
async function insertInvites(organizationId: string, campaignId: string, participants: { email: string; name?: string }[]): Promise<InviteRow[]> {
  const rows = participants.map((participant) => {
    const id = newId('inv');
    return { id, token_hash: hashInviteToken(tokens.tokenFor(id)), email: participant.email, name: participant.name ?? null };
  });
  const { rows: inserted } = await pool.query<InviteRow>(
    `with campaign as (
       select c.id, c.organization_id from campaigns c where c.id = $1 and c.organization_id = $2 and c.status = 'active' for share
     ), inserted as (
       insert into invites (id, organization_id, campaign_id, token_hash, email, name, status, email_status, email_queued_at, expires_at, metadata, created_at, updated_at)
       select p.id, campaign.organization_id, campaign.id, p.token_hash, p.email, p.name, 'pending', 'queued', now(), now() + interval '30 days', '{}', now(), now()
       from campaign, jsonb_to_recordset($3::jsonb) as p(id text, token_hash text, email text, name text)
       returning id, campaign_id, email, name, status, email_status, expires_at, metadata, created_at, updated_at
     ), jobs as (
       select graphile_worker.add_jobs(array(
         select row('invite__send_email', json_build_object('inviteId', inserted.id), null, null, 5, 'invite-email:' || inserted.id, null, null)::graphile_worker.job_spec
         from inserted))
     )
     select inserted.*, o.domain from inserted, organizations o, (select count(*) from jobs) as queued where o.id = $2`,
    [campaignId, organizationId, JSON.stringify(rows)],
  );
  return inserted;
}

function inviteOf(row: InviteRow) {
  const token = tokens.tokenFor(row.id);
  return {
    id: row.id,
    campaignId: row.campaign_id,
    email: row.email,
    name: row.name,
    status: row.status,
    emailStatus: row.email_status,
    token,
    inviteUrl: `${row.domain ? `https://${row.domain}` : publicUrl}/interview/${token}`,
    expiresAt: row.expires_at.toISOString(),
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

app.get('/v1/campaigns/:id/invites', async (req: Request, res: Response) => {
  const limit = Math.min(100, Number(req.query.limit ?? 20));
  const offset = Number(req.query.offset ?? 0);
  // The campaign (the organization's), its domain, and the page with its total: one statement.
  const { rows } = await pool.query<Partial<InviteRow> & { domain: string | null; total: string; found: string }>(
    `select o.domain, c.id as found, (select count(*) from invites i where i.campaign_id = $1 and i.organization_id = $2) as total, page.*
       from campaigns c join organizations o on o.id = c.organization_id
       left join lateral (
         select i.id, i.campaign_id, i.email, i.name, i.status, i.email_status, i.expires_at, i.metadata, i.created_at, i.updated_at
         from invites i where i.campaign_id = $1 and i.organization_id = $2
         order by i.created_at desc, i.id desc limit $3 offset $4
       ) as page on true
      where c.id = $1 and c.organization_id = $2 and not c.preview`,
    [req.params.id, req.organizationId, limit, offset],
  );
  if (!rows[0]) return void res.status(404).json({ error: { code: 'RESOURCE_NOT_FOUND', message: 'Not found.', details: {} } });
  const invites = rows.filter((row) => row.id).map((row) => inviteOf(row as InviteRow));
  const total = Number(rows[0].total ?? 0);
  res.json({ data: invites, pagination: { total, limit, offset, hasMore: offset + invites.length < total, nextCursor: null } });
});

app.post('/v1/campaigns/:id/invites', async (req: Request, res: Response) => {
  const [row] = await insertInvites(req.organizationId!, String(req.params.id), [req.body as { email: string; name?: string }]);
  if (!row) return void res.status(409).json({ error: { code: 'CAMPAIGN_NOT_ACTIVE', message: 'Not active.', details: {} } });
  res.status(201).json(inviteOf(row));
});

app.post('/v1/campaigns/:id/invites/bulk', async (req: Request, res: Response) => {
  const participants = (req.body as { invites: { email: string; name?: string }[] }).invites;
  const rows = await insertInvites(req.organizationId!, String(req.params.id), participants);
  if (rows.length === 0) return void res.status(409).json({ error: { code: 'CAMPAIGN_NOT_ACTIVE', message: 'Not active.', details: {} } });
  res.status(201).json({ data: rows.map(inviteOf), count: rows.length });
});

app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
  logger.error({ err: error }, 'ceiling error');
  res.status(500).json({ error: { code: 'INTERNAL_ERROR', message: 'Unexpected error.', details: {} } });
});

const server = app.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
});
