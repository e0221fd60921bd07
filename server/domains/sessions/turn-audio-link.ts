import type { Deps } from '../common/deps.js';
import { SessionUtterance } from '../../entities/index.js';
import type { UrlSigner } from '../../lib/signed-urls.js';
import type { SpeechSynthesizerChoice } from '../../speech/create-speech-synthesizer.js';
import type { TurnAudio } from '../../speech/turn-audio.js';
import { recordSynthesisMs } from './queries.js';
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

/**
 * Starts speaking a turn as soon as its text is decided, before the participant's player asks
 * for it: the request that fetches the link then joins the synthesis under way, so the answer's
 * transaction, the response and that request no longer come before the provider's time to first
 * byte. Only for turns a link will be made for (as turnAudioUrl), spoken as the link speaks them.
 */
export function speakAhead(
  voicing: { synthesis: SpeechSynthesizerChoice; turnAudio: TurnAudio | null },
  session: Pick<Session, 'voice' | 'language'>,
  text: string,
): void {
  const { synthesizer } = voicing.synthesis;
  if (!synthesizer || !voicing.turnAudio || !text) return;
  if (session.voice && !synthesizer.voices.includes(session.voice)) return;
  voicing.turnAudio.prepare({ text, voice: session.voice ?? synthesizer.defaultVoice, language: session.language });
}

/** For the signed-link route: what a `turn_audio` link speaks, or null when it names no AI utterance of that session. */
export async function findTurnForSpeech(
  { em }: Pick<Deps, 'em'>,
  { subject }: { subject: string },
): Promise<{ text: string; voice: string | null; language: string; sessionId: string; utteranceId: string } | null> {
  const [sessionId, utteranceId, ...rest] = subject.split('/');
  if (!sessionId || !utteranceId || rest.length > 0) return null;
  const utterance = await em.findOne(SessionUtterance, { id: utteranceId, session: sessionId, speaker: 'ai' }, { populate: ['session'] });
  if (!utterance?.text) return null;
  return { text: utterance.text, voice: utterance.session.voice ?? null, language: utterance.session.language, sessionId, utteranceId };
}

/**
 * The turn's synthesis time (turn-taking figures): from its link's first fetch to the first byte
 * of its speech, what the player waited for. A typed answer's next turn is made when its link is
 * first fetched; a spoken answer's is started earlier (speakAhead), so this is the part of the
 * synthesis still left when the player asked. Later fetches (a replay, a player's second
 * request) leave the first figure as it is.
 */
export async function recordSynthesisTime(
  { em }: Pick<Deps, 'em'>,
  { sessionId, utteranceId, synthesisMs }: { sessionId: string; utteranceId: string; synthesisMs: number },
): Promise<void> {
  await recordSynthesisMs.rows(em, { sessionId, utteranceId, synthesisMs });
}
