import type { CustomerAuth } from '../common/caller.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TParsedAnswer } from '../../../shared/schemas/sessions.js';
import { REDACTION_MARKER, type TRedaction, type TRedactInput } from '../../../shared/schemas/redactions.js';
import { sql } from '../../db/sql.js';
import {
  adjustHighlights,
  probeLedgersForUpdate,
  recordingsToSilence,
  redactUtteranceText,
  replaceSilencedFile,
  sessionAnswers,
  sessionInsightsForUpdate,
  sessionWebhookEvents,
  updateProbePickedUp,
  updateSessionAnswers,
  updateSessionInsights,
  updateWebhookEventFacts,
  utteranceForRedaction,
} from './queries.js';
import { AppError, notFound, validationError } from '../../errors.js';
import { addJobs } from '../../jobs/add-jobs.js';
import type { Logger } from '../../logger.js';

import { loadSession } from '../sessions/index.js';
import { authorOf } from '../common/author.js';
import { writeAuditEntry } from './audit-log.js';
import { derivedTextScrubber, keywordsAfterRedaction, onlyMarkers, type PlannedRedaction, planRedaction, recutQuote, scrubJson } from './redaction-text.js';
import { changeSessionTranscript, type ExportServices, rewriteSessionExports } from './rewrite-session-exports.js';
import { canSilence, SILENCEABLE_TYPES, silenceStoredAudio, type StoredAudio } from './silence-audio.js';
import { deleteFilesJob } from '../../storage/delete-unrecorded-files.js';

export interface RedactionServices extends ExportServices {
  ffmpeg: string | null;
  logger: Pick<Logger, 'warn'>;
}

interface UtteranceRow {
  id: string;
  speaker: 'ai' | 'participant';
  text: string | null;
  keywords: string[] | null;
  /** A corrected answer's recognised text (heard-check.ts): a copy of the words too. */
  heard_as: string | null;
  value: unknown;
  start_time: number;
  end_time: number;
  audio_file_id: string | null;
}

/** The session's recordings on its timeline that hold the participant's voice (the AI's track holds none). */
const SESSION_TIMELINE_KINDS = ['merged_audio', 'participant_audio'] as const;

/** How a redaction names each kind of recording it silences. */
const RECORDING_NAMES: Record<AudioRow['kind'], string> = {
  audio: "answer's recording",
  merged_audio: "session's merged recording",
  participant_audio: "session's participant track",
};

interface AudioRow {
  id: string;
  kind: 'audio' | (typeof SESSION_TIMELINE_KINDS)[number];
  storage_key: string;
  content_type: string;
  duration_seconds: number | null;
}

/** Slack on the caller's audio range, for times rounded to the millisecond on both sides. */
const TIME_SLACK = 0.001;

/** An interview's files in their own timeline, not the session's (an upload): nothing can be placed on them. */
const WHOLE_FILE = 86_400;

/** 404 for an utterance that is not this session's (or not this organization's). */
/**
 * 409 TRANSCRIPT_CHANGED: the text at the caller's offsets is not the span they saw (edited
 * meanwhile, or a retry of a redaction already made). The details give where that span is now
 * (the occurrence nearest the old offsets; null when the text no longer holds it) and never words.
 */
function transcriptChanged(utteranceId: string, text: string, input: Pick<TRedactInput, 'start' | 'end' | 'expectedText'>): AppError {
  let nearest: number | null = null;
  for (let at = text.indexOf(input.expectedText); at !== -1; at = text.indexOf(input.expectedText, at + 1)) {
    if (nearest === null || Math.abs(at - input.start) < Math.abs(nearest - input.start)) nearest = at;
  }
  return new AppError(
    'TRANSCRIPT_CHANGED',
    `Utterance ${utteranceId}'s text at ${input.start}–${input.end} is not the expectedText any more; nothing was redacted. Read the transcript again and redact from it.`,
    {
      utteranceId,
      requested: { start: input.start, end: input.end },
      current: nearest === null ? null : { start: nearest, end: nearest + input.expectedText.length },
      length: text.length,
    },
  );
}

/**
 * The session must be finished and its results made (transcript, insights, recordings, exports): the jobs that
 * make them read the text outside their transaction, so a redaction in between could be written
 * over by words read before it.
 */
