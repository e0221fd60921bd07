import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows, sql } from '../../db/sql.js';
import { SessionUtterance } from '../../entities/index.js';
import type { UrlSigner } from '../../lib/signed-urls.js';
import type { SpeechSynthesizerChoice } from '../../speech/create-speech-synthesizer.js';
import type { Session } from '../../entities/index.js';

/** How long a turn's audio link opens: the turn is spoken at once, but a paused interview may be picked up later. */
export const TURN_AUDIO_LINK_SECONDS = 3600;

export interface TurnVoicing {
  signer: UrlSigner;
  synthesis: SpeechSynthesizerChoice;
}

/**
 * The signed link that speaks an AI utterance (`turn_audio`, bound to the session and the
 * utterance), or undefined when the server has no speech synthesis (the page speaks with the
 * browser's). A session whose voice the synthesizer does not know (named before it was
 * configured: a browser voice) gets none either, so the browser speaks it in the voice chosen.
 */
export async function turnAudioUrl(voicing: TurnVoicing, session: Pick<Session, 'id' | 'voice'>, utteranceId: string, now: Date): Promise<string | undefined> {
  const { synthesizer } = voicing.synthesis;
  if (!synthesizer) return undefined;
  if (session.voice && !synthesizer.voices.includes(session.voice)) return undefined;
  const link = await voicing.signer.signFileLink({ fileId: `${session.id}/${utteranceId}`, purpose: 'turn_audio' }, TURN_AUDIO_LINK_SECONDS, now);
  return link.url;
}

/** For the signed-link route: what a `turn_audio` link speaks, or null when it names no AI utterance of that session. */
export async function findTurnForSpeech(
  em: EntityManager,
  subject: string,
): Promise<{ text: string; voice: string | null; language: string; sessionId: string; utteranceId: string } | null> {
  const [sessionId, utteranceId, ...rest] = subject.split('/');
  if (!sessionId || !utteranceId || rest.length > 0) return null;
  const utterance = await em.findOne(SessionUtterance, { id: utteranceId, session: sessionId, speaker: 'ai' }, { populate: ['session'] });
  if (!utterance?.text) return null;
  return { text: utterance.text, voice: utterance.session.voice ?? null, language: utterance.session.language, sessionId, utteranceId };
}

/**
 * The turn's synthesis time (turn-taking figures): from its link's first fetch to the first byte
 * of its speech. The audio is made when its link is first fetched, so later fetches (a replay, a
 * player's second request) leave the first figure as it is.
 */
export async function recordSynthesisTime(em: EntityManager, turn: { sessionId: string; utteranceId: string }, synthesisMs: number): Promise<void> {
  await queryRows(
    em,
    sql`update session_utterances set synthesis_ms = ${synthesisMs}
         where id = ${turn.utteranceId} and session_id = ${turn.sessionId} and speaker = 'ai' and synthesis_ms is null`,
  );
}
