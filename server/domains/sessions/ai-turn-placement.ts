/**
 * Where each AI turn goes on the AI's track. Pure: the caller reads the turns and their audio.
 */

/** A clip shorter than this is not worth placing (a turn cut to nothing by the answer that followed it). */
const MIN_CLIP_SECONDS = 0.05;

/** One utterance of the session, in conversation order (seq). */
export interface TimelineTurn {
  speaker: 'ai' | 'participant';
  /** Seconds from the session's start (session-clock.ts). For an AI turn: when the server produced it. */
  startTime: number;
  endTime: number;
  /** AI turns: when the page reported its audio started playing, on the session's timeline; null when not reported. */
  heardAt?: number | null | undefined;
  /** AI turns: the length of its spoken audio; null when it has none (nothing to place). */
  audioSeconds?: number | null | undefined;
}

export interface AiTurnPlacement {
  /** Index of the AI turn in the list given. */
  index: number;
  offsetSeconds: number;
  /** How much of its audio is placed (all of it unless trimmed). */
  seconds: number;
  /** `heard`: where the page played it; `produced`: the server's time of the turn (no report). */
  from: 'heard' | 'produced';
  /**
   * `trimmed`: cut where the participant's following answer began (a barge-in: the page stopped the
   * audio there). `shifted`: its time fell after that answer began (clocks that disagree), so it
   * was moved earlier to end where the answer begins, never before what preceded it.
   */
  adjusted: 'trimmed' | 'shifted' | null;
}

/**
 * Places the AI turns that have audio: at the time the page heard each one when it said so, else at
 * the time the server produced it; never before the end of the answer (or AI turn) before it, and
 * never over the participant's following answer: a turn that runs into that answer is trimmed at
 * its start, one that would start after it is shifted back. Turns that would start at or after the
 * session's end (the closing words, said once the session was over) are left out, as is a turn
 * left with no room at all. So the AI's track and the participant's never overlap.
 */
export function placeAiTurns(turns: readonly TimelineTurn[], sessionEnd: number): AiTurnPlacement[] {
  const placements: AiTurnPlacement[] = [];
  let lowest = 0;
  for (const [index, turn] of turns.entries()) {
    if (turn.speaker === 'participant') {
      lowest = Math.max(lowest, turn.endTime);
      continue;
    }
    const audioSeconds = turn.audioSeconds ?? 0;
    if (audioSeconds <= 0) continue;
    const following = turns.slice(index + 1).find((next) => next.speaker === 'participant');
    const upper = Math.min(following?.startTime ?? Number.POSITIVE_INFINITY, sessionEnd);
    const heard = turn.heardAt ?? null;
    let start = Math.max(heard ?? turn.startTime, lowest);
    let adjusted: AiTurnPlacement['adjusted'] = null;
    if (start + MIN_CLIP_SECONDS > upper) {
      // Nothing after the answer began can have been heard before it: ends where the answer begins.
      if (!following) continue;
      start = Math.max(lowest, upper - audioSeconds);
      adjusted = 'shifted';
      if (start + MIN_CLIP_SECONDS > upper) continue;
    }
    const seconds = Math.min(audioSeconds, upper - start);
    if (adjusted === null && seconds < audioSeconds) adjusted = 'trimmed';
    placements.push({ index, offsetSeconds: start, seconds, from: heard === null ? 'produced' : 'heard', adjusted });
    lowest = Math.max(lowest, start + seconds);
  }
  return placements;
}
