import type { TTranscript, TTranscriptFormat, TTranscriptUtterance } from '../../../shared/schemas/transcripts.js';

/** Subtitle cues are shown at least this long, so a one-word answer does not flash by. */
const MIN_CUE_SECONDS = 0.5;

const SPEAKER_LABELS = { ai: 'Interviewer', participant: 'Participant' } as const;

function clock(seconds: number, fractionSeparator: ',' | '.' | null): string {
  const totalMs = Math.max(0, Math.round(seconds * 1000));
  const hours = Math.floor(totalMs / 3_600_000);
  const minutes = Math.floor((totalMs % 3_600_000) / 60_000);
  const secs = Math.floor((totalMs % 60_000) / 1000);
  const base = `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:${String(secs).padStart(2, '0')}`;
  return fractionSeparator === null ? base : `${base}${fractionSeparator}${String(totalMs % 1000).padStart(3, '0')}`;
}

/** "positive · keywords: onboarding emails, setup", for the options that asked for them. */
function annotation(utterance: TTranscriptUtterance): string | null {
  const parts: string[] = [];
  if (utterance.sentiment) parts.push(utterance.sentiment);
  if (utterance.keywords && utterance.keywords.length > 0) parts.push(`keywords: ${utterance.keywords.join(', ')}`);
  return parts.length > 0 ? `[${parts.join(' · ')}]` : null;
}

/** The utterance's words, an unsure recognition marked as such (`lowConfidence`). */
function spokenText(utterance: TTranscriptUtterance): string {
  return utterance.lowConfidence ? `${utterance.text} (unclear)` : utterance.text;
}

/** Cue text may not hold a blank line (it would end the cue) nor, in WebVTT, the "-->" arrow. */
function cueText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\n{2,}/g, '\n')
    .replace(/-->/g, '->')
    .trim();
}

/**
 * Every cue's times, in whole milliseconds (as written, so rounding cannot make two cues touch
 * the wrong way): a cue starts at its utterance's start, or when the previous cue ended if that
 * is later (cues never overlap: a player would show both at once); it ends at its utterance's
 * end, or at the next utterance's start when the utterance runs into it (a question still being
 * "said" when the answer came), and lasts at least MIN_CUE_SECONDS. Utterances packed closer
 * than that (answers sent back to back, sessions stored before answers had a length) are shown
 * one after the other, each for half a second, in their order.
 */
function cueTimes(utterances: TTranscriptUtterance[]): { start: number; end: number }[] {
  const ms = (seconds: number) => Math.max(0, Math.round(seconds * 1000));
  const cues: { start: number; end: number }[] = [];
  let previousEnd = 0;
  utterances.forEach((utterance, index) => {
    const start = Math.max(ms(utterance.startTime), previousEnd);
    const next = utterances[index + 1];
    const end = Math.max(start + MIN_CUE_SECONDS * 1000, Math.min(ms(utterance.endTime), next ? ms(next.startTime) : Number.POSITIVE_INFINITY));
    cues.push({ start: start / 1000, end: end / 1000 });
    previousEnd = end;
  });
  return cues;
}

/** Readable text: a header, then "[00:01:05] Participant: …" per utterance. */
function transcriptAsText(transcript: TTranscript): string {
  const lines = [`Transcript of session ${transcript.sessionId}`, `Language: ${transcript.language} · Duration: ${clock(transcript.duration, null)}`, ''];
  for (const utterance of transcript.utterances) {
    lines.push(`[${clock(utterance.startTime, null)}] ${SPEAKER_LABELS[utterance.speaker]}: ${spokenText(utterance).replace(/\r\n?/g, '\n')}`);
    const note = annotation(utterance);
    if (note) lines.push(`    ${note}`);
  }
  return `${lines.join('\n')}\n`;
}

/** SubRip: numbered cues, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, the speaker before the text. */
function transcriptAsSrt(transcript: TTranscript): string {
  const times = cueTimes(transcript.utterances);
  return transcript.utterances
    .map((utterance, index) => {
      const { start, end } = times[index]!;
      const note = annotation(utterance);
      return [
        String(index + 1),
        `${clock(start, ',')} --> ${clock(end, ',')}`,
        `${SPEAKER_LABELS[utterance.speaker]}: ${cueText(spokenText(utterance))}`,
        ...(note ? [note] : []),
      ].join('\n');
    })
    .map((cue) => `${cue}\n\n`)
    .join('');
}

/** WebVTT: the header, cues named by utterance id, the speaker as a voice span (`<v Participant>`). */
function transcriptAsVtt(transcript: TTranscript): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const times = cueTimes(transcript.utterances);
  const cues = transcript.utterances.map((utterance, index) => {
    const { start, end } = times[index]!;
    const note = annotation(utterance);
    return [
      utterance.id,
      `${clock(start, '.')} --> ${clock(end, '.')}`,
      `<v ${SPEAKER_LABELS[utterance.speaker]}>${escape(cueText(spokenText(utterance)))}`,
      ...(note ? [escape(note)] : []),
    ].join('\n');
  });
  return `WEBVTT\n\n${cues.map((cue) => `${cue}\n\n`).join('')}`;
}

export const TRANSCRIPT_MEDIA_TYPES: Record<
  Exclude<TTranscriptFormat, 'json'>,
  { contentType: string; extension: string; render: (transcript: TTranscript) => string }
> = {
  text: { contentType: 'text/plain; charset=utf-8', extension: 'txt', render: transcriptAsText },
  srt: { contentType: 'application/x-subrip; charset=utf-8', extension: 'srt', render: transcriptAsSrt },
  vtt: { contentType: 'text/vtt; charset=utf-8', extension: 'vtt', render: transcriptAsVtt },
};
