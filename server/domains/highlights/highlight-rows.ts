import type { EntityManager } from '@mikro-orm/postgresql';
import type { THighlight } from '../../../shared/schemas/highlights.js';
import { isoTimestamp, queryRows, rawSql, type Sql, sql } from '../../db/sql.js';
import { authorFromRow } from '../common/author.js';

/** A highlight joined with its utterance, session and campaign: everything its API shape needs, in one row. */
export interface HighlightRow {
  id: string;
  session_id: string;
  campaign_id: string;
  campaign_name: string;
  utterance_id: string;
  speaker: 'ai' | 'participant';
  start_time: number;
  /** The utterance's text up to the highlight's end (enough to cut the quote; never stored). */
  text_head: string | null;
  start_offset: number;
  end_offset: number;
  label: string | null;
  color: string;
  note: string | null;
  author_kind: string;
  author_id: string;
  author_name: string;
  created_at: string;
  updated_at: string;
  sort_value: string;
}

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
    speaker: row.speaker,
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

/** A statement whose CTE `written` returns highlight rows (an insert or update), read back in the same statement with its joins. */
export async function writeHighlight(em: EntityManager, write: Sql): Promise<THighlight | undefined> {
  const [row] = await queryRows<HighlightRow>(em, sql`with written as (${write}) select ${HIGHLIGHT_COLUMNS} from written h ${HIGHLIGHT_JOINS}`);
  return row ? highlightFromRow(row) : undefined;
}
