import type { THighlight } from '../../../shared/schemas/highlights.js';
import type { TAuthor } from '../../../shared/schemas/common.js';
import { defineQuery, type RowOf } from '../../db/query.js';
import { isoTimestamp, rawSql, type Sql, sql } from '../../db/sql.js';
import { afterCursor } from '../common/cursor-page.js';
import { authorFromRow } from '../common/author.js';
import { authorNameSql } from '../common/queries.js';

/** A highlight joined with its utterance, session and campaign: everything its API shape needs, in one row. */
export const HIGHLIGHT_ROW = {
  id: 'text',
  session_id: 'text',
  campaign_id: 'text',
  campaign_name: 'text',
  utterance_id: 'text',
  speaker: 'text',
  start_time: 'double precision',
  /** The utterance's text up to the highlight's end (enough to cut the quote; never stored). */
  text_head: 'text | null',
  start_offset: 'integer',
  end_offset: 'integer',
  label: 'text | null',
  color: 'text',
  note: 'text | null',
  author_kind: 'text',
  author_id: 'text',
  author_name: 'text',
  created_at: 'text',
  updated_at: 'text',
  sort_value: 'text',
} as const;

export type HighlightRow = RowOf<typeof HIGHLIGHT_ROW>;

/**
 * The columns of a HighlightRow from `h` (highlights, or a CTE returning its rows), `u`
 * (session_utterances), `s` (sessions) and `c` (campaigns). `left(text, end_offset)` counts code
 * points, which are never fewer than the UTF-16 units the offsets count, so the head always holds
 * the quote.
 */
export const HIGHLIGHT_COLUMNS = rawSql(
  `h.id, h.session_id, s.campaign_id, c.name as campaign_name, h.utterance_id, u.speaker, u.start_time, left(u.text, h.end_offset) as text_head,
   h.start_offset, h.end_offset, h.label, h.color, h.note, h.author_kind, h.author_id, h.author_name,
   ${isoTimestamp('h.created_at')} as created_at, ${isoTimestamp('h.updated_at')} as updated_at, h.created_at::text as sort_value`,
);

/** The joins HIGHLIGHT_COLUMNS reads, after `from <highlights> h`. */
export const HIGHLIGHT_JOINS = rawSql(
  `join session_utterances u on u.id = h.utterance_id join sessions s on s.id = h.session_id join campaigns c on c.id = s.campaign_id`,
);

