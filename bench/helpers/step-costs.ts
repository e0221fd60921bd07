import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Session, SessionUtterance } from '../../server/entities/index.js';
import { findInviteByToken } from '../../server/domains/invites/find-invite-by-token.js';
import { loadPlan } from '../../server/domains/sessions/load-session.js';
import { findUnfinishedSession, loadParticipantInvite } from '../../server/domains/sessions/participant-access.js';
import { consumeRateLimit } from '../../server/platform/rate-limit.js';

export interface StepCost {
  step: string;
  /** Statements the step sends; how many times an answer turn runs it. */
  statements: number;
  perTurn: number;
  /** Mean wall and CPU (this process: ORM, driver) per call, one call at a time on an idle machine. */
  wallMs: number;
  cpuMs: number;
}

/**
 * The reads an answer turn makes before its transaction, each run alone and timed, on a fresh
 * EntityManager fork per call as a request has: what each costs the server's one thread, so
 * the redundant ones can be priced. `token`'s invite must have an interview in progress.
 */
export async function measureStepCosts(fork: () => EntityManager, token: string, calls = 200): Promise<StepCost[]> {
  const invite = (await findInviteByToken({ em: fork() }, { token }))!;
  const participant = { kind: 'participant' as const, organizationId: invite.organization.id, inviteId: invite.id };
  const session = (await findUnfinishedSession(fork(), invite.id))!;
  const rows = await fork().count(SessionUtterance, { session: session.id });
  const steps: { step: string; statements: number; perTurn: number; run: (em: EntityManager) => Promise<unknown> }[] = [
    { step: 'rate-limit upsert (consumeRateLimit)', statements: 1, perTurn: 2, run: (em) => consumeRateLimit(em, `bench-step:${invite.id}`, 1_000_000) },
    { step: 'invite + campaign + organization (findInviteByToken)', statements: 1, perTurn: 1, run: (em) => findInviteByToken({ em }, { token }) },
    { step: 'the same again (loadParticipantInvite)', statements: 1, perTurn: 1, run: (em) => loadParticipantInvite(em, participant) },
    { step: 'session, unlocked (findUnfinishedSession)', statements: 1, perTurn: 1, run: (em) => findUnfinishedSession(em, invite.id) },
    { step: 'script version (loadPlan)', statements: 1, perTurn: 1, run: (em) => loadPlan(em, session) },
    {
      step: `whole conversation (conversationOf, ${rows} rows)`,
      statements: 1,
      perTurn: 1,
      run: (em) =>
        em.find(SessionUtterance, { session: session.id }, { fields: ['speaker', 'text', 'questionId'], orderBy: { seq: 'asc' }, disableIdentityMap: true }),
    },
    {
      step: 'session locked + pending turn (in the transaction)',
      statements: 4,
      perTurn: 1,
      run: (em) =>
        em.transactional(async (tx) => {
          const locked = await tx.findOneOrFail(Session, session.id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
          await tx.findOneOrFail(SessionUtterance, locked.pendingUtteranceId!);
        }),
    },
  ];
  const costs: StepCost[] = [];
  for (const { step, statements, perTurn, run } of steps) {
    for (let i = 0; i < 20; i += 1) await run(fork());
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < calls; i += 1) await run(fork());
    const wall = (performance.now() - started) / calls;
    const used = process.cpuUsage(cpu);
    costs.push({ step, statements, perTurn, wallMs: Math.round(wall * 100) / 100, cpuMs: Math.round(((used.user + used.system) / 1000 / calls) * 100) / 100 });
  }
  return costs;
}
