import { otherLanguageOf } from '../../analysis/language-detection.js';
import type { TTranscriptNoneReason } from '../../../shared/schemas/transcripts.js';
import type { TextAnalyzer, TranscriptAnalysis } from '../../analysis/analyzer.js';
import { sessionSentiment } from '../../analysis/session-sentiment.js';
import type { Config } from '../../config.js';
import type { RowOf } from '../../db/query.js';
import { addJobs } from '../../jobs/add-jobs.js';
import type { Deps } from '../common/deps.js';
import { crashIfEnabled } from '../../platform/test-faults.js';
import { systemCaller } from '../common/caller.js';
import { generateInsightsJob, loadSessionFacts } from '../sessions/index.js';
import { publishEvent } from '../webhooks/index.js';
import { claimTranscript, storeUtteranceAnalysis, transcriptDue, utterancesToAnalyze } from './queries.js';

/** The spec: very short sessions, under 10 seconds of speech, may yield no transcript (audio-only ones here). */
export const MIN_SPEECH_SECONDS = 10;

type UtteranceRow = Omit<RowOf<typeof utterancesToAnalyze.columns>, 'speaker'> & { speaker: 'ai' | 'participant' };

/**
 * Whether a finished session has anything to transcribe. A session answered in text always
 * does; one answered only by voice needs 10 seconds of speech in all (the spec's rule); one where
 * the participant said nothing transcribable has none.
 */
function noTranscriptReason(rows: UtteranceRow[]): TTranscriptNoneReason | null {
  const answers = rows.filter((row) => row.speaker === 'participant');
  if (!answers.some((row) => row.text !== null && row.text.trim() !== '')) return 'no_answers';
  const typed = answers.some((row) => row.audio_file_id === null && row.text !== null);
  if (typed) return null;
  const speech = answers.reduce((sum, row) => sum + (row.audio_seconds ?? Math.max(0, row.end_time - row.start_time)), 0);
  return speech < MIN_SPEECH_SECONDS ? 'too_little_speech' : null;
}

/**
 * `session__generate_transcript`: analyses the finished session's utterances (sentiment and
 * keywords) and stores the analysis with the session's sentiment, once; then enqueues the
 * insights. The analysis (the slow part, possibly an LLM call) runs before the transaction; the
 * transaction writes only if no earlier run did, so a retried or re-run job (a worker killed
 * mid-way) changes nothing twice and adds the next job once.
 *
 * No caller: the job names a session, whose row says its organization.
 */
export async function generateTranscript(
  { em, services }: Pick<Deps, 'em'> & { services: { analyzer: TextAnalyzer; config: Pick<Config, 'testFaults'> } },
  input: { sessionId: string },
): Promise<boolean> {
  const { sessionId } = input;
  const session = await transcriptDue.first(em, { sessionId });
  if (!session || !session.finished || session.generated) return false;
  const rows = (await utterancesToAnalyze.rows(em, { sessionId })) as UtteranceRow[];
  const noneReason = noTranscriptReason(rows);
  const withText = rows.filter((row): row is UtteranceRow & { text: string } => row.text !== null && row.text.trim() !== '');
  // Told once here: the analyzer scores such an answer in its language, and the transcript flags it.
  const detectedLanguages = withText.map((row) => (row.speaker === 'participant' ? otherLanguageOf(row.text, session.language) : null));
  let analysis: TranscriptAnalysis | null = null;
  if (!noneReason) {
    analysis = await services.analyzer.analyzeTranscript({
      language: session.language,
      utterances: withText.map((row, index) => ({
        id: row.id,
        speaker: row.speaker,
        text: row.text,
        questionId: row.question_id,
        detectedLanguage: detectedLanguages[index],
      })),
    });
  }
  const overall = analysis
    ? sessionSentiment(
        withText.map((row, index) => ({
          speaker: row.speaker,
          text: row.text,
          sentiment: analysis!.utterances[index]!.sentiment,
          score: analysis!.utterances[index]!.score,
        })),
      )
    : null;

  return em.transactional(async (tx) => {
    const claimed = await claimTranscript.rows(tx, {
      sessionId,
      status: noneReason ? 'none' : 'ready',
      noneReason,
      analyzedBy: analysis?.analyzedBy ?? null,
      sentiment: overall?.overall ?? null,
      sentimentScore: overall?.score ?? null,
    });
    if (claimed.length === 0) return false;
    if (analysis) {
      const values = withText.map((row, index) => {
        const result = analysis!.utterances[index]!;
        return { id: row.id, sentiment: result.sentiment, score: result.score, keywords: result.keywords, detected_language: detectedLanguages[index] };
      });
      await storeUtteranceAnalysis.rows(tx, { sessionId, values });
    }
    // A transcript to read: receivers hear of it now, before insights and files (none for a
    // session with nothing to transcribe, or a researcher's preview).
    if (!noneReason && !session.preview) {
      await publishEvent({ em: tx }, systemCaller(session.organization_id), {
        type: 'transcript.ready',
        sessionId,
        facts: await loadSessionFacts(tx, sessionId),
        occurredAt: new Date(),
      });
    }
    await addJobs(tx, [generateInsightsJob(sessionId)]);
    // Tests only: the process may die here, the analysis written but not committed.
    crashIfEnabled(services.config, 'transcript:before-commit');
    return true;
  });
}
