import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSharedView } from '../../../shared/schemas/stakeholder-links.js';
import { queryRows, sql } from '../../db/sql.js';
import { redactPii } from '../../analysis/pii-redaction.js';
import { PII_KINDS } from '../../../shared/schemas/pii.js';
import { loadPlan } from '../sessions/load-session.js';
import { readTranscriptUtterances } from '../transcripts/read-utterances.js';
import { IDENTITY_COLUMNS, sessionScrubber } from '../anonymized-exports/index.js';
import type { SharedLink } from './find-shared-link.js';
import { type CampaignIdentityRow, readSharedMetadata } from './shared-metadata.js';

/** Items shown at most: a collection is a curated set, far smaller than this. */
const MAX_ITEMS = 500;

interface ItemRow extends CampaignIdentityRow {
  session_id: string;
  utterance_text: string;
  start_offset: number;
  end_offset: number;
  speaker: 'ai' | 'participant';
  start_time: number;
  question_id: string | null;
  label: string | null;
  highlight_note: string | null;
  item_note: string | null;
  campaign_name: string;
  script_id: string;
  script_version: number;
}

/**
 * A collection as a stakeholder sees it: its quotes in the order they were added, each with the
 * campaign and the question it answered, the researcher's label and note, and the whole answer
 * when the link includes transcripts. Quotes of preview sessions are left out. With PII redacted,
 * each quote, answer and note goes through its session's scrubber (as an anonymized export, but
 * keeping the metadata values two participants of its campaign hold), and the collection's
 * description through the PII redactor.
 */
export async function readSharedCollection(em: EntityManager, link: SharedLink): Promise<NonNullable<TSharedView['collection']>> {
  const [collection] = await queryRows<{ name: string; description: string | null }>(
    em,
    sql`select name, description from collections where id = ${link.targetId} and organization_id = ${link.organizationId}`,
  );
  const rows = await queryRows<ItemRow>(
    em,
    sql`select h.session_id, u.text as utterance_text, h.start_offset, h.end_offset, u.speaker, u.start_time, u.question_id, h.label,
               h.note as highlight_note, ci.note as item_note, s.campaign_id, c.name as campaign_name, s.script_id, s.script_version, ${IDENTITY_COLUMNS}
          from collection_items ci
          join highlights h on h.id = ci.highlight_id
          join session_utterances u on u.id = h.utterance_id
          join sessions s on s.id = h.session_id
          join campaigns c on c.id = s.campaign_id
          left join invites i on i.id = s.invite_id
         where ci.collection_id = ${link.targetId} and ci.organization_id = ${link.organizationId} and not s.preview
         order by ci.position limit ${MAX_ITEMS}`,
  );
  const sessionIds = [...new Set(rows.map((row) => row.session_id))];
  const spoken = link.redactPii ? await readTranscriptUtterances(em, sessionIds) : new Map();
  const sharedMetadata = link.redactPii ? await readSharedMetadata(em, link.organizationId, rows) : null;
  const scrubbers = new Map(
    sharedMetadata
      ? rows.map((row) => {
          const texts = (spoken.get(row.session_id) ?? []).map((utterance: { text: string }) => utterance.text);
          return [row.session_id, sessionScrubber(row, texts, { sharedMetadata: sharedMetadata(row.campaign_id) })] as const;
        })
      : [],
  );
  const items = [];
  for (const row of rows) {
    const scrubber = scrubbers.get(row.session_id);
    const piece = (text: string | null) => (text === null || !scrubber ? text : scrubber.piece(text));
    const plan = row.question_id ? await loadPlan(em, { scriptId: row.script_id, scriptVersion: row.script_version }) : null;
    // The note on the item wins over the highlight's own, as the dashboard shows the item's.
    const note = row.item_note ?? row.highlight_note;
    items.push({
      quote: piece(row.utterance_text.slice(row.start_offset, row.end_offset))!,
      label: piece(row.label),
      note: piece(note),
      speaker: row.speaker,
      campaignName: row.campaign_name,
      question: plan?.questions.find((question) => question.id === row.question_id)?.text ?? null,
      startTime: Number(row.start_time),
      context: link.includeTranscripts ? (scrubber ? scrubber.utterance(row.utterance_text) : row.utterance_text) : null,
    });
  }
  const description = collection?.description ?? null;
  return {
    name: collection?.name ?? '',
    description: description !== null && link.redactPii ? redactPii(description, PII_KINDS) : description,
    items,
  };
}