function assertRedactable(session: { id: string; status: string; exportsPreparedAt?: Date | null | undefined }): void {
  if (session.status !== 'completed' && session.status !== 'abandoned') {
    throw new AppError('SESSION_NOT_ACTIVE', `Session ${session.id} is ${session.status}; only a finished session's transcript can be redacted.`, {
      sessionId: session.id,
      status: session.status,
    });
  }
  if (!session.exportsPreparedAt) {
    throw new AppError('TRANSCRIPT_NOT_READY', `Session ${session.id}'s results are still being made; redact once they are (retry shortly).`, {
      sessionId: session.id,
      status: 'pending',
      sessionStatus: session.status,
    });
  }
}

/** Where the audio goes silent: seconds from the session's start, and within each recording. */
function audioPlan(utterance: UtteranceRow, answerAudio: AudioRow | null, input: Pick<TRedactInput, 'audioStart' | 'audioEnd'>) {
  const explicit = input.audioStart !== undefined && input.audioEnd !== undefined;
  if (!answerAudio) {
    if (explicit) throw validationError([{ path: 'audioStart', message: 'the utterance has no recording to silence' }]);
    return null;
  }
  // Without word timings nothing says where in the answer the words were: the whole recording goes (safe over sorry).
  const recordedUntil = Math.max(utterance.end_time, utterance.start_time + (answerAudio.duration_seconds ?? 0));
  if (explicit) {
    if (input.audioStart! < utterance.start_time - TIME_SLACK) {
      throw validationError([{ path: 'audioStart', message: `must be within the utterance (from ${utterance.start_time} s)` }]);
    }
    if (input.audioEnd! > recordedUntil + TIME_SLACK) {
      throw validationError([{ path: 'audioEnd', message: `must be within the utterance (until ${recordedUntil} s)` }]);
    }
    return {
      mode: 'range' as const,
      start: input.audioStart!,
      end: input.audioEnd!,
      inAnswer: { start: input.audioStart! - utterance.start_time, end: input.audioEnd! - utterance.start_time },
    };
  }
  return { mode: 'utterance' as const, start: utterance.start_time, end: recordedUntil, inAnswer: { start: 0, end: WHOLE_FILE } };
}

/**
 * `redactions.redact`: replaces `[start, end)` of an utterance's text by `[REDACTED]`, for good,
 * in one transaction with everything else that held those words: the utterance's keywords, the
 * session's parsed answers, its insights (quotes, summary, action items, topics), the stored
 * facts of its webhook events, its stored exports (transcript JSON, PDF report, made again), and
 * the highlights' offsets (moved after the span, widened over it). The utterance's recording and
 * the session's merged recording and participant track are silenced over the utterance's time (or audioStart–audioEnd)
 * and stored anew, the records swapped in the same transaction, which also adds the job that
 * deletes the old files (storage__delete_files). Text made from the utterance loses its copies of
 * the span and nothing else (derivedTextScrubber: copied stretches, the span or the names in it
 * reworded, its long numbers written another way; never a digit or a common word of it that turns
 * up on its own, as a duration, a rating or an option does); its key quotes are cut again from the new text. The span must still be `expectedText` (else 409
 * TRANSCRIPT_CHANGED, nothing changed). One audit entry records offsets, times and files, never the
 * words. Changes to one session's transcript run one after another (lockSessionTranscript), so two
 * never rewrite the same recording from the same original.
 */
