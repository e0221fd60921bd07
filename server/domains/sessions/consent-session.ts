import { LockMode } from '@mikro-orm/core';
import type { TConsentInput, TSessionView } from '../../../shared/schemas/sessions.js';
import type { Config } from '../../config.js';
import type { Deps } from '../common/deps.js';
import { abandonSession } from './finish-session.js';
import { beginInterview } from './interview-turns.js';
import { loadPlan, sessionNotActive } from './load-session.js';
import { sessionViewFor } from './serialize.js';
import { type SessionActor, loadSessionFor } from './session-access.js';

/**
 * Records the participant's consent (granted, type, address, time) for the audit trail. Granted
 * on a session waiting for it: the interview begins (its first question is asked; the
 * participant's client fetches it by starting again). Refused or withdrawn: the session is
 * abandoned, nothing more is recorded.
 */
export async function consentSession(
  { em, services }: Pick<Deps, 'em'> & { services: { config: Pick<Config, 'sessionAbandonAfterSeconds'> } },
  actor: SessionActor,
  input: Omit<TConsentInput, 'ip'> & { ip: string | null },
): Promise<TSessionView> {
  return em.transactional(async (tx) => {
    const session = await loadSessionFor(tx, actor, input.sessionId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (session.status !== 'created' && session.status !== 'in_progress' && session.status !== 'paused') {
      throw sessionNotActive(session, 'given consent');
    }
    const now = new Date();
    session.consent = { granted: input.granted, type: input.type, ip: input.ip, grantedAt: now.toISOString() };
    session.lastActivityAt = now;
    if (!input.granted) {
      await abandonSession(tx, session, 'consent_declined', now);
    } else if (session.status === 'created') {
      await beginInterview(tx, session, await loadPlan(tx, session), services.config, now);
    }
    await tx.flush();
    return sessionViewFor(tx, actor, session, now);
  });
}
