import type { ParticipantAuth } from '../common/caller.js';
import { LockMode } from '@mikro-orm/core';
import type { Deps } from '../common/deps.js';
import type { TParticipantSession } from '../../../shared/schemas/sessions.js';
import { Session } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import { abandonSession } from './finish-session.js';
import { findLatestSession, findUnfinishedSession } from './participant-access.js';
import { toParticipantSessionDto } from './serialize.js';

/**
 * `POST /api/interview/end`: the participant leaves. An unfinished session is abandoned (billed
 * for its minutes, its transcript generated); a finished one is returned as it is. The invite
 * may start a new session afterwards, unless its interview was completed. It takes no input: the
 * body is `{}`, and the participant's token says which invite's interview ends.
 */
export async function endInterview({ em }: Pick<Deps, 'em'>, participant: ParticipantAuth): Promise<{ session: TParticipantSession }> {
  return em.transactional(async (tx) => {
    const { inviteId } = participant;
    const unfinished = await findUnfinishedSession(tx, inviteId);
    if (!unfinished) {
      const latest = await findLatestSession(tx, inviteId);
      if (!latest) throw new AppError('SESSION_NOT_ACTIVE', 'This invite has no interview to end.', { inviteId });
      return { session: toParticipantSessionDto(latest) };
    }
    const session = await tx.findOneOrFail(Session, unfinished.id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const now = new Date();
    if (session.status === 'created' || session.status === 'in_progress' || session.status === 'paused') {
      await abandonSession(tx, session, 'ended_by_participant', now);
    }
    return { session: toParticipantSessionDto(session, now) };
  });
}