export async function redactUtterance(
  { em, services }: { em: EntityManager; services: RedactionServices },
  auth: CustomerAuth,
  input: TRedactInput,
): Promise<TRedaction> {
  const session = await loadSession(em, auth, { sessionId: input.sessionId });
  assertRedactable(session);
  const actor = await authorOf(em, auth);
  const obsolete: string[] = [];
  return changeSessionTranscript(em, services, session.id, async ({ tx, work, written }) => {
    const utterance = (await utteranceForRedaction.first(tx, {
      organizationId: auth.organizationId,
      sessionId: session.id,
      utteranceId: input.utteranceId,
    })) as UtteranceRow | undefined;
    if (!utterance) throw notFound('utterance', input.utteranceId, 'utteranceId');
    const original = utterance.text;
    if (original === null) throw validationError([{ path: 'utteranceId', message: 'has no text to redact (an audio answer nothing could transcribe)' }]);
    // Offsets beyond the text fail this too: expectedText is end - start long, so the caller saw a longer text.
    if (original.slice(input.start, input.end) !== input.expectedText) throw transcriptChanged(utterance.id, original, input);

    const plan = planRedaction(original, input.start, input.end);
    if (!plan) {
      return {
        changed: false,
        sessionId: session.id,
        utteranceId: utterance.id,
        text: original,
        marker: null,
        audio: { mode: 'none' as const, start: null, end: null, files: [] },
        highlightsAdjusted: 0,
        entry: null,
      } satisfies TRedaction;
    }

    const audioRows = (await recordingsToSilence.rows(tx, {
      sessionId: session.id,
      audioFileId: utterance.audio_file_id,
      timelineKinds: [...SESSION_TIMELINE_KINDS],
    })) as AudioRow[];
    const answerAudio = audioRows.find((row) => row.id === utterance.audio_file_id) ?? null;
    const audio = audioPlan(utterance, answerAudio, input);
    const toSilence = audio ? audioRows : [];
    if (toSilence.length > 0 && !services.ffmpeg) {
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'The recording cannot be silenced: ffmpeg is not installed on the server (FFMPEG_PATH). Nothing was redacted.',
        { reason: 'ffmpeg_missing' },
      );
    }
    const unsupported = toSilence.find((row) => !canSilence(row.content_type));
    if (unsupported) {
      throw new AppError(
        'VALIDATION_ERROR',
        `The ${RECORDING_NAMES[unsupported.kind]} is ${unsupported.content_type}, which cannot be silenced (only ${SILENCEABLE_TYPES.join(', ')}); nothing was redacted.`,
        {
          fields: [{ path: 'utteranceId', message: `its recording (${unsupported.content_type}) cannot be silenced` }],
          fileId: unsupported.id,
          contentType: unsupported.content_type,
        },
      );
    }

    const scrub = derivedTextScrubber(original, plan.start, plan.end, session.language);
    const keywords = keywordsAfterRedaction(utterance.keywords, plan.text);
    // A parsed value is a copy too when it is text (a choice as the participant worded it).
    const value = typeof utterance.value === 'string' ? sql`, value = ${JSON.stringify(scrub(utterance.value))}::jsonb` : sql``;
    const heardAs = utterance.heard_as === null ? sql`` : sql`, heard_as = ${scrub(utterance.heard_as)}`;
    await redactUtteranceText.rows(tx, {
      utteranceId: utterance.id,
      text: plan.text,
      keywords: keywords === null ? null : JSON.stringify(keywords),
      also: sql`${value}${heardAs}`,
    });

    // Offsets after the span move with it; a highlight over any part of it widens to the whole marker.
    const markerLength = REDACTION_MARKER.length;
    const adjusted = await adjustHighlights.rows(tx, {
      organizationId: auth.organizationId,
      utteranceId: utterance.id,
      start: plan.start,
      end: plan.end,
      delta: plan.delta,
      markerLength,
    });

    const stored = (await sessionAnswers.first(tx, { sessionId: session.id }))!.answers as TParsedAnswer[];
    const answers = stored.map((answer) => (typeof answer.value === 'string' ? { ...answer, value: scrub(answer.value) } : answer));
    const answersScrubbed = JSON.stringify(answers) !== JSON.stringify(stored);
    await updateSessionAnswers.rows(tx, { sessionId: session.id, answers: answersScrubbed ? JSON.stringify(answers) : null });

    const insightsScrubbed = await scrubInsights(tx, session.id, scrub, { utteranceId: utterance.id, original, plan });
    const probesScrubbed = await scrubProbeLedgers(tx, auth.organizationId, session.id, scrub);
    const eventsScrubbed = await scrubWebhookEvents(tx, auth.organizationId, session.id, (facts) => scrubJson(facts, scrub));

    const silenced: TRedaction['audio']['files'] = [];
    for (const row of toSilence) {
      const range = row.kind === 'audio' ? audio!.inAnswer : { start: audio!.start, end: audio!.end };
      const stored: StoredAudio = { id: row.id, storageKey: row.storage_key, contentType: row.content_type, durationSeconds: row.duration_seconds };
      const copy = await silenceStoredAudio({ storage: services.storage, ffmpeg: services.ffmpeg! }, stored, range, work);
      written.push(copy.storageKey);
      await replaceSilencedFile.rows(tx, {
        fileId: row.id,
        storageKey: copy.storageKey,
        size: copy.size,
        sha256: copy.sha256,
        durationSeconds: copy.durationSeconds,
      });
      obsolete.push(row.storage_key);
      silenced.push({ fileId: row.id, kind: row.kind, start: range.start, end: Math.min(range.end, copy.durationSeconds ?? range.end) });
    }

    const exports = await rewriteSessionExports(em, tx, services, session.id, work);
    written.push(...exports.writtenKeys);
    obsolete.push(...exports.obsoleteKeys);
    if (obsolete.length > 0) await addJobs(tx, [deleteFilesJob(obsolete)]);

    const audioResult = audio
      ? { mode: audio.mode, start: audio.start, end: audio.end, files: silenced }
      : { mode: 'none' as const, start: null, end: null, files: [] };
    const entry = await writeAuditEntry(tx, {
      organizationId: auth.organizationId,
      sessionId: session.id,
      utteranceId: utterance.id,
      action: 'redact',
      actor,
      reason: input.reason ?? null,
      details: {
        requested: { start: input.start, end: input.end },
        removed: { start: plan.start, end: plan.end, length: plan.end - plan.start },
        marker: { start: plan.markerStart, end: plan.markerEnd },
        audio: audioResult,
        highlightsAdjusted: adjusted.map((row) => row.id),
        scrubbed: {
          answers: answersScrubbed,
          insights: insightsScrubbed,
          probeLedgers: probesScrubbed,
          webhookEvents: eventsScrubbed,
          exportsRewritten: exports.rewritten,
          exportsDeleted: exports.deleted,
        },
      },
    });
    return {
      changed: true,
      sessionId: session.id,
      utteranceId: utterance.id,
      text: plan.text,
      marker: { start: plan.markerStart, end: plan.markerEnd },
      audio: audioResult,
      highlightsAdjusted: adjusted.length,
      entry,
    } satisfies TRedaction;
  });
}

