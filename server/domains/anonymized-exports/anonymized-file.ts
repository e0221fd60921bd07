import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { stringify } from 'csv-stringify';
import { inert } from '../exports/index.js';
import type { AnonymizedScope } from './anonymized-sessions.js';
import { anonymizedSessions } from './anonymized-sessions.js';
import { Pseudonyms } from './pseudonyms.js';

/** The campaigns named in the file: pseudonym and name (a campaign's name is the customer's, not a participant's). */
export interface ExportedCampaign {
  id: string;
  name: string;
}

/** Counts the sessions written, for the answer. */
export interface Tally {
  sessions: number;
}

/**
 * `{exportedAt, anonymized, campaigns: [...], sessions: [...]}`, one session per line, written as
 * the sessions are read.
 */
async function* jsonDocument(em: EntityManager, scope: AnonymizedScope, campaigns: ExportedCampaign[], tally: Tally): AsyncGenerator<string> {
  const pseudonyms = new Pseudonyms();
  const head = {
    exportedAt: new Date().toISOString(),
    anonymized: true,
    note: "Ids are pseudonyms, consistent within this file only; times are seconds from each session's start.",
    campaigns: campaigns.map((campaign) => ({ id: pseudonyms.of('campaign', campaign.id), name: campaign.name })),
  };
  yield `${JSON.stringify(head).slice(0, -1)},"sessions":[`;
  let first = true;
  for await (const session of anonymizedSessions({ em }, { scope, pseudonyms })) {
    tally.sessions += 1;
    yield `${first ? '' : ','}\n${JSON.stringify(session)}`;
    first = false;
  }
  yield '\n]}\n';
}

const ANONYMIZED_CSV_COLUMNS = [
  'campaign_id',
  'campaign_name',
  'session_id',
  'participant_id',
  'session_status',
  'completion_status',
  'language',
  'session_duration_seconds',
  'session_sentiment',
  'utterance_index',
  'speaker',
  'question_id',
  'text',
  'start_time',
  'end_time',
  'sentiment',
  'keywords',
  'value',
] as const;

async function* csvRows(
  em: EntityManager,
  scope: AnonymizedScope,
  campaigns: ExportedCampaign[],
  tally: Tally,
): AsyncGenerator<Record<(typeof ANONYMIZED_CSV_COLUMNS)[number], string | number | null>> {
  const pseudonyms = new Pseudonyms();
  const names = new Map(campaigns.map((campaign) => [pseudonyms.of('campaign', campaign.id), campaign.name]));
  for await (const session of anonymizedSessions({ em }, { scope, pseudonyms })) {
    tally.sessions += 1;
    for (const utterance of session.utterances) {
      yield {
        campaign_id: session.campaignId,
        campaign_name: inert(names.get(session.campaignId) ?? null),
        session_id: session.id,
        participant_id: session.participantId,
        session_status: session.status,
        completion_status: session.completionStatus,
        language: session.language,
        session_duration_seconds: session.durationSeconds,
        session_sentiment: session.sentiment?.overall ?? null,
        utterance_index: utterance.index,
        speaker: utterance.speaker,
        question_id: inert(utterance.questionId),
        text: inert(utterance.text),
        start_time: utterance.startTime,
        end_time: utterance.endTime,
        sentiment: utterance.sentiment,
        keywords: inert(utterance.keywords.join('; ')),
        value: utterance.value === null ? null : inert(String(utterance.value)),
      };
    }
  }
}

/** The export's bytes as a stream: JSON (one document) or CSV (RFC 4180, one row per utterance). */
export function anonymizedFile(em: EntityManager, scope: AnonymizedScope, campaigns: ExportedCampaign[], format: 'json' | 'csv', tally: Tally): Readable {
  if (format === 'json') return Readable.from(jsonDocument(em, scope, campaigns, tally));
  const csv = stringify({
    header: true,
    columns: [...ANONYMIZED_CSV_COLUMNS],
    record_delimiter: 'windows',
    cast: { number: (value) => String(value), boolean: (value) => String(value) },
  });
  const source = Readable.from(csvRows(em, scope, campaigns, tally));
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}