/** The quote is cut from the utterance's current text: JavaScript string indices, end exclusive. */
export function highlightFromRow(row: HighlightRow): THighlight {
  return {
    id: row.id,
    sessionId: row.session_id,
    campaignId: row.campaign_id,
    campaignName: row.campaign_name,
    utteranceId: row.utterance_id,
    speaker: row.speaker as THighlight['speaker'],
    startTime: Number(row.start_time),
    start: row.start_offset,
    end: row.end_offset,
    quote: (row.text_head ?? '').slice(row.start_offset, row.end_offset),
    label: row.label,
    color: row.color,
    note: row.note,
    author: authorFromRow(row.author_kind, row.author_id, row.author_name),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A write whose CTE `written` returns highlight rows (an insert or update), read back in the same statement with its joins. */
function writtenHighlight(write: Sql): Sql {
  return sql`with written as (${write}) select ${HIGHLIGHT_COLUMNS} from written h ${HIGHLIGHT_JOINS}`;
}

/**
 * Whether the organization's session (not a preview) and its utterance exist, and the utterance's
 * text, read `for share`: a redaction holds it `for update` while it rewrites the text.
 */
export const utteranceTextToHighlight = defineQuery({
  columns: { session_found: 'boolean', utterance_found: 'boolean', text: 'text | null' },
  statement: ({ organizationId, sessionId, utteranceId }: { organizationId: string; sessionId: string; utteranceId: string }) =>
    sql`select s.id is not null as session_found, u.id is not null as utterance_found, u.text
        from (select 1) as one
        left join sessions s on s.id = ${sessionId} and s.organization_id = ${organizationId} and not s.preview
        left join lateral (select id, text from session_utterances where id = ${utteranceId} and session_id = s.id for share) u on true`,
  example: { organizationId: 'org_example', sessionId: 'ses_example', utteranceId: 'utt_example' },
});

export interface NewHighlight {
  id: string;
  organizationId: string;
  sessionId: string;
  utteranceId: string;
  start: number;
  end: number;
  label: string | null;
  color: string;
  note: string | null;
  author: { kind: TAuthor['kind']; id: string };
}

/** Inserts a highlight (the author's name read in the same statement) and answers it as a HighlightRow. */
export const insertHighlight = defineQuery({
  columns: HIGHLIGHT_ROW,
  statement: (h: NewHighlight) =>
    writtenHighlight(
      sql`insert into highlights (id, organization_id, session_id, utterance_id, start_offset, end_offset, label, color, note, author_kind, author_id, author_name, created_at, updated_at)
        values (${h.id}, ${h.organizationId}, ${h.sessionId}, ${h.utteranceId}, ${h.start}, ${h.end}, ${h.label},
                ${h.color}, ${h.note}, ${h.author.kind}, ${h.author.id}, ${authorNameSql(h.author)}, now(), now())
        returning *`,
    ),
  example: {
    id: 'hlt_example',
    organizationId: 'org_example',
    sessionId: 'ses_example',
    utteranceId: 'utt_example',
    start: 0,
    end: 5,
    label: null,
    color: '#ffd54f',
    note: null,
    author: { kind: 'member', id: 'mem_example' },
  } as NewHighlight,
});

export interface HighlightChanges {
  organizationId: string;
  highlightId: string;
  /** Undefined leaves the label or note; null clears it. */
  label: string | null | undefined;
  color: string | null;
  note: string | null | undefined;
}

/** Changes a highlight's label, colour and note, and answers it as a HighlightRow. */
export const updateHighlightRow = defineQuery({
  columns: HIGHLIGHT_ROW,
  statement: (c: HighlightChanges) =>
    writtenHighlight(
      sql`update highlights set
          label = case when ${c.label !== undefined} then ${c.label ?? null} else label end,
          color = coalesce(${c.color}, color),
          note = case when ${c.note !== undefined} then ${c.note ?? null} else note end,
          updated_at = now()
        where id = ${c.highlightId} and organization_id = ${c.organizationId}
        returning *`,
    ),
  example: { organizationId: 'org_example', highlightId: 'hlt_example', label: 'pricing', color: null, note: undefined } as HighlightChanges,
});

/** Deletes the organization's highlight (its collection items cascade). */
export const deleteHighlightRow = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, highlightId }: { organizationId: string; highlightId: string }) =>
    sql`delete from highlights where id = ${highlightId} and organization_id = ${organizationId} returning id`,
  example: { organizationId: 'org_example', highlightId: 'hlt_example' },
});

/** Whether a list's session and campaign filters name the organization's records. */
export const highlightFiltersExist = defineQuery({
  columns: { session_found: 'boolean', campaign_found: 'boolean' },
  statement: ({ organizationId, sessionId, campaignId }: { organizationId: string; sessionId: string | null; campaignId: string | null }) =>
    sql`select exists (select 1 from sessions where id = ${sessionId} and organization_id = ${organizationId}) as session_found,
               exists (select 1 from campaigns where id = ${campaignId} and organization_id = ${organizationId}) as campaign_found`,
  example: { organizationId: 'org_example', sessionId: 'ses_example' as string | null, campaignId: null as string | null },
});

export interface HighlightPageParams {
  organizationId: string;
  cursor?: string | undefined;
  sessionId?: string | undefined;
  campaignId?: string | undefined;
  label?: string | undefined;
  limit: number;
}

/** A page of the organization's highlights, newest first, `limit + 1` rows (cursorPage cuts it). */
export const highlightPage = defineQuery({
  columns: HIGHLIGHT_ROW,
  statement: (p: HighlightPageParams) => {
    const filters: Sql[] = [sql`h.organization_id = ${p.organizationId}`, afterCursor('h', p.cursor)];
    if (p.sessionId !== undefined) filters.push(sql`h.session_id = ${p.sessionId}`);
    if (p.campaignId !== undefined) filters.push(sql`s.campaign_id = ${p.campaignId}`);
    if (p.label !== undefined) filters.push(sql`lower(h.label) = lower(${p.label})`);
    const where = filters.reduce((joined, filter) => sql`${joined} and ${filter}`);
    return sql`select ${HIGHLIGHT_COLUMNS} from highlights h ${HIGHLIGHT_JOINS} where ${where} order by h.created_at desc, h.id desc limit ${p.limit + 1}`;
  },
  example: { organizationId: 'org_example', sessionId: 'ses_example', campaignId: 'cmp_example', label: 'pricing', limit: 20 } as HighlightPageParams,
});