interface InsightsRow {
  summary: string;
  key_quotes: { text: string; utteranceId: string }[];
  action_items: string[];
  topics: { label: string; utteranceIds: string[] }[];
}

/**
 * The session's insights with every copy of the removed words taken out; whether anything changed.
 * A key quote of the redacted utterance is cut again from its new text (scrubbed when the old text
 * does not hold it verbatim); a quote or a topic label left with nothing but markers goes.
 */
async function scrubInsights(
  tx: EntityManager,
  sessionId: string,
  scrub: (text: string) => string,
  redacted: { utteranceId: string; original: string; plan: PlannedRedaction },
): Promise<boolean> {
  const row = (await sessionInsightsForUpdate.first(tx, { sessionId })) as InsightsRow | undefined;
  if (!row) return false;
  const next: InsightsRow = {
    summary: scrub(row.summary),
    key_quotes: row.key_quotes
      .map((quote) => ({
        ...quote,
        text: (quote.utteranceId === redacted.utteranceId ? recutQuote(quote.text, redacted.original, redacted.plan) : null) ?? scrub(quote.text),
      }))
      .filter((quote) => !onlyMarkers(quote.text)),
    action_items: row.action_items.map(scrub),
    topics: row.topics.map((topic) => ({ ...topic, label: scrub(topic.label) })).filter((topic) => !onlyMarkers(topic.label)),
  };
  if (JSON.stringify(next) === JSON.stringify(row)) return false;
  await updateSessionInsights.rows(tx, {
    sessionId,
    summary: next.summary,
    keyQuotes: JSON.stringify(next.key_quotes),
    actionItems: JSON.stringify(next.action_items),
    topics: JSON.stringify(next.topics),
  });
  return true;
}

/** A probe ledger's `pickedUp` is a copy of the participant's words (issue 30): scrubbed like any other. Answers how many changed. */
async function scrubProbeLedgers(tx: EntityManager, organizationId: string, sessionId: string, scrub: (text: string) => string): Promise<number> {
  const ledgers = await probeLedgersForUpdate.rows(tx, { organizationId, sessionId });
  let changed = 0;
  for (const ledger of ledgers) {
    const scrubbed = scrub(ledger.picked_up);
    if (scrubbed === ledger.picked_up) continue;
    await updateProbePickedUp.rows(tx, { utteranceId: ledger.id, pickedUp: scrubbed });
    changed += 1;
  }
  return changed;
}

/** Stored event facts are what redeliveries are built from: scrubbed like any other copy. Answers how many changed. */
async function scrubWebhookEvents(tx: EntityManager, organizationId: string, sessionId: string, scrub: (facts: unknown) => unknown): Promise<number> {
  const events = await sessionWebhookEvents.rows(tx, { organizationId, sessionId });
  let changed = 0;
  for (const event of events) {
    const facts = scrub(event.facts);
    if (JSON.stringify(facts) === JSON.stringify(event.facts)) continue;
    await updateWebhookEventFacts.rows(tx, { eventId: event.id, facts: JSON.stringify(facts) });
    changed += 1;
  }
  return changed;
}
