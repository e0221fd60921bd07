import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSharedView } from '../../../shared/schemas/stakeholder-links.js';
import { sharedCollectionHeader, sharedCollectionItems } from './queries.js';
import { redactPii } from '../../analysis/pii-redaction.js';
import { PII_KINDS } from '../../../shared/schemas/pii.js';
import { loadPlan } from '../sessions/index.js';
import { readTranscriptUtterances } from '../transcripts/index.js';
import { sessionScrubber } from '../anonymized-exports/index.js';
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
  const collection = await sharedCollectionHeader.first(em, { organizationId: link.organizationId, collectionId: link.targetId });
  const rows = (await sharedCollectionItems.rows(em, { organizationId: link.organizationId, collectionId: link.targetId, limit: MAX_ITEMS })) as ItemRow[];
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
