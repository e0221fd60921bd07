import { Readable, type Transform } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { ExportCampaign } from './export-scope.js';
import type { Deps } from '../common/deps.js';
import { exportedSessions, type TranscriptOptions } from './exported-sessions.js';

/** The columns of the flattened CSV, one row per utterance. */
export const CSV_COLUMNS = [
  'campaign_id',
  'campaign_name',
  'session_id',
  'session_status',
  'completion_status',
  'participant_email',
  'participant_name',
  'session_started_at',
  'session_completed_at',
  'language',
  'utterance_id',
  'utterance_index',
  'speaker',
  'question_id',
  'text',
  'start_time',
  'end_time',
  'confidence',
  'sentiment',
  'keywords',
  'value',
  'low_confidence',
  'heard_as',
] as const;

type CsvRow = Record<(typeof CSV_COLUMNS)[number], string | number | null>;

/**
 * Spreadsheet formula injection: a cell starting with =, +, -, @ (or a tab or carriage return)
 * is run as a formula by Excel and its kin. Such text cells get a leading apostrophe, which the
 * spreadsheet shows as text (OWASP's advice).
 */
export function inert(text: string | null): string | null {
  return text !== null && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

async function* rows(deps: Pick<Deps, 'em'>, { campaigns, ...options }: { campaigns: ExportCampaign[] } & TranscriptOptions): AsyncGenerator<CsvRow> {
  for (const campaign of campaigns) {
    for await (const session of exportedSessions(deps, { campaign, ...options })) {
      if (!session.transcript) continue;
      let index = 0;
      for (const utterance of session.transcript.utterances) {
        yield {
          campaign_id: campaign.id,
          campaign_name: inert(campaign.name),
          session_id: session.id,
          session_status: session.status,
          completion_status: session.completionStatus,
          participant_email: inert(session.participant.email),
          participant_name: inert(session.participant.name),
          session_started_at: session.startedAt,
          session_completed_at: session.completedAt,
          language: session.language,
          utterance_id: utterance.id,
          utterance_index: index++,
          speaker: utterance.speaker,
          question_id: inert(utterance.questionId),
          text: inert(utterance.text),
          start_time: utterance.startTime,
          end_time: utterance.endTime,
          confidence: utterance.confidence,
          sentiment: utterance.sentiment ?? null,
          keywords: inert((utterance.keywords ?? []).join('; ')),
          value: utterance.value === undefined || utterance.value === null ? null : inert(String(utterance.value)),
          low_confidence: utterance.lowConfidence ? 'true' : null,
          heard_as: inert(utterance.heardAs ?? null),
        };
      }
    }
  }
}

/**
 * The flattened CSV (RFC 4180: a header row, CRLF line ends, fields quoted where they need it),
 * one row per utterance of every finished session with a transcript, streamed.
 */
export function transcriptsCsv(deps: Pick<Deps, 'em'>, input: { campaigns: ExportCampaign[] } & TranscriptOptions): Transform {
  const csv = stringify({ header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows', cast: { number: (value) => String(value) } });
  const source = Readable.from(rows(deps, input));
  source.on('error', (error) => csv.destroy(error));
  // A download given up stops the reading of rows too.
  csv.on('close', () => source.destroy());
  return source.pipe(csv);
}
